// Bounded memory, measured from /proc: the peak extra RSS of one request
// (VmHWM after it, less VmRSS before it, the peak reset between requests
// through /proc/PID/clear_refs) is at most 4x its body plus 8 MiB for the
// body kinds listed; and after a load, RSS comes back within 10% of its
// level before the load (the load is run once first, so that both levels
// include the threads' stacks and heaps).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startServer, sleep, parseResponses, memory, resetPeak, PUYO_EXAMPLE } from './lib.mjs';

const MIB = 1024 * 1024;

// One request over its own connection; resolves to its status once the
// whole answer is in.
function post(port, path, type, body) {
	return new Promise((resolve, reject) => {
		const s = net.connect({ port, host: '127.0.0.1' });
		let buf = Buffer.alloc(0);
		s.on('connect', () => {
			s.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`);
			s.write(body);
		});
		s.on('data', (d) => { buf = Buffer.concat([buf, d]); });
		s.on('end', () => {
			const { responses } = parseResponses(buf);
			s.destroy();
			resolve(responses[0]?.status);
		});
		s.on('error', reject);
	});
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
const KINDS = [
	['a Monomino-Domino text body of 9,000,000 placements (~54 MB)', '/v1/monomino-domino', 'text/plain', mdText(9_000_000)],
	['a Monomino-Domino text body of 1,000 placements', '/v1/monomino-domino', 'text/plain', mdText(1000)],
	['a 1000-case Puyo batch (JSON)', '/v1/puyo', 'application/json', JSON.stringify({ cases: Array.from({ length: 1000 }, () => ({ field: ROWS })) })],
	['a Puyo text body', '/v1/puyo', 'text/plain', PUYO_EXAMPLE],
];

const server = await startServer({ args: ['--max-body', '100000000', '--max-blocks', '100000000', '--threads', '2'] });

for (const [name, path, type, body] of KINDS) {
	test(`${name}: peak extra RSS <= 4 x body + 8 MiB`, async () => {
		await sleep(300); // trimming after the previous request
		const before = memory(server.pid).rss;
		resetPeak(server.pid);
		assert.equal(await post(server.port, path, type, body), 200);
		const peak = memory(server.pid).hwm - before;
		const bound = 4 * Buffer.byteLength(body) + 8 * MIB;
		console.log(`${name}: body ${Buffer.byteLength(body)} B, peak extra RSS ${(peak / MIB).toFixed(1)} MiB, bound ${(bound / MIB).toFixed(1)} MiB`);
		assert.ok(peak <= bound, `peak extra ${peak} > ${bound}`);
	});
}

test('after a load of heavy requests, RSS returns within 10% of its level before the load', async () => {
	const traced = JSON.stringify({ cases: Array.from({ length: 1000 }, (_, c) => ({ blocks: mdBlocks(100, c + 1) })) });
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
	assert.ok(peak > before + 50 * MIB, 'the load did not load');
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
