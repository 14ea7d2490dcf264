// `dropjudge solve puyo --lines`: one field per line in, one chain count per
// line out, checked against the reference simulator (reference.mjs, written
// from the rules); a bad line is named by its number, exit status 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run, BIN, tmpFile } from './helper.mjs';
import { puyoSolve } from './reference.mjs';

const EXAMPLE = ['......', '......', '......', '......', '......', '......', '......', '......',
	'.Y....', '.YG...', 'RRYG..', 'RRYGG.'];

// A small deterministic stream (not the server's): fields of every kind.
function* fields(n) {
	let s = 12345;
	const next = (m) => {
		s = (s * 1103515245 + 12345) % 2147483648;
		return Math.floor((s / 2147483648) * m);
	};
	for (let i = 0; i < n; i++) {
		const rows = next(4) === 0 ? 13 : 12;
		const colors = 'RGBPY'.slice(0, 2 + next(4));
		const f = [];
		for (let r = 0; r < rows; r++) {
			let row = '';
			for (let c = 0; c < 6; c++) {
				const roll = next(100);
				row += roll < 30 ? '.' : roll < 38 ? 'O' : colors[next(colors.length)];
			}
			f.push(row);
		}
		yield f;
	}
}

test('solve puyo --lines answers the public example', async () => {
	const r = await run(BIN, ['solve', 'puyo', '--lines'], { input: `${EXAMPLE.join(' ')}\n` });
	assert.equal(r.code, 0, r.stderr);
	assert.equal(r.stdout, '3\n');
});

test('solve puyo --lines agrees with the reference on 3000 fields, from a file and stdin', async () => {
	const list = [...fields(3000)];
	const input = list.map((f) => f.join(' ')).join('\n') + '\n';
	const want = list.map((f) => `${puyoSolve(f).chains}\n`).join('');
	const file = tmpFile(input);
	const a = await run(BIN, ['solve', 'puyo', '--lines', file]);
	assert.equal(a.code, 0, a.stderr);
	assert.equal(a.stdout, want);
	const b = await run(BIN, ['solve', 'puyo', '--lines'], { input: input.replace(/\n/g, '\r\n').slice(0, -2) });
	assert.equal(b.code, 0, b.stderr);
	assert.equal(b.stdout, want, 'CR LF and no final newline');
	assert.ok(want.split('\n').some((l) => Number(l) >= 2), 'the sample chains');
});

test('solve puyo --lines names the first bad line and stops there', async () => {
	const good = EXAMPLE.join(' ');
	const bad = EXAMPLE.slice(0, 11).join(' ') + ' RRYGX.';
	const r = await run(BIN, ['solve', 'puyo', '--lines'], { input: `${good}\n${bad}\n${good}\n` });
	assert.equal(r.code, 1);
	assert.equal(r.stdout, '3\n');
	assert.match(r.stderr, /<stdin>:2:82: row 12: unknown cell 'X'/);
	const e = await run(BIN, ['solve', 'puyo', '--lines'], { input: `${good}\n\n` });
	assert.equal(e.code, 1);
	assert.match(e.stderr, /<stdin>:2: expected 12 or 13 rows separated by single spaces, found 0/);
});

test('solve puyo --lines with an empty input prints nothing', async () => {
	const r = await run(BIN, ['solve', 'puyo', '--lines'], { input: '' });
	assert.equal(r.code, 0, r.stderr);
	assert.equal(r.stdout, '');
});

test('solve puyo --lines answers every line before a bad one among thousands, then names it', async () => {
	const list = [...fields(6000)];
	const lines = list.map((f) => f.join(' '));
	const answers = list.map((f) => `${puyoSolve(f).chains}\n`);
	// a bad cell, two rows run together and rows too many, far into the input
	// and near its end
	const cases = [
		[4321, lines[4321].slice(0, -1) + 'X', /:4322:\d+: row 1[23]: unknown cell 'X'/],
		[5990, lines[5990].replace(' ', ''), /:5991:/],
		[3000, `${lines[3000]} RRRRRR RRRRRR`, /:3001: expected 12 or 13 rows/],
	];
	for (const [at, bad, want] of cases) {
		const copy = [...lines];
		copy[at] = bad;
		const r = await run(BIN, ['solve', 'puyo', '--lines', tmpFile(copy.join('\n') + '\n')]);
		assert.equal(r.code, 1, `line ${at + 1}`);
		assert.equal(r.stdout, answers.slice(0, at).join(''), `line ${at + 1}`);
		assert.match(r.stderr, want);
	}
});

// The reader takes the input a buffer of 1 MiB at a time.
const BUFFER = 1 << 20;

