// POST /v1/monomino-domino: the public examples of Baekjoon 20061 in both
// request formats and both answer formats, the block forms, traces, the
// lenient text reader, every input error with its location, and random
// cases against the naive reference simulator (reference.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, request, requestAll, assertFaults, rng } from './helper.mjs';
import { mdSolve } from './reference.mjs';

const server = await startServer({ args: ['--max-blocks', '50'] });
const PATH = '/v1/monomino-domino';

// The statement's move list; example k uses its first N moves.
const MOVES = [[1, 1, 1], [2, 3, 0], [3, 2, 2], [3, 2, 3], [3, 1, 3], [2, 0, 0], [3, 2, 0], [3, 1, 2]];
const EXAMPLES = [[1, 0, 2], [2, 0, 6], [4, 1, 10], [5, 1, 12], [6, 1, 16], [7, 1, 18], [8, 2, 15]];
const LONGER = { blocks: [[3, 0, 0], [3, 0, 1], [3, 0, 2], [3, 0, 3], [2, 0, 0], [2, 1, 0], [2, 2, 0], [2, 3, 0]], score: 4, tiles: 12 };

const text = (blocks) => `${blocks.length}\n${blocks.map((b) => b.join(' ')).join('\n')}\n`;
const solveJson = (body, extra = {}) => request(server, { path: PATH, body, ...extra });
const solveText = (body, extra = {}) => request(server, { path: PATH, body, contentType: 'text/plain', ...extra });

EXAMPLES.forEach(([n, score, tiles], i) => {
	const blocks = MOVES.slice(0, n);
	test(`public example ${i + 1} (JSON in, JSON out) gives ${score} and ${tiles}`, async () => {
		const res = await solveJson({ blocks });
		assert.equal(res.status, 200);
		assert.equal(res.json.score, score);
		assert.equal(res.json.tiles, tiles);
		const tilesOnBoards = [...res.json.green, ...res.json.blue].join('').split('#').length - 1;
		assert.equal(tilesOnBoards, tiles, 'the boards hold `tiles` tiles');
	});
	test(`public example ${i + 1} (text in, text out) gives "${score}\\n${tiles}\\n"`, async () => {
		const res = await solveText(text(blocks), { accept: 'text/plain' });
		assert.equal(res.status, 200);
		assert.equal(res.mediaType, 'text/plain');
		assert.equal(res.body, `${score}\n${tiles}\n`);
	});
	test(`public example ${i + 1} (text in, JSON out; JSON in, text out)`, async () => {
		const a = await solveText(text(blocks));
		assert.equal(a.mediaType, 'application/json');
		assert.deepEqual([a.json.score, a.json.tiles], [score, tiles]);
		const b = await solveJson({ blocks }, { accept: 'text/plain' });
		assert.equal(b.body, `${score}\n${tiles}\n`);
	});
});

test('example 7 leaves the boards the rules give', async () => {
	const res = await solveJson({ blocks: MOVES });
	assert.deepEqual(res.json.green, ['....', '....', '....', '#...', '#.##', '.###']);
	assert.deepEqual(res.json.blue, ['......', '..#.#.', '..####', '...#.#']);
});

test('the longer statement case gives score 4 and 12 tiles (not the 10 of the wrong write-up)', async () => {
	const res = await solveJson({ blocks: LONGER.blocks });
	assert.equal(res.json.score, LONGER.score);
	assert.equal(res.json.tiles, LONGER.tiles);
	const t = await solveText(text(LONGER.blocks), { accept: 'text/plain' });
	assert.equal(t.body, '4\n12\n');
});

test('a single 1x1 at (1, 1) lands at the bottom of green column 1 and the right of blue row 1', async () => {
	const res = await solveJson({ blocks: [[1, 1, 1]] });
	assert.deepEqual(res.json.green, ['....', '....', '....', '....', '....', '.#..']);
	assert.deepEqual(res.json.blue, ['......', '.....#', '......', '......']);
});

