// POST /v1/{problem}/validate: the strict Baekjoon constraints (testlib
// style for text), every fault listed with its location, JSON and text,
// and batches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, request, assertFaults } from './helper.mjs';

const server = await startServer();
const MD = '/v1/monomino-domino/validate';
const PUYO = '/v1/puyo/validate';
const MOVES = [[1, 1, 1], [2, 3, 0], [3, 2, 2], [3, 2, 3], [3, 1, 3], [2, 0, 0], [3, 2, 0], [3, 1, 2]];
const MD_TEXT = '8\n1 1 1\n2 3 0\n3 2 2\n3 2 3\n3 1 3\n2 0 0\n3 2 0\n3 1 2\n';
const PUBLIC = ['......', '......', '......', '......', '......', '......', '......', '......', '.Y....', '.YG...', 'RRYG..', 'RRYGG.'];
const PUBLIC_TEXT = PUBLIC.join('\n') + '\n';

const json = (p, body, extra = {}) => request(server, { path: p, body, ...extra });
const text = (p, body, extra = {}) => request(server, { path: p, body, contentType: 'text/plain', ...extra });

async function expectInvalid(res, faults, what) {
	assert.equal(res.status, 200, `${what}: ${res.body}`);
	assert.equal(res.json.valid, false, `${what}: valid`);
	assertFaults(res.json.errors, faults, what);
}

test('valid Monomino-Domino cases (JSON arrays, JSON objects, text)', async () => {
	for (const res of [
		await json(MD, { blocks: MOVES }),
		await json(MD, { blocks: MOVES.map(([t, x, y]) => ({ t, x, y })) }),
		await text(MD, MD_TEXT),
		await text(MD, '1\n1 0 0\n'),
		await text(MD, `10000\n${'3 2 3\n'.repeat(10000)}`),
	]) {
		assert.equal(res.status, 200);
		assert.deepEqual(res.json, { valid: true });
	}
});

const mdTextFaults = [
	['0\n', [{ line: 1 }]],
	[`10001\n${'1 0 0\n'.repeat(10001)}`, [{ line: 1 }]],
	['1\n1  1 1\n', [{ line: 2 }]],
	['1\n 1 1 1\n', [{ line: 2 }]],
	['1\n1 1 1 \n', [{ line: 2 }]],
	['1\n1\t1 1\n', [{ line: 2 }]],
	['1\n1 1 1', [{ line: 2 }]],
	['1\r\n1 1 1\r\n', [{ line: 1 }]],
	['01\n1 1 1\n', [{ line: 1 }]],
	['1\n+1 1 1\n', [{ line: 2 }]],
	['1\n1 -0 1\n', [{ line: 2 }]],
	['1\n1 1 1\n\n', [{ line: 3 }]],
	['1\n1 1 1\n1 1 1\n', [{ line: 3 }]],
	['2\n1 1 1\n', [{ line: 3 }]],
	['1\n1 a 1\n', [{ line: 2, column: 3 }]],
	['1\n4 0 0\n', [{ line: 2, column: 1, detail: 't must be 1, 2 or 3' }]],
	['', [{ line: 1 }]],
];
for (const [body, faults] of mdTextFaults) {
	test(`Monomino-Domino text ${JSON.stringify(body.length > 40 ? body.slice(0, 40) + '...' : body)} is invalid at ${JSON.stringify(faults.map(({ detail, ...l }) => l))}`, async () => {
		await expectInvalid(await text(MD, body), faults, JSON.stringify(body.slice(0, 40)));
	});
}

test('validation lists every fault, not only the first (text)', async () => {
	const res = await text(MD, '4\n4 0 0\n1  1 1\n3 3 0\n2 0 3\n');
	await expectInvalid(res, [
		{ line: 2, column: 1, detail: 't must be 1, 2 or 3' },
		{ line: 3 },
		{ line: 4, column: 3, detail: 'x must be 0..2 for a vertical domino (t = 3)' },
		{ line: 5, column: 5, detail: 'y must be 0..2 for a horizontal domino (t = 2)' },
	], 'four faults');
	assert.ok(res.json.errors.length >= 4);
});

test('validation lists every fault, not only the first (JSON)', async () => {
	const res = await json(MD, { blocks: [[4, 0, 0], [1, 1, 1], [3, 3, 0], { t: 2, x: 0, y: 3 }, [1.5, 0, 0]] });
	await expectInvalid(res, [
		{ pointer: '/blocks/0/0', detail: 't must be 1, 2 or 3' },
		{ pointer: '/blocks/2/1', detail: 'x must be 0..2 for a vertical domino (t = 3)' },
		{ pointer: '/blocks/3/y', detail: 'y must be 0..2 for a horizontal domino (t = 2)' },
		{ pointer: '/blocks/4/0', detail: 't must be an integer' },
	], 'json faults');
});

test('many faults: the list is capped and errors_omitted counts the rest', async () => {
	const res = await text(MD, `300\n${'4 0 0\n'.repeat(300)}`);
	assert.equal(res.json.valid, false);
	const listed = res.json.errors.length;
	assert.ok(listed >= 1 && listed <= 300);
	assert.equal(listed + (res.json.errors_omitted ?? 0), 300, `${listed} listed + ${res.json.errors_omitted} omitted`);
});

