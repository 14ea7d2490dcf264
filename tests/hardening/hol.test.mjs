// No head-of-line blocking: while four clients loop the heaviest request
// the default limits allow (a 1000-case Monomino-Domino batch with every
// trace, 100,000 steps in all, the most --max-request-trace-steps lets through;
// its own process,
// tests/hardening/heavy.mjs), GET /livez and the Puyo example of the
// problem statement from other clients keep p99 under 100 ms, and every
// Puyo answer is right. The heavy requests run on the worker pool, not in
// the event loops that read and answer the small ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, sleep, puyoRequest, parseResponses, percentile, PUYO_EXAMPLE_CHAINS } from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SECONDS = Number(process.env.HARDENING_SECONDS ?? 30) * 2 / 3;
const MAX_BODY = 1048576;
const MAX_TRACE_STEPS = 100000;

// 1000 cases of the same length, each block valid for its type, as long as
// fits in MAX_BODY and keeps the traces within --max-request-trace-steps.
export function heaviestBatch() {
	let seed = 7;
	const rnd = (n) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n; };
	const blocks = [];
	for (let i = 0; i < 2000; i++) {
		const t = 1 + rnd(3);
		blocks.push([t, rnd(t === 3 ? 3 : 4), rnd(t === 2 ? 3 : 4)]);
	}
	let best = null;
	for (let per = 1; ; per++) {
		const cases = Array.from({ length: 1000 }, (_, c) => ({ blocks: blocks.slice(c % 50, c % 50 + per) }));
		const body = JSON.stringify({ cases });
		if (body.length > MAX_BODY || per * 1000 > MAX_TRACE_STEPS) return best;
		best = { body, per };
	}
}

// Sends `request` over one kept-alive connection in a loop until `until`;
// returns the latencies (ms) and the answers `check` refused.
async function loop(port, request, check, until) {
	const s = net.connect({ port, host: '127.0.0.1' });
	await new Promise((r, j) => { s.once('connect', r); s.once('error', j); });
	const latencies = [];
	const wrong = [];
	let buf = Buffer.alloc(0);
	let waiting = null;
	s.on('data', (d) => {
		buf = Buffer.concat([buf, d]);
		const { responses, rest } = parseResponses(buf);
		if (responses.length && waiting) { buf = rest; const w = waiting; waiting = null; w(responses[0]); }
	});
	while (Date.now() < until) {
		const t0 = process.hrtime.bigint();
		const answer = new Promise((r) => { waiting = r; });
		s.write(request);
		const res = await Promise.race([answer, sleep(5000).then(() => null)]);
		latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
		if (!res) { wrong.push('no answer within 5 s'); break; }
		const why = check(res);
		if (why) wrong.push(why);
		await sleep(2); // a steady stream, not a flood
	}
	s.destroy();
	return { latencies, wrong };
}

test(`four clients looping the heaviest request for ${SECONDS} s: GET /livez and the Puyo example keep p99 < 100 ms`, async () => {
	const server = await startServer();
	const { body, per } = heaviestBatch();
	const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dropjudge-hol-')), 'heavy.json');
	fs.writeFileSync(file, body);
	const heavy = spawn(process.execPath, [path.join(HERE, 'heavy.mjs'), String(server.port), '/v1/monomino-domino?trace=true', file, '4', String(SECONDS + 1)], { stdio: ['ignore', 'pipe', 'inherit'] });
	let out = '';
	heavy.stdout.on('data', (d) => { out += d; });
	const heavyDone = new Promise((r) => heavy.on('exit', r));
	await sleep(1000); // the heavy requests are running
	const until = Date.now() + SECONDS * 1000;
	const [livez, puyo] = await Promise.all([
		loop(server.port, 'GET /livez HTTP/1.1\r\nHost: x\r\n\r\n', (r) => (r.status === 200 ? null : `livez ${r.status}`), until),
		loop(server.port, puyoRequest(), (r) => (r.status === 200 && JSON.parse(r.body).chains === PUYO_EXAMPLE_CHAINS ? null : `puyo ${r.status} ${r.body.slice(0, 200)}`), until),
	]);
	await heavyDone;
	fs.rmSync(path.dirname(file), { recursive: true, force: true });
	const stats = JSON.parse(out);
	const p = (l) => `${l.latencies.length} requests, p50 ${percentile(l.latencies, 50).toFixed(2)} ms, p99 ${percentile(l.latencies, 99).toFixed(2)} ms, max ${l.latencies.reduce((a, b) => Math.max(a, b), 0).toFixed(2)} ms`;
	console.log(`heavy: ${body.length} bytes, 1000 cases x ${per} blocks, traced: ${JSON.stringify(stats)}`);
	console.log(`livez: ${p(livez)}`);
	console.log(`puyo:  ${p(puyo)}`);
	assert.deepEqual(livez.wrong, []);
	assert.deepEqual(puyo.wrong, []);
	assert.ok(stats.answers >= 4 && Object.keys(stats.statuses).every((s) => s === '200'), `heavy answers: ${JSON.stringify(stats)}`);
	assert.ok(percentile(livez.latencies, 99) < 100, 'livez p99');
	assert.ok(percentile(puyo.latencies, 99) < 100, 'puyo p99');
});
