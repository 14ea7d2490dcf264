// HTTP behaviour shared by every endpoint: Content-Type (415), Accept and
// q-values (406, ties to JSON), body limits by Content-Length and by a
// chunked body (413), chunked request bodies, keep-alive, idle timeouts,
// and bad requests that must not disturb other requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startServer, request, curlSequence, sleep } from './helper.mjs';

const server = await startServer({ args: ['--timeout', '2'] });
const limited = await startServer({ args: ['--max-body', '1000'] });
const MD_TEXT = '8\n1 1 1\n2 3 0\n3 2 2\n3 2 3\n3 1 3\n2 0 0\n3 2 0\n3 1 2\n';
const MOVES = [[1, 1, 1], [2, 3, 0], [3, 2, 2], [3, 2, 3], [3, 1, 3], [2, 0, 0], [3, 2, 0], [3, 1, 2]];

for (const contentType of ['application/xml', 'text/html', 'multipart/form-data; boundary=x',
	'application/x-www-form-urlencoded', 'text/plain; charset=latin1', 'application/json; charset=iso-8859-1',
	'text/csv', 'application/jsonx', 'garbage']) {
	test(`Content-Type ${contentType} is 415`, async () => {
		const res = await request(server, { path: '/v1/monomino-domino', body: MD_TEXT, contentType });
		assert.equal(res.status, 415);
		assert.equal(res.json.type, '/errors/unsupported-media-type');
	});
}

test('a body without Content-Type is 415', async () => {
	for (const p of ['/v1/monomino-domino', '/v1/puyo/validate', '/v1/puyo/judge']) {
		const res = await request(server, { path: p, body: MD_TEXT, contentType: null });
		assert.equal(res.status, 415, p);
	}
});

test('media types are case-insensitive and take an utf-8 charset in any case', async () => {
	for (const contentType of ['Text/Plain', 'TEXT/PLAIN; CHARSET=UTF-8', 'text/plain;charset="utf-8"']) {
		const res = await request(server, { path: '/v1/monomino-domino', body: MD_TEXT, contentType, accept: 'text/plain' });
		assert.equal(res.status, 200, contentType);
		assert.equal(res.body, '2\n15\n');
	}
	const j = await request(server, { path: '/v1/monomino-domino', body: { blocks: MOVES }, contentType: 'Application/JSON' });
	assert.equal(j.json.score, 2);
});

const negotiation = [
	['application/json, text/plain', 'application/json'],
	['text/plain, application/json', 'application/json'],
	['text/plain;q=0.9, application/json;q=0.9', 'application/json'],
	['text/plain, application/json;q=0.9', 'text/plain'],
	['*/*;q=0.1, text/plain', 'text/plain'],
	['text/*;q=0.8, application/json;q=0.5', 'text/plain'],
	['application/*, application/json;q=0, text/plain;q=0.5', 'text/plain'],
	['text/html, */*;q=0.2', 'application/json'],
	['application/json;q=0.001', 'application/json'],
	['text/plain;format=flowed', 'text/plain'],
	['image/*', 'image/svg+xml'],
	['image/svg+xml;q=0.5, application/json', 'application/json'],
];
for (const [accept, want] of negotiation) {
	test(`Accept: ${accept} gives ${want}`, async () => {
		const res = await request(server, { path: '/v1/monomino-domino', body: MD_TEXT, contentType: 'text/plain', accept });
		assert.equal(res.status, 200);
		assert.equal(res.mediaType, want);
	});
}

for (const accept of ['application/xml', 'text/html', 'application/json;q=0', 'text/plain;q=0, application/json;q=0',
	'*/*;q=0', 'text/*, text/plain;q=0', 'image/png', 'audio/*']) {
	test(`Accept: ${accept} is 406`, async () => {
		const res = await request(server, { path: '/v1/monomino-domino', body: MD_TEXT, contentType: 'text/plain', accept });
		assert.equal(res.status, 406);
		assert.equal(res.mediaType, 'application/problem+json');
		assert.equal(res.json.type, '/errors/not-acceptable');
	});
}

// --- limits -------------------------------------------------------------

// A valid Monomino-Domino text of exactly `size` bytes (padding with blank
// lines after the last placement, which the lenient reader accepts).
function textOfSize(size) {
	const head = '2\n1 0 0\n1 0 0\n';
	return head + '\n'.repeat(size - head.length);
}

