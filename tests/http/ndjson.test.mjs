// Streams of cases (Content-Type: application/x-ndjson or application/jsonl)
// on solve, judge and validate: one answer line a case in input order,
// checked against the reference solvers and against the same line sent
// alone; bad lines with their line number, id and pointer; blank lines,
// CRLF, a line over the JSON limit, gzip both ways, Accept, the stream's
// own size limit; the summary checked against a count made here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { startServer, request, requestAll, rng, validateAt, run, BIN, tmpFile } from './helper.mjs';
import { mdSolve, mdLegal, puyoSolve } from './reference.mjs';

const server = await startServer();
const NDJSON = 'application/x-ndjson';
const PUBLIC = ['......', '......', '......', '......', '......', '......', '......', '......', '.Y....', '.YG...', 'RRYG..', 'RRYGG.'];

function randomPuyo(r) {
	const colours = 'RGBPY'.slice(0, 3 + r.int(3));
	const cols = Array.from({ length: 6 }, () => {
		const h = r.int(13);
		return Array.from({ length: 12 }, (_, l) => (l < h ? r.pick(colours) : '.'));
	});
	return Array.from({ length: 12 }, (_, i) => cols.map((c) => c[11 - i]).join(''));
}

// The answer lines of a stream, each parsed; the last must be the summary.
function lines(res) {
	assert.equal(res.status, 200, res.body.slice(0, 300));
	assert.equal(res.mediaType, NDJSON);
	assert.ok(res.body.endsWith('\n'), 'the answer ends with a newline');
	const out = res.body.slice(0, -1).split('\n').map((l) => JSON.parse(l));
	for (const [i, l] of out.entries()) {
		if (l.error) validateAt('/components/schemas/Problem', l.error, `line ${i + 1} of the answer`);
	}
	return out;
}

// What the summary must say, counted here from the answer lines.
function expectSummary(answers) {
	const failed = answers.filter((a) => a.error).length;
	return { cases: answers.length, answered: answers.length - failed, failed };
}

function post(path, body, extra = {}) {
	return request(server, { path, body, contentType: NDJSON, ...extra });
}

test('a stream of Puyo fields is answered line by line, in order, as the reference solves them', async () => {
	const r = rng(4242);
	const fields = Array.from({ length: 400 }, () => randomPuyo(r));
	fields[17] = PUBLIC;
	const body = fields.map((field, i) => JSON.stringify({ id: `f${i}`, field })).join('\n') + '\n';
	const out = lines(await post('/v1/puyo', body));
	assert.equal(out.length, fields.length + 1);
	fields.forEach((f, i) => {
		const { steps, ...want } = puyoSolve(f);
		assert.deepEqual(out[i], { ...want, id: `f${i}` }, `line ${i + 1}`);
	});
	assert.equal(out[17].chains, 3);
	assert.deepEqual(out.at(-1), { summary: expectSummary(out.slice(0, -1)) });
	assert.deepEqual(out.at(-1).summary, { cases: 400, answered: 400, failed: 0 });
});

test('a stream of Monomino-Domino cases, with a trace asked by the query, matches the reference', async () => {
	const r = rng(77);
	const cases = Array.from({ length: 60 }, () => {
		const n = 1 + r.int(40);
		const blocks = [];
		while (blocks.length < n) {
			const b = [1 + r.int(3), r.int(4), r.int(4)];
			if (mdLegal(...b)) blocks.push(b);
		}
		return blocks;
	});
	const body = cases.map((blocks, i) => JSON.stringify({ blocks, id: i })).join('\n');
	const out = lines(await post('/v1/monomino-domino', body, { query: { trace: 'true' } }));
	cases.forEach((blocks, i) => {
		const want = mdSolve(blocks);
		assert.equal(out[i].id, i);
		assert.equal(out[i].score, want.score, `line ${i + 1}`);
		assert.deepEqual(out[i].green, want.green);
		assert.deepEqual(out[i].blue, want.blue);
		assert.equal(out[i].steps.length, blocks.length, `line ${i + 1}: a step a block`);
	});
	assert.deepEqual(out.at(-1).summary, { cases: 60, answered: 60, failed: 0 });
});

