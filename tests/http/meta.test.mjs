// Meta endpoints (livez, healthz, readyz, /v1, /openapi.yaml), unknown
// paths and methods, and the program's command line (start line, flags,
// --version, --help, healthcheck).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, request, run, BIN, SPEC_TEXT, SPEC } from './helper.mjs';

const server = await startServer({
	args: ['--max-body', '200000', '--max-blocks', '5000', '--max-batch', '77', '--timeout', '3'],
});

test('the start line says where the server listens', () => {
	assert.match(server.startLine, /^dropjudge 2\.0\.0 listening on http:\/\/127\.0\.0\.1:\d+$/);
	assert.ok(server.port > 0);
});

for (const p of ['/livez', '/healthz']) {
	test(`GET ${p} answers ok`, async () => {
		const res = await request(server, { path: p });
		assert.equal(res.status, 200);
		assert.equal(res.mediaType, 'application/json');
		assert.deepEqual(res.json, { status: 'ok' });
	});
}

test('GET /readyz answers ready while serving', async () => {
	const res = await request(server, { path: '/readyz' });
	assert.equal(res.status, 200);
	assert.deepEqual(res.json, { status: 'ready' });
});

test('GET /v1 names the service, its problems and the limits in force', async () => {
	const res = await request(server, { path: '/v1' });
	assert.equal(res.status, 200);
	assert.equal(res.json.name, 'dropjudge');
	assert.equal(res.json.version, '2.0.0');
	assert.deepEqual(res.json.problems.map((p) => p.id).sort(), ['monomino-domino', 'puyo']);
	const md = res.json.problems.find((p) => p.id === 'monomino-domino');
	const puyo = res.json.problems.find((p) => p.id === 'puyo');
	assert.equal(md.baekjoon, 20061);
	assert.equal(puyo.baekjoon, 11559);
	assert.equal(res.json.limits.max_body, 200000);
	assert.equal(res.json.limits.max_blocks, 5000);
	assert.equal(res.json.limits.max_batch, 77);
});

test('GET /openapi.yaml serves this repository\'s openapi.yaml byte for byte', async () => {
	const res = await request(server, { path: '/openapi.yaml' });
	assert.equal(res.status, 200);
	assert.equal(res.mediaType, 'application/yaml');
	assert.equal(res.body, SPEC_TEXT);
});

test('the spec covers every endpoint of both issues', () => {
	const want = {
		'/v1/monomino-domino': 'post', '/v1/puyo': 'post',
		'/v1/monomino-domino/judge': 'post', '/v1/puyo/judge': 'post',
		'/v1/monomino-domino/validate': 'post', '/v1/puyo/validate': 'post',
		'/v1/monomino-domino/generate': 'get', '/v1/puyo/generate': 'get',
		'/livez': 'get', '/healthz': 'get', '/readyz': 'get', '/v1': 'get', '/openapi.yaml': 'get',
	};
	for (const [p, m] of Object.entries(want)) assert.ok(SPEC.paths[p]?.[m], `${m} ${p}`);
});

test('HEAD on a GET resource answers the headers without a body', async () => {
	const res = await request(server, { method: 'HEAD', path: '/livez' });
	assert.equal(res.status, 200);
	assert.equal(res.body, '');
});

for (const p of ['/index.html', '/v2', '/v1/tetris', '/v1/puyo/solve', '/livez//', '/v1/monomino-domino/judge/x', '/V1/puyo', '/errors/no-such-type']) {
	test(`an unknown path (${p}) is 404 problem+json`, async () => {
		const res = await request(server, { path: p });
		assert.equal(res.status, 404);
		assert.equal(res.json.type, '/errors/not-found');
		assert.equal(res.json.title, 'No such resource');
	});
}

