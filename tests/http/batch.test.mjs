// Batches: {"cases": [...]} answered in order with partial success, 1000
// Puyo fields in one request, traces that agree with the answers, and the
// max_batch limit (413 naming it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, request, assertFaults, rng } from './helper.mjs';
import { mdSolve, puyoSolve } from './reference.mjs';

const server = await startServer();
const small = await startServer({ args: ['--max-batch', '5'] });
const MOVES = [[1, 1, 1], [2, 3, 0], [3, 2, 2], [3, 2, 3], [3, 1, 3], [2, 0, 0], [3, 2, 0], [3, 1, 2]];
const PUBLIC = ['......', '......', '......', '......', '......', '......', '......', '......', '.Y....', '.YG...', 'RRYG..', 'RRYGG.'];

function randomPuyo(r) {
	const colours = 'RGBPY'.slice(0, 3 + r.int(3));
	const cols = Array.from({ length: 6 }, () => {
		const h = r.int(13);
		return Array.from({ length: 12 }, (_, l) => (l < h ? r.pick(colours) : '.'));
	});
	return Array.from({ length: 12 }, (_, i) => cols.map((c) => c[11 - i]).join(''));
}

test('1000 Puyo cases in one request are all answered, in order, correctly', async () => {
	const r = rng(1000);
	const fields = Array.from({ length: 1000 }, () => randomPuyo(r));
	fields[500] = PUBLIC;
	const res = await request(server, { path: '/v1/puyo', body: { cases: fields.map((field) => ({ field })) } });
	assert.equal(res.status, 200);
	assert.equal(res.json.results.length, 1000);
	assert.equal(res.json.results[500].chains, 3);
	fields.forEach((f, i) => {
		const { steps, ...want } = puyoSolve(f);
		assert.deepEqual(res.json.results[i], want, `case ${i}`);
	});
});

test('1000 traced Puyo cases: every trace agrees with its answer', async () => {
	const r = rng(2000);
	const fields = Array.from({ length: 1000 }, () => randomPuyo(r));
	const res = await request(server, { path: '/v1/puyo', body: { cases: fields.map((field) => ({ field })) }, query: { trace: 'true' } });
	assert.equal(res.status, 200);
	for (const [i, x] of res.json.results.entries()) {
		assert.equal(x.steps.length, x.chains, `case ${i}: one step per chain`);
		assert.equal(x.steps.reduce((s, st) => s + st.score, 0), x.score, `case ${i}: step scores add up`);
		x.steps.forEach((st, k) => assert.equal(st.chain, k + 1));
		if (x.chains > 0) assert.deepEqual(x.steps[x.steps.length - 1].field, x.field, `case ${i}: last field`);
	}
});

test('a Monomino-Domino batch: partial success, errors located within the batch', async () => {
	const res = await request(server, {
		path: '/v1/monomino-domino',
		body: {
			cases: [
				{ blocks: MOVES },
				{ blocks: [[1, 1, 1], [3, 3, 0]] },
				{ blocks: MOVES.slice(0, 4), trace: true },
				{ nope: 1 },
				'not a case',
				{ blocks: [] },
			],
		},
	});
	assert.equal(res.status, 200);
	const [a, b, c, d, e, f] = res.json.results;
	assert.deepEqual([a.score, a.tiles], [2, 15]);
	assert.equal(a.steps, undefined);
	assert.equal(b.error.status, 422);
	assert.equal(b.error.type, '/errors/invalid-input');
	assertFaults(b.error.errors, [{ pointer: '/cases/1/blocks/1/1', detail: 'x must be 0..2 for a vertical domino (t = 3)' }], 'slot 1');
	assert.deepEqual([c.score, c.tiles], [1, 10]);
	assert.equal(c.steps.length, 4);
	assert.deepEqual(c.steps.at(-1).score, c.score);
	assert.deepEqual(c.steps.at(-1).tiles, c.tiles);
	assert.equal(d.error.status, 422);
	assertFaults(d.error.errors, [{ pointer: '/cases/3/nope' }], 'slot 3');
	assert.equal(e.error.status, 422);
	assertFaults(e.error.errors, [{ pointer: '/cases/4' }], 'slot 4');
	assert.deepEqual([f.score, f.tiles], [0, 0]);
});

test('a Puyo batch: partial success', async () => {
	const res = await request(server, {
		path: '/v1/puyo',
		body: { cases: [{ field: PUBLIC }, { field: PUBLIC.slice(2) }, { field: PUBLIC, trace: true }] },
	});
	const [a, b, c] = res.json.results;
	assert.equal(a.chains, 3);
	assertFaults(b.error.errors, [{ pointer: '/cases/1/field', detail: 'expected 12 rows (13 with the hidden row), found 10' }], 'slot 1');
	assert.equal(c.steps.length, 3);
});

test('an empty batch answers an empty list', async () => {
	const res = await request(server, { path: '/v1/puyo', body: { cases: [] } });
	assert.deepEqual(res.json, { results: [], summary: { cases: 0, answered: 0, failed: 0 } });
});

test('?trace=true traces every case of a batch; a case\'s own "trace": false wins', async () => {
	const res = await request(server, {
		path: '/v1/monomino-domino', query: 'trace=true',
		body: { cases: [{ blocks: MOVES }, { blocks: MOVES, trace: false }] },
	});
	assert.deepEqual(res.json.results[0].steps, mdSolve(MOVES).steps);
	assert.equal(res.json.results[1].steps, undefined);
});

test('a batch root with other members, or cases that are not an array, is 422', async () => {
	const a = await request(server, { path: '/v1/puyo', body: { cases: [], extra: 1 } });
	assert.equal(a.status, 422);
	assertFaults(a.json.errors, [{ pointer: '/extra' }], 'extra');
	const b = await request(server, { path: '/v1/puyo', body: { cases: {} } });
	assert.equal(b.status, 422);
	assertFaults(b.json.errors, [{ pointer: '/cases' }], 'cases object');
});

test('a batch answers JSON only: Accept text/plain is 406', async () => {
	const res = await request(server, { path: '/v1/puyo', body: { cases: [{ field: PUBLIC }] }, accept: 'text/plain' });
	assert.equal(res.status, 406);
});

test('more cases than max_batch is 413 naming the limit (solve, judge, validate)', async () => {
	const six = Array(6).fill({ blocks: [[1, 1, 1]] });
	for (const [p, cases] of [
		['/v1/monomino-domino', six],
		['/v1/monomino-domino/validate', six],
		['/v1/monomino-domino/judge', six.map((input) => ({ input, output: '0\n2\n' }))],
		['/v1/puyo', Array(6).fill({ field: PUBLIC })],
	]) {
		const res = await request(small, { path: p, body: { cases } });
		assert.equal(res.status, 413, p);
		assert.equal(res.json.type, '/errors/too-large');
		assert.match(res.json.detail, /\b5\b/, `${p}: the detail names the limit: ${res.json.detail}`);
	}
	const five = await request(small, { path: '/v1/monomino-domino', body: { cases: six.slice(1) } });
	assert.equal(five.status, 200);
	assert.equal(five.json.results.length, 5);
});

test('the default max_batch is 1000: 1001 cases is 413', async () => {
	const res = await request(server, { path: '/v1/puyo', body: { cases: Array(1001).fill({ field: PUBLIC }) } });
	assert.equal(res.status, 413);
	assert.match(res.json.detail, /1000/);
});
