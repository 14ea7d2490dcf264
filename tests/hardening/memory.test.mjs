// Bounded memory, measured from /proc: the peak extra RSS of one request
// (VmHWM after it, less VmRSS before it, the peak reset between requests
// through /proc/PID/clear_refs) is at most 4x its body plus 8 MiB for the
// worst bodies the limits allow: text and JSON cases of 9,000,000
// placements, batches of 1000 cases with and without traces (the traced
// answers streamed, gzip or not), batches with the longest traces a case
// may have and one past it, a huge batch broken at its very end, and
// a client that goes away in the middle of a streamed answer; and after a
// load, RSS comes back within 10% of its level before the load (the load
// is run once first, so that both levels include the threads' stacks and
// heaps).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';
import { startServer, sleep, parseResponses, memory, resetPeak, PUYO_EXAMPLE } from './lib.mjs';

const MIB = 1024 * 1024;

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
const bigBlocks = JSON.stringify(mdBlocks(9_000_000)); // ~72 MB
const bigCase = `{"blocks":${bigBlocks}}`;
const bigBatch = `{"cases":[{"blocks":${bigBlocks}}]}`;
const brokenBatch = `{"cases":[{"blocks":${bigBlocks}},{"blocks":[[1,1,1]]}}]}`;

// Cases of 900,000 placements not in the canonical shape, read lean: the
// blocks checked one at a time and left in the body (and Puyo fields of
// 800,000 rows, the same way).
const LEAN_N = 900_000;
const leanBlocks = mdBlocks(LEAN_N);
const leanArray = JSON.stringify(leanBlocks);
const leanObjects = JSON.stringify(leanBlocks.map(([t, x, y]) => ({ t, x, y })));
const leanLastReal = `${leanArray.slice(0, leanArray.lastIndexOf('[') + 1)}1.0,0,0]]`;
const leanBroken = `{"id":"x","blocks":${leanArray.slice(0, -2)},}`;
const scored = (a) => assert.ok(Number.isInteger(JSON.parse(a.body).score));

