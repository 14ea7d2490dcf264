// Kept responses (src/http/kept.c): a thread sends an answer of the same
// content type, headers and body length as an earlier one from the
// libmicrohttpd response it made for that one. Over real sockets, on a
// server with one thread so that every answer comes from the same kept
// responses: each answer still carries its own X-Request-Id and its own
// body, checked against the rules (reference.mjs), also while a connection
// that does not read holds a kept response for a long time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { startServer, curlSequence, rng, sleep, ROOT } from './helper.mjs';
import { mdLegal, mdSolve, puyoSolve } from './reference.mjs';

const MD = '/v1/monomino-domino';

// `n` legal placements from the generator `r`.
function placements(r, n) {
	const out = [];
	while (out.length < n) {
		const b = [1 + Math.floor(r() * 3), Math.floor(r() * 4), Math.floor(r() * 4)];
		if (mdLegal(...b)) out.push(b);
	}
	return out;
}

// The answer the rules give, as the server writes it (one line of JSON).
function mdAnswer(blocks) {
	const { score, tiles, green, blue } = mdSolve(blocks, { steps: false });
	return `${JSON.stringify({ score, tiles, green, blue })}\n`;
}

// The answers to `requests`, sent by one curl on one keep-alive connection.
async function onOneConnection(server, requests) {
	const { done } = curlSequence(server, requests, { verbose: true });
	const { responses, stderr, code } = await done;
	assert.equal(code, 0, stderr);
	assert.equal((stderr.match(/Connected to /g) ?? []).length, 1, 'all on one connection');
	return responses;
}

test('constant answers sent again and again on one connection each carry their own X-Request-Id, body and headers', async () => {
	// Five kinds of constant answer for the thread's kept responses, with
	// problems between them.
	const server = await startServer({ args: ['--threads', '1'] });
	const files = {
		'/livez': { type: 'application/json', body: '{"status":"ok"}\n' },
		'/readyz': { type: 'application/json', body: '{"status":"ready"}\n' },
		'/openapi.yaml': { type: 'application/yaml', body: fs.readFileSync(path.join(ROOT, 'openapi.yaml'), 'utf8') },
		'/viewer.css': { type: 'text/css; charset=utf-8', body: fs.readFileSync(path.join(ROOT, 'src/www/viewer.css'), 'utf8') },
		'/viewer.js': { type: 'text/javascript; charset=utf-8', body: fs.readFileSync(path.join(ROOT, 'src/www/viewer.js'), 'utf8') },
	};
	const paths = Object.keys(files);
	const requests = [];
	for (let i = 0; i < 40; i++) {
		const p = paths[(i * 7 + (i >> 2)) % paths.length];
		const headers = {};
		if (i % 3 !== 2) headers['X-Request-Id'] = `kept-${i}`;
		if (i % 5 === 4) headers.Accept = 'application/xml'; // refused: a problem in between
		requests.push({ path: p, headers });
	}
	const responses = await onOneConnection(server, requests);
	const generated = new Set();
	responses.forEach((res, i) => {
		const want = files[requests[i].path];
		const id = res.headers['x-request-id'];
		if (i % 3 !== 2) assert.equal(id, `kept-${i}`, `request ${i} ${requests[i].path}`);
		else {
			assert.match(id, /^[0-9a-f]{32}$/, `request ${i}`);
			assert.ok(!generated.has(id), `request ${i}: an id given twice`);
			generated.add(id);
		}
		if (i % 5 === 4) {
			assert.equal(res.status, 406, `request ${i}`);
			assert.equal(JSON.parse(res.body).request_id, id);
			return;
		}
		assert.equal(res.status, 200, `request ${i}`);
		assert.equal(res.headers['content-type'], want.type, `request ${i}`);
		assert.equal(res.body, want.body, `request ${i} ${requests[i].path}`);
		assert.equal(res.headers.vary, 'Accept' + (want.body.length > 1024 ? ', Accept-Encoding' : ''), `request ${i}`);
		assert.equal('content-security-policy' in res.headers, requests[i].path.startsWith('/viewer'), `request ${i}`);
	});
});

