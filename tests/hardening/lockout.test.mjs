// No lock-out: 1,030 slowloris and 1,030 slow-body connections from
// 127.0.0.2 (their own process, tests/hardening/slow.mjs) while a client on
// 127.0.0.1 sends the Puyo example of the problem statement for 30 s over
// one kept-alive connection. Every answer must be right (the example's
// chain count), p99 under 250 ms; the slow connections past the
// per-address limit are refused at once and those let in are closed by
// their deadline however slowly they drip. Then the total limit: past
// --max-connections a new connection is closed at once, and the service
// takes connections again as soon as others close.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, sleep, puyoRequest, parseResponses, percentile, PUYO_EXAMPLE_CHAINS } from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SECONDS = Number(process.env.HARDENING_SECONDS ?? 30);
const DEADLINE = 5; // --header-timeout and --body-timeout of the test server, s

// Sends the Puyo example over one connection in a loop until `until`;
// returns the latency of each answer (ms) and the answers that were wrong.
async function puyoLoop(port, until) {
	const s = net.connect({ port, host: '127.0.0.1', localAddress: '127.0.0.1' });
	await new Promise((r, j) => { s.once('connect', r); s.once('error', j); });
	const latencies = [];
	const wrong = [];
	let buf = Buffer.alloc(0);
	let waiting = null;
	s.on('data', (d) => {
		buf = Buffer.concat([buf, d]);
		const { responses, rest } = parseResponses(buf);
		if (responses.length && waiting) {
			buf = rest;
			const w = waiting;
			waiting = null;
			w(responses[0]);
		}
	});
	s.on('close', () => { if (waiting) waiting(null); });
	const req = puyoRequest();
	while (Date.now() < until) {
		const t0 = process.hrtime.bigint();
		const answer = new Promise((r) => { waiting = r; });
		s.write(req);
		const res = await Promise.race([answer, sleep(5000).then(() => null)]);
		latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
		if (!res) { wrong.push('no answer within 5 s'); break; }
		const chains = res.status === 200 ? JSON.parse(res.body).chains : undefined;
		if (chains !== PUYO_EXAMPLE_CHAINS) wrong.push(`${res.status} ${res.body.slice(0, 200)}`);
	}
	s.destroy();
	return { latencies, wrong };
}

test(`1,030 slowloris + 1,030 slow-body connections from 127.0.0.2 for ${SECONDS} s: the Puyo example from 127.0.0.1 is always answered right, p99 < 250 ms; slow connections refused or cut by the deadline`, async () => {
	const server = await startServer({ args: ['--header-timeout', String(DEADLINE), '--body-timeout', String(DEADLINE), '--max-connections', '4096'] });
	const attack = spawn(process.execPath, [path.join(HERE, 'slow.mjs'), String(server.port), '127.0.0.2', '1030', String(SECONDS + 2), '1000'], { stdio: ['ignore', 'pipe', 'inherit'] });
	let out = '';
	attack.stdout.on('data', (d) => { out += d; });
	const attackDone = new Promise((r) => attack.on('exit', r));
	await sleep(1500); // let the attack open its connections
	const { latencies, wrong } = await puyoLoop(server.port, Date.now() + SECONDS * 1000);
	await attackDone;
	const stats = JSON.parse(out);
	const p99 = percentile(latencies, 99);
	console.log(`puyo: ${latencies.length} requests, p50 ${percentile(latencies, 50).toFixed(2)} ms, p99 ${p99.toFixed(2)} ms, max ${latencies.reduce((a, b) => Math.max(a, b), 0).toFixed(2)} ms; slow: ${JSON.stringify(stats)}`);
	assert.deepEqual(wrong, [], 'wrong or missing answers');
	assert.ok(latencies.length > 100, `only ${latencies.length} requests in ${SECONDS} s`);
	assert.ok(p99 < 250, `p99 ${p99.toFixed(1)} ms`);
	assert.ok(stats.refused > 1000, `only ${stats.refused} slow connections refused at once (per-address limit)`);
	assert.ok(stats.cut >= 32, `only ${stats.cut} slow connections cut by the deadline`);
	// Cut by the deadline: none lived much past it (the watchdog looks every 100 ms).
	assert.ok(stats.longestMs < (DEADLINE + 2) * 1000, `a slow connection lived ${stats.longestMs} ms`);
	// Quiet under attack: tens of thousands of refusals, yet at most the
	// burst of lines plus one count of the suppressed ones each second.
	const lines = server.log.split('\n').filter((l) => l.startsWith('dropjudge: ')).length;
	console.log(`stderr: ${lines} lines in ${SECONDS + 2} s`);
	assert.ok(lines <= (SECONDS + 4) * 11, `${lines} log lines`);
	assert.match(server.log, /log lines suppressed/);
});

