// No body read for nothing: a request whose answer does not depend on its
// body (a 308 to the path without its trailing slash, OPTIONS, a 401 for a
// missing token, 404, 405) is answered from its headers, before any of the
// body is read, and its connection closed. Thirty clients each sending
// 1 MiB to such paths at once must not make the server hold their bodies:
// its RSS grows by 8 MiB at most (the bodies alone are 30 MiB).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, sleep, memory, resetPeak } from './lib.mjs';

const MIB = 1024 * 1024;
const CLIENTS = 30;

// Sends the head, then `size` bytes of body in 64 KiB writes as fast as the
// socket takes them, and reads what comes back. Resolves to the first
// status line and the bytes of body the socket took before it closed.
function send(port, head, size) {
	return new Promise((resolve) => {
		const sock = net.connect(port, '127.0.0.1');
		let answer = '';
		let sent = 0;
		const chunk = Buffer.alloc(64 * 1024, 'x');
		const pump = () => {
			while (sent < size) {
				sent += chunk.length;
				if (!sock.write(chunk)) return sock.once('drain', pump);
			}
		};
		sock.on('connect', () => { sock.write(head); pump(); });
		sock.on('data', (d) => { answer += d.toString('latin1'); });
		sock.on('error', () => {});
		sock.on('close', () => resolve({ status: answer.split('\r\n')[0], sent }));
		setTimeout(() => sock.destroy(), 10000);
	});
}

const tokens = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dropjudge-unread-')), 'tokens');
fs.writeFileSync(tokens, 'a-token-nobody-sends\n');
const server = await startServer({ args: ['--auth-token-file', tokens] });

const CASES = [
	['a trailing slash (308)', 'POST /v1/puyo/ HTTP/1.1', /^HTTP\/1\.1 308 /],
	['OPTIONS (204)', 'OPTIONS /v1/puyo HTTP/1.1', /^HTTP\/1\.1 204 /],
	['no token (401)', 'POST /v1/puyo HTTP/1.1', /^HTTP\/1\.1 401 /],
	['no such path (404)', 'POST /v2/nothing HTTP/1.1', /^HTTP\/1\.1 404 /],
	['a method the path does not take (405)', 'PUT /v1/puyo HTTP/1.1', /^HTTP\/1\.1 405 /],
	['an Accept the path cannot answer (406)', 'POST /v1/puyo HTTP/1.1\r\nAuthorization: Bearer a-token-nobody-sends\r\nAccept: application/xml', /^HTTP\/1\.1 406 /],
];

for (const [name, line, want] of CASES) {
	test(`${CLIENTS} clients sending 1 MiB each to ${name}: answered from the headers, server RSS +8 MiB at most`, async () => {
		const head = `${line}\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: ${MIB}\r\n\r\n`;
		await sleep(300);
		const before = memory(server.pid).rss;
		resetPeak(server.pid);
		const results = await Promise.all(Array.from({ length: CLIENTS }, () => send(server.port, head, MIB)));
		const peak = memory(server.pid).hwm - before;
		for (const r of results) assert.match(r.status, want);
		console.log(`a body of 1 MiB from ${CLIENTS} clients to ${name}: peak extra RSS ${(peak / MIB).toFixed(1)} MiB`);
		assert.ok(peak <= 8 * MIB, `peak extra RSS ${(peak / MIB).toFixed(1)} MiB`);
	});
}
