// POST /v1/puyo: the public example of Baekjoon 11559 in both formats, the
// Puyo Puyo Tsu extensions (gravity first, garbage, hidden 13th row, score,
// all clear), the score check of issue 3, traces, input errors, and random
// fields against the naive reference simulator (reference.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, request, requestAll, assertFaults, rng } from './helper.mjs';
import { puyoSolve } from './reference.mjs';

const server = await startServer();
const PATH = '/v1/puyo';
const EMPTY = '......';
const PUBLIC = [EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, '.Y....', '.YG...', 'RRYG..', 'RRYGG.'];
const EMPTY12 = Array(12).fill(EMPTY);

const solve = (body, extra = {}) => request(server, { path: PATH, body, ...extra });
const solveText = (body, extra = {}) => request(server, { path: PATH, body, contentType: 'text/plain', ...extra });
const rowsText = (rows) => rows.join('\n') + '\n';
// A field from rows given bottom-up for the lowest rows.
const field = (...bottomUp) => [...Array(12 - bottomUp.length).fill(EMPTY), ...[...bottomUp].reverse()];

test('the public example gives 3 chains (JSON and text, both Accepts)', async () => {
	const a = await solve({ field: PUBLIC });
	assert.equal(a.status, 200);
	assert.equal(a.json.chains, 3);
	assert.deepEqual(a.json.field, EMPTY12);
	assert.equal(a.json.all_clear, true);
	assert.equal(a.json.score, 1000);
	const b = await solveText(rowsText(PUBLIC), { accept: 'text/plain' });
	assert.equal(b.mediaType, 'text/plain');
	assert.equal(b.body, '3\n');
	const c = await solveText(rowsText(PUBLIC));
	assert.equal(c.json.chains, 3);
	const d = await solve({ field: PUBLIC }, { accept: 'text/plain' });
	assert.equal(d.body, '3\n');
});

test('the public example traced: three steps of one 4-group each, fields after gravity', async () => {
	const res = await solve({ field: PUBLIC, trace: true });
	const steps = res.json.steps;
	assert.equal(steps.length, 3);
	assert.deepEqual(steps.map((s) => s.chain), [1, 2, 3]);
	assert.deepEqual(steps.map((s) => s.popped), [4, 4, 4]);
	assert.deepEqual(steps.map((s) => s.groups), [1, 1, 1]);
	assert.deepEqual(steps.map((s) => s.colors), [1, 1, 1]);
	assert.deepEqual(steps.map((s) => s.score), [40, 320, 640]);
	// After the red square pops, the yellows and greens fall two columns' worth.
	assert.deepEqual(steps[0].field, field('.YYGG.', '.YYG..', '..G...'));
	assert.deepEqual(steps[1].field, field('..GGG.', '...G..'));
	assert.deepEqual(steps[2].field, EMPTY12);
	assert.deepEqual(steps[2].field, res.json.field);
});

test('a text body with CRLF, no final newline and trailing empty lines is taken', async () => {
	for (const body of [PUBLIC.join('\r\n') + '\r\n', PUBLIC.join('\n'), PUBLIC.join('\n') + '\n\n\n']) {
		const res = await solveText(body, { accept: 'text/plain' });
		assert.equal(res.status, 200, JSON.stringify(body));
		assert.equal(res.body, '3\n');
	}
});

test('nothing pops: 0 chains, score 0, no all clear, field unchanged', async () => {
	const f = field('RGBPY.', 'RGBPY.', 'RGBPY.');
	const res = await solve({ field: f });
	assert.deepEqual(res.json, { chains: 0, score: 0, all_clear: false, field: f });
	const empty = await solve({ field: EMPTY12, trace: true });
	assert.deepEqual(empty.json, { chains: 0, score: 0, all_clear: false, field: EMPTY12, steps: [] });
});

// n-chain of single 4-groups: column 0 holds three of each of the first
// min(n, 4) colours (bottom first), column 1 one of each, so that each
// colour's fourth puyo reaches its three only when the colour below pops; a
// fifth link is a row of three on the floor in columns 2-4 that column 1's
// last puyo reaches after four drops.
function chainField(n) {
	const colours = 'RGBPY';
	const cols = Array.from({ length: 6 }, () => []);
	for (let i = 0; i < Math.min(n, 4); i++) cols[0].push(colours[i], colours[i], colours[i]);
	for (let i = 0; i < n; i++) cols[1].push(colours[i]);
	if (n === 5) for (const c of [2, 3, 4]) cols[c].push(colours[4]);
	const rows = [];
	for (let r = 0; r < 12; r++) {
		const level = 11 - r;
		rows.push(cols.map((col) => col[level] ?? '.').join(''));
	}
	return rows;
}

