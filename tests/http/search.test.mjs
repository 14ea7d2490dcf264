// POST /v1/puyo/search and `dropjudge search puyo`: the answers held to a
// search written here from the rules of the route (openapi.yaml) on top of
// the reference simulator of reference.mjs, on random fields with no pair,
// one pair and two pairs; the example worked by hand; streams; every
// request error named by its JSON pointer; the command line; the picture
// (valid SVG 1.1, under --max-svg-bytes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { startServer, request, requestAll, assertFaults, rng, run, BIN, tmpFile } from './helper.mjs';
import { puyoSolve } from './reference.mjs';

const server = await startServer();
const PATH = '/v1/puyo/search';
const ORDER = 'RGBPY';
const search = (body, extra = {}) => request(server, {
	path: PATH, method: 'POST', contentType: 'application/json', body: JSON.stringify(body), ...extra,
});

// --- the search, from the rules -------------------------------------------

// The field as 13 rows of arrays, a 12-row field under an empty hidden row.
const grid = (rows) => (rows.length === 12 ? ['......', ...rows] : rows).map((r) => r.split(''));
const text = (g) => g.map((r) => r.join(''));
const run13 = (g) => {
	const r = puyoSolve(text(g));
	return { chains: r.chains, score: r.score, field: grid(r.field) };
};
const free = (g, c) => g.filter((row) => row[c] === '.').length;
// Drops v into column c of a field at rest (it has room).
const drop = (g, c, v) => {
	for (let r = 12; r >= 0; r--) if (g[r][c] === '.') { g[r][c] = v; return; }
};
const copy = (g) => g.map((r) => r.slice());
const before = (a, b) => b.chains - a.chains || b.score - a.score || a.puyos - b.puyos ||
	a.column - b.column || ORDER.indexOf(a.color) - ORDER.indexOf(b.color);

function triggers(g, add, colors) {
	const out = [];
	for (let c = 0; c < 6; c++) {
		for (const v of colors) {
			for (let k = 1; k <= add && k <= free(g, c); k++) {
				const t = copy(g);
				for (let i = 0; i < k; i++) drop(t, c, v);
				const r = run13(t);
				if (r.chains > 0) {
					out.push({ column: c + 1, color: v, puyos: k, chains: r.chains, score: r.score });
					break;
				}
			}
		}
	}
	return out.sort(before);
}

function place(g, c, r, [a, b]) {
	const c2 = c + (r === 1) - (r === 3);
	if (c2 < 0 || c2 > 5) return null;
	const t = copy(g);
	if (c2 === c) {
		if (free(g, c) < 2) return null;
		drop(t, c, r === 0 ? a : b);
		drop(t, c, r === 0 ? b : a);
	} else {
		if (free(g, c) < 1 || free(g, c2) < 1) return null;
		drop(t, c, a);
		drop(t, c2, b);
	}
	return run13(t);
}

function reference({ field, add = 3, pairs = [], limit = 10, colors = 'RGBPY' }) {
	const start = run13(grid(field));
	const seqs = [];
	const walk = (g, i, placements, fired) => {
		if (i === pairs.length) {
			seqs.push({ placements, fired, trigger: triggers(g, add, colors)[0] ?? null });
			return;
		}
		for (let c = 0; c < 6; c++) {
			for (let r = 0; r < (pairs[i][0] === pairs[i][1] ? 2 : 4); r++) {
				const p = place(g, c, r, pairs[i]);
				if (p) walk(p.field, i + 1, [...placements, { column: c + 1, rotation: r }],
					[...fired, { chains: p.chains, score: p.score }]);
			}
		}
	};
	walk(start.field, 0, [], []);
	const key = (s) => [Math.max(0, ...s.fired.map((f) => f.chains)), s.fired.reduce((n, f) => n + f.score, 0),
		s.trigger?.chains ?? 0, s.trigger?.score ?? 0];
	// Placements come in (column, rotation) order: a stable sort keeps it for ties.
	seqs.sort((x, y) => {
		const a = key(x), b = key(y);
		for (let i = 0; i < 4; i++) if (a[i] !== b[i]) return b[i] - a[i];
		return 0;
	});
	return {
		fires_now: start.chains ? { chains: start.chains, score: start.score } : null,
		triggers: triggers(start.field, add, colors),
		examined: seqs.length,
		sequences: seqs.slice(0, limit),
	};
}

