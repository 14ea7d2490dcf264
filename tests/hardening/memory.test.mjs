// Bounded memory, measured from /proc: the peak extra RSS of one request
// (VmHWM after it, less VmRSS before it, the peak reset between requests
// through /proc/PID/clear_refs). A text body, read as it arrives, costs at
// most 4x its body plus 8 MiB (a Monomino-Domino case of 9,000,000
// placements); a JSON body, read whole as one jansson tree, at most 40x its
// body plus 8 MiB up to its cap (--max-json-body, 1 MiB); a stream of cases
// (application/x-ndjson), read a line at a time with its answer held
// gzip-compressed, at most 0.25x its body plus 8 MiB: 100 MB of Puyo fields
// answered right and in order, gzip or not, traced Monomino-Domino lines,
// and a client that goes away in the middle of a streamed answer. After a
// load, RSS comes back within 10% of its level before the load (the load is
// run once first, so that both levels include the threads' stacks and
// heaps).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';
import { startServer, sleep, parseResponses, memory, resetPeak, PUYO_EXAMPLE } from './lib.mjs';
import { puyoSolve } from '../http/reference.mjs';

const MIB = 1024 * 1024;
const NDJSON = 'application/x-ndjson';
// One request over its own connection; resolves to {status, headers, body}
// once the whole answer is in (chunked answers decoded; a gzip one
// inflated, its encoding kept in the headers).
function request(port, path, type, body, headers = {}) {
	return new Promise((resolve, reject) => {
		const req = http.request({
			host: '127.0.0.1', port, path, method: 'POST', agent: false,
			headers: { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), Connection: 'close', ...headers },
		}, (res) => {
			const chunks = [];
			res.on('data', (d) => chunks.push(d));
			res.on('end', () => {
				let data = Buffer.concat(chunks);
				if (res.headers['content-encoding'] === 'gzip') data = zlib.gunzipSync(data);
				resolve({ status: res.statusCode, headers: res.headers, body: data.toString('utf8') });
			});
			res.on('error', reject);
		});
		req.on('error', reject);
		req.end(body);
	});
}

async function post(port, path, type, body) {
	return (await request(port, path, type, body)).status;
}

function mdBlocks(n, seed = 3) {
	const out = [];
	for (let i = 0; i < n; i++) {
		seed = (seed * 1103515245 + 12345) & 0x7fffffff;
		const t = 1 + (seed % 3);
		out.push([t, (seed >> 4) % (t === 3 ? 3 : 4), (seed >> 8) % (t === 2 ? 3 : 4)]);
	}
	return out;
}

const ROWS = PUYO_EXAMPLE.trim().split('\n');
const mdText = (n) => `${n}\n${mdBlocks(n).map((b) => b.join(' ')).join('\n')}\n`;
const puyoBatch = JSON.stringify({ cases: Array.from({ length: 1000 }, () => ({ field: ROWS })) });
const tracedBatch = JSON.stringify({ cases: Array.from({ length: 1000 }, (_, c) => ({ blocks: mdBlocks(100, c + 1) })) });
// The largest JSON cases the default cap (1 MiB) takes.
const capBlocks = JSON.stringify(mdBlocks(125_000)); // ~1,000,000 bytes
const capCase = `{"blocks":${capBlocks}}`;
const capBatch = `{"cases":[{"id":"cap","blocks":${capBlocks}}]}`;
const capBroken = `{"cases":[{"blocks":${capBlocks}},{"blocks":[[1,1,1]]}}]}`;