for (const [p, to] of [['/livez/', '/livez'], ['/v1/', '/v1'], ['/v1/puyo/generate/?seed=1&colors=3', '/v1/puyo/generate?seed=1&colors=3']]) {
	test(`a known path with a trailing slash (${p}) is 308 to ${to}, query kept`, async () => {
		const [pathPart, query] = p.split('?');
		const res = await request(server, { path: pathPart, query });
		assert.equal(res.status, 308);
		assert.equal(res.headers.location, to);
	});
}

test('a POST to a known path with a trailing slash is 308, so that curl -L resends it', async () => {
	const res = await request(server, { path: '/v1/puyo/', body: '{}' });
	assert.equal(res.status, 308);
	assert.equal(res.headers.location, '/v1/puyo');
});

test('GET / answers an index of the service in JSON, with links to /v1, /openapi.yaml and the problems', async () => {
	const res = await request(server, { path: '/' });
	assert.equal(res.status, 200);
	assert.equal(res.mediaType, 'application/json');
	assert.equal(res.json.links.api, '/v1');
	assert.equal(res.json.links.openapi, '/openapi.yaml');
	assert.deepEqual(res.json.problems.map((p) => p.path), ['/v1/monomino-domino', '/v1/puyo']);
	assert.match(res.headers.vary ?? '', /Accept/);
});

