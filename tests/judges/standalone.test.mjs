// The validators and checkers of every package run on a judge host that
// has never seen dropjudge: compiled as each judge compiles them (Polygon
// and CMS with gcc, Kattis and DOMjudge through the package's build
// script), run with a PATH that holds no dropjudge, no DROPJUDGE variable,
// in an empty working directory. Every test passes its validator, every
// jury answer is accepted, a wrong answer and a presentation fault are told
// apart where the protocol does, an invalid input is rejected with the rule
// it breaks (cases written here from the problem statements), and the
// package's programs say what `dropjudge validate` and `dropjudge check`
// say, on tests/cases and on 1,000 mutated answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BIN, CHECK_BIN, ROOT, JUDGE_PATH, run, runOnJudge, compileOnJudge, buildOnJudge, tmpDir, writeFiles, referenceAnswer } from './helper.mjs';

const SHORT = { 'monomino-domino': 'monominodomino', puyo: 'puyo' };
const TESTS = 8;

function pkg(problem, format) {
	const dir = path.join(tmpDir('pkg'), SHORT[problem]);
	const r = run(BIN, ['package', '--problem', problem, '--format', format, '--tests', String(TESTS), '--seed', '7', '--min-chains', '4', dir]);
	assert.equal(r.status, 0, r.stderr);
	return dir;
}

const read = (dir, file) => fs.readFileSync(path.join(dir, file), 'utf8');

// A field of 12 rows from the bottom rows given (top rows empty).
const field = (...bottom) => [...Array(12 - bottom.length).fill('......'), ...bottom].join('\n') + '\n';

// Inputs that break one rule each, with the words of that rule, from the
// statements: N in 1..10000, blocks inside the 4x4 red board, plain
// integers separated by single spaces; 12 rows of 6 cells of .RGBPY,
// settled; lines ended by a lone \n, nothing after the input.
const INVALID = {
	'monomino-domino': [
		['', /expected N, the number of placements/],
		['0\n', /N must be 1\.\.10000, got 0/],
		['10001\n', /N must be 1\.\.10000, got 10001/],
		['-3\n', /N must be 0 or more, got -3/],
		// Integers past any limit: read without overflow, shown cut at 16 bytes.
		['99999999999999999999\n', /1:1: N must be 1\.\.10000, got 9999999999999999\.\.\./],
		['-99999999999999999999\n', /1:1: N must be 0 or more, got -999999999999999\.\.\./],
		['1\n1 99999999999999999999 1\n', /2:3: x must be 0\.\.3, got 9999999999999999\.\.\./],
		['1\n1 aaaaaaaaaaaaaaaaaaaaaaaa 1\n', /2:3: expected an integer, found 'aaaaaaaaaaaaaaaa\.\.\.'/],
		['+1\n1 1 1\n', /without '\+', leading zeros or '-0', found '\+1'/],
		['1\n01 1 1\n', /without '\+', leading zeros or '-0', found '01'/],
		['1\n1 -0 1\n', /without '\+', leading zeros or '-0', found '-0'/],
		['1\n1 a 1\n', /expected an integer, found 'a'/],
		['1 1\n1 1 1\n', /1:3: expected 1 integer, found 2/],
		['1\n1 1\n', /2: expected 3 integers, found 2/],
		['1\n1 1 1 1\n', /2:7: expected 3 integers, found 4/],
		['1\n4 0 0\n', /2:1: t must be 1, 2 or 3, got 4/],
		['1\n0 0 0\n', /t must be 1, 2 or 3, got 0/],
		['1\n1 4 0\n', /2:3: x must be 0\.\.3, got 4/],
		['1\n1 0 -1\n', /2:5: y must be 0\.\.3, got -1/],
		['1\n3 3 0\n', /x must be 0\.\.2 for a vertical domino \(t = 3\), got 3/],
		['1\n2 0 3\n', /y must be 0\.\.2 for a horizontal domino \(t = 2\), got 3/],
		['1\n1  1 1\n', /2:3: expected a single space between integers/],
		['1\n1\t1 1\n', /2:2: expected a single space between integers/],
		['1\n 1 1 1\n', /2:1: leading whitespace/],
		['1\n1 1 1 \n', /2:6: trailing whitespace/],
		['1\r\n1 1 1\n', /1:2: unexpected carriage return/],
		['1\n1 1 1', /2:6: missing newline at the end of the input/],
		['2\n1 1 1\n', /3: expected 2 placements, found 1/],
		['1\n1 1 1\n\n', /3:1: expected the end of the input after line 2/],
		['1\n1 1 1\n2 0 0\n', /3:1: expected the end of the input after line 2/],
	],
	puyo: [
		['', /1: expected 12 rows, found 0/],
		[field('RRYG..').split('\n').slice(1).join('\n'), /12: expected 12 rows, found 11/],
		[`......\n${field('RRYG..')}`, /13: expected 12 rows, found 13/],
		[field('RRYG.'), /12: expected 6 characters, found 5/],
		[field('RRYG...'), /12: expected 6 characters, found 7/],
		[field('RRXG..'), /12:3: unknown cell 'X' at column 3 \(expected one of \.RGBPY\)/],
		[field('RRrG..'), /unknown cell 'r' at column 3/],
		[field('RROG..'), /unknown cell 'O' at column 3/],
		[field('RR\u00e9G..'), /unknown cell U\+00E9 at column 3/],
		[field('..R...', '......', 'RRYG..'), /10: puyo at column 3 floats above an empty cell/],
		[field('RRYG..').replace('\n', '\r\n'), /1:7: carriage return at the end of the line/],
		[field('RRYG..').slice(0, -1), /12: missing newline at the end of the line/],
	],
};

