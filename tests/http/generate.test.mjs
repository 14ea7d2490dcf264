// GET /v1/{problem}/generate: outputs pinned from the published PRNGs
// (prng.mjs), determinism (same parameters, byte-identical output, also
// across processes), the seed and generator headers, that every generated
// case passes validate, Puyo colours and min_chains, and parameter errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, request, requestAll, assertFaults } from './helper.mjs';
import { mdGenerate, splitmix64 } from './prng.mjs';
import { puyoSolve } from './reference.mjs';

const server = await startServer();
const MD = '/v1/monomino-domino/generate';
const PUYO = '/v1/puyo/generate';
const gen = (p, query, extra = {}) => request(server, { path: p, query, ...extra });
const mdText = (blocks) => `${blocks.length}\n${blocks.map((b) => b.join(' ')).join('\n')}\n`;

test('the PRNG reimplementation matches the published splitmix64 vector', () => {
	const s = splitmix64(0n);
	assert.equal(s().toString(16), 'e220a8397b1dcdaf');
	assert.equal(s().toString(16), '6e789e6aa1b965f4');
});

for (const [seed, n] of [[42, 8], [0, 10], [1, 1], [20061, 25], ['18446744073709551615', 5]]) {
	test(`Monomino-Domino seed=${seed} n=${n} is the case the documented draws give`, async () => {
		const want = mdGenerate(BigInt(seed), n);
		const res = await gen(MD, { seed: String(seed), n: String(n) });
		assert.equal(res.status, 200);
		assert.deepEqual(res.json, { blocks: want });
		assert.equal(res.headers['dropjudge-seed'], String(seed));
		assert.equal(res.headers['dropjudge-generator'], '1');
		const t = await gen(MD, { seed: String(seed), n: String(n) }, { accept: 'text/plain' });
		assert.equal(t.mediaType, 'text/plain');
		assert.equal(t.body, mdText(want));
		assert.equal(t.headers['dropjudge-seed'], String(seed));
	});
}

test('n defaults to 10', async () => {
	const res = await gen(MD, { seed: '5' });
	assert.equal(res.json.blocks.length, 10);
	assert.deepEqual(res.json.blocks, mdGenerate(5n, 10));
});

test('the same parameters give byte-identical output, also from another process', async () => {
	const a = await gen(MD, { seed: '99', n: '300' });
	const b = await gen(MD, { seed: '99', n: '300' });
	assert.equal(a.body, b.body);
	const p1 = await gen(PUYO, { seed: '99', colors: '4', min_chains: '2' });
	const p2 = await gen(PUYO, { seed: '99', colors: '4', min_chains: '2' });
	assert.equal(p1.body, p2.body);
	const other = await startServer();
	const c = await request(other, { path: MD, query: { seed: '99', n: '300' } });
	const p3 = await request(other, { path: PUYO, query: { seed: '99', colors: '4', min_chains: '2' } });
	assert.equal(c.body, a.body);
	assert.equal(p3.body, p1.body);
	await other.stop();
	const d = await gen(MD, { seed: '100', n: '300' });
	assert.notEqual(d.body, a.body, 'another seed gives another case');
});

test('without a seed one is chosen, echoed, and reproduces the output', async () => {
	const a = await gen(MD, { n: '20' });
	const seed = a.headers['dropjudge-seed'];
	assert.match(seed, /^[0-9]{1,20}$/);
	const b = await gen(MD, { n: '20', seed });
	assert.equal(b.body, a.body);
	assert.deepEqual(a.json.blocks, mdGenerate(BigInt(seed), 20));
	const p = await gen(PUYO, {});
	const pseed = p.headers['dropjudge-seed'];
	const q = await gen(PUYO, { seed: pseed });
	assert.equal(q.body, p.body);
	const c = await gen(MD, { n: '20' });
	assert.notEqual(c.headers['dropjudge-seed'], seed, 'two random seeds differ');
});

test('generated Monomino-Domino cases always pass validate (200 seeds, JSON and text)', async () => {
	const seeds = Array.from({ length: 200 }, (_, i) => i + 1);
	const sizes = seeds.map((seed) => 1 + ((seed * 37) % 200));
	const made = await requestAll(server, seeds.map((seed, i) =>
		({ path: MD, query: { seed: String(seed * 7919), n: String(sizes[i]) } })));
	const cases = made.map((res, i) => {
		assert.equal(res.json.blocks.length, sizes[i]);
		return res.json;
	});
	const v = await request(server, { path: '/v1/monomino-domino/validate', body: { cases } });
	v.json.results.forEach((r, i) => assert.deepEqual(r, { valid: true }, `seed ${(i + 1) * 7919}: ${JSON.stringify(r)}`));
	for (const seed of [1, 2, 3, 17, 123456789]) {
		const t = await gen(MD, { seed: String(seed), n: '10000' }, { accept: 'text/plain' });
		const r = await request(server, { path: '/v1/monomino-domino/validate', body: t.body, contentType: 'text/plain' });
		assert.deepEqual(r.json, { valid: true }, `seed ${seed}`);
	}
});