test('a full green row scores one point and is removed', async () => {
	// Two horizontal dominoes in row 0 of red: (0,0)-(0,1) and (0,2)-(0,3).
	const res = await solveJson({ blocks: [[2, 0, 0], [2, 0, 2]] });
	assert.equal(res.json.score, 1);
	assert.deepEqual(res.json.green, ['....', '....', '....', '....', '....', '....']);
	// Blue: both dominoes lie in row 0; they fill columns 2..5 of row 0.
	assert.deepEqual(res.json.blue, ['..####', '......', '......', '......']);
	assert.equal(res.json.tiles, 4);
});

test('the light area pushes out the far lines without points', async () => {
	// A vertical domino at column 0 lands in green rows 4-5; a second one in
	// the same column stops at rows 2-3; a third reaches rows 0-1 (the light
	// area, two lines) so green rows 5 and 4 are dropped.
	const res = await solveJson({ blocks: [[3, 0, 0], [3, 0, 0], [3, 0, 0]] });
	assert.equal(res.json.score, 0);
	assert.deepEqual(res.json.green, ['....', '....', '#...', '#...', '#...', '#...']);
});

test('blocks in object form give the same answer as in array form', async () => {
	const objects = MOVES.map(([t, x, y]) => ({ t, x, y }));
	const a = await solveJson({ blocks: objects });
	const b = await solveJson({ blocks: MOVES });
	assert.deepEqual(a.json, b.json);
	const mixed = MOVES.map((m, i) => (i % 2 ? { y: m[2], t: m[0], x: m[1] } : m));
	const c = await solveJson({ blocks: mixed });
	assert.deepEqual(c.json, b.json);
});

test('no blocks at all is score 0 and 0 tiles (JSON and text)', async () => {
	const a = await solveJson({ blocks: [] });
	assert.deepEqual([a.json.score, a.json.tiles], [0, 0]);
	const b = await solveText('0\n', { accept: 'text/plain' });
	assert.equal(b.body, '0\n0\n');
});

test('Accept variants: absent, */*, application/json give JSON; text/plain gives text', async () => {
	const body = { blocks: MOVES };
	for (const accept of [null, '*/*', 'application/json', 'application/*', 'text/plain;q=0.5, application/json']) {
		const res = await solveJson(body, { accept });
		assert.equal(res.mediaType, 'application/json', `Accept: ${accept}`);
	}
	for (const accept of ['text/plain', 'text/*', 'application/json;q=0.4, text/plain', 'text/plain; charset=utf-8']) {
		const res = await solveJson(body, { accept });
		assert.equal(res.mediaType, 'text/plain', `Accept: ${accept}`);
		assert.equal(res.body, '2\n15\n');
	}
});

test('trace: true adds one step per placement that agrees with the result', async () => {
	const res = await solveJson({ blocks: MOVES, trace: true });
	const steps = res.json.steps;
	assert.equal(steps.length, MOVES.length);
	const last = steps[steps.length - 1];
	assert.equal(last.score, res.json.score);
	assert.equal(last.tiles, res.json.tiles);
	assert.deepEqual(last.green, res.json.green);
	assert.deepEqual(last.blue, res.json.blue);
	assert.equal(steps.reduce((s, x) => s + x.gained, 0), res.json.score);
	const ref = mdSolve(MOVES);
	assert.deepEqual(steps, ref.steps);
	// Public examples are prefixes of the list: step N-1 holds example N's answer.
	for (const [n, score, tiles] of EXAMPLES) {
		assert.deepEqual([steps[n - 1].score, steps[n - 1].tiles], [score, tiles], `after ${n} moves`);
	}
});

test('?trace=true traces JSON and text requests; trace=false and no trace leave steps out', async () => {
	const a = await solveJson({ blocks: MOVES }, { query: { trace: 'true' } });
	assert.equal(a.json.steps.length, 8);
	const b = await solveText(text(MOVES), { query: { trace: 'true' } });
	assert.equal(b.json.steps.length, 8);
	assert.equal(b.json.steps[7].score, 2);
	const c = await solveJson({ blocks: MOVES }, { query: { trace: 'false' } });
	assert.equal(c.json.steps, undefined);
	const d = await solveJson({ blocks: MOVES, trace: false });
	assert.equal(d.json.steps, undefined);
});