// [name, path, content type, body, extra headers, check(answer)]
const KINDS = [
	['a Monomino-Domino text body of 9,000,000 placements (~54 MB)', '/v1/monomino-domino', 'text/plain', mdText(9_000_000)],
	['a Monomino-Domino text body of 1,000 placements', '/v1/monomino-domino', 'text/plain', mdText(1000)],
	['a Monomino-Domino JSON case of 9,000,000 placements (~72 MB)', '/v1/monomino-domino', 'application/json', bigCase, {},
		(a) => assert.ok(Number.isInteger(JSON.parse(a.body).score))],
	['a Monomino-Domino JSON batch of one case of 9,000,000 placements (~72 MB)', '/v1/monomino-domino', 'application/json', bigBatch, {},
		(a) => assert.deepEqual(JSON.parse(a.body).summary, { cases: 1, answered: 1, failed: 0 })],
	['a ~72 MB Monomino-Domino batch broken at its end (400 at the fault)', '/v1/monomino-domino', 'application/json', brokenBatch, {},
		(a) => {
			// the second "}" of "}}]}", the last character but two, is where "]" or "," must be
			const fault = JSON.parse(a.body).errors[0];
			assert.deepEqual([fault.line, fault.column], [1, brokenBatch.length - 2]);
		}, 400],
	['a 1000-case Puyo batch (JSON)', '/v1/puyo', 'application/json', puyoBatch, {},
		(a) => assert.deepEqual(JSON.parse(a.body).summary, { cases: 1000, answered: 1000, failed: 0 })],
	['a 1000-case Puyo batch with traces', '/v1/puyo?trace=true', 'application/json', puyoBatch, {},
		(a) => assert.equal(JSON.parse(a.body).results[999].steps.length, JSON.parse(a.body).results[0].steps.length)],
	['a traced batch of 1000 Monomino-Domino cases of 100 placements (streamed)', '/v1/monomino-domino?trace=true', 'application/json', tracedBatch, {},
		(a) => {
			assert.equal(a.headers['transfer-encoding'], 'chunked');
			const r = JSON.parse(a.body);
			assert.deepEqual(r.summary, { cases: 1000, answered: 1000, failed: 0 });
			assert.ok(r.results.every((x) => x.steps.length === 100));
		}],
	['the same traced batch, streamed with gzip', '/v1/monomino-domino?trace=true', 'application/json', tracedBatch, { 'Accept-Encoding': 'gzip' },
		(a) => {
			assert.equal(a.headers['content-encoding'], 'gzip');
			assert.deepEqual(JSON.parse(a.body).summary, { cases: 1000, answered: 1000, failed: 0 });
		}],
	['a batch of 10 traced cases of 10,000 placements (100,000 steps, streamed)', '/v1/monomino-domino?trace=true', 'application/json',
		JSON.stringify({ cases: Array.from({ length: 10 }, (_, c) => ({ blocks: mdBlocks(10_000, c + 1) })) }), {},
		(a) => assert.ok(JSON.parse(a.body).results.every((x) => x.steps.length === 10_000))],
	['a batch of one traced case of 10,001 placements (one past what a trace covers)', '/v1/monomino-domino?trace=true', 'application/json',
		JSON.stringify({ cases: [{ blocks: mdBlocks(10_001) }] }), {},
		(a) => assert.match(JSON.parse(a.body).results[0].error.detail, /at most 10000 placements/)],
	['a traced case of 10,000 placements', '/v1/monomino-domino?trace=true', 'application/json',
		JSON.stringify({ blocks: mdBlocks(10_000) }), {},
		(a) => assert.equal(JSON.parse(a.body).steps.length, 10_000)],
	['a case of 10,000 placements with "trace": true in the body', '/v1/monomino-domino', 'application/json',
		JSON.stringify({ blocks: mdBlocks(10_000), trace: true }), {},
		(a) => assert.equal(JSON.parse(a.body).steps.length, 10_000)],
	['a batch of one case of 10,000 placements with "trace": true and an "id"', '/v1/monomino-domino', 'application/json',
		JSON.stringify({ cases: [{ id: 'x', blocks: mdBlocks(10_000), trace: true }] }), {},
		(a) => {
			const r = JSON.parse(a.body).results[0];
			assert.equal(r.steps.length, 10_000);
			assert.equal(r.id, 'x');
		}],
	['a case of 10,000 placements with "trace": true and a fault at its last block (422)', '/v1/monomino-domino', 'application/json',
		JSON.stringify({ blocks: [...mdBlocks(9_999), [9, 0, 0]], trace: true }), {},
		(a) => assert.equal(JSON.parse(a.body).errors[0].pointer, '/blocks/9999/0'), 422],
	['a text body of 10,000 placements with ?trace=true', '/v1/monomino-domino?trace=true', 'text/plain', mdText(10_000), {},
		(a) => assert.equal(JSON.parse(a.body).steps.length, 10_000)],
	['a text body of 10,000 placements with ?trace=true and a fault at its last line (422)', '/v1/monomino-domino?trace=true', 'text/plain',
		mdText(10_000).replace(/\n[^\n]*\n$/, '\n9 0 0\n'), {},
		(a) => assert.equal(JSON.parse(a.body).errors[0].line, 10_001), 422],
	['judge of a case of 10,000 placements with ?trace=true', '/v1/monomino-domino/judge?trace=true', 'application/json',
		JSON.stringify({ input: { blocks: mdBlocks(10_000) }, output: '0\n0\n' }), {},
		(a) => {
			const r = JSON.parse(a.body);
			assert.equal(r.verdict, 'wrong_answer');
			assert.equal(r.steps.length, 10_000);
		}],
	['a Monomino-Domino JSON case of 900,000 placements with an "id"', '/v1/monomino-domino', 'application/json',
		`{"id":"lean","blocks":${leanArray}}`, {}, scored],
	['a Monomino-Domino JSON case of 900,000 placements with "trace": false', '/v1/monomino-domino', 'application/json',
		`{"blocks":${leanArray},"trace":false}`, {}, scored],
	['a Monomino-Domino JSON case of 900,000 placements as objects', '/v1/monomino-domino', 'application/json',
		`{"blocks":${leanObjects}}`, {}, scored],
	['a Monomino-Domino JSON case of 900,000 placements, the last t 1.0 (422)', '/v1/monomino-domino', 'application/json',
		`{"blocks":${leanLastReal}}`, {},
		(a) => assert.equal(JSON.parse(a.body).errors[0].pointer, `/blocks/${LEAN_N - 1}/0`), 422],
	['a Monomino-Domino JSON case of 900,000 placements broken at its end (400 at the fault)', '/v1/monomino-domino', 'application/json',
		leanBroken, {},
		(a) => assert.deepEqual([JSON.parse(a.body).errors[0].line, JSON.parse(a.body).errors[0].column], [1, leanBroken.length]), 400],
	['a Monomino-Domino JSON case of 900,000 placements beside a large unknown member (422)', '/v1/monomino-domino', 'application/json',
		`{"blocks":[[1,1,1]],"more":${leanObjects}}`, {},
		(a) => assert.equal(JSON.parse(a.body).errors[0].pointer, '/more'), 422],
	['validate of a Monomino-Domino JSON case of 900,000 placements', '/v1/monomino-domino/validate', 'application/json',
		`{"blocks":${leanArray}}`, {},
		(a) => assert.equal(JSON.parse(a.body).errors[0].pointer, '/blocks')],
	['judge of a Monomino-Domino JSON case of 900,000 placements', '/v1/monomino-domino/judge', 'application/json',
		`{"input":{"blocks":${leanArray}},"output":"0\\n0\\n"}`, {},
		(a) => assert.equal(JSON.parse(a.body).verdict, 'wrong_answer')],
	['a batch of one Monomino-Domino case of 900,000 placements with an "id"', '/v1/monomino-domino', 'application/json',
		`{"cases":[{"id":"lean","blocks":${leanArray}}]}`, {},
		(a) => assert.equal(JSON.parse(a.body).results[0].id, 'lean')],
	['a batch of one Monomino-Domino case of 900,000 placements with an "id", broken at its end (400 at the fault)', '/v1/monomino-domino', 'application/json',
		`{"cases":[{"id":"x","blocks":${leanArray.slice(0, -2)},}]}`, {},
		(a) => assert.equal(JSON.parse(a.body).errors[0].line, 1), 400],
	['a Monomino-Domino JSON case of 900,000 placements with an "id", drawn as SVG', '/v1/monomino-domino', 'application/json',
		`{"id":"lean","blocks":${leanArray}}`, { Accept: 'image/svg+xml' },
		(a) => assert.match(a.body, /<desc>900000 placements/)],
	['a Monomino-Domino JSON case of 900,000 placements under an escaped name ("bl\\u006fcks")', '/v1/monomino-domino', 'application/json',
		`{"bl\\u006fcks":${leanArray},"id":1}`, {}, scored],
	['a batch under an escaped name ("c\\u0061ses") of one case of 900,000 placements', '/v1/monomino-domino', 'application/json',
		`{"c\\u0061ses":[{"blocks":${leanArray}}]}`, {},
		(a) => assert.deepEqual(JSON.parse(a.body).summary, { cases: 1, answered: 1, failed: 0 })],
	['a batch with a large member beside "cases" (422)', '/v1/monomino-domino', 'application/json',
		`{"cases":[{"blocks":[[1,1,1]]}],"more":${leanObjects}}`, {},
		(a) => assert.equal(JSON.parse(a.body).errors[0].pointer, '/more'), 422],
	['a body that is an array of 900,000 blocks, not a case (422)', '/v1/monomino-domino', 'application/json',
		leanArray, {}, (a) => assert.equal(JSON.parse(a.body).status, 422), 422],
	['a Puyo JSON case whose field has 800,000 rows (422)', '/v1/puyo', 'application/json',
		JSON.stringify({ field: Array.from({ length: 800_000 }, (_, i) => ROWS[i % 12]) }), {},
		(a) => assert.match(JSON.parse(a.body).errors[0].detail, /found 800000/), 422],
	['validate of a Puyo JSON case beside a large unknown member', '/v1/puyo/validate', 'application/json',
		JSON.stringify({ field: ROWS, more: leanBlocks.slice(0, 300_000) }), {},
		(a) => assert.equal(JSON.parse(a.body).errors[0].pointer, '/more')],
	['a Puyo text body', '/v1/puyo', 'text/plain', PUYO_EXAMPLE],
];