// The tests of a Kattis-layout package directory.
function kattisTests(dir) {
	const out = [];
	for (const group of ['sample', 'secret'])
		for (const f of fs.readdirSync(path.join(dir, 'data', group)).filter((x) => x.endsWith('.in')).sort())
			out.push({ name: `${group}/${f}`, input: read(dir, `data/${group}/${f}`), answer: read(dir, `data/${group}/${f.slice(0, -3)}.ans`) });
	return out;
}

// A wrong answer (the first number off by one) and a presentation fault
// (the same tokens, one more space in front) of a right answer.
const wrong = (answer) => answer.replace(/^\d+/, (n) => String(Number(n) + 1));
const presentation = (answer) => ` ${answer}`;

// Sources a judge compiles must not start programs: no exec, system, popen
// or fork, no string naming dropjudge, no environment read.
function assertSelfContained(file) {
	const src = fs.readFileSync(file, 'utf8');
	assert.doesNotMatch(src, /\b(exec[lv]p?e?|system|popen|fork|posix_spawnp?)\s*\(/, file);
	assert.doesNotMatch(src, /"[^"\n]*dropjudge[^"\n]*"/, file);
	assert.doesNotMatch(src, /getenv\s*\(/, file);
}

test('the judge host of these tests has no dropjudge', () => {
	for (const dir of JUDGE_PATH.split(':')) assert.ok(!fs.existsSync(path.join(dir, 'dropjudge')), dir);
	assert.notEqual(runOnJudge('sh', ['-c', 'command -v dropjudge']).status, 0);
	assert.equal(runOnJudge('sh', ['-c', 'echo "${DROPJUDGE-unset}"']).stdout, 'unset\n');
});

for (const problem of Object.keys(SHORT)) {
	test(`polygon (${problem}): problem.xml is well-formed and declares the C sources; check and validator work with gcc alone on testlib's protocol`, () => {
		const dir = pkg(problem, 'polygon');
		const xmllint = runOnJudge('xmllint', ['--noout', path.join(dir, 'problem.xml')]);
		assert.equal(xmllint.status, 0, xmllint.stderr);
		const xml = read(dir, 'problem.xml');
		assert.ok(!xml.replace(/<!--([\s\S]*?)-->/g, (m, body) => (body.includes('--') ? 'BAD' : '')).includes('BAD'), 'no -- inside a comment');
		for (const f of ['files/check.c', 'files/validator.c']) {
			assert.match(xml, new RegExp(`<source path="${f}" type="c\\.gcc"/>`));
			assertSelfContained(path.join(dir, f));
		}
		assert.match(xml, /<checker type="testlib">\s*<source path="files\/check\.c" type="c\.gcc"\/>/);
		const check = compileOnJudge(path.join(dir, 'files/check.c'), 'check');
		const validator = compileOnJudge(path.join(dir, 'files/validator.c'), 'validator');
		const count = Number(xml.match(/<test-count>(\d+)<\/test-count>/)[1]);
		for (let i = 1; i <= count; i++) {
			const name = String(i).padStart(2, '0');
			const input = read(dir, `tests/${name}`), answer = read(dir, `tests/${name}.a`);
			assert.equal(answer, referenceAnswer(problem, input), name);
			let r = runOnJudge(validator, ['--testset', 'tests', '--group', '0'], { input });
			assert.equal(r.status, 0, `${name}: ${r.stderr}`);
			for (const [output, code, prefix] of [[answer, 0, 'ok '], [wrong(answer), 1, 'wrong answer '], [presentation(answer), 2, 'wrong output format ']]) {
				const cwd = writeFiles(tmpDir('inv'), { input: input, output, answer });
				r = runOnJudge(check, ['input', 'output', 'answer', 'report'], { cwd });
				assert.equal(r.status, code, `${name}: ${r.stderr}`);
				assert.ok(r.stderr.startsWith(prefix), r.stderr);
				assert.equal(read(cwd, 'report'), r.stderr.slice(prefix.length, -1));
			}
			const cwd = writeFiles(tmpDir('inv'), { input, output: answer, answer: 'x\n' });
			r = runOnJudge(check, ['input', 'output', 'answer'], { cwd });
			assert.equal(r.status, 3, 'a malformed jury answer is a judge error');
			assert.match(r.stderr, /^FAIL the answer file answer is not a/);
		}
		for (const [input, rule] of INVALID[problem]) {
			const r = runOnJudge(validator, [], { input });
			assert.equal(r.status, 3, JSON.stringify(input));
			assert.match(r.stderr, /^FAIL <stdin>:/);
			assert.match(r.stderr, rule, JSON.stringify(input));
		}
	});

	for (const format of ['kattis', 'domjudge']) {
		test(`${format} (${problem}): the validators are built by their build scripts and follow the 42/43 protocol`, () => {
			const dir = pkg(problem, format);
			assert.match(read(dir, 'problem.yaml'), /^problem_format_version: legacy$/m);
			assert.match(read(dir, 'problem.yaml'), /^validation: custom$/m);
			for (const f of ['input_validators/dropjudge/validator.c', 'output_validators/dropjudge/checker.c']) assertSelfContained(path.join(dir, f));
			assert.ok(!fs.existsSync(path.join(dir, 'input_validators/dropjudge/run')), 'run is made by build');
			const validator = buildOnJudge(path.join(dir, 'input_validators/dropjudge'));
			const checker = buildOnJudge(path.join(dir, 'output_validators/dropjudge'));
			for (const t of kattisTests(dir)) {
				assert.equal(t.answer, referenceAnswer(problem, t.input), t.name);
				let r = runOnJudge(validator, ['some_flag'], { input: t.input });
				assert.equal(r.status, 42, `${t.name}: ${r.stderr}`);
				for (const [output, code, verdict] of [[t.answer, 42, 'accepted'], [wrong(t.answer), 43, 'wrong answer'], [presentation(t.answer), 43, 'presentation error'], ['', 43, 'wrong answer']]) {
					const cwd = writeFiles(tmpDir('judging'), { 'testdata.in': t.input, 'testdata.ans': t.answer });
					fs.mkdirSync(path.join(cwd, 'feedback'));
					r = runOnJudge(checker, ['testdata.in', 'testdata.ans', 'feedback'], { cwd, input: output });
					assert.equal(r.status, code, `${t.name}: ${r.stderr}`);
					assert.ok(read(cwd, 'feedback/judgemessage.txt').startsWith(`${verdict}: `), read(cwd, 'feedback/judgemessage.txt'));
				}
			}
			for (const [input, rule] of INVALID[problem]) {
				const r = runOnJudge(validator, [], { input });
				assert.equal(r.status, 43, JSON.stringify(input));
				assert.match(r.stderr, rule, JSON.stringify(input));
			}
		});
	}

	test(`cms (${problem}): task.yaml, input/ and output/ as italy_yaml reads them; check/build makes a checker on CMS's protocol`, () => {
		const dir = pkg(problem, 'cms');
		const yaml = read(dir, 'task.yaml');
		const n = Number(yaml.match(/^n_input: (\d+)$/m)[1]);
		assert.match(yaml, new RegExp(`^name: ${SHORT[problem]}$`, 'm'));
		assert.match(yaml, /^infile: ""$/m);
		assert.match(yaml, /^outfile: ""$/m);
		assert.match(yaml, /^time_limit: \d+\.\d+$/m);
		assert.match(yaml, /^memory_limit: \d+$/m);
		assert.equal(fs.readdirSync(path.join(dir, 'input')).length, n);
		assert.equal(fs.readdirSync(path.join(dir, 'output')).length, n);
		assertSelfContained(path.join(dir, 'check/checker.c'));
		const build = runOnJudge(path.join(dir, 'check/build'), []);
		assert.equal(build.status, 0, build.stderr);
		const checker = path.join(dir, 'check/checker');
		for (let i = 0; i < n; i++) {
			const input = read(dir, `input/input${i}.txt`), answer = read(dir, `output/output${i}.txt`);
			assert.equal(answer, referenceAnswer(problem, input), `test ${i}`);
			for (const [output, outcome, message] of [[answer, '1.0', /^translate:success\n$/], [wrong(answer), '0.0', /^wrong answer: token 1 .*\n$/], [presentation(answer), '0.0', /^presentation error: .*\n$/]]) {
				const cwd = writeFiles(tmpDir('cms'), { 'input.txt': input, 'res.txt': answer, 'output.txt': output });
				const r = runOnJudge(checker, ['input.txt', 'res.txt', 'output.txt'], { cwd });
				assert.equal(r.status, 0, r.stderr);
				assert.equal(r.stdout, `${outcome}\n`);
				assert.match(r.stderr, message);
				assert.equal(r.stderr.split('\n').length, 2, 'exactly one line on stderr');
			}
		}
	});

	test(`${problem}: the package validators say what dropjudge validate says, on tests/cases and on every invalid input`, () => {
		const dir = pkg(problem, 'kattis');
		const validator = buildOnJudge(path.join(dir, 'input_validators/dropjudge'));
		const casesDir = path.join(ROOT, 'tests/cases', problem);
		const inputs = fs.readdirSync(casesDir).map((c) => path.join(casesDir, c, 'input.txt')).filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f, 'utf8'));
		assert.ok(inputs.length >= 8);
		for (const input of [...inputs, ...INVALID[problem].map(([i]) => i)]) {
			const ours = runOnJudge(validator, [], { input });
			const theirs = run(BIN, ['validate', '--problem', problem, '--protocol', 'kattis'], { input });
			assert.equal(ours.status, theirs.status, JSON.stringify(input));
			assert.equal(ours.stderr.split('\n')[0], theirs.stderr.split('\n')[0], JSON.stringify(input));
		}
	});
}