[40, 360, 1000, 2280, 4840].forEach((total, i) => {
	const n = i + 1;
	test(`the score check: a ${n}-chain of single 4-groups totals ${total}`, async () => {
		const f = chainField(n);
		const ref = puyoSolve(f);
		assert.equal(ref.chains, n, 'the hand-built field is an n-chain');
		assert.ok(ref.steps.every((s) => s.groups === 1 && s.popped === 4), 'of single 4-groups');
		const res = await solve({ field: f, trace: true });
		assert.equal(res.json.chains, n);
		assert.equal(res.json.score, total);
		assert.equal(res.json.steps.reduce((s, x) => s + x.score, 0), total);
		assert.equal(res.json.all_clear, true);
		const t = await solveText(rowsText(f), { accept: 'text/plain' });
		assert.equal(t.body, `${n}\n`);
	});
});

test('score: two colours in one step earn the colour bonus (10 * 8 * 3 = 240)', async () => {
	const res = await solve({ field: field('RRRRGG', '....GG'), trace: true });
	assert.equal(res.json.chains, 1);
	assert.equal(res.json.score, 240);
	assert.deepEqual(res.json.steps[0], { chain: 1, popped: 8, garbage: 0, groups: 2, colors: 2, score: 240, field: EMPTY12 });
});

test('score: group bonus by size (5 -> 2, 8 -> 5, 11+ -> 10)', async () => {
	const five = await solve({ field: field('RRRRR.') });
	assert.equal(five.json.score, 10 * 5 * 2);
	const eight = await solve({ field: field('RRRR..', 'RRRR..') });
	assert.equal(eight.json.score, 10 * 8 * 5);
	const twelve = await solve({ field: field('RRRRRR', 'RRRRRR') });
	assert.equal(twelve.json.score, 10 * 12 * 10);
	const two = await solve({ field: field('RRRRGG', 'BBBBGG', 'YYYYPP', 'PPPP..'), trace: true });
	// Five groups of four, five colours: 10 * 20 * (0 + 24 + 0).
	assert.equal(two.json.steps[0].colors, 5);
	assert.equal(two.json.steps[0].groups, 5);
	assert.equal(two.json.score, 10 * 20 * 24);
});

test('gravity settles floating puyos before the first pop', async () => {
	const f = [...EMPTY12];
	f[3] = 'R.....';
	f[11] = '.RRR..';
	const res = await solve({ field: f, trace: true });
	assert.equal(res.json.chains, 1);
	assert.equal(res.json.score, 40);
	assert.equal(res.json.all_clear, true);
	const t = await solveText(rowsText(f), { accept: 'text/plain' });
	assert.equal(t.body, '1\n');
	// A floating puyo that makes nothing just lands.
	const g = [...EMPTY12];
	g[0] = '.....Y';
	const r2 = await solve({ field: g });
	assert.equal(r2.json.chains, 0);
	assert.deepEqual(r2.json.field, field('.....Y'));
});

test('garbage never groups', async () => {
	const res = await solve({ field: field('OOOO..', 'OOOO..') });
	assert.equal(res.json.chains, 0);
});

test('garbage next to a popping puyo is removed and not counted in PC', async () => {
	const res = await solve({ field: field('RRRROO', 'O.....'), trace: true });
	assert.equal(res.json.chains, 1);
	const s = res.json.steps[0];
	assert.equal(s.popped, 4);
	assert.equal(s.garbage, 2);
	assert.equal(s.score, 40);
	// The garbage in column 5 touched only garbage: it stays.
	assert.deepEqual(res.json.field, field('.....O'));
	assert.equal(res.json.all_clear, false);
});

test('garbage removal can complete the next chain', async () => {
	// The reds pop and take the garbage above them with them, so the green
	// over the garbage falls to the floor between the other greens: GGGG.
	const f = field('RRRR..', 'GOGG..', '.G....');
	const res = await solve({ field: f, trace: true });
	assert.equal(res.json.chains, 2);
	assert.equal(res.json.steps[0].garbage, 1);
	assert.equal(res.json.steps[0].popped, 4);
	assert.deepEqual(res.json.steps[0].field, field('GGGG..'));
	assert.equal(res.json.score, 40 + 320);
	assert.equal(res.json.all_clear, true);
	assert.deepEqual(res.json, puyoSolve(f));
});

// The hidden 13th row.
const stripes = (first) => Array.from({ length: 8 }, (_, i) => ((i + first) % 2 ? 'B' : 'Y'));