test('an empty trace (no blocks) is an empty steps array', async () => {
	const res = await solveJson({ blocks: [], trace: true });
	assert.deepEqual(res.json.steps, []);
});

test('the text reader is lenient: CRLF, tabs, several spaces, no final newline, trailing blank lines', async () => {
	for (const body of [
		'8\r\n1 1 1\r\n2 3 0\r\n3 2 2\r\n3 2 3\r\n3 1 3\r\n2 0 0\r\n3 2 0\r\n3 1 2\r\n',
		'8\n1 1 1\n2 3 0\n3 2 2\n3 2 3\n3 1 3\n2 0 0\n3 2 0\n3 1 2',
		'8\n1\t1\t1\n2  3 0\n3 2 2\n  3 2 3\n3 1 3  \n2 0 0\n3 2 0\n3 1 2\n\n\n',
		'8\n1 1 1\n2 3 0\n3 2 2\n3 2 3\n3 1 3\n2 0 0\n3 2 0\n3 1 2\n   \n\t\n',
	]) {
		const res = await solveText(body, { accept: 'text/plain' });
		assert.equal(res.status, 200, JSON.stringify(body));
		assert.equal(res.body, '2\n15\n', JSON.stringify(body));
	}
});

test('Content-Type text/plain; charset=utf-8 and application/json; charset=UTF-8 are taken', async () => {
	const a = await solveText(text(MOVES), { contentType: 'text/plain; charset=utf-8', accept: 'text/plain' });
	assert.equal(a.body, '2\n15\n');
	const b = await solveJson({ blocks: MOVES }, { contentType: 'application/json; charset=UTF-8', accept: 'text/plain' });
	assert.equal(b.body, '2\n15\n');
});

// --- errors -----------------------------------------------------------------

const textErrors = [
	['', 400, [{ line: 1, detail: 'expected N, the number of placements' }]],
	['1\n1 1\n', 400, [{ line: 2, detail: 'expected 3 integers, found 2' }]],
	['1\n1 1 1 1\n', 400, [{ line: 2 }]],
	['1\n1 a 1\n', 400, [{ line: 2, column: 3, detail: "expected an integer, found 'a'" }]],
	['x\n', 400, [{ line: 1, column: 1 }]],
	['1\n1 1.5 1\n', 400, [{ line: 2, column: 3 }]],
	['3\n1 1 1\n2 3 0\n', 400, [{ line: 4, detail: 'expected 3 placements, found 2' }]],
	['2\n1 1 1\n1 1 1\n1 1 1\n', 400, [{ line: 4, column: 1, detail: 'more than 2 placements' }]],
	['1\n1 1 1\n1 1 1\n', 400, [{ line: 3 }]],
	['2\n1 1 1\n\n1 1 1\n', 400, [{ line: 3 }]],
	['1\n4 0 0\n', 422, [{ line: 2, column: 1, detail: 't must be 1, 2 or 3' }]],
	['1\n0 0 0\n', 422, [{ line: 2, column: 1, detail: 't must be 1, 2 or 3' }]],
	['1\n1 4 0\n', 422, [{ line: 2, column: 3, detail: 'x must be 0..3' }]],
	['1\n1 0 -1\n', 422, [{ line: 2, column: 5, detail: 'y must be 0..3' }]],
	['1\n3 3 0\n', 422, [{ line: 2, column: 3, detail: 'x must be 0..2 for a vertical domino (t = 3)' }]],
	['2\n1 1 1\n2 0 3\n', 422, [{ line: 3, column: 5, detail: 'y must be 0..2 for a horizontal domino (t = 2)' }]],
	['51\n', 422, [{ line: 1 }]],
];
for (const [body, status, faults] of textErrors) {
	test(`text ${JSON.stringify(body)} is ${status} at ${JSON.stringify(faults.map(({ detail, ...l }) => l))}`, async () => {
		const res = await solveText(body);
		assert.equal(res.status, status, res.body);
		assert.equal(res.json.type, status === 400
			? '/errors/malformed-input' : '/errors/invalid-input');
		assertFaults(res.json.errors, faults, JSON.stringify(body));
		for (const f of res.json.errors) assert.equal(f.pointer, undefined, 'text faults have no pointer');
	});
}