// A small deterministic generator, so that a failure can be replayed.
function rng(seed) {
	let s = seed >>> 0;
	return (n) => {
		s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
		return s % n;
	};
}

// A mutated output of an answer: a digit changed, a token added, dropped,
// doubled or split, blanks and line breaks moved, CRs, NULs, leading zeros.
function mutate(answer, pick) {
	const tokens = answer.split(/\s+/).filter(Boolean);
	const ops = [
		() => answer,
		() => answer.replace(/\d/, (d) => String((Number(d) + 1 + pick(8)) % 10)),
		() => `${answer}${pick(100)}\n`,
		() => tokens.slice(1).join('\n') + '\n',
		() => tokens.join(' ') + '\n',
		() => tokens.join('\n'),
		() => answer.replace(/\n/g, '\r\n'),
		() => answer.replace(/\n/g, ' \t\n') + '\n\n',
		() => `\n${answer}`,
		() => `0${answer}`,
		() => answer.replace(/\n$/, '\0\n'),
		() => '',
		() => [...tokens].reverse().join('\n') + '\n',
		() => tokens.map((t) => `${t}${t}`).join('\n') + '\n',
		() => `-${answer}`,
		() => answer.replace(/\d+/, (n) => `${n}.0`),
		() => ' '.repeat(pick(3)) + tokens.join(' '.repeat(1 + pick(3))) + '\n'.repeat(pick(3)),
	];
	let out = ops[pick(ops.length)]();
	if (pick(4) === 0) out = mutate(out || '0\n', pick);
	return out;
}

