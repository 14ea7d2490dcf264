// Observability of the real server: GET /metrics passes promtool and its
// counters move by exactly what a known mix of requests should add; every
// answer carries X-Request-Id (the client's when sane); the access log has
// one well-formed line per request, never interleaved, in JSON and text,
// and none when off; the start, drain and stop lines are JSON in JSON mode.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { spawn } from 'node:child_process';
import { startServer, request, sleep, tmpFile, timeScale } from './helper.mjs';

const MD_TEXT = '8\n1 1 1\n2 3 0\n3 2 2\n3 2 3\n3 1 3\n2 0 0\n3 2 0\n3 1 2\n';
const PUBLIC = ['......', '......', '......', '......', '......', '......', '......', '......', '.Y....', '.YG...', 'RRYG..', 'RRYGG.'];

// Parses the exposition text into Map(series -> number).
function parseMetrics(text) {
	const m = new Map();
	for (const line of text.split('\n')) {
		if (!line || line.startsWith('#')) continue;
		const i = line.lastIndexOf(' ');
		m.set(line.slice(0, i), Number(line.slice(i + 1)));
	}
	return m;
}

async function scrape(server) {
	const res = await request(server, { path: '/metrics' });
	assert.equal(res.status, 200);
	assert.equal(res.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
	return { text: res.body, m: parseMetrics(res.body) };
}

function promtool(text) {
	return new Promise((resolve) => {
		const p = spawn('promtool', ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
		let out = '';
		p.stdout.on('data', (d) => { out += d; });
		p.stderr.on('data', (d) => { out += d; });
		p.on('exit', (code) => resolve({ code, out }));
		p.stdin.end(text);
	});
}

// Access lines of server.log (stdout and stderr): the JSON objects with a request_id.
function accessLines(server) {
	return server.log.split('\n').filter((l) => l.startsWith('{"time"') && l.includes('"request_id"'))
		.map((l) => JSON.parse(l));
}

async function waitFor(pred, what, ms = 5000) {
	const end = Date.now() + ms * timeScale;
	while (!pred()) {
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await sleep(20);
	}
}

test('metrics: promtool finds nothing to say, and a known mix moves every counter by exactly its share', async () => {
	const server = await startServer({ env: { LOG_FORMAT: 'json' } });
	const before = await scrape(server);

	const md = { path: '/v1/monomino-domino', contentType: 'text/plain', accept: 'text/plain' };
	const sent = [];
	const go = async (req) => { const r = await request(server, req); sent.push(req); return r; };
	for (let i = 0; i < 3; i++) assert.equal((await go({ path: '/livez' })).status, 200);
	assert.equal((await go({ path: '/livez', method: 'HEAD' })).status, 200);
	assert.equal((await go({ ...md, body: MD_TEXT })).body, '2\n15\n');
	assert.equal((await go({ ...md, body: '1\n4 0 0\n' })).status, 422);
	const batch = { cases: [{ blocks: [[1, 1, 1]] }, { blocks: [[4, 0, 0]] }, { blocks: [] }] };
	assert.equal((await go({ path: '/v1/monomino-domino', body: batch })).status, 200);
	const puyoAnswers = [];
	const puyo = await go({ path: '/v1/puyo', body: { field: PUBLIC } });
	assert.equal(puyo.json.chains, 3);
	puyoAnswers.push(puyo.body);
	// A stream counts its lines' cases and verdicts, and the bytes it sent.
	const ndjson = { contentType: 'application/x-ndjson', accept: 'application/x-ndjson' };
	const lines = [{ field: PUBLIC }, { bad: 1 }, { field: PUBLIC }].map((o) => JSON.stringify(o)).join('\n');
	const stream = await go({ path: '/v1/puyo', ...ndjson, body: lines });
	assert.equal(stream.status, 200);
	assert.match(stream.body, /"summary":\{"cases":3,"answered":2,"failed":1\}/);
	puyoAnswers.push(stream.body);
	const judge = (output) => ({ path: '/v1/puyo/judge', body: { input: { field: PUBLIC }, output } });
	assert.equal((await go(judge('3\n'))).json.verdict, 'accepted');
	assert.equal((await go(judge('2\n'))).json.verdict, 'wrong_answer');
	assert.equal((await go(judge(' 3'))).json.verdict, 'presentation_error');
	const judged = await go({ path: '/v1/puyo/judge', ...ndjson, body: JSON.stringify({ input: { field: PUBLIC }, output: '3\n' }) });
	assert.match(judged.body, /"verdict":"accepted"/);
	assert.equal((await go({ path: '/nowhere/../x?y=1' })).status, 404);
	for (const method of ['DELETE', 'BREW']) {
		const refused = await go({ path: '/v1/puyo', method });
		assert.equal(refused.status, 405);
		puyoAnswers.push(refused.body);
	}

	const after = await scrape(server);
	const delta = (k) => (after.m.get(k) ?? 0) - (before.m.get(k) ?? 0);
	const req = (route, method, code) => delta(`dropjudge_http_requests_total{route="${route}",method="${method}",code="${code}"}`);
	assert.equal(req('metrics', 'GET', 200), 1, 'the first scrape (the second is still in flight)');
	assert.equal(req('livez', 'GET', 200), 3);
	assert.equal(req('livez', 'HEAD', 200), 1);
	assert.equal(req('monomino_domino_solve', 'POST', 200), 2);
	assert.equal(req('monomino_domino_solve', 'POST', 422), 1);
	assert.equal(req('puyo_solve', 'POST', 200), 2);
	assert.equal(req('puyo_judge', 'POST', 200), 4);
	assert.equal(req('unknown', 'GET', 404), 1, 'an unknown path counts under one name, never its own');
	assert.equal(req('puyo_solve', 'DELETE', 405), 1);
	assert.equal(req('puyo_solve', 'other', 405), 1, 'a method outside the fixed set is "other"');
	assert.ok(!after.text.includes('nowhere') && !after.text.includes('BREW'));
	// Every request of the mix, plus the first scrape, and nothing else.
	let total = 0;
	for (const [k, v] of after.m) if (k.startsWith('dropjudge_http_requests_total{')) total += v - (before.m.get(k) ?? 0);
	assert.equal(total, sent.length + 1);
	assert.equal(delta('dropjudge_http_request_duration_seconds_count{route="puyo_judge"}'), 4);
	assert.equal(delta('dropjudge_http_request_duration_seconds_bucket{route="puyo_judge",le="+Inf"}'), 4);
	assert.equal(delta('dropjudge_http_request_duration_seconds_count{route="livez"}'), 4);
	// Body bytes in: exactly the bodies the solve route received.
	const mdBytes = Buffer.byteLength(MD_TEXT) + Buffer.byteLength('1\n4 0 0\n') + Buffer.byteLength(JSON.stringify(batch));
	assert.equal(delta('dropjudge_http_request_bytes_total{route="monomino_domino_solve"}'), mdBytes);
	assert.equal(delta('dropjudge_http_response_bytes_total{route="livez"}'), 3 * '{"status":"ok"}\n'.length);
	assert.equal(delta('dropjudge_http_response_bytes_total{route="puyo_solve"}'),
		puyoAnswers.reduce((n, b) => n + Buffer.byteLength(b), 0), 'the answers of the route, a streamed one whole');
	// Cases: the single case, the bad single case, the batch's two good and one bad.
	assert.equal(delta('dropjudge_cases_total{problem="monomino-domino",outcome="solved"}'), 3);
	assert.equal(delta('dropjudge_cases_total{problem="monomino-domino",outcome="rejected"}'), 2);
	assert.equal(delta('dropjudge_cases_total{problem="puyo",outcome="solved"}'), 3, 'the single case and the stream\'s two');
	assert.equal(delta('dropjudge_cases_total{problem="puyo",outcome="rejected"}'), 1, 'the stream\'s bad line');
	for (const [v, n] of [['accepted', 2], ['wrong_answer', 1], ['presentation_error', 1]]) {
		assert.equal(delta(`dropjudge_judge_verdicts_total{problem="puyo",verdict="${v}"}`), n, v);
	}
	assert.equal(after.m.get('dropjudge_http_requests_in_flight'), 1, 'the scrape itself');
	assert.ok(after.m.get('dropjudge_http_connections_total') >= sent.length + 2);
	assert.equal(after.m.get('dropjudge_build_info{version="2.0.0"}'), 1);
	assert.equal(after.m.get('dropjudge_access_log_dropped_total'), 0);

	const check = await promtool(after.text);
	assert.equal(check.code, 0, check.out);
	assert.equal(check.out.trim(), '', `promtool said: ${check.out}`);
});

test('X-Request-Id: a sane one is echoed, anything else is replaced by 128 random bits, on every answer and in every problem body', async () => {
	const server = await startServer({ env: { LOG_FORMAT: 'json' } });
	const max = 'a'.repeat(128);
	const cases = [
		[{ path: '/livez', headers: { 'X-Request-Id': 'trace-1.A:b_c' } }, 'trace-1.A:b_c'],
		[{ path: '/livez', headers: { 'X-Request-Id': max } }, max],
		[{ path: '/v2', headers: { 'X-Request-Id': 'not-found-7' } }, 'not-found-7'],
		[{ path: '/v1/puyo', body: '{', headers: { 'X-Request-Id': 'bad-json' } }, 'bad-json'],
		[{ path: '/v1/puyo', body: 'x'.repeat(1100000), headers: { 'X-Request-Id': 'too-large' } }, 'too-large'],
	];
	let problems = 0;
	for (const [req, want] of cases) {
		const res = await request(server, req);
		assert.equal(res.headers['x-request-id'], want, `${req.path}`);
		if (res.mediaType === 'application/problem+json') {
			assert.equal(JSON.parse(res.body).request_id, want, `${req.path}: problem body`);
			problems++;
		}
	}
	assert.equal(problems, 3, '404, 400 and 413 are problems');
	const generated = new Set();
	for (const bad of [undefined, 'has space', 'a'.repeat(129), 'semi;colon', 'quote"']) {
		const res = await request(server, { path: '/readyz', headers: bad === undefined ? {} : { 'X-Request-Id': bad } });
		assert.match(res.headers['x-request-id'], /^[0-9a-f]{32}$/, `for ${bad}`);
		generated.add(res.headers['x-request-id']);
	}
	assert.equal(generated.size, 5, 'generated ids differ');
	// The log is written behind the answers: wait for the line of every request.
	const logged = (id) => accessLines(server).some((l) => l.request_id === id);
	await waitFor(() => [...cases.map(([, want]) => want), ...generated].every(logged), 'the log lines');
	const lines = accessLines(server);
	for (const [, want] of cases) assert.ok(lines.some((l) => l.request_id === want), `${want} in the log`);
	for (const id of generated) assert.ok(lines.some((l) => l.request_id === id), `${id} in the log`);
});

test('access log: one JSON line per request with every field, the start, drain and stop lines JSON too', async () => {
	const server = await startServer({ env: { LOG_FORMAT: 'json' }, autoStop: false });
	const first = JSON.parse(server.startLine);
	assert.equal(first.event, 'start');
	assert.match(first.msg, /^dropjudge 2\.0\.0 listening on http:\/\/127\.0\.0\.1:\d+$/);
	await request(server, { path: '/v1/monomino-domino', contentType: 'text/plain', body: MD_TEXT,
		headers: { 'X-Request-Id': 'one-line', 'User-Agent': 'ops-test "quoted"\u00e9' } });
	await waitFor(() => accessLines(server).some((l) => l.request_id === 'one-line'), 'the line');
	const line = accessLines(server).find((l) => l.request_id === 'one-line');
	assert.deepEqual(Object.keys(line), ['time', 'request_id', 'client', 'method', 'route', 'path', 'status',
		'bytes_in', 'bytes_out', 'duration_ms', 'user_agent']);
	assert.match(line.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
	assert.ok(Math.abs(Date.parse(line.time) - Date.now()) < 60000);
	assert.deepEqual([line.client, line.method, line.route, line.path, line.status, line.bytes_in],
		['127.0.0.1', 'POST', 'monomino_domino_solve', '/v1/monomino-domino', 200, MD_TEXT.length]);
	assert.ok(line.bytes_out > 0 && line.duration_ms >= 0);
	assert.equal(line.user_agent, 'ops-test "quoted"\u00e9');
	assert.equal(await server.stop(), server.exitStatus);
	assert.equal(server.exitStatus.code, 0);
	const events = server.log.split('\n').filter((l) => l.startsWith('{') && l.includes('"event"')).map((l) => JSON.parse(l));
	assert.deepEqual(events.map((e) => e.event), ['start', 'drain', 'stop']);
	for (const e of events) assert.deepEqual(Object.keys(e), ['time', 'level', 'event', 'msg']);
	// Nothing but JSON objects on the output.
	for (const l of server.log.split('\n').filter(Boolean)) assert.doesNotThrow(() => JSON.parse(l), l);
});

test('access log: 1,600 concurrent requests give 1,600 whole lines, none interleaved (400 under valgrind)', async () => {
	const server = await startServer({ env: { LOG_FORMAT: 'json' }, args: ['--threads', '4'] });
	// 16 connections: under the 32 one address may hold (--max-connections-per-ip),
	// with room for the start-up probe's, whose close a slow server may not have seen yet.
	const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
	const N = timeScale > 1 ? 400 : 1600; // fewer under valgrind
	const pad = 'p'.repeat(300); // long paths: a torn write would show
	const one = (i) => new Promise((resolve, reject) => {
		const r = http.get({ host: '127.0.0.1', port: server.port, path: `/${pad}/${i}`, agent,
			headers: { 'X-Request-Id': `load-${i}` } }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode)); });
		r.on('error', reject);
	});
	const statuses = await Promise.all(Array.from({ length: N }, (_, i) => one(i)));
	agent.destroy();
	assert.ok(statuses.every((s) => s === 404));
	await waitFor(() => accessLines(server).filter((l) => l.request_id.startsWith('load-')).length >= N, 'all lines', 10000);
	const raw = server.log.split('\n').filter((l) => l.includes('"load-'));
	assert.equal(raw.length, N);
	const ids = new Set();
	for (const l of raw) {
		const o = JSON.parse(l); // a torn or merged line would not parse
		const i = Number(o.request_id.slice(5));
		assert.equal(o.path, `/${pad}/${i}`);
		assert.equal(o.route, 'unknown');
		ids.add(o.request_id);
	}
	assert.equal(ids.size, N);
});