test('bad lines are answered in place with their line number, id and pointer; blank lines are skipped; CRLF is read', async () => {
	const body = [
		JSON.stringify({ id: 'a', field: PUBLIC }), // line 1
		'', // 2: blank
		'   \t', // 3: blank
		JSON.stringify({ id: 'b', field: PUBLIC.slice(1) }), // 4: 11 rows
		'{"field": [', // 5: broken JSON
		JSON.stringify({ id: 7, field: PUBLIC, colour: 'red' }), // 6: unknown member
		JSON.stringify({ cases: [{ field: PUBLIC }] }), // 7: a batch
		'[1, 2]', // 8: not an object
		JSON.stringify({ id: 'last', field: PUBLIC }), // 9
	].join('\r\n');
	const out = lines(await post('/v1/puyo', body));
	assert.equal(out.length, 7 + 1, 'seven cases and the summary');
	assert.equal(out[0].id, 'a');
	assert.equal(out[0].chains, 3);
	assert.equal(out[1].line, 4);
	assert.equal(out[1].id, 'b');
	assert.equal(out[1].error.status, 422);
	assert.equal(out[1].error.errors[0].pointer, '/field');
	assert.equal(out[2].line, 5);
	assert.equal(out[2].id, undefined);
	assert.equal(out[2].error.status, 400);
	assert.equal(out[2].error.errors[0].line, 1, 'the syntax fault is within its line');
	assert.equal(out[3].line, 6);
	assert.equal(out[3].id, 7);
	assert.equal(out[3].error.errors[0].pointer, '/colour');
	assert.equal(out[4].line, 7);
	assert.equal(out[4].error.errors[0].pointer, '/cases');
	assert.equal(out[5].line, 8);
	assert.equal(out[5].error.status, 422);
	assert.equal(out[6].id, 'last');
	assert.equal(out[6].chains, 3, 'a last line without LF is answered');
	assert.deepEqual(out.at(-1).summary, expectSummary(out.slice(0, -1)));
	assert.deepEqual(out.at(-1).summary, { cases: 7, answered: 2, failed: 5 });
});

test('each answer line is the answer of that line sent alone (solve, judge, validate)', async () => {
	const r = rng(9);
	const rows = [
		['/v1/puyo', Array.from({ length: 20 }, () => ({ field: randomPuyo(r) }))],
		['/v1/puyo/validate', Array.from({ length: 20 }, () => ({ field: randomPuyo(r) }))],
		['/v1/monomino-domino/judge', [
			{ input: { blocks: [[1, 1, 1]] }, output: '0\n2\n' },
			{ input: '1\n1 1 1\n', output: '0\n3\n' },
			{ input: '1\n1 1 1\n', output: '0 2\n' },
			{ input: { blocks: [[1, 9, 9]] }, output: '0\n2\n' },
		]],
		['/v1/monomino-domino/validate', [{ blocks: [[1, 1, 1]] }, { blocks: [] }, { blocks: [[3, 3, 3]] }]],
	];
	for (const [path, cases] of rows) {
		const out = lines(await post(path, cases.map((c) => JSON.stringify(c)).join('\n')));
		const answers = await requestAll(server, cases.map((c) => ({ path, body: c })));
		for (const [i, alone] of answers.entries()) {
			delete alone.json.request_id; // the stream's lines carry none
			if (alone.status === 200) assert.deepEqual(out[i], alone.json, `${path} line ${i + 1}`);
			else assert.deepEqual(out[i], { line: i + 1, error: alone.json }, `${path} line ${i + 1}`);
		}
		assert.deepEqual(out.at(-1).summary, expectSummary(out.slice(0, -1)));
	}
});

test('a judge stream gives each verdict with its id', async () => {
	const body = [
		{ id: 1, input: { field: PUBLIC }, output: '3\n' },
		{ id: 2, input: { field: PUBLIC }, output: '2\n' },
		{ id: 3, input: { field: PUBLIC.slice(2) }, output: '3\n' },
	].map((c) => JSON.stringify(c)).join('\n') + '\n';
	const out = lines(await request(server, { path: '/v1/puyo/judge', body, contentType: 'application/jsonl' }));
	assert.deepEqual(out.slice(0, 3).map((l) => l.verdict ?? 'error'), ['accepted', 'wrong_answer', 'error']);
	assert.deepEqual(out.slice(0, 3).map((l) => l.id), [1, 2, 3]);
	assert.equal(out[2].line, 3);
	assert.match(out[2].error.errors[0].pointer, /^\/input\/field/);
	assert.deepEqual(out.at(-1).summary, { cases: 3, answered: 2, failed: 1 });
});

