// Pictures are heavy and bounded (src/http/cache.c, src/route/render.c):
// render.svg runs on the worker pool, a picture past --max-svg-bytes is
// 422 naming the limit and the size asked, and every answer built and not
// yet read holds its bytes against --answer-memory, past which a large
// answer is 503 with Retry-After. So readers that never read cannot make
// the server hold more than the budget, and clients looping large
// pictures with gzip do not slow /livez.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, sleep, parseResponses, memory, resetPeak, percentile } from './lib.mjs';

const MIB = 1024 * 1024;
const HERE = path.dirname(fileURLToPath(import.meta.url));
const execFileP = promisify(execFile);

// 500 placements of Monomino-Domino (legal: t x y within the board).
function blocks(n, seed = 11) {
	const out = [];
	for (let i = 0; i < n; i++) {
		seed = (seed * 1103515245 + 12345) & 0x7fffffff;
		const t = 1 + (seed % 3);
		out.push(`${t}${(seed >> 4) % (t === 3 ? 3 : 4)}${(seed >> 8) % (t === 2 ? 3 : 4)}`);
	}
	return out.join(',');
}
const STRIP = `/v1/monomino-domino/render.svg?blocks=${blocks(500)}&strip=true&cell=96`;
const strip = (extra = '') => `GET ${STRIP} HTTP/1.1\r\nHost: x\r\n${extra}\r\n`;

// Sends `text` from `localAddress` and does not read; the socket is kept.
function holdOpen(port, text, localAddress) {
	const s = net.connect({ port, host: '127.0.0.1', localAddress });
	s.on('error', () => {});
	s.on('connect', () => { s.write(text); s.pause(); });
	return s;
}

// One request on its own connection, the whole answer read.
function ask(port, text, { localAddress = '127.0.0.1', ms = 10000 } = {}) {
	return new Promise((resolve) => {
		const s = net.connect({ port, host: '127.0.0.1', localAddress });
		const chunks = [];
		const done = () => { clearTimeout(timer); s.destroy(); resolve(parseResponses(Buffer.concat(chunks)).responses[0]); };
		const timer = setTimeout(done, ms);
		s.on('connect', () => s.write(text));
		s.on('data', (d) => {
			chunks.push(d);
			if (parseResponses(Buffer.concat(chunks)).responses.length) done();
		});
		s.on('error', done);
		s.on('close', done);
	});
}

// The status line of what a paused socket has been sent, once read.
function firstStatus(s) {
	return new Promise((resolve) => {
		let head = '';
		const timer = setTimeout(() => resolve(0), 5000);
		s.on('data', (d) => {
			head += d.toString('latin1', 0, Math.min(d.length, 64));
			const m = head.match(/^HTTP\/1\.1 (\d{3})/);
			if (m) { clearTimeout(timer); resolve(Number(m[1])); s.destroy(); }
		});
		s.resume();
	});
}

test('128 connections that ask for the 500-step strip and never read: server RSS +128 MiB at most', async () => {
	const server = await startServer();
	// The picture once, read, so that the threads' heaps exist before.
	const one = await ask(server.port, strip('Connection: close\r\n'));
	assert.equal(one?.status, 200);
	assert.ok(one.body.length > 3_000_000, `the strip is ${one.body.length} bytes`);
	await sleep(300);
	const before = memory(server.pid).rss;
	resetPeak(server.pid);
	const sockets = [];
	// 32 from each of four addresses that nothing else here uses: as many as
	// one address may hold (--max-connections-per-ip), none taken by a probe.
	for (let a = 21; a <= 24; a++)
		for (let i = 0; i < 32; i++) sockets.push(holdOpen(server.port, strip(), `127.0.0.${a}`));
	await sleep(4000);
	const { rss, hwm } = memory(server.pid);
	const statuses = await Promise.all(sockets.map(firstStatus));
	const count = (c) => statuses.filter((s) => s === c).length;
	console.log(`128 non-reading connections asking for the 500-step strip: RSS +${((rss - before) / MIB).toFixed(1)} MiB, peak +${((hwm - before) / MIB).toFixed(1)} MiB; ${count(200)} answered 200, ${count(503)} 503`);
	for (const s of sockets) s.destroy();
	assert.equal(count(200) + count(503), 128, `statuses: ${[...new Set(statuses)].join(', ')}`);
	assert.ok(hwm - before <= 128 * MIB, `peak RSS +${((hwm - before) / MIB).toFixed(1)} MiB`);
});

