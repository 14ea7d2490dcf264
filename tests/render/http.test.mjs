// The pictures and the viewer files over HTTP (real binary, curl), every
// response validated against openapi.yaml by the helper.
//
// Data-driven: every solvable case in tests/cases is drawn by
// GET .../render.svg, and the picture's <desc> must state the answer in the
// case's expected.txt (the Baekjoon output, checked elsewhere against the
// rules); each picture is valid SVG 1.1 (xmllint, W3C DTD, offline) with
// one frame per step and the final one. Then the parameters' faults, and
// cases given as puyop.com / Puyo Nexus links to POST /v1/puyo.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startServer, request, tmpFile, CASES_DIR } from '../http/helper.mjs';

const server = await startServer();
const DTD = '/usr/share/xml/w3c-sgml-lib/schema/dtd/REC-SVG11-20110816/svg11.dtd';

function assertValidSvg(body, what) {
	try {
		execFileSync('xmllint', ['--nonet', '--noout', '--dtdvalid', DTD, tmpFile(body)], { stdio: 'pipe' });
	} catch (e) {
		assert.fail(`${what}: not valid SVG 1.1: ${e.stderr}`);
	}
}

const frames = (svg) => (svg.match(/<svg class="frame"/g) ?? []).length;

// The solvable cases: those with an expected.txt.
function cases(problem) {
	const dir = path.join(CASES_DIR, problem);
	return fs.readdirSync(dir).filter((d) => fs.existsSync(path.join(dir, d, 'expected.txt'))).map((d) => {
		const files = fs.readdirSync(path.join(dir, d));
		const input = files.find((f) => f.startsWith('input.'));
		return { name: d, input: fs.readFileSync(path.join(dir, d, input), 'utf8'), json: input.endsWith('.json'),
			expected: fs.readFileSync(path.join(dir, d, 'expected.txt'), 'utf8').trim().split(/\s+/).map(Number) };
	});
}

function mdBlocks(c) {
	if (c.json) return JSON.parse(c.input).blocks.map((b) => (Array.isArray(b) ? b : [b.t, b.x, b.y]));
	const nums = c.input.trim().split(/\s+/).map(Number);
	const out = [];
	for (let k = 0; k < nums[0]; k++) out.push(nums.slice(1 + 3 * k, 4 + 3 * k));
	return out;
}

for (const c of cases('monomino-domino')) {
	test(`render.svg of Monomino-Domino case ${c.name} states its answer and has a frame a placement`, async () => {
		const blocks = mdBlocks(c);
		const query = { blocks: blocks.map((b) => b.join('')).join(','), cell: '12' };
		if (blocks.length <= 500) query.strip = 'true';
		const res = await request(server, { path: '/v1/monomino-domino/render.svg', query });
		assert.equal(res.status, 200, res.body);
		assert.equal(res.mediaType, 'image/svg+xml');
		const [score, tiles] = c.expected;
		assert.match(res.body, new RegExp(`<desc>${blocks.length} placements\\. Answer: score ${score} and ${tiles} tiles left`));
		assert.equal(frames(res.body), blocks.length <= 500 ? blocks.length + 1 : 1);
		assertValidSvg(res.body, c.name);
	});
}

for (const c of cases('puyo')) {
	test(`render.svg of Puyo case ${c.name} states its chain count and has a frame a chain step`, async () => {
		const rows = c.json ? JSON.parse(c.input).field : c.input.split(/\r?\n/).filter((l) => l.trim() !== '');
		const res = await request(server, { path: '/v1/puyo/render.svg', query: { field: rows.join(','), strip: 'true' } });
		assert.equal(res.status, 200, res.body);
		const [chains] = c.expected;
		assert.match(res.body, new RegExp(`Answer: ${chains} chains?, score`));
		assert.equal(frames(res.body), chains + 1);
		assertValidSvg(res.body, c.name);
	});
}