test('access log: each line names its own client, when one thread serves several addresses in turn', async () => {
	// One thread, so that every line is written by the same one, which keeps
	// the text of the last address it wrote: each line must still be its own.
	const server = await startServer({ env: { LOG_FORMAT: 'json' }, args: ['--host', '0.0.0.0', '--threads', '1'] });
	const from = ['127.0.0.1', '127.0.0.2', '127.0.0.2', '127.0.0.3', '127.0.0.1', '127.0.0.10'];
	for (const [i, localAddress] of from.entries()) {
		const status = await new Promise((resolve, reject) => {
			const r = http.get({ host: '127.0.0.1', port: server.port, path: '/livez', localAddress,
				agent: false, headers: { 'X-Request-Id': `addr-${i}` } }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode)); });
			r.on('error', reject);
		});
		assert.equal(status, 200);
	}
	const mine = () => accessLines(server).filter((l) => l.request_id.startsWith('addr-'));
	await waitFor(() => mine().length === from.length, 'the lines');
	for (const l of mine()) assert.equal(l.client, from[Number(l.request_id.slice(5))], l.request_id);
});

test('access log: --log-format text writes one line per request, off writes none', async () => {
	const text = await startServer({ args: ['--log-format', 'text'] });
	assert.match(text.startLine, /^dropjudge 2\.0\.0 listening on /);
	await request(text, { path: '/livez', headers: { 'X-Request-Id': 'txt-1', 'User-Agent': 'ua' } });
	await waitFor(() => text.log.includes('txt-1'), 'the text line');
	const line = text.log.split('\n').find((l) => l.includes('txt-1'));
	assert.match(line, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z txt-1 127\.0\.0\.1 "GET \/livez" 200 0 16 \d+\.\d{3}ms livez "ua"$/);

	const off = await startServer({ env: { LOG_FORMAT: 'off' } });
	await request(off, { path: '/livez', headers: { 'X-Request-Id': 'off-1' } });
	await sleep(200);
	assert.ok(!off.log.includes('off-1'));
	assert.match(off.startLine, /^dropjudge 2\.0\.0 listening on /);
});