test('generated Puyo fields always pass validate, use only the first K colours and reach min_chains', async () => {
	const fields = [];
	const params = [];
	const asked = Array.from({ length: 120 }, (_, i) => {
		const colors = 1 + (i % 5);
		return [i, colors, colors === 1 ? 0 : i % 4];
	});
	const made = await requestAll(server, asked.map(([i, colors, minChains]) =>
		({ path: PUYO, query: { seed: String(1000 + i), colors: String(colors), min_chains: String(minChains) } })));
	for (const [i, colors, minChains] of asked) {
		const res = made[i];
		if (res.status === 422) {
			assertFaults(res.json.errors, [{ parameter: 'min_chains' }], 'search bound');
			continue;
		}
		assert.equal(res.status, 200);
		assert.equal(res.json.field.length, 12);
		const used = new Set(res.json.field.join('').replace(/\./g, ''));
		for (const c of used) assert.ok('RGBPY'.slice(0, colors).includes(c), `colour ${c} with colors=${colors}`);
		assert.ok(puyoSolve(res.json.field).chains >= minChains, `seed ${1000 + i}: fewer than ${minChains} chains`);
		fields.push(res.json);
		params.push([1000 + i, colors, minChains]);
	}
	assert.ok(fields.length >= 100, `only ${fields.length} of 120 searches succeeded`);
	const v = await request(server, { path: '/v1/puyo/validate', body: { cases: fields } });
	v.json.results.forEach((r, i) => assert.deepEqual(r, { valid: true }, `${params[i]}: ${JSON.stringify(r)}`));
	const t = await gen(PUYO, { seed: '7', colors: '3', min_chains: '2' }, { accept: 'text/plain' });
	assert.equal(t.mediaType, 'text/plain');
	const r = await request(server, { path: '/v1/puyo/validate', body: t.body, contentType: 'text/plain' });
	assert.deepEqual(r.json, { valid: true });
	const j = await gen(PUYO, { seed: '7', colors: '3', min_chains: '2' });
	assert.equal(t.body, j.json.field.join('\n') + '\n', 'text and JSON are the same field');
});

test('Puyo defaults: 4 colours, min_chains 0', async () => {
	const a = await gen(PUYO, { seed: '11' });
	const b = await gen(PUYO, { seed: '11', colors: '4', min_chains: '0' });
	assert.equal(a.body, b.body);
});

test('larger min_chains: 200 with at least that many chains, or 422 naming min_chains', async () => {
	for (const m of [5, 8, 12]) {
		const res = await gen(PUYO, { seed: '3', colors: '4', min_chains: String(m) });
		if (res.status === 200) {
			assert.ok(puyoSolve(res.json.field).chains >= m, `min_chains=${m}`);
		} else {
			assert.equal(res.status, 422);
			assertFaults(res.json.errors, [{ parameter: 'min_chains' }], `min_chains=${m}`);
		}
	}
});

const paramErrors = [
	[MD, 'n=0', 422, 'n'], [MD, 'n=10001', 422, 'n'], [MD, 'n=abc', 400, 'n'], [MD, 'n=-1', 400, 'n'],
	[MD, 'n=1.5', 400, 'n'], [MD, 'seed=abc', 400, 'seed'], [MD, 'seed=-1', 400, 'seed'],
	[MD, 'seed=18446744073709551616', 422, 'seed'], [MD, 'colors=3', 400, 'colors'],
	[MD, 'n=5&n=6', 400, 'n'],
	[PUYO, 'colors=0', 422, 'colors'], [PUYO, 'colors=6', 422, 'colors'], [PUYO, 'colors=x', 400, 'colors'],
	[PUYO, 'min_chains=13', 422, 'min_chains'], [PUYO, 'n=5', 400, 'n'], [PUYO, 'seed=', 400, 'seed'],
];
for (const [p, query, status, param] of paramErrors) {
	test(`GET ${p}?${query} is ${status} at parameter ${param}`, async () => {
		const res = await gen(p, query);
		assert.equal(res.status, status, res.body);
		assertFaults(res.json.errors, [{ parameter: param }], query);
	});
}

test('generate with an unacceptable Accept is 406', async () => {
	const res = await gen(MD, { seed: '1' }, { accept: 'application/xml' });
	assert.equal(res.status, 406);
	assert.equal(res.json.type, '/errors/not-acceptable');
});
