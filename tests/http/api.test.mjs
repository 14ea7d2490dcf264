// The API's edges, one test per rule: messages in the project's words,
// faults listed and sorted, the same negotiation and parameters on every
// path, problem type pages, batches with ids, judge on any bytes, gzip both
// ways, CORS, and the command line points around serve and healthcheck.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { startServer, request, run, BIN, SPEC } from './helper.mjs';

const server = await startServer({ args: ['--max-blocks', '50'] });
const MD = '/v1/monomino-domino';
const PUYO = '/v1/puyo';
const PUBLIC = ['......', '......', '......', '......', '......', '......', '......', '......', '.Y....', '.YG...', 'RRYG..', 'RRYGG.'];
const LIBRARY_WORDS = /JSON_ALLOW_NUL|wrong arguments|end of file expected|near '|expected near|unable to decode/;

function assertOwnWords(json, what) {
	const all = [json.detail, ...(json.errors ?? []).map((e) => e.detail)].join(' | ');
	assert.doesNotMatch(all, LIBRARY_WORDS, `${what}: library text reached the client: ${all}`);
}

test('an empty JSON body is told in our words, not "wrong arguments"', async () => {
	const res = await request(server, { path: MD, body: '' });
	assert.equal(res.status, 400);
	assert.match(res.json.detail, /the body is empty/);
	assertOwnWords(res.json, 'empty body');
});

test('a \\u0000 in a JSON string is read, not refused with jansson words', async () => {
	const res = await request(server, { path: MD, body: '{"blocks": "\\u0000"}' });
	assert.equal(res.status, 422);
	assertOwnWords(res.json, '\\u0000');
});

for (const [body, want] of [
	['{"blocks": []} x', /unexpected 'x' after the end of the JSON value/],
	['{"blocks": [1,]}', /invalid JSON: unexpected/],
	['{"blocks": [], "blocks": []}', /appears twice/],
	['[1, 2', /ends before it is complete/],
	['"text"', /expected a JSON object/],
]) {
	test(`bad JSON ${JSON.stringify(body)} is a 400 in our words`, async () => {
		const res = await request(server, { path: MD, body });
		assert.equal(res.status, 400);
		assert.match(res.json.detail, want);
		assertOwnWords(res.json, body);
		assert.ok(res.json.errors[0].line >= 1);
	});
}

test('range errors echo the value received: "t must be 1, 2 or 3, got 7" (JSON and text)', async () => {
	const j = await request(server, { path: MD, body: { blocks: [[7, 0, 0]] } });
	assert.equal(j.status, 422);
	assert.equal(j.json.errors[0].detail, 't must be 1, 2 or 3, got 7');
	const t = await request(server, { path: MD, body: '1\n1 9 0\n', contentType: 'text/plain' });
	assert.equal(t.json.errors[0].detail, 'x must be 0..3, got 9');
	const q = await request(server, { path: `${PUYO}/generate`, query: { colors: '7' } });
	assert.equal(q.status, 422);
	assert.equal(q.json.errors[0].detail, 'must be 1..5, got 7');
});

for (const [path, body, pointer, number] of [
	[MD, '{"blocks": [[1, 99999999999999999999999, 1]]}', '/blocks/0/1', '99999999999999999999999'],
	[MD, '{"blocks": [[1, 2, 1],\n [1, -99999999999999999999999, 1]]}', '/blocks/1/1', '-99999999999999999999999'],
	[MD, '{"blocks": [[1, 1e400, 1]]}', '/blocks/0/1', '1e400'],
	[PUYO, '{"field": ["......", 99999999999999999999999]}', '/field/1', '99999999999999999999999'],
	[`${PUYO}/judge`, '{"a~/\\u00e9": [0, 1e400]}', '/a~0~1\u00e9/1', '1e400'],
	[`${MD}/judge`, '{"input": "1\\n1 1 1\\n", "output": 1e400}', '/output', '1e400'],
]) {
	test(`a number too large to read is 422 at its pointer ${pointer} (${path}), and a fault of the case on validate`, async () => {
		const res = await request(server, { path, body });
		assert.equal(res.status, 422);
		assert.equal(res.json.errors[0].pointer, pointer);
		assert.equal(res.json.errors[0].detail, `the number ${number} is too large to read`);
		assert.ok(res.json.detail.startsWith(`${pointer}, line `), res.json.detail);
		assertOwnWords(res.json, body);
		if (path.endsWith('/judge')) return;
		const v = await request(server, { path: `${path}/validate`, body });
		assert.equal(v.status, 200);
		assert.equal(v.json.valid, false);
		assert.deepEqual(v.json.errors, res.json.errors);
	});
}

