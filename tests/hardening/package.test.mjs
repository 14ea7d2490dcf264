// Packages (src/http/cache.c, src/package/package.c): a build whose client
// has gone stops at its next test; a built package is kept (bounded by
// --package-cache) and answers the next GET or HEAD at once, counted in
// /metrics; HEAD on a package or a generator builds nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import { startServer, sleep, parseResponses } from './lib.mjs';

const pkg = (method, seed, extra = '') =>
	`${method} /v1/monomino-domino/package?format=polygon&tests=500&seed=${seed} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${extra}\r\n`;

function cpuSeconds(pid) {
	const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
	return (Number(f[11]) + Number(f[12])) / 100;
}

// The status and header fields of an answer to HEAD (no body follows).
function headOf(buf) {
	const lines = buf.toString('latin1').split('\r\n\r\n')[0].split('\r\n');
	const m = lines[0].match(/^HTTP\/1\.1 (\d{3})/);
	if (!m) return undefined;
	const headers = {};
	for (const line of lines.slice(1)) {
		const i = line.indexOf(':');
		headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
	}
	return { status: Number(m[1]), headers };
}

// One request; resolves to its answer (HEAD: headers only) and the time taken.
function ask(port, text, { close = false, head = false, ms = 10000 } = {}) {
	return new Promise((resolve) => {
		const s = net.connect({ port, host: '127.0.0.1' });
		const chunks = [];
		const t0 = Date.now();
		const done = () => {
			clearTimeout(timer);
			s.destroy();
			const buf = Buffer.concat(chunks);
			const r = head ? headOf(buf) : parseResponses(buf).responses[0];
			resolve({ r, ms: Date.now() - t0, raw: buf });
		};
		const timer = setTimeout(done, ms);
		s.on('connect', () => (close ? s.end(text) : s.write(text)));
		// Every request says Connection: close: the answer ends with the connection.
		s.on('data', (d) => {
			chunks.push(d);
			if (head && Buffer.concat(chunks).includes('\r\n\r\n')) done();
		});
		s.on('error', done);
		s.on('close', done);
	});
}

test('a package build whose client has gone stops at its next test', async () => {
	const server = await startServer({ args: ['--threads', '1', '--package-cache', '0'] });
	await sleep(200);
	const cpu0 = cpuSeconds(server.pid);
	// A build of 500 tests (about 0.75 s of CPU), taken at once by the idle
	// worker while its client is there, the client gone 300 ms later.
	await ask(server.port, pkg('GET', 1), { ms: 300 });
	await sleep(2000);
	const cpu = cpuSeconds(server.pid) - cpu0;
	const line = server.log.split('\n').find((l) => l.includes('/package'));
	console.log(`a 500-test package whose client went 300 ms into the build: ${cpu.toFixed(2)} s of CPU; logged: ${line?.trim()}`);
	assert.ok(cpu <= 0.6, `${cpu.toFixed(2)} s of CPU`);
	// The access line says when it stopped: after the client went (not a
	// job dropped before it ran), long before a whole build.
	const m = line?.match(/" (\d{3}) \d+ \d+ ([\d.]+)ms/);
	assert.ok(m, `access line: ${line}`);
	assert.equal(m[1], '503');
	assert.ok(Number(m[2]) >= 250 && Number(m[2]) < 750, `stopped after ${m[2]} ms`);
});

test('a built package is kept: the next GET and HEAD answer from the cache, counted in /metrics', async () => {
	const server = await startServer();
	const cpu0 = cpuSeconds(server.pid);
	const first = await ask(server.port, pkg('GET', 7));
	const cpu1 = cpuSeconds(server.pid);
	const second = await ask(server.port, pkg('GET', 7));
	const head = await ask(server.port, pkg('HEAD', 7), { head: true });
	const cpu2 = cpuSeconds(server.pid);
	assert.equal(first.r?.status, 200);
	assert.equal(second.r?.status, 200);
	assert.equal(second.r.headers['content-length'], first.r.headers['content-length']);
	assert.ok(Buffer.from(second.r.body, 'utf8').equals(Buffer.from(first.r.body, 'utf8')), 'the same bytes');
	assert.equal(head.r?.status, 200);
	assert.equal(head.r.headers['content-length'], first.r.headers['content-length']);
	assert.equal(head.r.headers['content-disposition'], first.r.headers['content-disposition']);
	// Another seed is another package.
	const other = await ask(server.port, pkg('GET', 8));
	assert.notEqual(other.r.body, first.r.body);
	const m = (await ask(server.port, 'GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).r.body;
	const figure = (name) => Number(m.match(new RegExp(`^${name} (\\d+)$`, 'm'))[1]);
	console.log(`a 500-test package: built in ${first.ms} ms (${(cpu1 - cpu0).toFixed(2)} s of CPU), from the cache in ${second.ms} ms (GET) and ${head.ms} ms (HEAD) (${(cpu2 - cpu1).toFixed(2)} s of CPU for both); cache hits ${figure('dropjudge_package_cache_hits_total')}, misses ${figure('dropjudge_package_cache_misses_total')}, ${figure('dropjudge_package_cache_bytes')} bytes`);
	assert.equal(figure('dropjudge_package_cache_hits_total'), 2);
	assert.equal(figure('dropjudge_package_cache_misses_total'), 2);
	assert.equal(figure('dropjudge_package_cache_bytes'), Number(first.r.headers['content-length']) + Number(other.r.headers['content-length']));
	assert.ok(cpu2 - cpu1 <= 0.15 && cpu2 - cpu1 < (cpu1 - cpu0) / 3, `${(cpu2 - cpu1).toFixed(2)} s of CPU from the cache, ${(cpu1 - cpu0).toFixed(2)} s built`);
});

test('HEAD on a package not built, or on a generator, builds nothing', async () => {
	const server = await startServer({ args: ['--package-cache', '0'] });
	await sleep(200);
	const cpu0 = cpuSeconds(server.pid);
	const heads = [];
	for (let seed = 1; seed <= 10; seed++) heads.push(await ask(server.port, pkg('HEAD', seed), { head: true }));
	const gen = await ask(server.port, 'HEAD /v1/puyo/generate?min_chains=12&seed=3 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', { head: true });
	const bad = await ask(server.port, 'HEAD /v1/monomino-domino/package?format=nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', { head: true });
	const cpu = cpuSeconds(server.pid) - cpu0;
	console.log(`HEAD on 10 500-test packages and a 12-chain generator: ${cpu.toFixed(2)} s of CPU`);
	for (const h of heads) {
		assert.equal(h.r?.status, 200);
		assert.equal(h.r.headers['content-type'], 'application/zip');
		assert.match(h.r.headers['content-disposition'], /attachment/);
	}
	assert.equal(gen.r?.status, 200);
	assert.equal(gen.r.headers['dropjudge-seed'], '3');
	assert.equal(bad.r?.status, 422, 'HEAD answers the status GET would');
	assert.ok(cpu <= 0.5, `${cpu.toFixed(2)} s of CPU`);
});