test('with bearer tokens required, metrics are read with a token and count the refusals', async () => {
	const server = await startServer({ args: ['--auth-token-file', tmpFile('s3cret-token\n')] });
	assert.equal((await request(server, { path: '/v1' })).status, 401);
	const res = await request(server, { path: '/metrics', headers: { Authorization: 'Bearer s3cret-token' } });
	assert.equal(res.status, 200);
	const m = parseMetrics(res.body);
	assert.equal(m.get('dropjudge_http_requests_total{route="v1",method="GET",code="401"}'), 1);
	assert.ok(!res.body.includes('s3cret'));
});

test('a 413 decided from Content-Length counts and logs under its route, not "unknown"', async () => {
	const small = await startServer({ env: { LOG_FORMAT: 'json' }, args: ['--max-body', '1024'] });
	const before = await scrape(small);
	const res = await request(small, { path: '/v1/puyo', body: `{"field": "${'.'.repeat(4096)}"}` });
	assert.equal(res.status, 413);
	const lost = await request(small, { path: '/nowhere', method: 'POST', body: '.'.repeat(4096), contentType: 'text/plain' });
	const after = await scrape(small);
	const delta = (k) => (after.m.get(k) ?? 0) - (before.m.get(k) ?? 0);
	assert.equal(delta('dropjudge_http_requests_total{route="puyo_solve",method="POST",code="413"}'), 1, after.text);
	assert.equal(delta('dropjudge_http_requests_total{route="unknown",method="POST",code="413"}'), 0);
	// a path no route matches is "unknown", whatever its status (README, OPERATING.md)
	assert.equal(delta(`dropjudge_http_requests_total{route="unknown",method="POST",code="${lost.status}"}`), 1);
	await waitFor(() => accessLines(small).some((l) => l.status === 413), 'the 413 access line');
	assert.equal(accessLines(small).find((l) => l.status === 413).route, 'puyo_solve');
});