test('a number too large to read is 422 in JSON and in text alike', async () => {
	const j = await request(server, { path: MD, body: '{"blocks": [[99999999999999999999, 0, 0]]}' });
	const t = await request(server, { path: MD, body: '1\n99999999999999999999 0 0\n', contentType: 'text/plain' });
	assert.equal(j.status, 422);
	assert.equal(t.status, j.status);
	assert.match(j.json.detail, /too large/);
});

test('415 names the type received and the types taken, and hints at curl -d', async () => {
	const res = await request(server, { path: MD, body: 'blocks=1', contentType: 'application/x-www-form-urlencoded' });
	assert.equal(res.status, 415);
	assert.match(res.json.detail, /application\/x-www-form-urlencoded/);
	assert.match(res.json.detail, /application\/json or text\/plain/);
	assert.match(res.json.detail, /-H 'Content-Type: application\/json'/);
	const none = await request(server, { path: `${PUYO}/judge`, body: '{}', contentType: null });
	assert.equal(none.status, 415);
	assert.match(none.json.detail, /no Content-Type; \/v1\/puyo\/judge takes application\/json/);
});

test('a UTF-8 byte-order mark is skipped by solve and judge, and named by validate', async () => {
	const bom = '\ufeff';
	const t = await request(server, { path: MD, body: `${bom}1\n1 1 1\n`, contentType: 'text/plain', accept: 'text/plain' });
	assert.equal(t.body, '0\n2\n');
	const j = await request(server, { path: PUYO, body: bom + JSON.stringify({ field: PUBLIC }) });
	assert.equal(j.json.chains, 3);
	const jd = await request(server, { path: `${MD}/judge`, body: bom + JSON.stringify({ input: '1\n1 1 1\n', output: '0\n2\n' }) });
	assert.equal(jd.json.verdict, 'accepted');
	const v = await request(server, { path: `${MD}/validate`, body: `${bom}1\n1 1 1\n`, contentType: 'text/plain' });
	assert.equal(v.json.valid, false);
	assert.match(v.json.errors[0].detail, /byte-order mark/);
	assert.deepEqual([v.json.errors[0].line, v.json.errors[0].column], [1, 1]);
});

test('a byte-order mark changes no answer: solve, judge, pictures, the Puyo search and each line of a stream skip it', async () => {
	const bom = '\ufeff';
	const lines = (mark) => [{ id: 'a', field: PUBLIC }, { field: PUBLIC }, { id: 7, field: ['R'] }]
		.map((c, i) => (i === 0 || mark ? bom : '') + JSON.stringify(c)).join('\n');
	const cases = [
		{ path: PUYO, body: JSON.stringify({ field: PUBLIC }), contentType: 'application/json', accept: 'application/json' },
		{ path: PUYO, body: `${PUBLIC.join('\n')}\n`, contentType: 'text/plain', accept: 'text/plain' },
		{ path: MD, body: '2\n1 1 1\n2 3 0\n', contentType: 'text/plain', accept: 'application/json' },
		{ path: `${MD}/judge`, body: JSON.stringify({ input: '1\n1 1 1\n', output: '0\n1\n' }), contentType: 'application/json', accept: 'application/json' },
		// a stream's lines each a body: a mark opening line 2 too (files joined by cat)
		{ path: PUYO, body: lines(false), marked: lines(true), contentType: 'application/x-ndjson', accept: 'application/x-ndjson' },
		{ path: PUYO, body: JSON.stringify({ field: PUBLIC }), contentType: 'application/json', accept: 'image/svg+xml' },
		{ path: PUYO, body: `${PUBLIC.join('\n')}\n`, contentType: 'text/plain', accept: 'image/svg+xml' },
		{ path: MD, body: JSON.stringify({ blocks: [[1, 1, 1], [2, 3, 0]] }), contentType: 'application/json', accept: 'image/svg+xml' },
		{ path: MD, body: '2\n1 1 1\n2 3 0\n', contentType: 'text/plain', accept: 'image/svg+xml' },
		{ path: `${PUYO}/search`, body: JSON.stringify({ field: PUBLIC, add: 1, colors: 'RG' }), contentType: 'application/json', accept: 'application/json' },
		{ path: `${PUYO}/search`, body: JSON.stringify({ field: PUBLIC, add: 1, colors: 'RG' }), contentType: 'application/json', accept: 'image/svg+xml' },
	];
	for (const c of cases) {
		const plain = await request(server, { ...c, method: 'POST' });
		const marked = await request(server, { ...c, method: 'POST', body: c.marked ?? bom + c.body });
		const what = `${c.path} ${c.contentType} as ${c.accept}`;
		assert.equal(plain.status, 200, `${what}: ${plain.body}`);
		assert.equal(marked.status, 200, `${what} after a byte-order mark: ${marked.body}`);
		assert.equal(marked.body, plain.body, what);
	}
});