// A random request: any content (garbage, floating, the hidden row) or
// settled stacks up to near-full columns.
function randomRequest(next, pairs) {
	const n = (k) => Math.floor(next() * k);
	const rows = 12 + n(2);
	const colours = 2 + n(4);
	const g = Array.from({ length: rows }, () => Array(6).fill('.'));
	if (n(2)) {
		const empty = n(60), garbage = n(20);
		for (const row of g) for (let c = 0; c < 6; c++) {
			const roll = n(100);
			row[c] = roll < empty ? '.' : roll < empty + garbage ? 'O' : ORDER[n(colours)];
		}
	} else {
		for (let c = 0; c < 6; c++) {
			const h = Math.min(rows, n(2) ? n(13) : 9 + n(5));
			for (let i = 0; i < h; i++) g[rows - 1 - i][c] = n(10) ? ORDER[n(colours)] : 'O';
		}
	}
	const req = { field: text(g), add: 1 + n(4), limit: 1 + n(30) };
	if (n(2)) req.colors = [...ORDER].filter(() => n(3)).join('') || 'Y';
	req.pairs = Array.from({ length: pairs }, () => {
		const a = ORDER[n(4)];
		return [a, n(4) ? ORDER[n(4)] : a];
	});
	return req;
}

for (const [pairs, count] of [[0, 60], [1, 20], [2, 3]]) {
	test(`${count} random searches with ${pairs} pair(s) are answered as the rules say`, async () => {
		const { next } = rng(47 + pairs);
		const reqs = Array.from({ length: count }, () => randomRequest(next, pairs));
		const answers = await requestAll(server, reqs.map((body) =>
			({ path: PATH, method: 'POST', contentType: 'application/json', body: JSON.stringify(body) })));
		for (const [i, req] of reqs.entries()) {
			const res = answers[i];
			assert.equal(res.status, 200, res.body);
			assert.deepEqual(res.json, reference(req), `case ${i}: ${JSON.stringify(req)}`);
		}
	});
}

// --- examples worked by hand ----------------------------------------------

const TWO = ['......', '......', '......', '......', '......', '......', '......',
	'G.....', 'R.....', 'R.....', 'RG....', 'GG....'];

test('a red on column 2 fires two chains (40 + 320 points); four placements of [R, B] do too', async () => {
	const res = await search({ field: TWO, pairs: [['R', 'B']], add: 1, colors: 'R', limit: 4 });
	assert.equal(res.status, 200);
	const two = { chains: 2, score: 360 };
	assert.deepEqual(res.json, {
		fires_now: null,
		triggers: [{ column: 2, color: 'R', puyos: 1, ...two }],
		examined: 22,
		sequences: [0, 1, 2, 3].map((r) => ({ placements: [{ column: 2, rotation: r }], fired: [two], trigger: null })),
	});
});

test('a field that fires as given says so, and the search starts from it at rest', async () => {
	const field = [...Array(8).fill('......'), 'R.....', 'R.....', 'R.....', 'R.....'];
	const res = await search({ field, pairs: [['R', 'R']], limit: 1 });
	assert.deepEqual(res.json, {
		fires_now: { chains: 1, score: 40 },
		triggers: [],
		examined: 11,
		sequences: [{ placements: [{ column: 1, rotation: 0 }], fired: [{ chains: 0, score: 0 }],
			trigger: { column: 1, color: 'R', puyos: 2, chains: 1, score: 40 } }],
	});
});

test('no placement fits a full field; a field full but for the hidden row takes only horizontal pairs', async () => {
	const full = ['RGBPYG', 'GBPYRB', 'BPYRGP', 'PYRGBY', 'YRGBPR', 'RGBPYG',
		'GBPYRB', 'BPYRGP', 'PYRGBY', 'YRGBPR', 'RGBPYG', 'GBPYRB'];
	let res = await search({ field: full, pairs: [['R', 'G']] });
	assert.equal(res.json.examined, 10);
	assert.ok(res.json.sequences.every((s) => s.placements[0].rotation % 2 === 1));
	res = await search({ field: ['YYYYYY', ...full], pairs: [['R', 'G']] });
	assert.deepEqual(res.json, { fires_now: null, triggers: [], examined: 0, sequences: [] });
});

// --- streams and errors ---------------------------------------------------

