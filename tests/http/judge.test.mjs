// POST /v1/{problem}/judge: the checker's verdicts (accepted after trimming
// trailing blanks, presentation error for the same tokens laid out
// otherwise, wrong answer naming the first difference), inputs as objects
// and as Baekjoon text, jury errors (422) and batches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, request, assertFaults } from './helper.mjs';

const server = await startServer();
const MD = '/v1/monomino-domino/judge';
const PUYO = '/v1/puyo/judge';
const MOVES = [[1, 1, 1], [2, 3, 0], [3, 2, 2], [3, 2, 3], [3, 1, 3], [2, 0, 0], [3, 2, 0], [3, 1, 2]];
const MD_TEXT = '8\n1 1 1\n2 3 0\n3 2 2\n3 2 3\n3 1 3\n2 0 0\n3 2 0\n3 1 2\n';
const PUBLIC = ['......', '......', '......', '......', '......', '......', '......', '......', '.Y....', '.YG...', 'RRYG..', 'RRYGG.'];

const judge = (p, body, extra = {}) => request(server, { path: p, body, ...extra });

const mdVerdicts = [
	['2\n15\n', 'accepted'],
	['2\n15', 'accepted'],
	['2   \n15\t\n\n\n', 'accepted'],
	['2\r\n15\r\n', 'accepted'],
	['2 15\n', 'presentation_error'],
	['\n2\n15\n', 'presentation_error'],
	['  2\n15\n', 'presentation_error'],
	['2\n\n15\n', 'presentation_error'],
	['2\n14\n', 'wrong_answer'],
	['15\n2\n', 'wrong_answer'],
	['02\n15\n', 'wrong_answer'],
	['2\n', 'wrong_answer'],
	['2\n15\n0\n', 'wrong_answer'],
	['', 'wrong_answer'],
];
for (const [output, verdict] of mdVerdicts) {
	test(`Monomino-Domino example 7: output ${JSON.stringify(output)} is ${verdict}`, async () => {
		const res = await judge(MD, { input: { blocks: MOVES }, output });
		assert.equal(res.status, 200, res.body);
		assert.equal(res.json.verdict, verdict, res.json.message);
		assert.equal(res.json.expected, '2\n15\n');
		assert.equal(typeof res.json.message, 'string');
	});
}

test('a wrong answer names the first differing token, its line, expected and found', async () => {
	const res = await judge(MD, { input: { blocks: MOVES }, output: '2\n14\n' });
	assert.equal(res.json.verdict, 'wrong_answer');
	assert.match(res.json.message, /2/, 'the line');
	assert.match(res.json.message, /15/, 'expected');
	assert.match(res.json.message, /14/, 'found');
	const missing = await judge(MD, { input: { blocks: MOVES }, output: '2\n' });
	assert.match(missing.json.message, /15/);
	assert.ok(missing.json.message.length > 0);
});

test('the input may be Baekjoon text in a string', async () => {
	const res = await judge(MD, { input: MD_TEXT, output: '2\n15\n' });
	assert.equal(res.json.verdict, 'accepted');
	assert.equal(res.json.expected, '2\n15\n');
	const bad = await judge(MD, { input: MD_TEXT, output: '2 15' });
	assert.equal(bad.json.verdict, 'presentation_error');
});

test('Puyo: the public example judged', async () => {
	for (const [output, verdict] of [['3\n', 'accepted'], ['3', 'accepted'], ['3 \n\n', 'accepted'],
		[' 3\n', 'presentation_error'], ['4\n', 'wrong_answer'], ['3\n0\n', 'wrong_answer'], ['three\n', 'wrong_answer']]) {
		const res = await judge(PUYO, { input: { field: PUBLIC }, output });
		assert.equal(res.status, 200);
		assert.equal(res.json.verdict, verdict, `${JSON.stringify(output)}: ${res.json.message}`);
		assert.equal(res.json.expected, '3\n');
	}
	const text = await judge(PUYO, { input: PUBLIC.join('\n') + '\n', output: '3\n' });
	assert.equal(text.json.verdict, 'accepted');
});