test('small answers of one shape on one connection: each its own body, against the rules', async () => {
	// Random 8-block cases: most answers have the same length (one-digit
	// score and tiles) and differ in the boards; Puyo answers and text
	// answers in between.
	const server = await startServer({ args: ['--threads', '1'] });
	const r = rng(11559).next;
	const requests = [];
	const wants = [];
	for (let i = 0; i < 60; i++) {
		if (i % 7 === 3) {
			const f = Array.from({ length: 12 }, (_, row) =>
				row < 8 ? '......' : Array.from({ length: 6 }, () => 'RGBY.'[Math.floor(r() * 5)]).join(''));
			requests.push({ path: '/v1/puyo', body: JSON.stringify({ field: f }), headers: { 'X-Request-Id': `p-${i}` } });
			wants.push((res) => {
				const ref = puyoSolve(f);
				const got = JSON.parse(res.body);
				assert.equal(got.chains, ref.chains, `request ${i}`);
				assert.equal(got.score, ref.score, `request ${i}`);
				assert.deepEqual(got.field, ref.field, `request ${i}`);
			});
			continue;
		}
		const blocks = placements(r, 8);
		const text = i % 5 === 1;
		requests.push(text
			? { path: MD, body: `${blocks.length}\n${blocks.map((b) => b.join(' ')).join('\n')}\n`,
				headers: { 'Content-Type': 'text/plain', Accept: 'text/plain', 'X-Request-Id': `m-${i}` } }
			: { path: MD, body: JSON.stringify({ blocks }), headers: { 'X-Request-Id': `m-${i}` } });
		wants.push((res) => {
			if (text) {
				const { score, tiles } = mdSolve(blocks, { steps: false });
				assert.equal(res.body, `${score}\n${tiles}\n`, `request ${i}`);
			} else {
				assert.equal(res.body, mdAnswer(blocks), `request ${i}`);
			}
		});
	}
	const responses = await onOneConnection(server, requests);
	const lengths = new Map();
	responses.forEach((res, i) => {
		assert.equal(res.status, 200, `request ${i}: ${res.body}`);
		assert.equal(res.headers['x-request-id'], requests[i].headers['X-Request-Id'], `request ${i}`);
		wants[i](res);
		lengths.set(res.body.length, (lengths.get(res.body.length) ?? 0) + 1);
	});
	assert.ok(Math.max(...lengths.values()) >= 20, 'many answers of one length');
});

test('bodies of every size on one connection are each read from their own bytes', async () => {
	// A thread keeps the block of a small body for the next one: bodies
	// short and long (past the block kept, 16 KiB), JSON and text, good
	// and cut short, one after another on one connection of a one-thread
	// server; each answer is its own body's, against the rules.
	const server = await startServer({ args: ['--threads', '1'] });
	const r = rng(2061).next;
	const sizes = [8, 600, 2, 3000, 8, 1, 40, 2500, 3, 4, 77, 1, 1200, 5];
	const requests = [];
	const wants = [];
	sizes.forEach((n, i) => {
		const blocks = placements(r, n);
		const id = `s-${i}`;
		if (i % 4 === 1) {
			const body = `${blocks.length}\n${blocks.map((b) => b.join(' ')).join('\n')}\n`;
			requests.push({ path: MD, body, headers: { 'Content-Type': 'text/plain', Accept: 'text/plain', 'X-Request-Id': id } });
			const { score, tiles } = mdSolve(blocks, { steps: false });
			wants.push((res) => assert.equal(res.body, `${score}\n${tiles}\n`, `request ${i} (${n} blocks, text)`));
			return;
		}
		const body = JSON.stringify({ blocks });
		if (i % 5 === 3) {
			// Cut short after a longer body: no byte of the earlier one may
			// complete it.
			requests.push({ path: MD, body: body.slice(0, body.length - 2), headers: { 'X-Request-Id': id } });
			wants.push((res) => {
				assert.equal(res.status, 400, `request ${i}: ${res.body}`);
				assert.equal(JSON.parse(res.body).request_id, id);
			});
			return;
		}
		requests.push({ path: MD, body, headers: { 'X-Request-Id': id } });
		wants.push((res) => assert.equal(res.body, mdAnswer(blocks), `request ${i} (${n} blocks)`));
	});
	const responses = await onOneConnection(server, requests);
	responses.forEach((res, i) => {
		assert.equal(res.headers['x-request-id'], `s-${i}`, `request ${i}`);
		if (res.status !== 400) assert.equal(res.status, 200, `request ${i}: ${res.body}`);
		wants[i](res);
	});
	assert.ok(Buffer.byteLength(requests[3].body) > 16384, 'a body past the block kept');
});