const server = await startServer({ args: ['--max-body', '100000000', '--max-blocks', '100000000', '--threads', '2'] });

for (const [name, path, type, body, headers = {}, check = () => {}, status = 200] of KINDS) {
	test(`${name}: peak extra RSS <= 4 x body + 8 MiB`, async () => {
		await sleep(300); // trimming after the previous request
		const before = memory(server.pid).rss;
		resetPeak(server.pid);
		const a = await request(server.port, path, type, body, headers);
		const peak = memory(server.pid).hwm - before;
		assert.equal(a.status, status, a.body.slice(0, 300));
		check(a);
		const bound = 4 * Buffer.byteLength(body) + 8 * MIB;
		console.log(`${name}: body ${Buffer.byteLength(body)} B, peak extra RSS ${(peak / MIB).toFixed(1)} MiB, bound ${(bound / MIB).toFixed(1)} MiB`);
		assert.ok(peak <= bound, `peak extra ${peak} > ${bound}`);
	});
}

test('a streamed answer and its gzip are the same bytes', async () => {
	const plain = await request(server.port, '/v1/monomino-domino?trace=true', 'application/json', tracedBatch);
	const gz = await request(server.port, '/v1/monomino-domino?trace=true', 'application/json', tracedBatch, { 'Accept-Encoding': 'gzip' });
	assert.equal(gz.headers['content-encoding'], 'gzip');
	assert.equal(gz.body, plain.body);
});

test('a client that leaves in the middle of a streamed answer frees it all', async () => {
	const leave = () => new Promise((resolve, reject) => {
		const s = net.connect({ port: server.port, host: '127.0.0.1' });
		let got = 0;
		s.on('connect', () => s.write(`POST /v1/monomino-domino?trace=true HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${tracedBatch.length}\r\n\r\n${tracedBatch}`));
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

test('--max-trace-steps counts the traces of the whole request: 1000 traced cases of 101 placements are 422 at the case that passes 100,000 steps', async () => {
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
	assert.match(p.detail, /max-trace-steps/);
});