test('solve lists every fault of a case, sorted by position (JSON pointers, text lines)', async () => {
	const blocks = Array.from({ length: 12 }, () => [1, 0, 0]);
	blocks[10] = [9, 0, 0];
	blocks[2] = [1, 8, 0];
	const j = await request(server, { path: MD, body: { blocks, zzz: 1 } });
	assert.equal(j.status, 422);
	assert.deepEqual(j.json.errors.map((e) => e.pointer), ['/blocks/2/1', '/blocks/10/0', '/zzz']);
	assert.equal(j.json.detail, `/blocks/2/1: ${j.json.errors[0].detail}`);
	const t = await request(server, { path: MD, body: '3\n1 0 9\n1 0 0\n4 0 0\n', contentType: 'text/plain' });
	assert.deepEqual(t.json.errors.map((e) => e.line), [2, 4]);
	const p = await request(server, { path: PUYO, body: { field: PUBLIC.map((r, i) => (i === 3 || i === 9 ? 'XXXXXX' : r)) } });
	assert.deepEqual([...new Set(p.json.errors.map((e) => e.pointer))], ['/field/3', '/field/9']);
});

test('solve lists up to 100 faults, then counts the rest in errors_omitted', async () => {
	const blocks = Array.from({ length: 40 }, () => [9, 9, 9]);
	const res = await request(server, { path: MD, body: { blocks } });
	assert.equal(res.json.errors.length, 100);
	assert.equal(res.json.errors_omitted, 20);
});

test('a root-level fault does not print "/:"', async () => {
	const res = await request(server, { path: PUYO, body: '[]' });
	assert.equal(res.status, 422);
	assert.ok(!res.json.detail.startsWith('/'), res.json.detail);
});

test('query errors say it once: "query parameter n: given twice"', async () => {
	const res = await request(server, { path: `${MD}/generate`, query: 'n=1&n=2' });
	assert.equal(res.status, 400);
	assert.equal(res.json.detail, 'query parameter n: given twice');
});

test('an unknown query parameter lists the known ones', async () => {
	const g = await request(server, { path: `${MD}/generate`, query: 'seeed=1' });
	assert.equal(g.status, 400);
	assert.match(g.json.detail, /takes seed, n, with_answer/);
	const v = await request(server, { path: `${MD}/validate`, query: 'trace=true', body: '0\n', contentType: 'text/plain' });
	assert.match(v.json.detail, /takes no query parameters/);
});

test('an unknown member lists the allowed ones, for every problem', async () => {
	const md = await request(server, { path: MD, body: { blocks: [], x: 1 } });
	assert.match(md.json.errors[0].detail, /"blocks", "trace" and "id"/);
	const puyo = await request(server, { path: PUYO, body: { field: PUBLIC, x: 1 } });
	assert.match(puyo.json.errors[0].detail, /"field", "trace" and "id"/);
	const judge = await request(server, { path: `${PUYO}/judge`, body: { input: { field: PUBLIC }, output: '3', x: 1 } });
	assert.match(judge.json.errors[0].detail, /"input", "output" or "output_base64", and "id"/);
	const batch = await request(server, { path: PUYO, body: { cases: [], x: 1 } });
	assert.match(batch.json.errors[0].detail, /holds only "cases"/);
});