test('render.svg is deterministic and sized by cell', async () => {
	const q = { blocks: '111,230,322,323', cell: '20' };
	const a = await request(server, { path: '/v1/monomino-domino/render.svg', query: q });
	const b = await request(server, { path: '/v1/monomino-domino/render.svg', query: q });
	assert.equal(a.body, b.body);
	// 10 cells, margins of half a cell, a quarter-cell gap: 10 + 200 + 5 + 10.
	assert.match(a.body, /<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" version="1\.1" width="225" height="225"/);
});

test('render.svg takes the Puyo field as puyop.com and Puyo Nexus links', async () => {
	const rows = await request(server, { path: '/v1/puyo/render.svg', query: { field: '......,......,......,......,......,......,......,......,.Y....,.YG...,RRYG..,RRYGG.', step: '2' } });
	for (const query of [{ puyop: 'http://www.puyop.com/s/4004g09y09yg', step: '2' },
		{ puyo_nexus: 'https://puyonexus.com/chainsim/?w=6&h=12&chain=60000067000446700446770', step: '2' }]) {
		const res = await request(server, { path: '/v1/puyo/render.svg', query });
		assert.equal(res.status, 200, res.body);
		assert.equal(res.body, rows.body);
	}
});

test('render.svg?animate=true plays the strip in one frame\'s place, and is valid SVG 1.1', async () => {
	const q = { field: '......,......,......,......,......,......,......,......,.Y....,.YG...,RRYG..,RRYGG.' };
	const strip = await request(server, { path: '/v1/puyo/render.svg', query: { ...q, strip: 'true' } });
	const anim = await request(server, { path: '/v1/puyo/render.svg', query: { ...q, animate: 'true' } });
	assert.equal(anim.status, 200, anim.body);
	assert.equal(frames(anim.body), frames(strip.body));
	assert.equal((anim.body.match(/<animate /g) ?? []).length, 4);
	assertValidSvg(anim.body, 'animated');
	const md = await request(server, { path: '/v1/monomino-domino/render.svg', query: { blocks: '111,230', animate: '1' } });
	assert.equal(md.status, 200, md.body);
	assert.equal((md.body.match(/<animate /g) ?? []).length, 3);
});

const faults = [
	['/v1/monomino-domino/render.svg', {}, 400, 'blocks', /required/],
	['/v1/monomino-domino/render.svg', { blocks: '111,2x0' }, 400, 'blocks', /placement 2 must be three digits/],
	['/v1/monomino-domino/render.svg', { blocks: '111,430' }, 422, 'blocks', /placement 2 \(430\): t must be 1, 2 or 3/],
	['/v1/monomino-domino/render.svg', { blocks: '111', step: '2' }, 422, 'step', /1\.\.1/],
	// step's range is the case's however it is missed: 0, too many, too large to read
	['/v1/monomino-domino/render.svg', { blocks: '111,111,111', step: '0' }, 422, 'step', /^must be 1\.\.3 \(the steps of this case\), got 0$/],
	['/v1/monomino-domino/render.svg', { blocks: '111,111,111', step: '4' }, 422, 'step', /^must be 1\.\.3 \(the steps of this case\), got 4$/],
	['/v1/monomino-domino/render.svg', { blocks: '111,111,111', step: '99999999999999999999' }, 422, 'step', /^must be 1\.\.3 \(the steps of this case\), got 99999999999999999999$/],
	['/v1/monomino-domino/render.svg', { blocks: '111', step: 'two' }, 400, 'step', /unsigned decimal integer, got 'two'/],
	['/v1/puyo/render.svg', { field: '......,......,......,......,......,......,......,......,.Y....,.YG...,RRYG..,RRYGG.', step: '0' }, 422, 'step', /^must be 1\.\.3 \(the steps of this case\), got 0$/],
	['/v1/monomino-domino/render.svg', { blocks: '111', cell: '7' }, 422, 'cell', /8\.\.96/],
	['/v1/monomino-domino/render.svg', { blocks: '111', step: '1', strip: 'true' }, 400, 'strip', /not both/],
	['/v1/monomino-domino/render.svg', { blocks: Array(501).fill('100').join(','), strip: 'true' }, 422, 'strip', /at most 500/],
	['/v1/monomino-domino/render.svg', { blocks: '111', colour: 'red' }, 400, 'colour', /unknown/],
	['/v1/monomino-domino/render.svg', { blocks: '111', step: '1', animate: 'true' }, 400, 'animate', /not both/],
	['/v1/monomino-domino/render.svg', { blocks: Array(501).fill('100').join(','), animate: 'true' }, 422, 'animate', /at most 500/],
	['/v1/puyo/render.svg', { field: '......' }, 422, 'field', /12 rows/],
	['/v1/puyo/render.svg', { field: '......,......,......,......,......,......,......,......,......,......,......,..x...' }, 422, 'field', /row 12/],
	['/v1/puyo/render.svg', { field: '......,......,......,......,......,......,......,......,......,......,......,......', puyop: '1' }, 400, 'puyop', /one way/],
	['/v1/puyo/render.svg', { puyop: '4!' }, 422, 'puyop', /character 2, '!'/],
	['/v1/puyo/render.svg', { puyo_nexus: 'A' }, 422, 'puyo_nexus', /hard puyo/],
	['/v1/puyo/render.svg', { puyop: '4', step: '1' }, 422, 'step', /no steps/],
];

for (const [p, query, status, parameter, detail] of faults) {
	test(`GET ${p}?${new URLSearchParams(query).toString().slice(0, 60)} is ${status} at parameter ${parameter}`, async () => {
		const res = await request(server, { path: p, query });
		assert.equal(res.status, status, res.body);
		assert.equal(res.json.errors[0].parameter, parameter);
		assert.match(res.json.errors[0].detail, detail);
	});
}

test('POST /v1/puyo takes the field as a puyop.com or Puyo Nexus link, in a batch too', async () => {
	for (const body of [{ puyop: 'http://www.puyop.com/s/4004g09y09yg' }, { puyop: '4004g09y09yg', trace: true },
		{ puyo_nexus: 'https://puyonexus.com/chainsim/?w=6&h=12&chain=60000067000446700446770' }]) {
		const res = await request(server, { path: '/v1/puyo', body });
		assert.equal(res.status, 200, res.body);
		assert.equal(res.json.chains, 3);
		if (body.trace) assert.equal(res.json.steps.length, 3);
	}
	const batch = await request(server, { path: '/v1/puyo', body: { cases: [{ puyop: '4004g09y09yg' }, { puyo_nexus: '44B' }] } });
	assert.equal(batch.status, 200, batch.body);
	assert.equal(batch.json.results[0].chains, 3);
	assert.equal(batch.json.results[1].error.errors[0].pointer, '/cases/1/puyo_nexus');
	const bad = await request(server, { path: '/v1/puyo', body: { puyop: '4004g09y09yg', field: [] } });
	assert.equal(bad.status, 422);
	assert.equal(bad.json.errors[0].pointer, '/field');
});

test('the viewer page, style sheet and script are served from the binary', async () => {
	// GET / answers JSON (the index) unless the client prefers HTML, as a browser does.
	const page = await request(server, { path: '/', accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
	assert.equal(page.status, 200);
	assert.equal(page.mediaType, 'text/html');
	assert.match(page.body, /<script src="\/viewer\.js" defer><\/script>/);
	// Nothing in the page names another host.
	for (const p of ['/', '/viewer.css', '/viewer.js']) {
		const res = await request(server, p === '/' ? { path: p, accept: 'text/html' } : { path: p });
		assert.equal(res.status, 200);
		assert.doesNotMatch(res.body.replace(/http:\/\/www\.w3\.org\/2000\/svg/g, ''), /(src|href)="(https?:)?\/\//);
		assert.doesNotMatch(res.body, /\burl\((?!#)/);
	}
	const head = await request(server, { path: '/viewer.js', method: 'HEAD' });
	assert.equal(head.status, 200);
});

// POST solve with Accept: image/svg+xml: the case of the body drawn, final
// state, or every step with ?trace=true; the answer in <desc> is the
// expected one, so the picture agrees with the rules as the JSON does.
for (const c of cases('puyo')) {
	test(`POST /v1/puyo with Accept: image/svg+xml draws case ${c.name} with its chain count`, async () => {
		const res = await request(server, { path: '/v1/puyo', accept: 'image/svg+xml', query: { trace: 'true' },
			contentType: c.json ? 'application/json' : 'text/plain', body: c.input });
		assert.equal(res.status, 200, res.body);
		assert.equal(res.mediaType, 'image/svg+xml');
		const [chains] = c.expected;
		assert.match(res.body, new RegExp(`Answer: ${chains} chains?, score`));
		assert.equal(frames(res.body), chains + 1);
		assertValidSvg(res.body, c.name);
	});
}

for (const c of cases('monomino-domino').slice(0, 12)) {
	test(`POST /v1/monomino-domino with Accept: image/svg+xml draws case ${c.name} with its answer`, async () => {
		const res = await request(server, { path: '/v1/monomino-domino', accept: 'image/svg+xml', query: { cell: '10' },
			contentType: c.json ? 'application/json' : 'text/plain', body: c.input });
		assert.equal(res.status, 200, res.body);
		assert.equal(res.mediaType, 'image/svg+xml');
		const [score, tiles] = c.expected;
		assert.match(res.body, new RegExp(`Answer: score ${score} and ${tiles} tiles left`));
		assertValidSvg(res.body, c.name);
	});
}

test('POST solve as image/svg+xml: a batch is 406, a bad cell names the parameter', async () => {
	const batch = await request(server, { path: '/v1/puyo', accept: 'image/svg+xml',
		body: { cases: [{ field: Array(12).fill('......') }] } });
	assert.equal(batch.status, 406, batch.body);
	const cell = await request(server, { path: '/v1/monomino-domino', accept: 'image/svg+xml', query: { cell: '7' },
		body: { blocks: [[1, 0, 0]] } });
	assert.equal(cell.status, 422, cell.body);
	assert.equal(cell.json.errors[0].parameter, 'cell');
	assert.match(cell.json.errors[0].detail, /got 7/);
});

// ?links=true: the links of the field as given (worked out by hand from
// the encodings, as in tests/render/test_puyo_links.c), in single answers
// and in every slot of a batch; JSON only; not a Monomino-Domino parameter.
test('POST /v1/puyo?links=true adds the puyop.com and Puyo Nexus links of the field as given', async () => {
	const field = ['......', '......', '......', '......', '......', '......', '......', '......',
		'.Y....', '.YG...', 'RRYG..', 'RRYGG.'];
	const links = { puyop: 'http://www.puyop.com/s/4004g09y09yg',
		puyo_nexus: 'https://puyonexus.com/chainsim/?w=6&h=12&chain=60000067000446700446770' };
	const one = await request(server, { path: '/v1/puyo', query: { links: 'true' }, body: { field } });
	assert.equal(one.status, 200, one.body);
	assert.equal(one.json.chains, 3);
	assert.deepEqual(one.json.links, links);
	const text = await request(server, { path: '/v1/puyo', query: { links: 'true' }, contentType: 'text/plain',
		body: field.join('\n') + '\n' });
	assert.deepEqual(text.json.links, links);
	const batch = await request(server, { path: '/v1/puyo', query: { links: '1' },
		body: { cases: [{ field }, { puyop: '4004g09y09yg' }, { field: ['RR'] }] } });
	assert.equal(batch.status, 200, batch.body);
	assert.deepEqual(batch.json.results[0].links, links);
	assert.deepEqual(batch.json.results[1].links, links, 'a case given as a link links to the same field');
	assert.ok(batch.json.results[2].error);
	const none = await request(server, { path: '/v1/puyo', body: { field } });
	assert.equal(none.json.links, undefined);
	const asText = await request(server, { path: '/v1/puyo', query: { links: 'true' }, accept: 'text/plain', body: { field } });
	assert.equal(asText.status, 406);
	assert.equal(asText.json.errors[0].parameter, 'links');
	const md = await request(server, { path: '/v1/monomino-domino', query: { links: 'true' }, body: { blocks: [[1, 0, 0]] } });
	assert.equal(md.status, 400);
	assert.equal(md.json.errors[0].parameter, 'links');
});