test('text with Accept text/plain still answers errors as problem+json', async () => {
	const res = await solveText('1\n4 0 0\n', { accept: 'text/plain' });
	assert.equal(res.status, 422);
	assert.equal(res.mediaType, 'application/problem+json');
});

const jsonErrors = [
	['{"blocks": [[1, 1, 1]', 400, []],
	['not json', 400, []],
	['{"blocks": [[1, 1, 1]], "blocks": []}', 400, []],
	['{}', 422, [{ pointer: '/blocks' }]],
	['[]', 422, []],
	['{"blocks": 3}', 422, [{ pointer: '/blocks' }]],
	['{"blocks": [[1, 1, 1]], "extra": 1}', 422, [{ pointer: '/extra' }]],
	['{"blocks": [[4, 0, 0]]}', 422, [{ pointer: '/blocks/0/0', detail: 't must be 1, 2 or 3' }]],
	['{"blocks": [[1, 1, 1], [1, 4, 0]]}', 422, [{ pointer: '/blocks/1/1', detail: 'x must be 0..3' }]],
	['{"blocks": [[3, 3, 0]]}', 422, [{ pointer: '/blocks/0/1', detail: 'x must be 0..2 for a vertical domino (t = 3)' }]],
	['{"blocks": [[2, 0, 3]]}', 422, [{ pointer: '/blocks/0/2', detail: 'y must be 0..2 for a horizontal domino (t = 2)' }]],
	['{"blocks": [{"t": 2, "x": 0, "y": 3}]}', 422, [{ pointer: '/blocks/0/y', detail: 'y must be 0..2 for a horizontal domino (t = 2)' }]],
	['{"blocks": [{"t": 5, "x": 0, "y": 0}]}', 422, [{ pointer: '/blocks/0/t', detail: 't must be 1, 2 or 3' }]],
	['{"blocks": [[1.5, 0, 0]]}', 422, [{ pointer: '/blocks/0/0', detail: 't must be an integer' }]],
	['{"blocks": [["1", 0, 0]]}', 422, [{ pointer: '/blocks/0/0', detail: 't must be an integer' }]],
	['{"blocks": [[true, 0, 0]]}', 422, [{ pointer: '/blocks/0/0', detail: 't must be an integer' }]],
	['{"blocks": [[1, 0]]}', 422, [{ pointer: '/blocks/0' }]],
	['{"blocks": [[1, 0, 0, 0]]}', 422, [{ pointer: '/blocks/0' }]],
	['{"blocks": ["1 0 0"]}', 422, [{ pointer: '/blocks/0' }]],
	['{"blocks": [{"t": 1, "x": 0}]}', 422, [{ pointer: '/blocks/0/y' }]],
	['{"blocks": [{"t": 1, "x": 0, "y": 0, "z": 0}]}', 422, [{ pointer: '/blocks/0/z' }]],
	['{"blocks": [[1, 1, 1]], "trace": "yes"}', 422, [{ pointer: '/trace' }]],
	[JSON.stringify({ blocks: Array(51).fill([1, 1, 1]) }), 422,
		[{ pointer: '/blocks', detail: 'too many blocks: more than the limit of 50' }]],
];
for (const [body, status, faults] of jsonErrors) {
	test(`JSON ${body.length > 60 ? body.slice(0, 60) + '...' : body} is ${status}`, async () => {
		const res = await solveJson(body);
		assert.equal(res.status, status, res.body);
		assertFaults(res.json.errors ?? [], faults, body);
		if (status === 400) {
			assert.ok(res.json.errors?.length >= 1, 'bad JSON is located');
			assert.ok(res.json.errors[0].line >= 1, 'bad JSON is located by line');
		}
	});
}

test('bad JSON is located at its line', async () => {
	const res = await solveJson('{\n  "blocks": [\n    [1, 1, 1],\n    [1, 1 1]\n  ]\n}');
	assert.equal(res.status, 400);
	assertFaults(res.json.errors, [{ line: 4 }], 'bad JSON');
});

