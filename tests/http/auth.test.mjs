// Bearer tokens (--auth-token-file, RFC 6750): every /v1 path of the spec
// refuses a request without a known token (401 with the challenge), a
// malformed Authorization header is 400, health, readiness and the
// description stay open, tokens never reach the log or an answer, SIGHUP
// re-reads the file (keeping the old tokens when it cannot), and a file
// that cannot be used at start ends the process with status 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startServer, request, curlSequence, run, tmpFile, sleep, SPEC, BIN, timeScale } from './helper.mjs';

const GOOD = 'k7Qx-2p_Lm.v~9+/Zr==';
const OTHER = 'second-token-0042';
const TOKEN_FILE = `# tokens of the test\n\n   ${GOOD}\t\n# another\r\n${OTHER}\r\n`;
// The public example of Baekjoon 11559: 3 chains.
const PUYO = ['......', '......', '......', '......', '......', '......', '......', '......', '.Y....', '.YG...', 'RRYG..', 'RRYGG.'];
const CHALLENGE = 'Bearer realm="dropjudge"';

const bearer = (t) => ({ Authorization: `Bearer ${t}` });

// One request per operation of every /v1 path in the spec, as the spec has it.
function v1Requests(headers) {
	const out = [];
	for (const [p, item] of Object.entries(SPEC.paths)) {
		if (!p.startsWith('/v1')) continue;
		if (item.get) out.push({ path: p, headers });
		if (item.post) out.push({ path: p, body: { cases: [] }, headers });
	}
	return out;
}