test('Monomino-Domino JSON strictness: N in 1..10000, members', async () => {
	await expectInvalid(await json(MD, { blocks: [] }), [{ pointer: '/blocks' }], 'N = 0');
	await expectInvalid(await json(MD, { blocks: Array(10001).fill([1, 0, 0]) }), [{ pointer: '/blocks' }], 'N = 10001');
	await expectInvalid(await json(MD, {}), [{ pointer: '/blocks' }], 'no blocks');
	await expectInvalid(await json(MD, { blocks: MOVES, x: 1 }), [{ pointer: '/x' }], 'unknown member');
});

test('unparseable JSON is still 400', async () => {
	const res = await json(MD, '{"blocks": [[1, 1, 1]');
	assert.equal(res.status, 400);
	const p = await json(PUYO, '[');
	assert.equal(p.status, 400);
});

test('valid Puyo fields (JSON and text)', async () => {
	for (const res of [await json(PUYO, { field: PUBLIC }), await text(PUYO, PUBLIC_TEXT),
		await json(PUYO, { field: Array(12).fill('......') }), await json(PUYO, { field: Array(12).fill('RGBPYR') })]) {
		assert.equal(res.status, 200);
		assert.deepEqual(res.json, { valid: true });
	}
});

test('Puyo strictness: floating puyos at the row of the puyo, garbage, 13 rows, sizes', async () => {
	const floating = PUBLIC.map((r, i) => (i === 6 ? '..R...' : r));
	await expectInvalid(await json(PUYO, { field: floating }),
		[{ pointer: '/field/6', detail: 'puyo at column 3 floats above an empty cell' }], 'floating');
	await expectInvalid(await text(PUYO, floating.join('\n') + '\n'), [{ line: 7 }], 'floating text');
	await expectInvalid(await json(PUYO, { field: PUBLIC.map((r, i) => (i === 11 ? 'RRYGGO' : r)) }),
		[{ pointer: '/field/11' }], 'garbage');
	await expectInvalid(await json(PUYO, { field: ['......', ...PUBLIC] }), [{ pointer: '/field' }], '13 rows');
	await expectInvalid(await json(PUYO, { field: PUBLIC.slice(0, 11) }), [{ pointer: '/field' }], '11 rows');
	await expectInvalid(await json(PUYO, { field: PUBLIC.map((r, i) => (i === 0 ? '.....' : r)) }),
		[{ pointer: '/field/0' }], 'short row');
	await expectInvalid(await json(PUYO, { field: PUBLIC.map((r, i) => (i === 0 ? 7 : r)) }),
		[{ pointer: '/field/0' }], 'not a string');
});

test('Puyo validation lists every fault', async () => {
	const f = PUBLIC.map((r, i) => (i === 2 ? 'R....X' : i === 5 ? '.....' : r));
	await expectInvalid(await json(PUYO, { field: f }), [{ pointer: '/field/2' }, { pointer: '/field/5' }], 'two faults');
	const t = PUBLIC.map((r, i) => (i === 2 ? 'R....X' : i === 5 ? '.....' : r)).join('\n') + '\n';
	await expectInvalid(await text(PUYO, t), [{ line: 3 }, { line: 6 }], 'two text faults');
});

test('Puyo text strictness: CR, no final newline, anything after, wrong line counts', async () => {
	await expectInvalid(await text(PUYO, PUBLIC.join('\r\n') + '\r\n'), [{ line: 1 }], 'CRLF');
	await expectInvalid(await text(PUYO, PUBLIC.join('\n')), [{ line: 12 }], 'no final newline');
	await expectInvalid(await text(PUYO, PUBLIC_TEXT + '\n'), [{ line: 13 }], 'a blank line after');
	await expectInvalid(await text(PUYO, PUBLIC.slice(1).join('\n') + '\n'), [{}], '11 lines');
	await expectInvalid(await text(PUYO, ''), [{}], 'empty');
});

test('validate answers JSON only: Accept text/plain is 406; other content types 415', async () => {
	const a = await json(MD, { blocks: MOVES }, { accept: 'text/plain' });
	assert.equal(a.status, 406);
	const b = await request(server, { path: MD, body: MD_TEXT, contentType: 'application/x-www-form-urlencoded' });
	assert.equal(b.status, 415);
});

test('validate batches: one answer per case, pointers within the batch', async () => {
	const res = await json(MD, { cases: [{ blocks: MOVES }, { blocks: [[4, 0, 0]] }, { blocks: [] }] });
	assert.equal(res.status, 200);
	const [a, b, c] = res.json.results;
	assert.deepEqual(a, { valid: true });
	assert.equal(b.valid, false);
	assertFaults(b.errors, [{ pointer: '/cases/1/blocks/0/0' }], 'slot 1');
	assert.equal(c.valid, false);
	const p = await json(PUYO, { cases: [{ field: PUBLIC }, { field: PUBLIC.map((r, i) => (i === 0 ? 'Y.....' : r)) }] });
	assert.deepEqual(p.json.results[0], { valid: true });
	assert.equal(p.json.results[1].valid, false);
	assertFaults(p.json.results[1].errors, [{ pointer: '/cases/1/field/0' }], 'puyo slot 1');
});
