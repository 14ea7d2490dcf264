// `dropjudge solve monomino-domino` on inputs of many read chunks (1.2 MB):
// the answer against the reference simulator (reference.mjs, written from
// the rules), and every message the same whether the input comes from a
// file or through a pipe.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run, BIN, tmpFile } from './helper.mjs';
import { mdLegal, mdSolve } from './reference.mjs';

// A deterministic stream of legal placements (not the server's generator).
function blocks(n, seed) {
	let s = seed;
	const next = (m) => {
		s = (s * 1103515245 + 12345) % 2147483648;
		return Math.floor((s / 2147483648) * m);
	};
	const out = [];
	while (out.length < n) {
		const b = [1 + next(3), next(4), next(4)];
		if (mdLegal(...b)) out.push(b);
	}
	return out;
}

const N = 200000; // 1.2 MB of text
const list = blocks(N, 20061);
const text = `${N}\n${list.map((b) => b.join(' ')).join('\n')}\n`;

// Runs solve on `input` from a file and through a pipe; both must agree.
async function both(input) {
	const file = tmpFile(input);
	const a = await run(BIN, ['solve', 'monomino-domino', file]);
	const b = await run(BIN, ['solve', 'monomino-domino'], { input });
	assert.equal(a.code, b.code, `file: ${a.stderr} pipe: ${b.stderr}`);
	assert.equal(a.stdout, b.stdout);
	assert.equal(a.stderr.replace(file, '<stdin>'), b.stderr);
	return b;
}

test('solve monomino-domino agrees with the reference on 200,000 placements, file and pipe', async () => {
	const want = mdSolve(list, { steps: false });
	const r = await both(text);
	assert.equal(r.code, 0, r.stderr);
	assert.equal(r.stdout, `${want.score}\n${want.tiles}\n`);
	assert.ok(want.score > 1000, 'lines were scored');
});

test('solve monomino-domino reads CR LF and a last line without its newline the same', async () => {
	const want = mdSolve(list, { steps: false });
	const r = await both(text.replace(/\n/g, '\r\n').slice(0, -2));
	assert.equal(r.code, 0, r.stderr);
	assert.equal(r.stdout, `${want.score}\n${want.tiles}\n`);
});

test('solve monomino-domino reads lines that are not canonical scattered through a large file', async () => {
	// CR LF on scattered lines: the canonical fast path stops at each, and
	// the reader takes that line.
	const want = mdSolve(list, { steps: false });
	const lines = text.split('\n');
	for (let i = 1; i < lines.length - 1; i += 23457) lines[i] += '\r';
	const r = await both(lines.join('\n'));
	assert.equal(r.code, 0, r.stderr);
	assert.equal(r.stdout, `${want.score}\n${want.tiles}\n`);
});

test('solve monomino-domino names a bad line near the start, in the middle and at the end', async () => {
	const lines = text.split('\n');
	for (const at of [1000, 90001, 199999]) {
		const copy = [...lines];
		copy[at] = '2 1 3';
		const r = await both(copy.join('\n'));
		assert.equal(r.code, 1, `line ${at + 1}`);
		assert.equal(r.stdout, '');
		assert.match(r.stderr, new RegExp(`^dropjudge: <stdin>:${at + 1}(:\\d+)?: `));
	}
});

test('solve monomino-domino names a bad line in the second half of a large file', async () => {
	const lines = text.split('\n');
	const at = 150001; // placement 150000, line 150001 of the input (1-based: N is line 1)
	for (const bad of ['0 1 1', '3 3 0', '1 1', '1 1 1 1', '1 1 x', '9 0 0']) {
		const copy = [...lines];
		copy[at] = bad;
		const r = await both(copy.join('\n'));
		assert.equal(r.code, 1, bad);
		assert.equal(r.stdout, '', bad);
		assert.match(r.stderr, new RegExp(`^dropjudge: <stdin>:${at + 1}(:\\d+)?: `), bad);
	}
});

test('solve monomino-domino counts the placements of a large file as a pipe does', async () => {
	const lines = text.split('\n');
	for (const n of [N - 1, N + 1, 150000]) {
		const r = await both([String(n), ...lines.slice(1)].join('\n'));
		assert.equal(r.code, 1, `N = ${n}`);
		assert.match(r.stderr, /placements?/, `N = ${n}`);
	}
	// a blank line held back in the middle, then more placements
	const copy = [...lines];
	copy.splice(120000, 0, '');
	const r = await both(copy.join('\n'));
	assert.equal(r.code, 1);
});