// Reads HTTP/1.1 responses with Content-Length from a buffer: [{status, id, body}].
function parseAll(buf) {
	const out = [];
	let at = 0;
	for (;;) {
		const end = buf.indexOf('\r\n\r\n', at);
		if (end < 0) break;
		const head = buf.subarray(at, end).toString('latin1');
		const len = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? NaN);
		if (buf.length < end + 4 + len) break;
		out.push({
			status: Number(head.slice(9, 12)),
			id: /\r\nx-request-id: *([^\r]*)/i.exec(head)?.[1],
			body: buf.subarray(end + 4, end + 4 + len).toString('utf8'),
		});
		at = end + 4 + len;
	}
	return { responses: out, tail: buf.subarray(at) };
}

test('a connection that does not read holds its kept response: answers of the same shape elsewhere never change its body', async () => {
	// Connection A pipelines requests and reads nothing until the sockets'
	// buffers are full, so that libmicrohttpd is left in the middle of
	// sending one of A's answers, from a kept response. Connection B, on
	// the same thread, then asks cases whose answers have the same length
	// and other boards. Every answer of both must be its own case's.
	const server = await startServer({ args: ['--threads', '1'] });
	const r = rng(20061).next;
	let x, y;
	do {
		x = placements(r, 8);
		y = placements(r, 8);
	} while (mdAnswer(x).length !== mdAnswer(y).length || mdAnswer(x) === mdAnswer(y));
	const bodyX = JSON.stringify({ blocks: x });
	const req = (body, id) =>
		`POST ${MD} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Request-Id: ${id}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
	const N = 60000; // about 17 MB of answers: more than loopback's buffers hold
	const a = net.connect(server.port, '127.0.0.1');
	await new Promise((resolve, reject) => { a.once('connect', resolve); a.once('error', reject); });
	a.pause();
	const chunks = [];
	for (let i = 0; i < N; i += 1000) {
		let s = '';
		for (let k = i; k < i + 1000; k++) s += req(bodyX, `a-${k}`);
		chunks.push(s);
	}
	for (const c of chunks) a.write(c);
	await sleep(1500); // the server sends until A's buffers are full

	const b = curlSequence(server, Array.from({ length: 200 }, (_, i) => ({
		path: MD, body: JSON.stringify({ blocks: y }), headers: { 'X-Request-Id': `b-${i}` },
	})));
	const got = await b.done;
	assert.equal(got.code, 0, got.stderr);
	const answerY = mdAnswer(y);
	got.responses.forEach((res, i) => {
		assert.equal(res.status, 200, `B ${i}`);
		assert.equal(res.headers['x-request-id'], `b-${i}`);
		assert.equal(res.body, answerY, `B ${i}`);
	});

	// Answers are parsed as they come; only the unparsed tail is kept.
	const responses = [];
	let tail = Buffer.alloc(0);
	const all = new Promise((resolve, reject) => {
		a.on('data', (d) => {
			const parsed = parseAll(Buffer.concat([tail, d]));
			responses.push(...parsed.responses);
			tail = parsed.tail;
			if (responses.length >= N) resolve();
		});
		a.on('error', reject);
		a.on('close', resolve);
	});
	a.resume();
	await all;
	a.destroy();
	assert.equal(responses.length, N, `A got ${responses.length} answers`);
	const answerX = mdAnswer(x);
	responses.forEach((res, i) => {
		assert.equal(res.status, 200, `A ${i}`);
		assert.equal(res.id, `a-${i}`, `A ${i}`);
		assert.equal(res.body, answerX, `A ${i}`);
	});
});