test('a stream answers one search a line, with its id, and a bad line in its place', async () => {
	const lines = [{ id: 'a', field: TWO, add: 1, colors: 'R' }, { id: 'b', field: TWO, add: 5 }];
	const res = await request(server, { path: PATH, method: 'POST', contentType: 'application/x-ndjson',
		body: lines.map((l) => JSON.stringify(l)).join('\n') + '\n' });
	assert.equal(res.status, 200);
	const out = res.body.trim().split('\n').map((l) => JSON.parse(l));
	assert.equal(out.length, 3);
	assert.equal(out[0].id, 'a');
	assert.deepEqual(out[0].triggers, reference(lines[0]).triggers);
	assert.equal(out[1].line, 2);
	assertFaults(out[1].error.errors, [{ pointer: '/add' }], 'line 2');
	assert.deepEqual(out[2], { summary: { cases: 2, answered: 1, failed: 1 } });
});

for (const [what, body, pointer, detail] of [
	['a bad colour in a pair', { field: TWO, pairs: [['R', 'X']] }, '/pairs/0/1', 'must be a colour'],
	['garbage in a pair', { field: TWO, pairs: [['R', 'G'], ['O', 'G']] }, '/pairs/1/0', 'must be a colour'],
	['a pair of three', { field: TWO, pairs: [['R', 'G', 'B']] }, '/pairs/0', 'must be a pair'],
	['too many pairs', { field: TWO, pairs: [['R', 'G'], ['R', 'G'], ['R', 'G'], ['R', 'G']] }, '/pairs', 'too many pairs: 4'],
	['add 0', { field: TWO, add: 0 }, '/add', 'must be an integer from 1 to 4'],
	['add 5', { field: TWO, add: 5 }, '/add', 'must be an integer from 1 to 4'],
	['limit 101', { field: TWO, limit: 101 }, '/limit', 'must be an integer from 1 to 100'],
	['limit "3"', { field: TWO, limit: '3' }, '/limit', 'must be an integer'],
	['a colour given twice', { field: TWO, colors: 'RGR' }, '/colors', 'colour R is given twice'],
	['a letter that is no colour', { field: TWO, colors: 'RO' }, '/colors', 'character 2 is not a colour'],
	['no colours', { field: TWO, colors: '' }, '/colors', 'must be a string of colours'],
	['a bad row', { field: [...TWO.slice(0, 11), 'GGX...'] }, '/field/11', undefined],
	['no field', { pairs: [] }, '/field', 'required'],
	['an unknown member', { field: TWO, depth: 3 }, '/depth', 'unknown member'],
]) {
	test(`${what} is 422 at ${pointer}`, async () => {
		const res = await search(body);
		assert.equal(res.status, 422, res.body);
		assert.equal(res.mediaType, 'application/problem+json');
		assertFaults(res.json.errors, [{ pointer, detail }], what);
	});
}

test('the Baekjoon text is not a search: 415', async () => {
	const res = await request(server, { path: PATH, method: 'POST', contentType: 'text/plain', body: TWO.join('\n') });
	assert.equal(res.status, 415);
});

// --- the command line -----------------------------------------------------

test('dropjudge search puyo answers as the route does, and a bad request exits 1', async () => {
	const body = { field: TWO, pairs: [['R', 'B']], add: 1, colors: 'R' };
	const r = await run(BIN, ['search', 'puyo'], { input: JSON.stringify(body) });
	assert.equal(r.code, 0, r.stderr);
	assert.deepEqual(JSON.parse(r.stdout), reference(body));
	const f = await run(BIN, ['search', 'puyo', tmpFile(JSON.stringify(body))]);
	assert.equal(f.stdout, r.stdout);
	const bad = await run(BIN, ['search', 'puyo'], { input: JSON.stringify({ field: TWO, add: 9 }) });
	assert.equal(bad.code, 1);
	assert.match(bad.stderr, /\/add: must be an integer from 1 to 4/);
	const usage = await run(BIN, ['search', 'md']);
	assert.equal(usage.code, 2);
	const help = await run(BIN, ['search', 'puyo', '--help']);
	assert.equal(help.code, 0);
	assert.match(help.stdout, /^Usage: dropjudge search puyo \[--ndjson\] \[FILE\]$/m);
});