test('the type URI of a problem is served: a page in JSON, or HTML for a browser', async () => {
	const err = await request(server, { path: MD, body: { blocks: [[7, 0, 0]] } });
	const page = await request(server, { path: err.json.type });
	assert.equal(page.status, 200);
	assert.equal(page.json.status, 422);
	assert.ok(page.json.fix.length > 10);
	const html = await request(server, { path: err.json.type, accept: 'text/html' });
	assert.equal(html.mediaType, 'text/html');
	assert.match(html.body, /How to fix it/);
	const list = await request(server, { path: '/errors' });
	assert.ok(list.json.types.some((t) => t.type === err.json.type));
});

test('the error types live at /errors, apart from the problems (puzzles); the old /problems paths answer 308', async () => {
	const err = await request(server, { path: MD, body: { blocks: [[7, 0, 0]] } });
	assert.equal(err.json.type, '/errors/invalid-input');
	const index = await request(server, { path: '/', accept: 'application/json' });
	assert.equal(index.json.links.error_types, '/errors');
	assert.ok(!JSON.stringify(index.json.links).includes('/problems'));
	assert.deepEqual(index.json.problems.map((p) => p.path), [MD, PUYO]);
	for (const [from, to] of [['/problems', '/errors'], ['/problems/invalid-input', '/errors/invalid-input'], ['/problems/busy?x=1', '/errors/busy?x=1']]) {
		const [p, q] = from.split('?');
		const res = await request(server, { path: p, query: q ? Object.fromEntries(new URLSearchParams(q)) : undefined });
		assert.equal(res.status, 308, from);
		assert.equal(res.headers.location, to, from);
		assert.equal((await request(server, { path: to.split('?')[0] })).status, 200, to);
	}
	assert.equal((await request(server, { path: '/problems/no-such-type' })).status, 404);
	assert.equal((await request(server, { path: '/problemsx' })).status, 404);
});

test('?trace= has one rule on every route that traces (solve, batch, judge)', async () => {
	const body = { field: PUBLIC };
	const bad = [];
	for (const path of [PUYO, `${PUYO}/judge`]) {
		const b = path === PUYO ? body : { input: body, output: '3\n' };
		bad.push(await request(server, { path, body: b, query: { trace: 'yes' } }));
	}
	for (const r of bad) {
		assert.equal(r.status, 400);
		assert.equal(r.json.detail, "query parameter trace: must be true, false, 1 or 0, got 'yes'");
	}
	const judged = await request(server, { path: `${PUYO}/judge`, body: { input: body, output: '3\n' }, query: { trace: '1' } });
	assert.equal(judged.json.steps.length, 3);
	const batch = await request(server, { path: PUYO, body: { cases: [body] }, query: { trace: 'true' } });
	assert.equal(batch.json.results[0].steps.length, 3);
	const text = await request(server, { path: PUYO, body, query: { trace: 'true' }, accept: 'text/plain' });
	assert.equal(text.status, 406);
	assert.match(text.json.detail, /application\/json only/);
	const own = await request(server, { path: PUYO, body: { ...body, trace: true }, accept: 'text/plain' });
	assert.equal(own.status, 406);
	assert.equal(own.json.errors[0].pointer, '/trace');
	const gen = await request(server, { path: `${PUYO}/generate`, query: { trace: 'true' } });
	assert.equal(gen.status, 400);
});

test('OPTIONS answers 204 with Allow on every path of the spec; Vary: Accept on negotiated answers', async () => {
	for (const [p, item] of Object.entries(SPEC.paths)) {
		const path = p.replace('{type}', 'invalid-input');
		const res = await request(server, { method: 'OPTIONS', path });
		// a path that only moved (the old /problems) answers 308 whatever the method
		const moved = Object.keys(item.get?.responses ?? {}).join() === '308';
		assert.equal(res.status, moved ? 308 : 204, path);
	}
	const res = await request(server, { path: '/livez' });
	assert.match(res.headers.vary, /Accept/);
});

test('a batch echoes each case\'s id and ends with a summary', async () => {
	const res = await request(server, {
		path: PUYO,
		body: { cases: [{ id: 'a', field: PUBLIC }, { id: 7, field: [] }, { field: PUBLIC }] },
	});
	assert.equal(res.json.results[0].id, 'a');
	assert.equal(res.json.results[1].id, 7);
	assert.ok(res.json.results[1].error);
	assert.equal(res.json.results[2].id, undefined);
	assert.deepEqual(res.json.summary, { cases: 3, answered: 2, failed: 1 });
	const bad = await request(server, { path: PUYO, body: { id: [], field: PUBLIC } });
	assert.equal(bad.status, 422);
	assert.equal(bad.json.errors[0].pointer, '/id');
});