test('90 connections looping the 500-step strip with gzip: GET /livez p50 at most 50 ms', async () => {
	const server = await startServer();
	const file = path.join(os.tmpdir(), `dropjudge-strip-${process.pid}.http`);
	fs.writeFileSync(file, strip('Accept-Encoding: gzip\r\n'));
	const SECONDS = 10;
	const loops = spawn(process.execPath, [path.join(HERE, 'loop.mjs'), String(server.port), file, '90', String(SECONDS)], { stdio: ['ignore', 'pipe', 'inherit'] });
	let out = '';
	loops.stdout.on('data', (d) => { out += d; });
	const ended = new Promise((resolve) => loops.on('exit', resolve));
	await sleep(1000);
	const times = [];
	const t0 = Date.now();
	while (Date.now() - t0 < (SECONDS - 2) * 1000) {
		// Timed by curl, as a probe from outside is: this process also
		// reads the server's access log, which would delay its own timers.
		const { stdout } = await execFileP('curl', ['-s', '-o', '/dev/null', '--interface', '127.0.0.5', '--max-time', '5',
			'-w', '%{http_code} %{time_total}', `http://127.0.0.1:${server.port}/livez`]);
		const [code, secs] = stdout.trim().split(' ');
		assert.equal(code, '200');
		times.push(Number(secs) * 1000);
		await sleep(50);
	}
	await ended;
	fs.rmSync(file, { force: true });
	const stats = JSON.parse(out.trim() || '{}');
	const p50 = percentile(times, 50), p95 = percentile(times, 95);
	console.log(`/livez under 90 connections looping the strip with gzip (answers ${JSON.stringify(stats.statuses)}): p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms over ${times.length} probes`);
	assert.ok(stats.statuses?.['200'] > 0, 'pictures were answered');
	assert.ok(p50 <= 50, `p50 ${p50.toFixed(1)} ms`);
});

test('a picture past --max-svg-bytes is 422 naming the limit and the size asked, render.svg and solve alike', async () => {
	const server = await startServer({ args: ['--max-svg-bytes', '1000000'] });
	const r = await ask(server.port, strip('Connection: close\r\n'));
	assert.equal(r?.status, 422);
	const p = JSON.parse(r.body);
	assert.match(p.detail, /limit of 1000000 bytes \(--max-svg-bytes\)/);
	const asked = Number(p.detail.match(/is (\d+) bytes/)[1]);
	assert.ok(asked > 1000000, p.detail);
	assert.equal(p.errors[0].parameter, 'cell');
	// One step of the same case is within the limit and is drawn.
	const small = await ask(server.port, `GET ${STRIP.replace('strip=true', 'step=250')} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
	assert.equal(small?.status, 200);
	assert.ok(small.body.length <= 1000000);
	// A solve answered as SVG, traced (every step drawn), is bounded the same way.
	const body = JSON.stringify({ blocks: blocks(500).split(',').map((b) => [...b].map(Number)) });
	const solve = await ask(server.port, `POST /v1/monomino-domino?trace=true&cell=96 HTTP/1.1\r\nHost: x\r\nAccept: image/svg+xml\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
	console.log(`a 500-step strip at cell 96 under --max-svg-bytes 1000000: ${r.status} (${asked} bytes asked); solve as SVG: ${solve?.status}`);
	assert.equal(solve?.status, 422, solve?.body);
	assert.match(JSON.parse(solve.body).detail, /--max-svg-bytes/);
});

test('an answer past --answer-memory is 503 with Retry-After, and the bytes held come back', async () => {
	// On loopback the kernel's socket buffers take a whole 3.9 MB answer
	// from a reader that never reads, so the budget is shown here with a
	// budget smaller than one answer: it is never held.
	const server = await startServer({ args: ['--answer-memory', String(MIB)] });
	const refused = await ask(server.port, strip('Connection: close\r\n'));
	const oneStep = await ask(server.port, `GET ${STRIP.replace('strip=true', 'step=250')} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
	await sleep(200);
	const metrics = (await ask(server.port, 'GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).body;
	const held = Number(metrics.match(/^dropjudge_answer_bytes_held (\d+)$/m)[1]);
	console.log(`the 3.9 MB strip under --answer-memory 1 MiB: ${refused?.status}; one step of it: ${oneStep?.status}; ${held} bytes held after`);
	assert.equal(refused?.status, 503);
	assert.equal(refused.headers['retry-after'], '1');
	assert.equal(JSON.parse(refused.body).type, '/errors/busy');
	assert.match(JSON.parse(refused.body).detail, /--answer-memory/);
	assert.equal(oneStep?.status, 200);
	assert.ok(held < 65536, `${held} bytes held once every answer is sent`);
});