test('?trace=maybe and unknown query parameters are 400 at the parameter', async () => {
	const a = await solveJson({ blocks: MOVES }, { query: 'trace=maybe' });
	assert.equal(a.status, 400);
	assertFaults(a.json.errors, [{ parameter: 'trace' }], 'trace=maybe');
	const b = await solveJson({ blocks: MOVES }, { query: 'speed=3' });
	assert.equal(b.status, 400);
	assertFaults(b.json.errors, [{ parameter: 'speed' }], 'speed=3');
});

test('300 random cases agree with the naive reference simulator (JSON and text)', async () => {
	const r = rng(20061);
	const cases = [];
	for (let i = 0; i < 300; i++) {
		const n = r.int(51);
		const blocks = [];
		for (let j = 0; j < n; j++) {
			const t = 1 + r.int(3);
			const x = r.int(t === 3 ? 3 : 4);
			const y = r.int(t === 2 ? 3 : 4);
			blocks.push([t, x, y]);
		}
		cases.push(blocks);
	}
	const batch = await solveJson({ cases: cases.map((blocks) => ({ blocks })) });
	assert.equal(batch.status, 200);
	cases.forEach((blocks, i) => {
		const ref = mdSolve(blocks);
		const { steps, ...want } = ref;
		assert.deepEqual(batch.json.results[i], want, `case ${i}: ${JSON.stringify(blocks)}`);
	});
	const some = cases.slice(0, 40);
	const answers = await requestAll(server, some.map((blocks) =>
		({ path: PATH, body: text(blocks), contentType: 'text/plain', accept: 'text/plain' })));
	some.forEach((blocks, i) => {
		const ref = mdSolve(blocks);
		assert.equal(answers[i].body, `${ref.score}\n${ref.tiles}\n`, JSON.stringify(blocks));
	});
});

test('random traced cases agree step by step with the reference', async () => {
	const r = rng(7);
	const cases = Array.from({ length: 20 }, () => Array.from({ length: 1 + r.int(50) }, () => {
		const t = 1 + r.int(3);
		return [t, r.int(t === 3 ? 3 : 4), r.int(t === 2 ? 3 : 4)];
	}));
	const answers = await requestAll(server, cases.map((blocks) => ({ path: PATH, body: { blocks, trace: true } })));
	for (const [i, blocks] of cases.entries()) {
		const res = answers[i];
		assert.deepEqual(res.json.steps, mdSolve(blocks).steps, JSON.stringify(blocks));
		let prev = 0;
		for (const s of res.json.steps) {
			assert.ok(s.score >= prev, 'score never decreases');
			assert.equal(s.score - prev, s.gained);
			prev = s.score;
		}
	}
});

test('a trace of more than 10000 steps is refused: 422 at /trace (body) or at the trace parameter', async () => {
	const big = await startServer();
	const blocks = Array(10001).fill([1, 0, 0]);
	const a = await request(big, { path: PATH, body: { blocks, trace: true } });
	assert.equal(a.status, 422);
	assert.match(a.json.detail, /10000/);
	assertFaults(a.json.errors, [{ pointer: '/trace' }], 'trace in the body');
	const b = await request(big, { path: PATH, body: text(blocks), contentType: 'text/plain', query: { trace: 'true' } });
	assert.equal(b.status, 422);
	assertFaults(b.json.errors, [{ parameter: 'trace' }], 'trace in the query');
	const c = await request(big, { path: PATH, body: { blocks: blocks.slice(1), trace: true } });
	assert.equal(c.status, 200);
	assert.equal(c.json.steps.length, 10000);
	const d = await request(big, { path: PATH, body: { blocks }, accept: 'text/plain', query: { trace: 'true' } });
	assert.equal(d.status, 406, 'a trace cannot be answered in text');
	assertFaults(d.json.errors, [{ parameter: 'trace' }], 'trace with Accept: text/plain');
	assert.match(d.json.detail, /application\/json only/);
	await big.stop();
});