// Runs the binary with args and LOG_FORMAT, gives `during` the port it
// listens on (when it does), then stops it; resolves to its stderr lines.
async function stderrOf(args, format, during = async () => {}) {
	const { BIN } = await import('./helper.mjs');
	const p = spawn(BIN, args, { env: { ...process.env, LOG_FORMAT: format }, stdio: ['ignore', 'pipe', 'pipe'] });
	let out = '';
	let err = '';
	p.stdout.on('data', (d) => { out += d; });
	p.stderr.on('data', (d) => { err += d; });
	const exited = new Promise((r) => p.on('exit', r));
	const port = await Promise.race([
		(async () => { await waitFor(() => /listening on http:\/\/[^:]+:(\d+)/.test(out), 'the start line'); return Number(out.match(/listening on http:\/\/[^:]+:(\d+)/)[1]); })(),
		exited.then(() => null),
	]);
	if (port) {
		await during(port);
		p.kill('SIGTERM');
	}
	await exited;
	return err.split('\n').filter((l) => l !== '');
}

test('with --log-format json every stderr line is JSON, libmicrohttpd\'s own and the slow-client line included; text keeps plain lines', async () => {
	const taken = await startServer();
	// A port in use: libmicrohttpd says why it cannot bind, through our logger.
	const busy = await stderrOf(['serve', '--port', String(taken.port), '--log-format', 'json'], 'json');
	assert.ok(busy.length >= 1, 'libmicrohttpd said nothing');
	for (const l of busy) assert.doesNotThrow(() => JSON.parse(l), `not JSON: ${l}`);
	const mhd = busy.map((l) => JSON.parse(l)).find((o) => o.event === 'libmicrohttpd');
	assert.ok(mhd, busy.join('\n'));
	assert.match(mhd.msg, /bind/i);
	for (const k of ['time', 'level', 'event', 'msg']) assert.equal(typeof mhd[k], 'string', k);
	// A client that sends nothing before --header-timeout is closed, and said so, in JSON.
	const idle = async (port) => {
		const s = net.connect({ port, host: '127.0.0.1' });
		s.on('error', () => {});
		await new Promise((r) => s.on('close', r));
		await sleep(300);
	};
	const slow = await stderrOf(['serve', '--port', '0', '--header-timeout', '1'], 'json', idle);
	for (const l of slow) assert.doesNotThrow(() => JSON.parse(l), `not JSON: ${l}`);
	assert.ok(slow.map((l) => JSON.parse(l)).some((o) => o.event === 'connections' && /did not arrive in time/.test(o.msg)), slow.join('\n'));
	// The same two in text: plain lines.
	const busyText = await stderrOf(['serve', '--port', String(taken.port)], 'text');
	assert.ok(busyText.some((l) => /^dropjudge: libmicrohttpd: .*bind/i.test(l)), busyText.join('\n'));
	const slowText = await stderrOf(['serve', '--port', '0', '--header-timeout', '1'], 'text', idle);
	assert.ok(slowText.some((l) => /^dropjudge: closed 1 connection\(s\) whose request did not arrive in time$/.test(l)), slowText.join('\n'));
});
