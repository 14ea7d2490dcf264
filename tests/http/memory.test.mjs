// --connection-memory: each connection's memory, in which the request line
// and headers must fit and half of which reads a body. At the smallest
// setting the server still answers large bodies and large answers right
// (checked against the rules, reference.mjs); headers that do not fit are
// refused with 431 and the connection closed, where the default takes them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startServer, request, rng } from './helper.mjs';
import { mdLegal, mdSolve, puyoSolve } from './reference.mjs';

const SMALLEST = '4096';

// The status line and headers of the answer to one GET /livez whose
// X-Pad header carries `pad` bytes, on a connection of its own; also
// whether the server closed the connection after it.
function livezWithPad(server, pad) {
	return new Promise((resolve, reject) => {
		const socket = net.connect(server.port, '127.0.0.1');
		let got = '';
		socket.setEncoding('latin1');
		socket.on('data', (d) => { got += d; });
		socket.on('error', reject);
		socket.on('end', () => resolve({ text: got, closed: true }));
		socket.on('connect', () => {
			socket.write(`GET /livez HTTP/1.1\r\nHost: x\r\nX-Pad: ${'p'.repeat(pad)}\r\n\r\n`);
			// A kept-alive answer leaves the connection open: end it once
			// the whole answer is in.
			const check = setInterval(() => {
				if (/\r\n\r\n[\s\S]*\n$/.test(got) && !socket.destroyed) {
					clearInterval(check);
					socket.end();
					resolve({ text: got, closed: false });
				}
			}, 20);
			socket.on('close', () => clearInterval(check));
		});
	});
}

test(`with --connection-memory ${SMALLEST}, a 10,000-placement text case (60 KB) is answered by the rules`, async () => {
	const server = await startServer({ args: ['--connection-memory', SMALLEST] });
	const r = rng(20061).next;
	const blocks = [];
	while (blocks.length < 10000) {
		const b = [1 + Math.floor(r() * 3), Math.floor(r() * 4), Math.floor(r() * 4)];
		if (mdLegal(...b)) blocks.push(b);
	}
	const body = `${blocks.length}\n${blocks.map((b) => b.join(' ')).join('\n')}\n`;
	assert.ok(body.length > 50000, `a body of ${body.length} bytes`);
	const res = await request(server, { path: '/v1/monomino-domino', body, contentType: 'text/plain', accept: 'text/plain' });
	assert.equal(res.status, 200, res.body);
	const { score, tiles } = mdSolve(blocks, { steps: false });
	assert.equal(res.body, `${score}\n${tiles}\n`);
});

test(`with --connection-memory ${SMALLEST}, a 1000-case Puyo batch (an answer of 160 KB) is answered by the rules`, async () => {
	const server = await startServer({ args: ['--connection-memory', SMALLEST] });
	const r = rng(11559).next;
	const fields = Array.from({ length: 1000 }, () => Array.from({ length: 12 }, (_, row) =>
		row < 5 ? '......' : Array.from({ length: 6 }, () => 'RGBPY.'[Math.floor(r() * 6)]).join('')));
	const res = await request(server, { path: '/v1/puyo', body: { cases: fields.map((field) => ({ field })) } });
	assert.equal(res.status, 200);
	assert.ok(res.body.length > 100000, `an answer of ${res.body.length} bytes`);
	assert.equal(res.json.results.length, 1000);
	fields.forEach((f, i) => {
		const { steps, ...want } = puyoSolve(f);
		assert.deepEqual(res.json.results[i], want, `case ${i}`);
	});
});

test(`headers that do not fit in --connection-memory ${SMALLEST} get 431 and the connection closed; those that fit, and the same under the default, are served`, async () => {
	const small = await startServer({ args: ['--connection-memory', SMALLEST] });
	const fits = await livezWithPad(small, 2000);
	assert.match(fits.text, /^HTTP\/1\.1 200 /, fits.text);
	assert.match(fits.text, /\{"status":"ok"\}\n$/);
	const over = await livezWithPad(small, 6000);
	assert.match(over.text, /^HTTP\/1\.1 431 /, over.text);
	assert.ok(over.closed, 'the connection is closed after the 431');
	const usual = await startServer();
	const served = await livezWithPad(usual, 6000);
	assert.match(served.text, /^HTTP\/1\.1 200 /, served.text);
});
