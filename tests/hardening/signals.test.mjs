// Signals: SIGHUP reloads and the service goes on serving; during a drain
// a second SIGTERM ends the process at once, though a request is still in
// flight and the drain timeout is far away.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startServer, sleep, exchange, parseResponses } from './lib.mjs';

const LIVEZ = 'GET /livez HTTP/1.1\r\nHost: x\r\n\r\n';

test('SIGHUP does not stop the service: it logs the reload and keeps answering', async () => {
	const server = await startServer();
	for (let i = 0; i < 3; i++) {
		process.kill(server.pid, 'SIGHUP');
		await sleep(200);
		const { data } = await exchange(server.port, [LIVEZ], { ms: 2000, responses: 1 });
		assert.equal(parseResponses(data).responses[0]?.status, 200, `after SIGHUP ${i + 1}`);
	}
	assert.equal(server.exitStatus, undefined, 'the process ended');
	assert.equal((server.log.match(/SIGHUP: reloaded/g) ?? []).length, 3);
});

test('a second SIGTERM during the drain ends the process at once, with a request still in flight', async () => {
	const server = await startServer({ args: ['--drain-timeout', '30'], autoStop: false });
	// Headers and part of a body: a request in flight that will not end.
	const s = net.connect({ port: server.port, host: '127.0.0.1' });
	s.on('error', () => {});
	await new Promise((r) => s.on('connect', r));
	s.write('POST /v1/puyo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n......\n');
	await sleep(300);
	process.kill(server.pid, 'SIGTERM');
	await sleep(500);
	assert.equal(server.exitStatus, undefined, 'the first SIGTERM did not wait for the request in flight');
	const t0 = Date.now();
	process.kill(server.pid, 'SIGTERM');
	const status = await Promise.race([server.exited, sleep(3000).then(() => null)]);
	s.destroy();
	if (!status) process.kill(server.pid, 'SIGKILL');
	assert.ok(status, 'still running 3 s after the second SIGTERM');
	assert.equal(status.code, 0);
	assert.ok(Date.now() - t0 < 2000, `took ${Date.now() - t0} ms`);
	assert.match(server.log, /second signal/);
});

test('a second SIGTERM ends the process at once even while the workers are busy with heavy requests', async () => {
	const server = await startServer({
		args: ['--drain-timeout', '30', '--threads', '2', '--max-body', '20000000', '--max-request-trace-steps', '1000000'],
		autoStop: false,
	});
	// Eight traced streams of 1000 cases, 1,000,000 steps each (131 MB of answer apiece). Four clients read
	// their answers as they come: the server is busy making and sending them. Four never read:
	// their answers stop when the socket buffers are full, so that those requests are still in
	// flight when the signals come, however fast the server made the rest.
	let seed = 11;
	const blocks = Array.from({ length: 1000 }, () => {
		seed = (seed * 1103515245 + 12345) & 0x7fffffff;
		const t = 1 + (seed % 3);
		return [t, (seed >> 4) % (t === 3 ? 3 : 4), (seed >> 8) % (t === 2 ? 3 : 4)];
	});
	const body = Array.from({ length: 1000 }, () => JSON.stringify({ blocks })).join('\n') + '\n';
	const sockets = [];
	for (let i = 0; i < 8; i++) {
		const s = net.connect({ port: server.port, host: '127.0.0.1' });
		s.on('error', () => {});
		if (i % 2 === 0) s.on('data', () => {});
		else s.pause();
		s.on('connect', () => s.write(`POST /v1/monomino-domino?trace=true HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\nContent-Length: ${body.length}\r\n\r\n${body}`));
		sockets.push(s);
	}
	await sleep(800);
	process.kill(server.pid, 'SIGTERM');
	await sleep(300);
	assert.equal(server.exitStatus, undefined, 'the first SIGTERM did not wait for the work in flight');
	const t0 = Date.now();
	process.kill(server.pid, 'SIGTERM');
	const status = await Promise.race([server.exited, sleep(5000).then(() => null)]);
	for (const s of sockets) s.destroy();
	if (!status) process.kill(server.pid, 'SIGKILL');
	assert.ok(status, 'still running 5 s after the second SIGTERM');
	assert.equal(status.code, 0);
	assert.ok(Date.now() - t0 < 1000, `took ${Date.now() - t0} ms`);
});