test('a body of exactly max_body bytes is taken', async () => {
	const res = await request(limited, { path: '/v1/monomino-domino', body: textOfSize(1000), contentType: 'text/plain', accept: 'text/plain' });
	assert.equal(res.status, 200);
	assert.equal(res.body, '0\n4\n');
});

test('a body over max_body is 413 by Content-Length (with and without Expect: 100-continue)', async () => {
	for (const expectContinue of [false, true]) {
		const res = await request(limited, { path: '/v1/monomino-domino', body: textOfSize(1001), contentType: 'text/plain', expectContinue,
			headers: expectContinue ? { Expect: '100-continue' } : {} });
		assert.equal(res.status, 413, `expect ${expectContinue}`);
		assert.equal(res.json.type, '/errors/too-large');
	}
	const big = await request(limited, { path: '/v1/puyo', body: 'x'.repeat(200000), contentType: 'application/json',
		expectContinue: true, headers: { Expect: '100-continue' } });
	assert.equal(big.status, 413);
});

test('a 413 sent before the body is read reaches a client still sending: the connection lingers, no reset (RFC 9112 9.6)', async () => {
	for (let round = 0; round < 3; round++) {
		const sock = net.connect({ port: limited.port, host: '127.0.0.1', allowHalfOpen: true });
		await new Promise((resolve, reject) => { sock.on('connect', resolve); sock.on('error', reject); });
		const errors = [];
		sock.on('error', (e) => errors.push(e.code));
		let answer = '';
		const ended = new Promise((resolve) => sock.on('end', resolve));
		sock.on('data', (d) => { answer += d.toString('latin1'); });
		sock.write('POST /v1/puyo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n');
		sock.write(Buffer.alloc(65536, 0x20));
		await ended; // the whole answer, then the server's end of stream
		assert.match(answer, /^HTTP\/1\.1 413 /, answer);
		assert.match(answer, /"\/errors\/too-large"/);
		// The client goes on sending what it announced: the bytes are taken
		// and dropped, where a closed socket would answer with a reset.
		for (let i = 0; i < 8; i++) {
			sock.write(Buffer.alloc(65536, 0x20));
			await sleep(40);
		}
		await sleep(300);
		assert.deepEqual(errors, [], 'no reset while the client still sends');
		sock.end();
		sock.destroy();
	}
	const res = await request(limited, { path: '/livez' });
	assert.equal(res.status, 200);
});

test('a chunked body over max_body is 413', async () => {
	const res = await request(limited, { path: '/v1/monomino-domino', body: textOfSize(5000), contentType: 'text/plain', chunked: true });
	assert.equal(res.status, 413);
	assert.equal(res.json.type, '/errors/too-large');
	const after = await request(limited, { path: '/livez' });
	assert.equal(after.status, 200, 'the server goes on serving');
});

test('a chunked body within max_body is taken', async () => {
	const res = await request(limited, { path: '/v1/monomino-domino', body: MD_TEXT, contentType: 'text/plain', chunked: true, accept: 'text/plain' });
	assert.equal(res.status, 200);
	assert.equal(res.body, '2\n15\n');
});

test('chunked request bodies work for every POST endpoint, JSON and text', async () => {
	const big = { blocks: Array.from({ length: 20000 }, (_, i) => MOVES[i % 8]) };
	const a = await request(server, { path: '/v1/monomino-domino', body: big, chunked: true });
	assert.equal(a.status, 200);
	const b = await request(server, { path: '/v1/monomino-domino/validate', body: MD_TEXT, contentType: 'text/plain', chunked: true });
	assert.deepEqual(b.json, { valid: true });
	const c = await request(server, { path: '/v1/puyo/judge', chunked: true,
		body: { input: '......\n'.repeat(12), output: '0\n' } });
	assert.equal(c.json.verdict, 'accepted');
	const d = await request(server, { path: '/v1/puyo', chunked: true, body: { field: Array(12).fill('RRRR..') } });
	assert.equal(d.json.chains, 1);
});

test('an empty JSON body is 400; an empty text body is a located 400', async () => {
	const a = await request(server, { path: '/v1/monomino-domino', body: '' });
	assert.equal(a.status, 400);
	const b = await request(server, { path: '/v1/monomino-domino', body: '', contentType: 'text/plain' });
	assert.equal(b.status, 400);
	assert.equal(b.json.errors[0].line, 1);
});

