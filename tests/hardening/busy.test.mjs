// Bounded heavy work (src/http/server.c): at most --max-heavy-queue heavy
// requests wait for or run on the worker pool, --max-heavy-per-client of
// them from one address; past that a heavy request is answered 503 with
// Retry-After at once. A queued job whose client has gone is dropped
// before it runs, and the places of gone clients are given up, so that
// clients that ask for a 500-test package and close the connection at once
// cost the server little and hold nobody up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import { startServer, sleep, parseResponses } from './lib.mjs';

const PACKAGE = 'GET /v1/monomino-domino/package?format=polygon&tests=500 HTTP/1.1\r\nHost: x\r\n\r\n';
const GENERATE = 'GET /v1/monomino-domino/generate?n=10 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';
const GENERATE_KEEP = 'GET /v1/monomino-domino/generate?n=10 HTTP/1.1\r\nHost: x\r\n\r\n';

// CPU seconds (user + system) the process has used.
function cpuSeconds(pid) {
	const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
	return (Number(f[11]) + Number(f[12])) / 100; // utime, stime in clock ticks (100 Hz)
}

// Sends one request on a connection of its own; resolves to what came back
// within ms (or once the connection closed), and the time to the first byte.
function ask(port, text, { ms = 5000, close = false } = {}) {
	return new Promise((resolve) => {
		const s = net.connect({ port, host: '127.0.0.1' });
		const chunks = [];
		const t0 = Date.now();
		let first = null;
		const done = () => { clearTimeout(timer); s.destroy(); resolve({ data: Buffer.concat(chunks), firstMs: first }); };
		const timer = setTimeout(done, ms);
		s.on('connect', () => { if (close) { s.end(text); setTimeout(done, 20); } else s.write(text); });
		s.on('data', (d) => { if (first === null) first = Date.now() - t0; chunks.push(d); });
		s.on('error', done);
		s.on('close', done);
	});
}

// Sends `count` requests one after another on one connection, each after
// the answer to the one before; resolves to their answers.
function askInTurn(port, text, count) {
	return new Promise((resolve) => {
		const s = net.connect({ port, host: '127.0.0.1' });
		let buf = Buffer.alloc(0);
		const out = [];
		const timer = setTimeout(() => { s.destroy(); resolve(out); }, 15000);
		s.on('connect', () => s.write(text));
		s.on('data', (d) => {
			buf = Buffer.concat([buf, d]);
			const { responses, rest } = parseResponses(buf);
			if (responses.length === 0) return;
			out.push(...responses);
			buf = Buffer.from(rest ?? '', 'latin1');
			if (out.length >= count) { clearTimeout(timer); s.destroy(); resolve(out); } else s.write(text);
		});
		s.on('error', () => { clearTimeout(timer); resolve(out); });
	});
}

// A traced batch whose answer (about 13 MB) outgrows the socket buffers:
// sent by a client that never reads, it holds its place for as long as
// the client stays.
function heldRequest() {
	let seed = 7;
	const blocks = Array.from({ length: 1000 }, () => {
		seed = (seed * 1103515245 + 12345) & 0x7fffffff;
		const t = 1 + (seed % 3);
		return [t, (seed >> 4) % (t === 3 ? 3 : 4), (seed >> 8) % (t === 2 ? 3 : 4)];
	});
	const body = JSON.stringify({ cases: Array.from({ length: 100 }, () => ({ blocks })) });
	return `POST /v1/monomino-domino?trace=true HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
}

test('200 heavy requests from one address that already holds its share: each is 503 with Retry-After, at once', async () => {
	// Eight held answers of 13 MB pass the default --answer-memory (64 MiB): one
	// refused 503 by the budget would end at once and give its place back.
	const server = await startServer({ args: ['--threads', '2', '--answer-memory', '1073741824'] });
	const held = [];
	const text = heldRequest();
	for (let i = 0; i < 8; i++) {
		const s = net.connect({ port: server.port, host: '127.0.0.1' });
		s.on('error', () => {});
		s.on('connect', () => { s.write(text); s.pause(); });
		held.push(s);
	}
	await sleep(1500);
	const t0 = Date.now();
	const all = (await Promise.all(Array.from({ length: 20 }, () => askInTurn(server.port, GENERATE_KEEP, 10)))).flat();
	const ms = Date.now() - t0;
	for (const s of held) s.destroy();
	const busy = all.filter((r) => r.status === 503);
	console.log(`200 heavy requests from an address holding 8 places: ${busy.length} answered 503 in ${ms} ms`);
	assert.equal(all.length, 200, 'every request was answered');
	assert.equal(busy.length, 200, `statuses: ${[...new Set(all.map((r) => r.status))].join(', ')}`);
	for (const r of busy) {
		assert.equal(r.headers['retry-after'], '1');
		assert.equal(r.headers['content-type'], 'application/problem+json');
		assert.equal(JSON.parse(r.body).type, '/errors/busy');
	}
	assert.ok(ms < 5000, `${ms} ms for 200 answers`);
	// The places come back with the clients: the next heavy request is served.
	await sleep(500);
	const after = parseResponses((await ask(server.port, GENERATE, { ms: 5000 })).data).responses[0];
	assert.equal(after?.status, 200);
});

test('30 abandoned 500-test packages: a heavy request behind them answers within 1.5 s, the gone clients cost 3 s of CPU at most', async () => {
	const server = await startServer({ args: ['--threads', '2'] });
	await sleep(200);
	const cpu0 = cpuSeconds(server.pid);
	await Promise.all(Array.from({ length: 30 }, () => ask(server.port, PACKAGE, { close: true })));
	await sleep(50);
	const t0 = Date.now();
	const { data } = await ask(server.port, GENERATE, { ms: 5000 });
	const ms = Date.now() - t0;
	const r = parseResponses(data).responses[0];
	assert.equal(r?.status, 200, `the request behind them: ${data.toString('latin1').slice(0, 200)}`);
	await sleep(2000); // whatever was still running for the gone clients ends
	const cpu = cpuSeconds(server.pid) - cpu0;
	console.log(`a heavy request behind 30 abandoned packages: ${ms} ms; CPU for all ${cpu.toFixed(2)} s`);
	assert.ok(ms <= 1500, `answered in ${ms} ms`);
	assert.ok(cpu <= 3, `${cpu.toFixed(2)} s of CPU`);
});