async function waitForLog(server, re, what) {
	const end = Date.now() + 10000 * timeScale;
	while (!re.test(server.log)) {
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${server.log}`);
		await sleep(20);
	}
}

test('with a token file every /v1 path answers 401 with the challenge to a request without a token', async () => {
	const server = await startServer({ args: ['--auth-token-file', tmpFile(TOKEN_FILE)] });
	const reqs = v1Requests(undefined);
	assert.ok(reqs.length >= 9, 'every /v1 operation');
	const { responses } = await curlSequence(server, reqs).done;
	responses.forEach((res, i) => {
		const what = `${reqs[i].body ? 'POST' : 'GET'} ${reqs[i].path}`;
		assert.equal(res.status, 401, what);
		assert.equal(res.headers['www-authenticate'], CHALLENGE, what);
		assert.equal(res.json.type, '/errors/unauthorized', what);
	});
	// Another scheme is no bearer token either. The methods a path takes are
	// public (GET /openapi.yaml), so a wrong method is 405 before credentials.
	const basic = await request(server, { path: '/v1/puyo', body: { field: PUYO }, headers: { Authorization: 'Basic dXNlcjpwYXNz' } });
	assert.equal(basic.status, 401);
	assert.equal(basic.headers['www-authenticate'], CHALLENGE);
	const method = await request(server, { path: '/v1/puyo', method: 'DELETE' });
	assert.equal(method.status, 405);
});

test('a known token gets the right answer; an unknown one 401 invalid_token; a malformed header 400', async () => {
	const server = await startServer({ args: ['--auth-token-file', tmpFile(TOKEN_FILE)] });
	for (const token of [GOOD, OTHER]) {
		const res = await request(server, { path: '/v1/puyo', body: { field: PUYO }, headers: bearer(token) });
		assert.equal(res.status, 200);
		assert.equal(res.json.chains, 3);
	}
	const info = await request(server, { path: '/v1', headers: { Authorization: `bearer   ${GOOD}` } });
	assert.equal(info.status, 200, 'the scheme is case-insensitive, spaces before the token are fine');

	for (const token of [GOOD.slice(0, -1), `x${GOOD}`, GOOD.toLowerCase(), 'a', `${OTHER}${GOOD}`]) {
		const res = await request(server, { path: '/v1/puyo', body: { field: PUYO }, headers: bearer(token) });
		assert.equal(res.status, 401, token);
		assert.equal(res.headers['www-authenticate'], `${CHALLENGE}, error="invalid_token"`);
	}
	const malformed = ['Bearer', 'Bearer ', `Bearer ${GOOD} extra`, 'Bearer a=b', `Bearer\t${GOOD}`, 'Bearer é'];
	for (const value of malformed) {
		const res = await request(server, { path: '/v1/puyo', body: { field: PUYO }, headers: { Authorization: value } });
		assert.equal(res.status, 400, JSON.stringify(value));
		assert.equal(res.headers['www-authenticate'], `${CHALLENGE}, error="invalid_request"`);
		assert.match(res.json.detail, /Authorization header/);
	}
	// Two Authorization headers, even both good, are ambiguous.
	const twice = await run('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', '-H', `Authorization: Bearer ${GOOD}`,
		'-H', `Authorization: Bearer ${GOOD}`, `${server.base}/v1`]);
	assert.equal(twice.stdout, '400');
});

test('health, readiness and the description stay open with a token file', async () => {
	const server = await startServer({ args: ['--auth-token-file', tmpFile(TOKEN_FILE)] });
	for (const p of ['/livez', '/healthz', '/readyz', '/openapi.yaml']) {
		const res = await request(server, { path: p });
		assert.equal(res.status, 200, p);
		const wrong = await request(server, { path: p, headers: bearer('not-a-token') });
		assert.equal(wrong.status, 200, `${p} ignores credentials`);
	}
});

test('with a token file GET /metrics needs a token, unless --metrics-open 1 (or METRICS_OPEN=1)', async () => {
	const server = await startServer({ args: ['--auth-token-file', tmpFile(TOKEN_FILE)] });
	const none = await request(server, { path: '/metrics' });
	assert.equal(none.status, 401);
	assert.equal(none.headers['www-authenticate'], CHALLENGE);
	const wrong = await request(server, { path: '/metrics', headers: bearer('not-a-token') });
	assert.equal(wrong.status, 401);
	const good = await request(server, { path: '/metrics', headers: bearer(GOOD) });
	assert.equal(good.status, 200);
	assert.match(good.body, /^dropjudge_build_info\{/m);
	const open = await startServer({ args: ['--auth-token-file', tmpFile(TOKEN_FILE), '--metrics-open', '1'] });
	assert.equal((await request(open, { path: '/metrics' })).status, 200);
	assert.equal((await request(open, { path: '/v1' })).status, 401, '/v1 still needs the token');
	const byEnv = await startServer({ args: ['--auth-token-file', tmpFile(TOKEN_FILE)], env: { METRICS_OPEN: '1' } });
	assert.equal((await request(byEnv, { path: '/metrics' })).status, 200);
	const plain = await startServer();
	assert.equal((await request(plain, { path: '/metrics' })).status, 200, 'no token file: open');
});

test('a refused request is refused before its body is read, even past --max-body', async () => {
	const server = await startServer({ args: ['--auth-token-file', tmpFile(TOKEN_FILE), '--max-body', '100'] });
	const res = await request(server, { path: '/v1/puyo', body: 'x'.repeat(5000), contentType: 'text/plain' });
	assert.equal(res.status, 401);
});

test('tokens never appear in the log or in an answer', async () => {
	const server = await startServer({ args: ['--auth-token-file', tmpFile(TOKEN_FILE)] });
	const guess = 'guessed-Token-Value-77';
	const answers = [];
	for (const headers of [bearer(GOOD), bearer(guess), { Authorization: `Bearer ${guess} ${GOOD}` }]) {
		const res = await request(server, { path: '/v1/puyo', body: '{"field": 1', headers });
		answers.push(res.body);
	}
	await server.stop();
	for (const text of [server.log, ...answers]) {
		for (const t of [GOOD, OTHER, guess]) assert.ok(!text.includes(t), `${t} in ${text}`);
	}
});

test('SIGHUP re-reads the token file; a file that cannot be read keeps the tokens in force', async () => {
	const file = tmpFile(`${GOOD}\n`);
	const server = await startServer({ args: ['--auth-token-file', file] });
	const status = async (token) => (await request(server, { path: '/v1', headers: bearer(token) })).status;
	assert.equal(await status(GOOD), 200);
	assert.equal(await status(OTHER), 401);

	fs.writeFileSync(file, `# rotated\n${OTHER}\n`);
	process.kill(server.pid, 'SIGHUP');
	await waitForLog(server, /token file reloaded, 1 tokens/, 'the reload');
	assert.equal(await status(OTHER), 200);
	assert.equal(await status(GOOD), 401);

	// Missing, then holding a line that is not a token: the old set stays, the log says why.
	fs.rmSync(file);
	process.kill(server.pid, 'SIGHUP');
	await waitForLog(server, /cannot open the token file .*No such file or directory; keeping the 1 tokens in force/, 'the failed reload');
	assert.equal(await status(OTHER), 200);
	const secretish = 'super secret value';
	fs.writeFileSync(file, `${GOOD}\n${secretish}\n`);
	process.kill(server.pid, 'SIGHUP');
	await waitForLog(server, /:2: not a bearer token .*; keeping the 1 tokens in force/, 'the refused file');
	assert.equal(await status(OTHER), 200);
	assert.equal(await status(GOOD), 401, 'a file with a bad line is not taken in part');
	assert.ok(!server.log.includes(secretish), 'the bad line is not quoted');

	const health = await request(server, { path: '/livez' });
	assert.equal(health.status, 200, 'SIGHUP did not stop the service');
	assert.deepEqual(await server.stop(), { code: 0, signal: null });
});

test('a token file that cannot be used at start ends the process with status 2', async () => {
	const cases = [
		['/nonexistent/tokens', /cannot open the token file \/nonexistent\/tokens/],
		[tmpFile('# only comments\n\n'), /holds no token/],
		[tmpFile(`${GOOD}\nhunter two\n`), /:2: not a bearer token/],
	];
	for (const [file, re] of cases) {
		const res = await run(BIN, ['serve', '--host', '127.0.0.1', '--port', '0', '--auth-token-file', file], { timeout: 10000 * timeScale });
		assert.equal(res.code, 2, file);
		assert.match(res.stderr, re);
		assert.equal(res.stdout, '', 'never listened');
		assert.ok(!res.stderr.includes('hunter'), 'the bad line is not quoted');
	}
	const env = await run('/usr/bin/env', [`AUTH_TOKEN_FILE=/nonexistent/env-tokens`, BIN, 'serve', '--port', '0'], { timeout: 10000 * timeScale });
	assert.equal(env.code, 2);
	assert.match(env.stderr, /env-tokens/);
});