test('GET / with Accept: text/html (a browser) answers the viewer page', async () => {
	const res = await request(server, { path: '/', accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' });
	assert.equal(res.status, 200);
	assert.equal(res.mediaType, 'text/html');
	assert.match(res.body, /viewer\.js/);
	assert.match(res.headers.vary, /Accept/);
});

const wrongMethods = [
	['GET', '/v1/monomino-domino', 'POST'],
	['PUT', '/v1/puyo', 'POST'],
	['DELETE', '/v1/puyo/judge', 'POST'],
	['GET', '/v1/monomino-domino/validate', 'POST'],
	['POST', '/v1/puyo/generate', 'GET'],
	['POST', '/livez', 'GET'],
	['DELETE', '/readyz', 'GET'],
	['PATCH', '/v1', 'GET'],
	['POST', '/openapi.yaml', 'GET'],
];
for (const [method, p, allow] of wrongMethods) {
	test(`${method} ${p} is 405 with Allow naming ${allow}`, async () => {
		const req = { method, path: p };
		if (method !== 'GET' && method !== 'DELETE') {
			req.body = '{}';
		}
		const res = await request(server, req);
		assert.equal(res.status, 405);
		assert.ok(res.headers.allow, 'Allow header');
		const methods = res.headers.allow.split(',').map((s) => s.trim());
		assert.ok(methods.includes(allow), `Allow: ${res.headers.allow}`);
		assert.ok(!methods.includes(method), `Allow: ${res.headers.allow}`);
		assert.equal(res.json.type, '/errors/method-not-allowed');
	});
}

test('--version prints the version and the libraries it runs with, and exits 0', async () => {
	const r = await run(BIN, ['--version']);
	assert.equal(r.code, 0);
	assert.match(r.stdout, /^dropjudge 2\.0\.0\nlibmicrohttpd \d+\.\d+\.\d+, jansson \d+\.\d+(\.\d+)?, GnuTLS \d+\.\d+\.\d+, libarchive \d+\.\d+\.\d+\n$/);
});

test('--help describes the subcommands and exits 0', async () => {
	const r = await run(BIN, ['--help']);
	assert.equal(r.code, 0);
	for (const word of ['serve', 'solve', 'healthcheck', '--port', '--max-body', '--max-batch']) {
		assert.ok((r.stdout + r.stderr).includes(word), word);
	}
});

test('each subcommand\'s --help is its own: usage, its flags, one example; --help keeps the whole manual', async () => {
	const full = (await run(BIN, ['--help'])).stdout;
	for (const [cmd, flags] of [
		['check', ['--problem', '--protocol']],
		['validate', ['--problem', '--protocol']],
		['package', ['--problem', '--format', '--tests', '--seed', '--min-chains']],
		['healthcheck', ['--host', '--port', '--tls-cert']],
		['serve', ['--host', '--port', '--max-body', '--log-format']],
	]) {
		const r = await run(BIN, [cmd, '--help']);
		assert.equal(r.code, 0, `${cmd} --help: ${r.stderr}`);
		const lines = r.stdout.split('\n');
		assert.match(lines[0], new RegExp(`^Usage: dropjudge (\\[${cmd}\\]|${cmd}) `), `${cmd}: ${lines[0]}`);
		for (const f of flags) assert.ok(r.stdout.includes(f), `${cmd} --help names ${f}`);
		const ex = lines.indexOf('Example:');
		assert.ok(ex > 0, `${cmd} --help has an example`);
		assert.match(lines[ex + 1], new RegExp(`^  dropjudge ${cmd} `));
		assert.ok(r.stdout.length < full.length / 2 || cmd === 'serve', `${cmd} --help is not the whole manual`);
		assert.ok(!r.stdout.includes('Exit status:'), `${cmd} --help is its own`);
		for (const other of ['check --problem', 'package --problem', 'healthcheck [--host']) {
			if (!other.startsWith(cmd)) assert.ok(!r.stdout.includes(`\n${other}`), `${cmd} --help holds ${other}`);
		}
	}
	// the whole manual is wrapped for a terminal (and so is the man page made from it)
	const wide = full.split('\n').filter((l) => l.length > 80);
	assert.deepEqual(wide, [], 'lines of --help wider than 80 columns');
	// the whole manual: every part, each after a blank line
	for (const part of ['check --problem', 'validate --problem', 'package --problem', 'solve puyo --lines [FILE]\n  One field', 'healthcheck [--host']) {
		assert.ok(full.includes(`\n\n${part}`), `a blank line before ${part}`);
	}
});

for (const [args, name] of [
	[['serve', '--port', 'abc'], '--port'],
	[['serve', '--port', '70000'], '--port'],
	[['serve', '--max-body', '-1'], '--max-body'],
	[['serve', '--threads', 'x'], '--threads'],
	[['serve', '--no-such-flag'], '--no-such-flag'],
	[['serve', '--timeout', ''], '--timeout'],
]) {
	test(`a bad flag (${args.slice(1).join(' ')}) exits 2 naming ${name}`, async () => {
		const r = await run(BIN, args, { timeout: 5000 });
		assert.equal(r.code, 2, `exit ${r.code} ${r.signal ?? ''}: ${r.stderr}`);
		assert.ok(r.stderr.includes(name), r.stderr);
	});
}

test('a bad environment value (PORT=abc) exits 2 naming PORT', async () => {
	const { spawnSync } = await import('node:child_process');
	const r = spawnSync(BIN, ['serve'], { env: { ...process.env, PORT: 'abc' }, timeout: 5000, encoding: 'utf8' });
	assert.equal(r.status, 2, r.stderr);
	assert.ok(r.stderr.includes('PORT'), r.stderr);
});

test('a flag wins over its environment variable', async () => {
	const s = await startServer({ args: ['--max-batch', '9'], env: { MAX_BATCH: '3', MAX_BLOCKS: '12' } });
	const res = await request(s, { path: '/v1' });
	assert.equal(res.json.limits.max_batch, 9);
	assert.equal(res.json.limits.max_blocks, 12);
	const st = await s.stop();
	assert.equal(st.code, 0);
});

test('healthcheck exits 0 when /livez answers on the port', async () => {
	const r = await run(BIN, ['healthcheck', '--port', String(server.port)], { timeout: 10000 });
	assert.equal(r.code, 0, r.stderr);
});

test('healthcheck exits non-zero when nothing listens', async () => {
	const r = await run(BIN, ['healthcheck', '--port', '1'], { timeout: 10000 });
	assert.notEqual(r.code, 0);
});