for (const problem of Object.keys(SHORT)) {
	test(`${problem}: the package checker and dropjudge check agree on every case of tests/cases and on 1,000 mutated answers`, () => {
		const dir = pkg(problem, 'polygon');
		const check = compileOnJudge(path.join(dir, 'files/check.c'), 'check');
		const casesDir = path.join(ROOT, 'tests/cases', problem);
		const cases = fs.readdirSync(casesDir).filter((c) => fs.existsSync(path.join(casesDir, c, 'expected.txt')) && fs.existsSync(path.join(casesDir, c, 'input.txt')));
		assert.ok(cases.length >= 4, cases.join(' '));
		const pick = rng(problem.length * 7919);
		const verdicts = new Set();
		// Each trial in a directory of its own; one shell runs both checkers in
		// every one (a process of node's per check would cost more than the checks).
		const trials = [];
		const trial = (input, answer, output, what) =>
			trials.push({ what, output, cwd: writeFiles(tmpDir('agree'), { input, answer, output }) });
		const all = cases.map((c) => ({ name: c, input: fs.readFileSync(path.join(casesDir, c, 'input.txt'), 'utf8'), answer: fs.readFileSync(path.join(casesDir, c, 'expected.txt'), 'utf8') }));
		for (const c of all) {
			assert.equal(c.answer, referenceAnswer(problem, c.input), c.name);
			trial(c.input, c.answer, c.answer, c.name);
		}
		for (let i = 0; i < 1000; i++) {
			const c = all[pick(all.length)];
			trial(c.input, c.answer, mutate(c.answer, pick), `${c.name} #${i}`);
		}
		// The package's checker as a judge host runs it (runOnJudge: JUDGE_PATH
		// alone); dropjudge-check, dropjudge check's code in the program that
		// starts fast (checker-program.test.mjs holds the two to the same bytes).
		const script = `for d in "$@"; do cd "$d" || exit 1
			env -i PATH=${JUDGE_PATH} "${check}" input output answer 2>ours.err </dev/null; echo $? >ours.status
			"${CHECK_BIN}" check --problem ${problem} --protocol testlib input output answer 2>theirs.err </dev/null; echo $? >theirs.status
		done`;
		const r = spawnSync('sh', ['-c', script, 'sh', ...trials.map((t) => t.cwd)], { encoding: 'utf8', timeout: 600000 });
		assert.equal(r.status, 0, r.error?.message ?? r.stderr);
		const read = (t, name) => fs.readFileSync(path.join(t.cwd, name), 'utf8');
		for (const t of trials) {
			const ours = { status: Number(read(t, 'ours.status')), stderr: read(t, 'ours.err') };
			const theirs = { status: Number(read(t, 'theirs.status')), stderr: read(t, 'theirs.err') };
			assert.equal(ours.status, theirs.status, `${t.what}: ${JSON.stringify(t.output)}\n${ours.stderr}\n${theirs.stderr}`);
			assert.equal(ours.stderr, theirs.stderr, `${t.what}: ${JSON.stringify(t.output)}`);
			verdicts.add(ours.status);
		}
		assert.deepEqual([...verdicts].sort(), [0, 1, 2], 'the mutations reach every verdict');
	});
}