test('13 rows: groups form in the 12 visible rows only, the hidden row never pops', async () => {
	// Columns 0-3 full and stripy so nothing below pops; hidden row RRRR with
	// RRR under it in the top visible row.
	const cols = [0, 1, 2, 3].map((c) => [...stripes(c), ...stripes(c + 1).slice(0, 3), c < 3 ? 'R' : 'G', 'R']);
	const rows = [];
	for (let level = 12; level >= 0; level--) {
		rows.push([0, 1, 2, 3, 4, 5].map((c) => (c < 4 ? cols[c][level] : '.')).join(''));
	}
	assert.equal(rows.length, 13);
	assert.equal(rows[0], 'RRRR..');
	assert.equal(rows[1], 'RRRG..');
	const res = await solve({ field: rows });
	assert.equal(res.json.chains, 0);
	assert.equal(res.json.field.length, 13);
	assert.deepEqual(res.json.field, rows);
	const t = await solveText(rowsText(rows), { accept: 'text/plain' });
	assert.equal(t.body, '0\n');
});

test('13 rows: a hidden puyo falls after a clear and joins the next chain', async () => {
	// Column 0: hidden R, then GGGG (visible rows 1-4), then stripes; column
	// 1: RRR at visible rows 2-4 on stripes. The greens pop, the hidden R
	// falls next to the three reds: a second chain (40 + 320).
	const rows = [
		'R.....',
		'G.....', 'GR....', 'GR....', 'GR....',
		'YB....', 'BY....', 'YB....', 'BY....', 'YB....', 'BY....', 'YB....', 'BY....',
	];
	const res = await solve({ field: rows, trace: true });
	assert.equal(res.json.chains, 2);
	assert.equal(res.json.score, 360);
	assert.equal(res.json.field.length, 13);
	assert.deepEqual(res.json.field, [...Array(5).fill(EMPTY), ...rows.slice(5)]);
	assert.equal(res.json.steps[0].field.length, 13);
	assert.deepEqual(res.json, puyoSolve(rows));
});

test('13 rows: garbage in the hidden row is not removed, it falls', async () => {
	const rows = [
		'O.....',
		'G.....', 'G.....', 'G.....', 'G.....',
		'Y.....', 'B.....', 'Y.....', 'B.....', 'Y.....', 'B.....', 'Y.....', 'B.....',
	];
	const res = await solve({ field: rows, trace: true });
	assert.equal(res.json.chains, 1);
	assert.equal(res.json.steps[0].garbage, 0);
	assert.equal(res.json.field[4], 'O.....');
	assert.equal(res.json.all_clear, false);
});

test('all_clear counts the hidden row: a leftover hidden puyo means no all clear', async () => {
	// A hidden G lands on the reds (gravity first) and stays after they pop.
	const rows = ['..G...', ...field('RRRR..').slice(0, 11), 'RRRR..'];
	const res = await solve({ field: rows });
	assert.equal(res.json.chains, 1);
	assert.equal(res.json.all_clear, false);
	const { steps, ...want } = puyoSolve(rows);
	assert.deepEqual(res.json, want);
});

// --- errors -----------------------------------------------------------------

const jsonErrors = [
	[{}, [{ pointer: '/field' }]],
	[{ field: 'RRRR' }, [{ pointer: '/field' }]],
	[{ field: PUBLIC.slice(1) }, [{ pointer: '/field', detail: 'expected 12 rows (13 with the hidden row), found 11' }]],
	[{ field: [...PUBLIC, EMPTY, EMPTY] }, [{ pointer: '/field', detail: 'expected 12 rows (13 with the hidden row), found 14' }]],
	[{ field: PUBLIC.map((r, i) => (i === 3 ? '.....' : r)) }, [{ pointer: '/field/3', detail: 'expected 6 characters, found 5' }]],
	[{ field: PUBLIC.map((r, i) => (i === 3 ? '.......' : r)) }, [{ pointer: '/field/3', detail: 'expected 6 characters, found 7' }]],
	[{ field: PUBLIC.map((r, i) => (i === 4 ? 'RRRXRR' : r)) }, [{ pointer: '/field/4', detail: "unknown cell 'X' at column 4 (expected one of .RGBPYO)" }]],
	[{ field: PUBLIC.map((r, i) => (i === 11 ? 'rrygg.' : r)) }, [{ pointer: '/field/11' }]],
	[{ field: PUBLIC.map((r, i) => (i === 2 ? 5 : r)) }, [{ pointer: '/field/2', detail: 'expected a string' }]],
	[{ field: PUBLIC, colours: 4 }, [{ pointer: '/colours' }]],
	[{ field: PUBLIC, trace: 1 }, [{ pointer: '/trace' }]],
];
for (const [body, faults] of jsonErrors) {
	test(`JSON field error is 422 at ${faults.map((f) => f.pointer).join(', ')}: ${faults[0].detail ?? ''}`, async () => {
		const res = await solve(body);
		assert.equal(res.status, 422, res.body);
		assert.equal(res.json.type, '/errors/invalid-input');
		assertFaults(res.json.errors, faults, JSON.stringify(body));
	});
}