test('dropjudge search puyo --ndjson answers one line a search, then the summary', async () => {
	const input = [{ field: TWO, add: 1, colors: 'R', id: 7 }, { field: [] }].map((l) => JSON.stringify(l)).join('\n') + '\n';
	const r = await run(BIN, ['search', 'puyo', '--ndjson'], { input });
	assert.equal(r.code, 0, r.stderr);
	const out = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
	assert.equal(out[0].id, 7);
	assert.deepEqual(out[0].triggers, [{ column: 2, color: 'R', puyos: 1, chains: 2, score: 360 }]);
	assert.equal(out[1].line, 2);
	assert.deepEqual(out[2], { summary: { cases: 2, answered: 1, failed: 1 } });
});

// --- the picture ----------------------------------------------------------

const DTD = '/usr/share/xml/w3c-sgml-lib/schema/dtd/REC-SVG11-20110816/svg11.dtd';
function assertValidSvg(body, what) {
	try {
		execFileSync('xmllint', ['--nonet', '--noout', '--dtdvalid', DTD, tmpFile(body)], { stdio: 'pipe' });
	} catch (e) {
		assert.fail(`${what}: not valid SVG 1.1: ${e.stderr}`);
	}
}
const ROWS = TWO.join(',');

test('Accept: image/svg+xml draws the answer: the best trigger dashed, a heat map cell per column and colour', async () => {
	const res = await search({ field: TWO, add: 1, colors: 'RG' }, { accept: 'image/svg+xml' });
	assert.equal(res.status, 200, res.body);
	assert.equal(res.mediaType, 'image/svg+xml');
	assertValidSvg(res.body, 'POST');
	assert.equal((res.body.match(/class="heat"/g) ?? []).length, 12, '6 columns x 2 colours');
	assert.equal((res.body.match(/class="trigger"/g) ?? []).length, 1, 'one red dropped');
	assert.match(res.body, /trigger: 1 R on 2, 2 chains/);
});

test('GET /v1/puyo/search.svg draws the search of its query, the pairs placed ringed and numbered', async () => {
	// [B, Y] and [P, P] fire nothing on this field: their four puyos stay where they land
	const res = await request(server, { path: '/v1/puyo/search.svg', query: { field: ROWS, pairs: 'BY,PP', colors: 'R', add: '1' } });
	assert.equal(res.status, 200, res.body);
	assertValidSvg(res.body, 'GET');
	assert.equal((res.body.match(/class="placed"/g) ?? []).length, 4);
	assert.equal((res.body.match(/class="heat"/g) ?? []).length, 6);
	const json = await search({ field: TWO, pairs: [['B', 'Y'], ['P', 'P']], colors: 'R', add: 1, limit: 1 });
	const best = json.json.sequences[0];
	assert.ok(best.fired.every((f) => f.chains === 0), JSON.stringify(best));
	assert.match(res.body, new RegExp(`best: ${best.placements.map((p) => `${p.column}/${p.rotation}`).join(' ')}<`));
});

for (const [query, parameter] of [
	[{ field: ROWS, pairs: 'BX' }, 'pairs'],
	[{ field: ROWS, pairs: 'BYY' }, 'pairs'],
	[{ field: ROWS, pairs: 'RG,RG,RG,RG' }, 'pairs'],
	[{ field: ROWS, colors: 'RR' }, 'colors'],
	[{ field: ROWS, add: '5' }, 'add'],
	[{ field: '......' }, 'field'],
	[{ pairs: 'RG' }, 'field'], // missing: 400, as a missing parameter is on every path
]) {
	const status = parameter === 'field' && !query.field ? 400 : 422;
	test(`search.svg?${new URLSearchParams(query)} is ${status} at parameter ${parameter}`, async () => {
		const res = await request(server, { path: '/v1/puyo/search.svg', query });
		assert.equal(res.status, status, res.body);
		assertFaults(res.json.errors, [{ parameter }], parameter);
	});
}

test('a search picture over --max-svg-bytes is 422 at cell', async () => {
	const small = await startServer({ args: ['--max-svg-bytes', '2000'] });
	const res = await request(small, { path: '/v1/puyo/search.svg', query: { field: ROWS } });
	assert.equal(res.status, 422);
	assertFaults(res.json.errors, [{ parameter: 'cell', detail: 'the picture asked for is' }], 'max-svg-bytes');
});