test('a line longer than the JSON limit is that line\'s 413, and the stream goes on', async () => {
	const s = await startServer({ args: ['--max-json-body', '300'] });
	const long = JSON.stringify({ id: 'long', field: PUBLIC, pad: 'x'.repeat(1000) });
	const body = [JSON.stringify({ field: PUBLIC }), long, JSON.stringify({ field: PUBLIC })].join('\n') + '\n';
	const res = await request(s, { path: '/v1/puyo', body, contentType: NDJSON });
	const out = lines(res);
	assert.equal(out[0].chains, 3);
	assert.equal(out[1].line, 2);
	assert.equal(out[1].error.status, 413);
	assert.match(out[1].error.detail, /line 2 is longer than the limit of 300 bytes/);
	assert.equal(out[2].chains, 3);
	assert.deepEqual(out.at(-1).summary, { cases: 3, answered: 2, failed: 1 });
	// The same line as a JSON body is a 413 of the request, naming the way out.
	const json = await request(s, { path: '/v1/puyo', body: long });
	assert.equal(json.status, 413);
	assert.match(json.json.detail, /application\/x-ndjson/);
	await s.stop();
});

test('gzip both ways: a gzip stream is read, the answer is sent gzip as it is held', async () => {
	const body = Array.from({ length: 300 }, (_, i) => JSON.stringify({ id: i, field: PUBLIC })).join('\n');
	const zipped = await post('/v1/puyo', zlib.gzipSync(body), { headers: { 'Content-Encoding': 'gzip' }, compressed: true });
	assert.equal(zipped.headers['content-encoding'], 'gzip');
	assert.match(zipped.headers.vary, /Accept-Encoding/);
	const plain = await post('/v1/puyo', body);
	assert.equal(plain.headers['content-encoding'], undefined);
	assert.equal(zipped.body, plain.body, 'the same lines either way');
	const out = lines(plain);
	assert.equal(out.length, 301);
	assert.ok(out.slice(0, 300).every((l, i) => l.id === i && l.chains === 3));
});

test('Accept is negotiated: an Accept that refuses NDJSON is 406, application/jsonl and */* are taken', async () => {
	const body = JSON.stringify({ field: PUBLIC }) + '\n';
	const refused = await post('/v1/puyo', body, { accept: 'application/json' });
	assert.equal(refused.status, 406);
	assert.match(refused.json.detail, /application\/x-ndjson/);
	for (const accept of ['application/jsonl', '*/*', 'application/x-ndjson, application/json;q=0.5']) {
		const res = await post('/v1/puyo', body, { accept });
		assert.equal(res.status, 200, accept);
		assert.equal(res.mediaType, NDJSON);
	}
});

test('a stream has its own size limit, --max-stream-body, beyond --max-body', async () => {
	const s = await startServer({ args: ['--max-stream-body', '2000', '--max-body', '1000'] });
	const line = JSON.stringify({ field: PUBLIC }) + '\n';
	const ok = await request(s, { path: '/v1/puyo', body: line.repeat(10), contentType: NDJSON });
	assert.deepEqual(lines(ok).at(-1).summary, { cases: 10, answered: 10, failed: 0 });
	const over = await request(s, { path: '/v1/puyo', body: line.repeat(30), contentType: NDJSON });
	assert.equal(over.status, 413);
	assert.match(over.json.detail, /--max-stream-body/);
	const chunked = await request(s, { path: '/v1/puyo', body: line.repeat(30), contentType: NDJSON, chunked: true });
	assert.equal(chunked.status, 413);
	await s.stop();
});

test('an empty stream answers its summary alone', async () => {
	const out = lines(await post('/v1/monomino-domino', '\n\n'));
	assert.deepEqual(out, [{ summary: { cases: 0, answered: 0, failed: 0 } }]);
});

test('dropjudge solve PROBLEM --ndjson answers a file and stdin with the bytes of the HTTP answer', async () => {
	const r = rng(31);
	const body = Array.from({ length: 200 }, (_, i) => JSON.stringify({ id: i, field: randomPuyo(r) })).join('\r\n') +
		'\n\n{"field": [1]}\n{bad\n' + JSON.stringify({ id: 'z', field: PUBLIC });
	const http = await post('/v1/puyo', body);
	assert.equal(http.status, 200);
	const file = tmpFile(body);
	const fromFile = await run(BIN, ['solve', 'puyo', '--ndjson', file]);
	assert.equal(fromFile.code, 0, fromFile.stderr);
	assert.equal(fromFile.stdout, http.body);
	const fromStdin = await run(BIN, ['solve', 'puyo', '--ndjson'], { input: body });
	assert.equal(fromStdin.stdout, http.body);
	const md = [JSON.stringify({ blocks: [[1, 1, 1], [2, 3, 0]], id: 'm' }), JSON.stringify({ blocks: [[3, 3, 3]] })].join('\n');
	const mdHttp = await post('/v1/monomino-domino', md);
	const mdCli = await run(BIN, ['solve', 'monomino-domino', '--ndjson', '-'], { input: md });
	assert.equal(mdCli.stdout, mdHttp.body);
});