// Streams of cases: random Puyo fields (random columns of random colours,
// as a generator of test data draws them, so that the answer compresses as
// real answers do), every 20th line checked against the reference solver,
// every line for its order.
function randomFields(n, seed) {
	const out = [];
	const rnd = (k) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return (seed >> 8) % k; };
	for (let i = 0; i < n; i++) {
		const colours = 'RGBPY'.slice(0, 3 + rnd(3));
		const cols = Array.from({ length: 6 }, () => {
			const h = rnd(13);
			return Array.from({ length: 12 }, (_, l) => (l < h ? colours[rnd(colours.length)] : '.'));
		});
		out.push(Array.from({ length: 12 }, (_, r) => cols.map((c) => c[11 - r]).join('')));
	}
	return out;
}
function puyoStream(bytes, seed) {
	const fields = randomFields(Math.ceil(bytes / 112), seed);
	const lines = fields.map((field, i) => JSON.stringify({ field }) + (i % 1000 === 999 ? '\r\n' : '\n'));
	return { body: lines.join(''), fields };
}
function checkPuyoStream(a, fields) {
	assert.equal(a.headers['content-type'], NDJSON);
	const lines = a.body.split('\n');
	assert.equal(lines.pop(), '');
	const cases = fields.length;
	assert.deepEqual(JSON.parse(lines.pop()), { summary: { cases, answered: cases, failed: 0 } });
	assert.equal(lines.length, cases);
	for (let i = 0; i < cases; i += 20) {
		const { steps, ...want } = puyoSolve(fields[i]);
		assert.equal(lines[i], JSON.stringify(want), `line ${i + 1}`);
	}
}
const stream100 = puyoStream(100_000_000, 7);
const stream30 = puyoStream(30_000_000, 8);
const tracedStream = Array.from({ length: 1000 }, (_, c) => JSON.stringify({ blocks: mdBlocks(100, c + 1) })).join('\n') + '\n';