test('binary garbage and invalid UTF-8 are client errors, never 500', async () => {
	const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d]);
	for (const contentType of ['application/json', 'text/plain']) {
		for (const p of ['/v1/monomino-domino', '/v1/puyo', '/v1/puyo/validate', '/v1/monomino-domino/validate']) {
			const res = await request(server, { path: p, body: bytes, contentType });
			assert.ok(res.status >= 200 && res.status < 500, `${p} ${contentType}: ${res.status}`);
		}
	}
	const bad = await request(server, { path: '/v1/puyo', body: '{"field": ["\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9"]}' });
	assert.equal(bad.status, 422);
});

// --- connections ------------------------------------------------------------

test('keep-alive: two URLs in one curl run share a connection', async () => {
	const { done } = curlSequence(server, [{ path: '/livez' }, { path: '/v1' }], { verbose: true });
	const { responses, stderr, code } = await done;
	assert.equal(code, 0, stderr);
	assert.deepEqual(responses.map((r) => r.status), [200, 200]);
	assert.match(stderr, /Re-using existing (?:\w+: )?connection/);
});

test('keep-alive across POSTs of both formats, errors included', async () => {
	const { done } = curlSequence(server, [
		{ path: '/v1/monomino-domino', body: MD_TEXT, contentType: 'text/plain', accept: 'text/plain' },
		{ path: '/v1/monomino-domino', body: { blocks: [[9, 9, 9]] } },
		{ path: '/v1/puyo', body: { field: Array(12).fill('RRRR..') } },
		{ path: '/nowhere' },
		{ path: '/v1/monomino-domino', body: MD_TEXT, contentType: 'text/plain', chunked: true, accept: 'text/plain' },
	], { verbose: true });
	const { responses, stderr, code } = await done;
	assert.equal(code, 0, stderr);
	assert.deepEqual(responses.map((r) => r.status), [200, 422, 200, 404, 200]);
	assert.equal(responses[0].body, '2\n15\n');
	assert.equal(responses[4].body, '2\n15\n');
	const reuses = stderr.match(/Re-using existing (?:\w+: )?connection/g) ?? [];
	assert.equal(reuses.length, 4, stderr);
});

test('an idle connection is closed after --timeout seconds', async () => {
	const started = Date.now();
	const sock = net.connect(server.port, '127.0.0.1');
	await new Promise((resolve, reject) => { sock.on('connect', resolve); sock.on('error', reject); });
	sock.write('POST /v1/puyo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n');
	const closed = await Promise.race([
		new Promise((resolve) => { sock.on('close', () => resolve(true)); sock.on('error', () => {}); sock.resume(); }),
		sleep(8000).then(() => false),
	]);
	sock.destroy();
	assert.ok(closed, 'the server closed the idle connection');
	assert.ok(Date.now() - started >= 1500, 'not before the timeout');
	const res = await request(server, { path: '/livez' });
	assert.equal(res.status, 200);
});

test('a stalled request does not hold up others', async () => {
	const sock = net.connect(server.port, '127.0.0.1');
	await new Promise((resolve) => sock.on('connect', resolve));
	sock.on('error', () => {});
	sock.write('POST /v1/puyo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n......');
	const res = await request(server, { path: '/v1/puyo', body: { field: Array(12).fill('RRRR..') } });
	assert.equal(res.json.chains, 1);
	sock.destroy();
});

test('80 concurrent requests, good and bad mixed, all answered correctly', async () => {
	const jobs = [];
	for (let i = 0; i < 80; i++) {
		const kind = i % 4;
		if (kind === 0) jobs.push(request(server, { path: '/v1/monomino-domino', body: MD_TEXT, contentType: 'text/plain', accept: 'text/plain' }).then((r) => assert.equal(r.body, '2\n15\n')));
		if (kind === 1) jobs.push(request(server, { path: '/v1/monomino-domino', body: '{"blocks": [[1, 1' }).then((r) => assert.equal(r.status, 400)));
		if (kind === 2) jobs.push(request(server, { path: '/v1/puyo', body: { field: Array(12).fill('RRRR..') } }).then((r) => assert.equal(r.json.chains, 1)));
		if (kind === 3) jobs.push(request(server, { path: '/v1/puyo', body: { field: ['RRRR'] } }).then((r) => assert.equal(r.status, 422)));
	}
	await Promise.all(jobs);
});