// Opens a connection and says whether the server closes it within `ms`
// without sending anything.
function closedAtOnce(port, ms = 1000) {
	return new Promise((resolve) => {
		const s = net.connect({ port, host: '127.0.0.1' });
		const timer = setTimeout(() => { resolve({ closed: false, socket: s }); }, ms);
		s.on('data', () => {});
		s.on('close', () => { clearTimeout(timer); resolve({ closed: true }); });
		s.on('error', () => {});
	});
}

test('past --max-connections a new connection is closed at once, and taken again once others close', async () => {
	const server = await startServer({ args: ['--max-connections', '8', '--threads', '2', '--max-connections-per-ip', '0'] });
	const held = [];
	for (let i = 0; i < 8; i++) {
		const r = await closedAtOnce(server.port, 300);
		assert.equal(r.closed, false, `connection ${i + 1} of 8 was closed`);
		held.push(r.socket);
	}
	const t0 = Date.now();
	const extra = await closedAtOnce(server.port, 2000);
	assert.equal(extra.closed, true, 'the ninth connection was left waiting');
	assert.ok(Date.now() - t0 < 1000, 'the ninth connection was not closed at once');
	for (const s of held) s.destroy();
	await sleep(300);
	const again = await new Promise((resolve) => {
		const s = net.connect({ port: server.port, host: '127.0.0.1' });
		let buf = Buffer.alloc(0);
		s.on('connect', () => s.write('GET /livez HTTP/1.1\r\nHost: x\r\n\r\n'));
		s.on('data', (d) => { buf = Buffer.concat([buf, d]); const { responses } = parseResponses(buf); if (responses.length) { s.destroy(); resolve(responses[0].status); } });
		s.on('error', () => resolve('error'));
	});
	assert.equal(again, 200);
	assert.match(server.log, /refused a connection/);
});

test('past --max-connections-per-ip a connection from that address is closed at once; another address is served', async () => {
	const server = await startServer({ args: ['--max-connections-per-ip', '4'] });
	const held = [];
	for (let i = 0; i < 4; i++) {
		const s = net.connect({ port: server.port, host: '127.0.0.1', localAddress: '127.0.0.2' });
		s.on('error', () => {});
		held.push(s);
	}
	await sleep(300);
	const fifth = await new Promise((resolve) => {
		const s = net.connect({ port: server.port, host: '127.0.0.1', localAddress: '127.0.0.2' });
		const timer = setTimeout(() => { s.destroy(); resolve(false); }, 1000);
		s.on('close', () => { clearTimeout(timer); resolve(true); });
		s.on('error', () => {});
	});
	assert.equal(fifth, true, 'the fifth connection from 127.0.0.2 stayed open');
	const other = await new Promise((resolve) => {
		const s = net.connect({ port: server.port, host: '127.0.0.1', localAddress: '127.0.0.3' });
		let buf = Buffer.alloc(0);
		s.on('connect', () => s.write('GET /livez HTTP/1.1\r\nHost: x\r\n\r\n'));
		s.on('data', (d) => { buf = Buffer.concat([buf, d]); const { responses } = parseResponses(buf); if (responses.length) { s.destroy(); resolve(responses[0].status); } });
		s.on('error', () => resolve('error'));
	});
	assert.equal(other, 200);
	for (const s of held) s.destroy();
});

test('a connection that drips its headers is closed at the header deadline; one that drips its body at the body deadline', async () => {
	const server = await startServer({ args: ['--header-timeout', '2', '--body-timeout', '3', '--timeout', '60'] });
	const lifetime = (first) => new Promise((resolve) => {
		const s = net.connect({ port: server.port, host: '127.0.0.1' });
		const t0 = Date.now();
		let timer;
		s.on('connect', () => { s.write(first); timer = setInterval(() => s.write('a'), 200); });
		s.on('data', () => {});
		s.on('close', () => { clearInterval(timer); resolve(Date.now() - t0); });
		s.on('error', () => {});
		setTimeout(() => { s.destroy(); }, 10000);
	});
	const [loris, body] = await Promise.all([
		lifetime('GET /livez HTTP/1.1\r\nHost: x\r\nX-Slow: '),
		lifetime('POST /v1/puyo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n'),
	]);
	assert.ok(loris >= 1900 && loris < 3500, `slowloris lived ${loris} ms (deadline 2 s)`);
	assert.ok(body >= 2900 && body < 4500, `slow body lived ${body} ms (deadline 3 s after the headers)`);
});