// [name, path, content type, body, extra headers, check(answer), status, bound factor]
const TEXT = 4;
const JSON_TREE = 40;
const STREAM = 0.25;
const KINDS = [
	['a Monomino-Domino text body of 9,000,000 placements (~54 MB)', '/v1/monomino-domino', 'text/plain', mdText(9_000_000), {}, undefined, 200, TEXT],
	['a Monomino-Domino text body of 1,000 placements', '/v1/monomino-domino', 'text/plain', mdText(1000), {}, undefined, 200, TEXT],
	['a text body of 10,000 placements with ?trace=true', '/v1/monomino-domino?trace=true', 'text/plain', mdText(10_000), {},
		(a) => assert.equal(JSON.parse(a.body).steps.length, 10_000), 200, TEXT],
	['a text body of 10,000 placements with ?trace=true and a fault at its last line (422)', '/v1/monomino-domino?trace=true', 'text/plain',
		mdText(10_000).replace(/\n[^\n]*\n$/, '\n9 0 0\n'), {},
		(a) => assert.equal(JSON.parse(a.body).errors[0].line, 10_001), 422, TEXT],
	['a Puyo text body', '/v1/puyo', 'text/plain', PUYO_EXAMPLE, {}, undefined, 200, TEXT],
	['a Monomino-Domino JSON case of 125,000 placements (~1 MB, the cap)', '/v1/monomino-domino', 'application/json', capCase, {},
		(a) => assert.ok(Number.isInteger(JSON.parse(a.body).score)), 200, JSON_TREE],
	['a JSON batch of one case of 125,000 placements with an "id"', '/v1/monomino-domino', 'application/json', capBatch, {},
		(a) => assert.equal(JSON.parse(a.body).results[0].id, 'cap'), 200, JSON_TREE],
	['a ~1 MB Monomino-Domino batch broken at its end (400 at the fault)', '/v1/monomino-domino', 'application/json', capBroken, {},
		(a) => {
			// the second "}" of "}}]}", the last character but two, is where "]" or "," must be
			const fault = JSON.parse(a.body).errors[0];
			assert.deepEqual([fault.line, fault.column], [1, capBroken.length - 2]);
		}, 400, JSON_TREE],
	['validate of a Monomino-Domino JSON case of 125,000 placements', '/v1/monomino-domino/validate', 'application/json', capCase, {},
		(a) => assert.equal(JSON.parse(a.body).errors[0].pointer, '/blocks'), 200, JSON_TREE],
	['a 1000-case Puyo batch (JSON)', '/v1/puyo', 'application/json', puyoBatch, {},
		(a) => assert.deepEqual(JSON.parse(a.body).summary, { cases: 1000, answered: 1000, failed: 0 }), 200, JSON_TREE],
	['a 1000-case Puyo batch with traces', '/v1/puyo?trace=true', 'application/json', puyoBatch, {},
		(a) => assert.equal(JSON.parse(a.body).results[999].steps.length, JSON.parse(a.body).results[0].steps.length), 200, JSON_TREE],
	['a traced case of 10,000 placements', '/v1/monomino-domino?trace=true', 'application/json',
		JSON.stringify({ blocks: mdBlocks(10_000) }), {},
		(a) => assert.equal(JSON.parse(a.body).steps.length, 10_000), 200, JSON_TREE],
	['a case of 10,000 placements with "trace": true and a fault at its last block (422)', '/v1/monomino-domino', 'application/json',
		JSON.stringify({ blocks: [...mdBlocks(9_999), [9, 0, 0]], trace: true }), {},
		(a) => assert.equal(JSON.parse(a.body).errors[0].pointer, '/blocks/9999/0'), 422, JSON_TREE],
	['judge of a case of 10,000 placements with ?trace=true', '/v1/monomino-domino/judge?trace=true', 'application/json',
		JSON.stringify({ input: { blocks: mdBlocks(10_000) }, output: '0\n0\n' }), {},
		(a) => {
			const r = JSON.parse(a.body);
			assert.equal(r.verdict, 'wrong_answer');
			assert.equal(r.steps.length, 10_000);
		}, 200, JSON_TREE],
	['a Puyo JSON case whose field has 100,000 rows (422)', '/v1/puyo', 'application/json',
		JSON.stringify({ field: Array.from({ length: 100_000 }, (_, i) => ROWS[i % 12]) }), {},
		(a) => assert.match(JSON.parse(a.body).errors[0].detail, /found 100000/), 422, JSON_TREE],
	[`a 100 MB stream of ${stream100.fields.length} random Puyo fields (NDJSON), answered right and in order`, '/v1/puyo', NDJSON,
		stream100.body, {}, (a) => checkPuyoStream(a, stream100.fields), 200, STREAM],
	[`a 30 MB stream of ${stream30.fields.length} Puyo fields, answered gzip`, '/v1/puyo', NDJSON, stream30.body, { 'Accept-Encoding': 'gzip' },
		(a) => {
			assert.equal(a.headers['content-encoding'], 'gzip');
			checkPuyoStream(a, stream30.fields);
		}, 200, STREAM],
	['a stream of 1000 Monomino-Domino cases of 100 placements with ?trace=true', '/v1/monomino-domino?trace=true', NDJSON, tracedStream, {},
		(a) => {
			const lines = a.body.trim().split('\n').map((l) => JSON.parse(l));
			assert.deepEqual(lines.pop(), { summary: { cases: 1000, answered: 1000, failed: 0 } });
			assert.ok(lines.every((x) => x.steps.length === 100));
		}, 200, STREAM],
];

const server = await startServer({ args: ['--max-body', '100000000', '--max-blocks', '100000000', '--threads', '2'] });

for (const [name, path, type, body, headers = {}, check = () => {}, status = 200, factor] of KINDS) {
	test(`${name}: peak extra RSS <= ${factor} x body + 8 MiB`, async () => {
		await sleep(300); // trimming after the previous request
		const before = memory(server.pid).rss;
		resetPeak(server.pid);
		const a = await request(server.port, path, type, body, headers);
		const peak = memory(server.pid).hwm - before;
		assert.equal(a.status, status, a.body.slice(0, 300));
		check(a);
		const bound = factor * Buffer.byteLength(body) + 8 * MIB;
		console.log(`${name}: body ${Buffer.byteLength(body)} B, peak extra RSS ${(peak / MIB).toFixed(1)} MiB, bound ${(bound / MIB).toFixed(1)} MiB`);
		assert.ok(peak <= bound, `peak extra ${peak} > ${bound}`);
	});
}