test('bad JSON is 400', async () => {
	const res = await solve('{"field": [');
	assert.equal(res.status, 400);
	assert.equal(res.json.type, '/errors/malformed-input');
});

const textErrors = [
	[rowsText(PUBLIC.slice(1)), [{}]],
	[rowsText([...PUBLIC, EMPTY, EMPTY]), [{}]],
	[rowsText(PUBLIC.map((r, i) => (i === 4 ? '..X...' : r))), [{ line: 5, column: 3 }]],
	[rowsText(PUBLIC.map((r, i) => (i === 6 ? '.....' : r))), [{ line: 7 }]],
	[rowsText(PUBLIC.map((r, i) => (i === 9 ? '.YGx..' : r))), [{ line: 10, column: 4 }]],
	['', [{}]],
];
for (const [body, faults] of textErrors) {
	test(`text field error is 422 ${JSON.stringify(faults)} (${body.length} bytes)`, async () => {
		const res = await solveText(body);
		assert.equal(res.status, 422, res.body);
		assertFaults(res.json.errors, faults, JSON.stringify(body));
		assert.ok(res.json.errors.every((f) => f.line >= 1), 'text faults have lines');
	});
}

// --- random fields ----------------------------------------------------------

function randomField(r, { colours = 4, garbage = false, hidden = false, floating = false }) {
	const alphabet = 'RGBPY'.slice(0, colours) + (garbage ? 'O' : '');
	const rows = hidden ? 13 : 12;
	const cols = Array.from({ length: 6 }, () => {
		const h = r.int(rows + 1);
		return Array.from({ length: rows }, (_, level) => (level < h ? r.pick(alphabet) : '.'));
	});
	if (floating) for (const col of cols) for (let l = 0; l < rows; l++) if (r.next() < 0.25) col[l] = '.';
	return Array.from({ length: rows }, (_, i) => cols.map((col) => col[rows - 1 - i]).join(''));
}

test('500 random fields (garbage, hidden rows, floating puyos) agree with the reference', async () => {
	const r = rng(11559);
	const fields = [];
	for (let i = 0; i < 500; i++) {
		fields.push(randomField(r, {
			colours: 2 + r.int(4), garbage: i % 3 === 0, hidden: i % 4 === 0, floating: i % 5 === 0,
		}));
	}
	const res = await solve({ cases: fields.map((f) => ({ field: f, trace: true })) });
	assert.equal(res.status, 200);
	fields.forEach((f, i) => {
		assert.deepEqual(res.json.results[i], puyoSolve(f), `field ${i}: ${JSON.stringify(f)}`);
	});
	const chains = res.json.results.map((x) => x.chains);
	assert.ok(Math.max(...chains) >= 2, 'the random fields include chains');
});

test('random Baekjoon fields answer the same chain count in text', async () => {
	const r = rng(3);
	const fields = Array.from({ length: 30 }, () => randomField(r, { colours: 2 + r.int(3) }));
	const answers = await requestAll(server, fields.map((f) =>
		({ path: PATH, body: rowsText(f), contentType: 'text/plain', accept: 'text/plain' })));
	fields.forEach((f, i) => assert.equal(answers[i].body, `${puyoSolve(f).chains}\n`, JSON.stringify(f)));
});

test('random text bodies (garbage, hidden rows, floating puyos, CR LF, no final newline) answer by the rules in text and JSON', async () => {
	const r = rng(20261202);
	let taken = 0;
	const sent = [];
	for (let i = 0; i < 80; i++) {
		const f = randomField(r, {
			colours: 2 + r.int(4), garbage: i % 3 === 0, hidden: i % 4 === 0, floating: i % 5 === 0,
		});
		const eol = i % 2 ? '\r\n' : '\n';
		sent.push({ f, body: f.join(eol) + (i % 7 === 3 ? '' : eol) });
	}
	const answers = await requestAll(server, sent.flatMap(({ body }) => ['text/plain', 'application/json']
		.map((accept) => ({ path: PATH, body, contentType: 'text/plain', accept }))));
	for (const [i, { f, body }] of sent.entries()) {
		const want = puyoSolve(f);
		const text = answers[2 * i];
		assert.equal(text.status, 200, body);
		assert.match(text.headers['content-type'], /^text\/plain/);
		assert.equal(text.body, `${want.chains}\n`, JSON.stringify(f));
		const json = answers[2 * i + 1];
		assert.equal(json.status, 200, body);
		assert.deepEqual(json.json, { chains: want.chains, score: want.score, all_clear: want.all_clear, field: want.field },
			JSON.stringify(f));
		taken += want.chains > 0;
	}
	assert.ok(taken >= 20, 'the random fields include chains');
});