test('judge takes any output: NUL bytes and invalid UTF-8 are judged, never a 400', async () => {
	const input = '1\n1 1 1\n';
	const nul = await request(server, { path: `${MD}/judge`, body: { input, output: '0\n2\u0000\n' } });
	assert.equal(nul.status, 200);
	assert.equal(nul.json.verdict, 'wrong_answer');
	const bytes = Buffer.from([0x30, 0x0a, 0xff, 0xfe, 0x0a]);
	const inv = await request(server, { path: `${MD}/judge`, body: { input, output_base64: bytes.toString('base64') } });
	assert.equal(inv.status, 200);
	assert.equal(inv.json.verdict, 'wrong_answer');
	const ok = await request(server, { path: `${MD}/judge`, body: { input, output_base64: Buffer.from('0\n2\n').toString('base64') } });
	assert.equal(ok.json.verdict, 'accepted');
	const notb64 = await request(server, { path: `${MD}/judge`, body: { input, output_base64: '*' } });
	assert.equal(notb64.status, 422);
	assert.equal(notb64.json.errors[0].pointer, '/output_base64');
});

test('generate?with_answer=true gives the case with its answer; n over --max-blocks is 422', async () => {
	const g = await request(server, { path: `${MD}/generate`, query: { seed: '5', n: '20', with_answer: 'true' } });
	const solved = await request(server, { path: MD, body: { blocks: g.json.blocks } });
	assert.deepEqual(g.json.answer, solved.json);
	assert.equal(g.json.expected, `${solved.json.score}\n${solved.json.tiles}\n`);
	const p = await request(server, { path: `${PUYO}/generate`, query: { seed: '3', with_answer: '1' } });
	const ps = await request(server, { path: PUYO, body: { field: p.json.field } });
	assert.deepEqual(p.json.answer, ps.json);
	assert.equal(p.json.expected, `${ps.json.chains}\n`);
	const over = await request(server, { path: `${MD}/generate`, query: { n: '51' } });
	assert.equal(over.status, 422);
	assert.match(over.json.detail, /1\.\.50 \(the server's --max-blocks\), got 51/);
	const text = await request(server, { path: `${MD}/generate`, query: { with_answer: 'true' }, accept: 'text/plain' });
	assert.equal(text.status, 406);
});

test('answers over 1 KB are gzip-compressed when Accept-Encoding allows, with Vary: Accept-Encoding', async () => {
	const body = { cases: Array.from({ length: 20 }, () => ({ field: PUBLIC })) };
	const z = await request(server, { path: PUYO, body, compressed: true });
	assert.equal(z.headers['content-encoding'], 'gzip');
	assert.match(z.headers.vary, /Accept-Encoding/);
	assert.equal(z.json.results.length, 20);
	const plain = await request(server, { path: PUYO, body });
	assert.equal(plain.headers['content-encoding'], undefined);
	assert.match(plain.headers.vary, /Accept-Encoding/);
	const small = await request(server, { path: '/livez', compressed: true });
	assert.equal(small.headers['content-encoding'], undefined);
});

test('a gzip request body is inflated; a bomb over --max-body is 413; a broken stream 400; another encoding 415', async () => {
	const gz = zlib.gzipSync(JSON.stringify({ field: PUBLIC }));
	const ok = await request(server, { path: PUYO, body: gz, headers: { 'Content-Encoding': 'gzip' } });
	assert.equal(ok.status, 200);
	assert.equal(ok.json.chains, 3);
	const small = await startServer({ args: ['--max-body', '10000'] });
	const bomb = zlib.gzipSync(Buffer.alloc(5 << 20, 0x20));
	assert.ok(bomb.length < 10000, 'the bomb itself is small');
	const big = await request(small, { path: PUYO, body: bomb, headers: { 'Content-Encoding': 'gzip' } });
	assert.equal(big.status, 413);
	const broken = await request(server, { path: PUYO, body: gz.subarray(0, gz.length - 6), headers: { 'Content-Encoding': 'gzip' } });
	assert.equal(broken.status, 400);
	assert.match(broken.json.detail, /gzip/);
	const br = await request(server, { path: PUYO, body: '{}', headers: { 'Content-Encoding': 'br' } });
	assert.equal(br.status, 415);
	assert.match(br.json.detail, /Content-Encoding br/);
	await small.stop();
});

test('CORS: no header by default; --cors-origins allows the listed origins and answers preflights', async () => {
	const none = await request(server, { path: '/v1', headers: { Origin: 'https://app.example' } });
	assert.equal(none.headers['access-control-allow-origin'], undefined);
	const cors = await startServer({ env: { CORS_ORIGINS: 'https://app.example, https://b.example' } });
	const yes = await request(cors, { path: '/v1', headers: { Origin: 'https://app.example' } });
	assert.equal(yes.headers['access-control-allow-origin'], 'https://app.example');
	assert.match(yes.headers.vary, /Origin/);
	const other = await request(cors, { path: '/v1', headers: { Origin: 'https://evil.example' } });
	assert.equal(other.headers['access-control-allow-origin'], undefined);
	const pre = await request(cors, {
		method: 'OPTIONS', path: PUYO,
		headers: { Origin: 'https://b.example', 'Access-Control-Request-Method': 'POST' },
	});
	assert.equal(pre.status, 204);
	assert.equal(pre.headers['access-control-allow-origin'], 'https://b.example');
	assert.match(pre.headers['access-control-allow-methods'], /POST/);
	assert.match(pre.headers['access-control-allow-headers'], /Content-Type/);
	assert.ok(Number(pre.headers['access-control-max-age']) > 0);
	await cors.stop();
});

test('healthcheck takes --host like serve: 0.0.0.0 is asked on 127.0.0.1', async () => {
	const r = await run(BIN, ['healthcheck', '--host', '0.0.0.0', '--port', String(server.port)], { timeout: 10000 });
	assert.equal(r.code, 0, r.stderr);
	const env = await run('/usr/bin/env', [`HOST=127.0.0.1`, BIN, 'healthcheck', '--port', String(server.port)], { timeout: 10000 });
	assert.equal(env.code, 0, env.stderr);
});

test('--host takes a name and resolves it', async () => {
	const proc = spawn(BIN, ['serve', '--host', 'localhost', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
	try {
		const line = await new Promise((resolve, reject) => {
			let out = '';
			const timer = setTimeout(() => reject(new Error(`no start line: ${out}`)), 10000);
			proc.stdout.on('data', (d) => {
				out += d;
				if (out.includes('\n')) { clearTimeout(timer); resolve(out.split('\n')[0]); }
			});
			proc.on('exit', (c) => { clearTimeout(timer); reject(new Error(`exited ${c}`)); });
		});
		const m = line.match(/listening on http:\/\/(\[[^\]]+\]|[0-9.]+):(\d+)/);
		assert.ok(m, line);
		assert.match(m[1], /^(127\.0\.0\.1|\[::1\])$/);
		const hc = await run(BIN, ['healthcheck', '--host', m[1].replace(/[[\]]/g, ''), '--port', m[2]], { timeout: 10000 });
		assert.equal(hc.code, 0, hc.stderr);
	} finally {
		proc.kill('SIGTERM');
	}
});

test('--threads over --max-connections exits 2 naming both', async () => {
	const r = await run(BIN, ['serve', '--threads', '8', '--max-connections', '4'], { timeout: 5000 });
	assert.equal(r.code, 2);
	assert.match(r.stderr, /--threads 8/);
	assert.match(r.stderr, /--max-connections 4/);
});

test('solve puyo --help prints the solve help; an argument after --help or --version exits 2', async () => {
	const h = await run(BIN, ['solve', 'puyo', '--help']);
	assert.equal(h.code, 0);
	assert.match(h.stdout, /^solve monomino-domino\|puyo \[FILE\]/);
	for (const args of [['--help', 'extra'], ['--version', 'x'], ['-h', 'serve']]) {
		const r = await run(BIN, args);
		assert.equal(r.code, 2, args.join(' '));
		assert.match(r.stderr, /unexpected argument/);
	}
});

test('wording: a duplicate member is named in its quotes once, "1" for an integer is said to be a string', async () => {
	const dup = await request(server, { path: MD, body: '{"blocks": [], "blocks": []}' });
	assert.equal(dup.status, 400);
	assert.equal(dup.json.errors[0].detail, 'member "blocks" appears twice in one object');
	assert.equal(dup.json.errors[0].column, 16, 'the column of the second "blocks"');
	for (const [block, got] of [[['1', 0, 0], 'the string "1"'], [[1.5, 0, 0], '1.5'], [[null, 0, 0], 'null'], [[[1], 0, 0], 'an array']]) {
		const res = await request(server, { path: MD, body: { blocks: [block] } });
		assert.equal(res.status, 422);
		assert.equal(res.json.errors[0].detail, `t must be an integer, got ${got}`);
	}
	const obj = await request(server, { path: MD, body: { blocks: [{ t: 1, x: '0', y: 0 }] } });
	assert.deepEqual(obj.json.errors[0], { pointer: '/blocks/0/x', detail: 'x must be an integer, got the string "0"' });
});

test('wording: the column of a malformed JSON token is its first character, whatever its length', async () => {
	for (const [body, token, column] of [
		['{"blocks": [1] x}', 'x', 16],
		['{"blocks": [1] null}', 'null', 16],
		['{"blocks": [nul]}', 'nul', 13],
		['{"blocks":\n  [1, tru]}', 'tru', 7],
	]) {
		const res = await request(server, { path: MD, body });
		assert.equal(res.status, 400, body);
		assert.equal(res.json.errors[0].detail, `invalid JSON: unexpected '${token}'`);
		assert.equal(res.json.errors[0].column, column, body);
	}
});

test('wording: a JSON body sent as text/plain gets the Content-Type hint the 415 gives', async () => {
	for (const path of [MD, PUYO, `${MD}/validate`]) {
		const res = await request(server, { path, body: JSON.stringify({ blocks: [[1, 1, 1]] }), contentType: 'text/plain' });
		if (path.endsWith('/validate')) {
			assert.equal(res.json.valid, false);
			continue;
		}
		assert.ok(res.status === 400 || res.status === 422, `${path}: ${res.status}`);
		assert.match(res.json.detail, /looks like JSON but was sent as text\/plain: add -H 'Content-Type: application\/json'\)$/, path);
	}
	const text = await request(server, { path: MD, body: '1\n9 0 0\n', contentType: 'text/plain' });
	assert.doesNotMatch(text.json.detail, /looks like JSON/);
});

test('wording: an unsupported Content-Encoding is not titled "Unsupported Content-Type"', async () => {
	const res = await request(server, { path: PUYO, body: '{}', headers: { 'Content-Encoding': 'br' } });
	assert.equal(res.status, 415);
	assert.equal(res.json.title, 'Unsupported media type');
	assert.match(res.json.detail, /Content-Encoding br/);
});

test('GET /v1 names the two trace limits apart: one case\'s (fixed) and one request\'s (--max-request-trace-steps)', async () => {
	const res = await request(server, { path: '/v1' });
	assert.equal(res.json.limits.max_case_trace_steps, 10000);
	assert.equal(res.json.limits.max_request_trace_steps, 100000);
	assert.equal(res.json.limits.max_trace_steps, 10000, 'the old name, kept');
	const old = await startServer({ args: ['--max-trace-steps', '77'] });
	assert.equal((await request(old, { path: '/v1' })).json.limits.max_request_trace_steps, 77);
	const renamed = await startServer({ args: ['--max-request-trace-steps', '88'] });
	assert.equal((await request(renamed, { path: '/v1' })).json.limits.max_request_trace_steps, 88);
	const h = await run(BIN, ['--help']);
	assert.match(h.stdout, /--host ADDR, HOST=ADDR\n {6}A name \(localhost\) or an IPv4 or IPv6 address/);
	assert.match(h.stdout, /--max-request-trace-steps N, MAX_REQUEST_TRACE_STEPS=N/);
	assert.match(h.stdout, /--max-trace-steps N, MAX_TRACE_STEPS=N\n {6}The old name of --max-request-trace-steps/);
});

test('dropjudge solve says a file it cannot read the same way in every mode', async () => {
	const dir = path.dirname(BIN); // opens, but reading it fails (EISDIR)
	for (const args of [['puyo'], ['puyo', '--lines'], ['puyo', '--ndjson'], ['monomino-domino'], ['monomino-domino', '--ndjson']]) {
		const r = await run(BIN, ['solve', ...args, dir]);
		assert.equal(r.code, 1, `solve ${args.join(' ')}`);
		assert.match(r.stderr, new RegExp(`^dropjudge: ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cannot read: `), `solve ${args.join(' ')}: ${r.stderr}`);
	}
});