test('a streamed answer and its gzip are the same bytes', async () => {
	const plain = await request(server.port, '/v1/monomino-domino?trace=true', NDJSON, tracedStream);
	const gz = await request(server.port, '/v1/monomino-domino?trace=true', NDJSON, tracedStream, { 'Accept-Encoding': 'gzip' });
	assert.equal(gz.headers['content-encoding'], 'gzip');
	assert.equal(gz.body, plain.body);
});

test('a client that leaves in the middle of a streamed answer frees it all', async () => {
	const leave = () => new Promise((resolve, reject) => {
		const s = net.connect({ port: server.port, host: '127.0.0.1' });
		let got = 0;
		s.on('connect', () => s.write(`POST /v1/monomino-domino?trace=true HTTP/1.1\r\nHost: x\r\nContent-Type: ${NDJSON}\r\nContent-Length: ${tracedStream.length}\r\n\r\n${tracedStream}`));
		s.on('data', (d) => {
			got += d.length;
			if (got > 256 * 1024) {
				s.destroy();
				resolve(got);
			}
		});
		s.on('error', reject);
	});
	await leave();
	await sleep(500);
	const before = memory(server.pid).rss;
	for (let i = 0; i < 20; i++) await leave();
	await sleep(800);
	const after = memory(server.pid).rss;
	console.log(`RSS before 20 clients left mid-answer ${(before / MIB).toFixed(1)} MiB, after ${(after / MIB).toFixed(1)} MiB`);
	assert.ok(after <= before * 1.1 + MIB, `after ${after} > 1.1 x before ${before}`);
	assert.equal(await post(server.port, '/v1/puyo', 'text/plain', PUYO_EXAMPLE), 200);
});

test('after a load of heavy requests, RSS returns within 10% of its level before the load', async () => {
	const traced = tracedBatch;
	const json = JSON.stringify({ blocks: mdBlocks(100_000) });
	const load = () => Promise.all([
		post(server.port, '/v1/monomino-domino?trace=true', 'application/json', traced),
		post(server.port, '/v1/monomino-domino?trace=true', 'application/json', traced),
		post(server.port, '/v1/monomino-domino', 'application/json', json),
		post(server.port, '/v1/puyo?trace=true', 'application/json', JSON.stringify({ cases: Array.from({ length: 1000 }, () => ({ field: ROWS })) })),
	]);
	assert.deepEqual(await load(), [200, 200, 200, 200]);
	await sleep(500);
	const before = memory(server.pid).rss;
	resetPeak(server.pid);
	for (let i = 0; i < 3; i++) assert.deepEqual(await load(), [200, 200, 200, 200]);
	const peak = memory(server.pid).hwm;
	await sleep(500);
	const after = memory(server.pid).rss;
	console.log(`RSS before the load ${(before / MIB).toFixed(1)} MiB, peak ${(peak / MIB).toFixed(1)} MiB, after ${(after / MIB).toFixed(1)} MiB`);
	assert.ok(peak > before, 'the load did not load');
	assert.ok(after <= before * 1.1, `after ${after} > 1.1 x before ${before}`);
});

test('--max-request-trace-steps counts the traces of the whole request: 1000 traced cases of 101 placements are 422 at the case that passes 100,000 steps', async () => {
	const over = JSON.stringify({ cases: Array.from({ length: 1000 }, (_, c) => ({ blocks: mdBlocks(101, c + 1) })) });
	const res = await new Promise((resolve, reject) => {
		const s = net.connect({ port: server.port, host: '127.0.0.1' });
		let buf = Buffer.alloc(0);
		s.on('connect', () => s.write(`POST /v1/monomino-domino?trace=true HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${over.length}\r\nConnection: close\r\n\r\n${over}`));
		s.on('data', (d) => { buf = Buffer.concat([buf, d]); });
		s.on('end', () => resolve(parseResponses(buf).responses[0]));
		s.on('error', reject);
	});
	assert.equal(res.status, 422);
	const p = JSON.parse(res.body);
	// 990 cases of 101 steps are 99,990; the 991st (index 990) passes 100,000.
	assert.equal(p.errors[0].pointer, '/cases/990');
	assert.match(p.detail, /max-request-trace-steps/);
});