test('solve puyo --lines agrees with the reference across several input buffers, file and stdin, LF and CR LF', async () => {
	const list = [...fields(40000)];
	const input = list.map((f) => f.join(' ')).join('\n') + '\n';
	assert.ok(input.length > 3 * BUFFER, 'more than three buffers');
	const want = list.map((f) => `${puyoSolve(f).chains}\n`).join('');
	const a = await run(BIN, ['solve', 'puyo', '--lines', tmpFile(input)]);
	assert.equal(a.code, 0, a.stderr);
	assert.equal(a.stdout, want);
	const b = await run(BIN, ['solve', 'puyo', '--lines'], { input });
	assert.equal(b.code, 0, b.stderr);
	assert.equal(b.stdout, want, 'stdin');
	const crlf = input.replace(/\n/g, '\r\n').slice(0, -2);
	const c = await run(BIN, ['solve', 'puyo', '--lines', tmpFile(crlf)]);
	assert.equal(c.code, 0, c.stderr);
	assert.equal(c.stdout, want, 'CR LF and no final newline');
});

test('solve puyo --lines names a bad line at each seam between input buffers', async () => {
	const list = [...fields(30000)];
	const lines = list.map((f) => f.join(' '));
	const answers = list.map((f) => `${puyoSolve(f).chains}\n`);
	// the line holding byte k MiB of the input, for k = 1 and 2: a buffer
	// ends there (the next starts with the line it cut, so the second seam
	// is at most a line earlier), and the lines around it
	const seams = [];
	let offset = 0;
	for (let i = 0, k = 1; i < lines.length && k <= 2; i++) {
		offset += lines[i].length + 1;
		if (offset > k * BUFFER) {
			seams.push(i);
			k++;
		}
	}
	assert.equal(seams.length, 2);
	for (const seam of seams) {
		for (let at = seam - 2; at <= seam + 2; at++) {
			const copy = [...lines];
			copy[at] = lines[at].slice(0, -1) + 'X';
			const r = await run(BIN, ['solve', 'puyo', '--lines', tmpFile(copy.join('\n') + '\n')]);
			assert.equal(r.code, 1, `line ${at + 1}`);
			assert.equal(r.stdout, answers.slice(0, at).join(''), `line ${at + 1}`);
			assert.match(r.stderr, new RegExp(`:${at + 1}:\\d+: row 1[23]: unknown cell 'X'`));
		}
	}
});

test('solve puyo --lines refuses a line longer than its buffer, after answering the lines before it', async () => {
	const good = EXAMPLE.join(' ');
	const input = `${good}\n${good}\n${'R'.repeat(BUFFER + 10)}\n${good}\n`;
	const r = await run(BIN, ['solve', 'puyo', '--lines', tmpFile(input)]);
	assert.equal(r.code, 1);
	assert.equal(r.stdout, '3\n3\n');
	assert.match(r.stderr, /:3: line longer than 1048576 bytes/);
});

test('solve puyo --lines stops with exit 1 and a message when its answers cannot be written', async () => {
	// several buffers of fields, so that answers are written while input
	// is still read; /dev/full refuses every write: the program says so
	// and ends
	const { spawnSync } = await import('node:child_process');
	const { openSync, closeSync } = await import('node:fs');
	const input = [...fields(40000)].map((f) => f.join(' ')).join('\n') + '\n';
	const file = tmpFile(input);
	const full = openSync('/dev/full', 'w');
	try {
		for (const args of [['--lines', file], ['--lines']]) {
			const r = spawnSync(BIN, ['solve', 'puyo', ...args], {
				input: args.length === 1 ? input : undefined,
				stdio: ['pipe', full, 'pipe'], timeout: 30000, encoding: 'utf8',
			});
			assert.equal(r.signal, null, `${args}: ended by itself`);
			assert.equal(r.status, 1, `${args}`);
			assert.match(r.stderr, /cannot write the answer: No space left on device/, `${args}`);
		}
	} finally {
		closeSync(full);
	}
});

// The second thread (src/main/solve.c) answers a batch only when every
// line of it reads; otherwise the batch is answered line by line. Either
// way the bytes out must be those of the program alone.
test('solve puyo --lines writes the same bytes, status and message with its second thread as alone', async () => {
	const list = [...fields(40000)].map((f) => f.join(' '));
	const bad = EXAMPLE.slice(0, 11).join(' ') + ' RRYGX.';
	// Where a bad line goes: none, early and late in the first 1 MiB batch
	// (each thread's half), at a batch's last line, in a later batch, last.
	const inputs = [null, 100, 9000, 12480, 12481, 30000, 39999].map((at) => {
		const lines = list.slice();
		if (at !== null) lines[at] = bad;
		return lines.join('\n') + '\n';
	});
	inputs.push(list.join('\r\n'));
	for (const input of inputs) {
		const file = tmpFile(input);
		const two = await run(BIN, ['solve', 'puyo', '--lines', file]);
		const one = await run(BIN, ['solve', 'puyo', '--lines', file], { env: { DROPJUDGE_SOLVE_THREADS: '1' } });
		assert.equal(two.code, one.code, two.stderr);
		assert.equal(two.stderr, one.stderr);
		assert.ok(two.stdout === one.stdout, `answers differ (${two.stdout.length} against ${one.stdout.length} bytes)`);
	}
	const all = await run(BIN, ['solve', 'puyo', '--lines'], { input: inputs[0] });
	assert.equal(all.stdout.split('\n').length - 1, 40000);
});