test('an invalid input object is a 422 jury error at /input/...', async () => {
	const a = await judge(MD, { input: { blocks: [[1, 1, 1], [4, 0, 0]] }, output: '0\n0\n' });
	assert.equal(a.status, 422);
	assertFaults(a.json.errors, [{ pointer: '/input/blocks/1/0', detail: 't must be 1, 2 or 3' }], 'md');
	const b = await judge(PUYO, { input: { field: PUBLIC.slice(1) }, output: '0\n' });
	assert.equal(b.status, 422);
	assertFaults(b.json.errors, [{ pointer: '/input/field' }], 'puyo');
	const c = await judge(PUYO, { input: { field: PUBLIC.map((r, i) => (i === 5 ? 'ZZZZZZ' : r)) }, output: '0\n' });
	assert.equal(c.status, 422);
	assertFaults(c.json.errors, [{ pointer: '/input/field/5' }], 'puyo cell');
});

test('an invalid input text is a 422 located at /input and its line', async () => {
	const a = await judge(MD, { input: '2\n1 1 1\n3 3 0\n', output: '0\n0\n' });
	assert.equal(a.status, 422);
	assertFaults(a.json.errors, [{ pointer: '/input', line: 3 }], 'md text');
	const b = await judge(PUYO, { input: PUBLIC.map((r, i) => (i === 4 ? '..X...' : r)).join('\n'), output: '0\n' });
	assert.equal(b.status, 422);
	assertFaults(b.json.errors, [{ pointer: '/input', line: 5 }], 'puyo text');
});

test('a malformed input text is located at /input and its line', async () => {
	const res = await judge(MD, { input: '2\n1 1\n1 1 1\n', output: '0\n0\n' });
	assert.ok([400, 422].includes(res.status), `status ${res.status}`);
	assertFaults(res.json.errors, [{ pointer: '/input', line: 2 }], 'md text');
});

test('judge requests with missing or mistyped members are 422', async () => {
	for (const [body, ptr] of [
		[{ input: { blocks: MOVES } }, '/output'],
		[{ output: '2\n15\n' }, '/input'],
		[{ input: { blocks: MOVES }, output: 2 }, '/output'],
		[{ input: 5, output: '' }, '/input'],
		[{ input: { blocks: MOVES }, output: '', extra: true }, '/extra'],
	]) {
		const res = await judge(MD, body);
		assert.equal(res.status, 422, JSON.stringify(body));
		assertFaults(res.json.errors, [{ pointer: ptr }], JSON.stringify(body));
	}
	const bad = await judge(MD, '{"input": ');
	assert.equal(bad.status, 400);
});

test('judge takes JSON only (text/plain is 415) and answers JSON only (Accept text/plain is 406)', async () => {
	const a = await judge(MD, MD_TEXT, { contentType: 'text/plain' });
	assert.equal(a.status, 415);
	const b = await judge(MD, { input: { blocks: MOVES }, output: '2\n15\n' }, { accept: 'text/plain' });
	assert.equal(b.status, 406);
	const c = await judge(MD, { input: { blocks: MOVES }, output: '2\n15\n' }, { accept: 'text/plain, application/json;q=0.1' });
	assert.equal(c.status, 200);
	assert.equal(c.json.verdict, 'accepted');
});

test('a judge batch answers each case in order, errors in their slots', async () => {
	const res = await judge(MD, {
		cases: [
			{ input: { blocks: MOVES }, output: '2\n15\n' },
			{ input: { blocks: MOVES.slice(0, 1) }, output: '0 2' },
			{ input: { blocks: [[9, 9, 9]] }, output: '0\n0\n' },
			{ input: '1\n1 1 1\n', output: '0\n3\n' },
		],
	});
	assert.equal(res.status, 200);
	const r = res.json.results;
	assert.equal(r.length, 4);
	assert.equal(r[0].verdict, 'accepted');
	assert.equal(r[1].verdict, 'presentation_error');
	assert.equal(r[1].expected, '0\n2\n');
	assert.equal(r[2].error.status, 422);
	assertFaults(r[2].error.errors, [{ pointer: '/cases/2/input/blocks/0/0' }], 'slot 2');
	assert.equal(r[3].verdict, 'wrong_answer');
	const p = await judge(PUYO, { cases: [{ input: { field: PUBLIC }, output: '3\n' }, { input: { field: [] }, output: '0' }] });
	assert.equal(p.json.results[0].verdict, 'accepted');
	assert.equal(p.json.results[1].error.status, 422);
});
