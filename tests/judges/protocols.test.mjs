// The checker and validator protocols, each invoked as its contest system
// invokes it: exit codes, stdout, stderr and feedback files on an accepted
// output, a wrong answer, a presentation error and a jury error (an answer
// file that disagrees, an input that is not valid).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { BIN, run, tmpDir, writeFiles, linkAs, compileOnJudge, buildOnJudge, referenceAnswer, ROOT } from './helper.mjs';

const MD_INPUT = '8\n1 1 1\n2 3 0\n3 2 2\n3 2 3\n3 1 3\n2 0 0\n3 2 0\n3 1 2\n';
const PUYO_INPUT =
	'......\n......\n......\n......\n......\n......\n......\n......\n.Y....\n.YG...\nRRYG..\nRRYGG.\n';

// For each problem: the input, and contestant outputs of each kind, built
// from the reference answer (2 15 for the Monomino-Domino example, 3 for
// the Puyo one, as the problem statements say).
function outputs(problem) {
	const input = problem === 'puyo' ? PUYO_INPUT : MD_INPUT;
	const answer = referenceAnswer(problem, input);
	const tokens = answer.trim().split('\n');
	assert.deepEqual(tokens, problem === 'puyo' ? ['3'] : ['2', '15']);
	const wrong = tokens.map((t, i) => (i === 0 ? String(Number(t) + 1) : t)).join('\n') + '\n';
	return {
		input,
		answer,
		accepted: answer.replace(/\n$/, '  \r\n\n'), // trailing blanks are fine
		wrong,
		presentation: problem === 'puyo' ? ` ${tokens[0]}\n` : `${tokens.join(' ')}\n`,
		badAnswer: wrong,
	};
}

const PROBLEMS = ['monomino-domino', 'puyo'];
const KINDS = ['accepted', 'wrong', 'presentation'];

// --- testlib (Polygon, Codeforces): the package's self-contained check.c
// and validator.c, compiled, and the program named
// dropjudge-checker-testlib-PROBLEM, run in a directory holding input.txt,
// output.txt and answer.txt. Only dropjudge solves the input: the
// package's checker trusts the jury's answer, as testlib checkers do, so
// the jury-error cases below are dropjudge's alone.
function polygonProgram(problem, subcommand) {
	const dir = tmpDir('poly');
	const r = run(BIN, ['package', '--problem', problem, '--format', 'polygon', '--tests', '1', dir]);
	assert.equal(r.status, 0, r.stderr);
	const file = subcommand === 'check' ? 'files/check.c' : 'files/validator.c';
	return compileOnJudge(path.join(dir, file), subcommand === 'check' ? 'check' : 'validator');
}

for (const problem of PROBLEMS) {
	const o = outputs(problem);
	const testlibCheckers = {
		'Polygon check.c': polygonProgram(problem, 'check'),
		'dropjudge-checker-testlib-PROBLEM': linkAs(`dropjudge-checker-testlib-${problem}`),
	};
	for (const [how, checker] of Object.entries(testlibCheckers)) {
		const env = { DROPJUDGE: BIN };
		const expected = {
			accepted: [0, /^ok /, 'accepted'],
			wrong: [1, /^wrong answer /, 'wrong-answer'],
			presentation: [2, /^wrong output format /, 'presentation-error'],
		};
		for (const kind of KINDS) {
			test(`testlib (${how}, ${problem}): ${kind} exits ${expected[kind][0]} with its verdict on stderr and in the report`, () => {
				const cwd = writeFiles(tmpDir('t'), { 'input.txt': o.input, 'output.txt': o[kind], 'answer.txt': o.answer });
				let r = run(checker, ['input.txt', 'output.txt', 'answer.txt'], { cwd, env });
				assert.equal(r.status, expected[kind][0], r.stderr);
				assert.match(r.stderr, expected[kind][1]);
				r = run(checker, ['input.txt', 'output.txt', 'answer.txt', 'report.txt'], { cwd, env });
				assert.equal(r.status, expected[kind][0]);
				const report = fs.readFileSync(path.join(cwd, 'report.txt'), 'utf8');
				assert.ok(report.length > 0 && r.stderr.includes(report), `${report} / ${r.stderr}`);
				r = run(checker, ['input.txt', 'output.txt', 'answer.txt', 'result.xml', '-appes'], { cwd, env });
				assert.equal(r.status, expected[kind][0]);
				const xml = fs.readFileSync(path.join(cwd, 'result.xml'), 'utf8');
				assert.match(xml, new RegExp(`^<\\?xml version="1.0" encoding="utf-8"\\?><result outcome = "${expected[kind][2]}">[^<]*</result>\\n$`));
			});
		}
		if (!how.startsWith('Polygon')) test(`testlib (${how}, ${problem}): an answer file that disagrees is a FAIL, exit 3`, () => {
			const cwd = writeFiles(tmpDir('t'), { 'input.txt': o.input, 'output.txt': o.accepted, 'answer.txt': o.badAnswer });
			const r = run(checker, ['input.txt', 'output.txt', 'answer.txt', 'result.xml', '-appes'], { cwd, env });
			assert.equal(r.status, 3, r.stderr);
			assert.match(r.stderr, /^FAIL the answer file answer\.txt disagrees with dropjudge's answer/);
			assert.match(fs.readFileSync(path.join(cwd, 'result.xml'), 'utf8'), /outcome = "fail"/);
		});
		if (!how.startsWith('Polygon')) test(`testlib (${how}, ${problem}): an input that is not valid is a FAIL, exit 3`, () => {
			const cwd = writeFiles(tmpDir('t'), { 'input.txt': 'nonsense\n', 'output.txt': o.accepted, 'answer.txt': o.answer });
			const r = run(checker, ['input.txt', 'output.txt', 'answer.txt'], { cwd, env });
			assert.equal(r.status, 3, r.stderr);
			assert.match(r.stderr, /^FAIL the input is not a valid .* case: input\.txt:1/);
		});
		test(`testlib (${how}, ${problem}): a missing output file is a wrong answer, too few arguments a FAIL`, () => {
			const cwd = writeFiles(tmpDir('t'), { 'input.txt': o.input, 'answer.txt': o.answer });
			let r = run(checker, ['input.txt', 'missing.txt', 'answer.txt'], { cwd, env });
			assert.equal(r.status, 1, r.stderr);
			r = run(checker, ['input.txt', 'answer.txt'], { cwd, env });
			assert.equal(r.status, 3, r.stderr);
			assert.match(r.stderr, /^FAIL /);
		});
	}

	// testlib validators, as Polygon runs them: the input on stdin,
	// --testset and --group flags.
	const validators = {
		'Polygon validator.c': polygonProgram(problem, 'validate'),
		'dropjudge-validator-testlib-PROBLEM': linkAs(`dropjudge-validator-testlib-${problem}`),
	};
	for (const [how, validator] of Object.entries(validators)) {
		test(`testlib validator (${how}, ${problem}): a valid input exits 0, a bad one 3 with FAIL and its line`, () => {
			const env = { DROPJUDGE: BIN };
			let r = run(validator, ['--testset', 'tests', '--group', '0'], { input: o.input, env });
			assert.equal(r.status, 0, r.stderr);
			assert.equal(r.stderr, '');
			const bad = problem === 'puyo' ? o.input.replace('RRYGG.', 'RRYGGX') : o.input.replace('3 1 2', '3 3 2');
			r = run(validator, ['--testset', 'tests'], { input: bad, env });
			assert.equal(r.status, 3, r.stderr);
			assert.match(r.stderr, problem === 'puyo' ? /^FAIL <stdin>:12:6: / : /^FAIL <stdin>:9:3: /);
		});
	}

	// --- Kattis problem package format, as DOMjudge runs an output
	// validator (in the judging directory: run testdata.in testdata.out
	// feedback/ < program.out) and as problemtools does (absolute paths,
	// another working directory, a feedback directory ending in '/').
	const kattisDir = tmpDir('kattis');
	{
		const r = run(BIN, ['package', '--problem', problem, '--format', 'kattis', '--tests', '1', kattisDir]);
		assert.equal(r.status, 0, r.stderr);
	}
	const outputValidators = {
		'package output_validators/dropjudge': buildOnJudge(path.join(kattisDir, 'output_validators/dropjudge')),
		output_validator: linkAs('output_validator'),
	};
	for (const [how, validator] of Object.entries(outputValidators)) {
		const env = { DROPJUDGE: BIN, DROPJUDGE_PROBLEM: problem };
		const expected = { accepted: [42, /^accepted: /], wrong: [43, /^wrong answer: /], presentation: [43, /^presentation error: /] };
		for (const kind of KINDS) {
			test(`kattis (${how}, ${problem}, DOMjudge layout): ${kind} exits ${expected[kind][0]} and writes judgemessage.txt`, () => {
				const cwd = writeFiles(tmpDir('dj'), { 'testdata.in': o.input, 'testdata.out': o.answer, 'program.out': o[kind] });
				fs.mkdirSync(path.join(cwd, 'feedback'));
				const r = run(validator, ['testdata.in', 'testdata.out', 'feedback/'], { cwd, env, input: o[kind] });
				assert.equal(r.status, expected[kind][0], r.stderr);
				const msg = fs.readFileSync(path.join(cwd, 'feedback/judgemessage.txt'), 'utf8');
				assert.match(msg, expected[kind][1]);
				assert.ok(!fs.existsSync(path.join(cwd, 'feedback/judgeerror.txt')));
			});
		}
		test(`kattis (${how}, ${problem}, problemtools layout): absolute paths, validator flags after the feedback directory`, () => {
			const data = writeFiles(tmpDir('pt'), { 'case.in': o.input, 'case.ans': o.answer });
			const feedback = tmpDir('feedback') + '/';
			const cwd = tmpDir('cwd');
			let r = run(validator, [path.join(data, 'case.in'), path.join(data, 'case.ans'), feedback, 'some_flag'], { cwd, env, input: o.accepted });
			assert.equal(r.status, 42, r.stderr);
			r = run(validator, [path.join(data, 'case.in'), path.join(data, 'case.ans'), feedback.slice(0, -1)], { cwd, env, input: o.wrong });
			assert.equal(r.status, 43, r.stderr);
			assert.match(fs.readFileSync(path.join(feedback, 'judgemessage.txt'), 'utf8'), /^wrong answer: token 1 /);
		});
		if (!how.startsWith('package')) test(`kattis (${how}, ${problem}): a disagreeing answer file is a judge error (exit 1, judgeerror.txt)`, () => {
			const cwd = writeFiles(tmpDir('dj'), { 'testdata.in': o.input, 'testdata.out': o.badAnswer });
			fs.mkdirSync(path.join(cwd, 'feedback'));
			const r = run(validator, ['testdata.in', 'testdata.out', 'feedback/'], { cwd, env, input: o.accepted });
			assert.equal(r.status, 1, r.stderr);
			assert.notEqual(r.status, 42);
			assert.notEqual(r.status, 43);
			assert.match(fs.readFileSync(path.join(cwd, 'feedback/judgeerror.txt'), 'utf8'), /^judge error: the answer file testdata\.out disagrees/);
		});
		if (!how.startsWith('package')) test(`kattis (${how}, ${problem}): an input that is not valid, or a missing feedback directory, is a judge error`, () => {
			const cwd = writeFiles(tmpDir('dj'), { 'testdata.in': 'x\n', 'testdata.out': o.answer });
			fs.mkdirSync(path.join(cwd, 'feedback'));
			let r = run(validator, ['testdata.in', 'testdata.out', 'feedback/'], { cwd, env, input: o.accepted });
			assert.equal(r.status, 1, r.stderr);
			writeFiles(cwd, { 'testdata.in': o.input });
			r = run(validator, ['testdata.in', 'testdata.out', 'nowhere/'], { cwd, env, input: o.accepted });
			assert.equal(r.status, 1, r.stderr);
		});
	}
	const inputValidators = {
		'package input_validators/dropjudge': buildOnJudge(path.join(kattisDir, 'input_validators/dropjudge')),
		input_validator: linkAs('input_validator'),
	};
	for (const [how, validator] of Object.entries(inputValidators)) {
		test(`kattis input validator (${how}, ${problem}): 42 for a valid input on stdin, 43 with the faulty line`, () => {
			const env = { DROPJUDGE: BIN, DROPJUDGE_PROBLEM: problem };
			let r = run(validator, [], { input: o.input, env });
			assert.equal(r.status, 42, r.stderr);
			r = run(validator, [], { input: o.input.replace(/\n$/, ''), env });
			assert.equal(r.status, 43, r.stderr);
			assert.match(r.stderr, /^<stdin>:\d+/);
		});
	}

	// --- CMS: in the sandbox, checker input.txt correct_output.txt
	// output.txt; the score on stdout, the message on stderr.
	const cmsCheckers = { 'a script named checker': null, 'dropjudge-checker-cms-PROBLEM': linkAs(`dropjudge-checker-cms-${problem}`) };
	for (const [how, named] of Object.entries(cmsCheckers)) {
		const expected = { accepted: ['1.0', /^translate:success\n$/], wrong: ['0.0', /^wrong answer: token 1 .*\n$/], presentation: ['0.0', /^presentation error: .*\n$/] };
		const sandbox = (files) => {
			const cwd = writeFiles(tmpDir('cms'), files);
			if (named) return { cwd, checker: named };
			writeFiles(cwd, { checker: `#!/bin/sh\nexec "${BIN}" check --problem ${problem} --protocol cms "$@"\n` });
			fs.chmodSync(path.join(cwd, 'checker'), 0o755);
			return { cwd, checker: './checker' };
		};
		for (const kind of KINDS) {
			test(`cms (${how}, ${problem}): ${kind} prints ${expected[kind][0]} on stdout and one line on stderr, exit 0`, () => {
				const { cwd, checker } = sandbox({ 'input.txt': o.input, 'correct_output.txt': o.answer, 'output.txt': o[kind] });
				const r = run(checker, ['input.txt', 'correct_output.txt', 'output.txt'], { cwd });
				assert.equal(r.status, 0, r.stderr);
				assert.equal(r.stdout, `${expected[kind][0]}\n`);
				assert.match(r.stderr, expected[kind][1]);
			});
		}
		test(`cms (${how}, ${problem}): a disagreeing correct output is a checker failure (no score, exit 1)`, () => {
			const { cwd, checker } = sandbox({ 'input.txt': o.input, 'correct_output.txt': o.badAnswer, 'output.txt': o.accepted });
			const r = run(checker, ['input.txt', 'correct_output.txt', 'output.txt'], { cwd });
			assert.equal(r.status, 1);
			assert.equal(r.stdout, '');
			assert.match(r.stderr, /disagrees with dropjudge's answer/);
		});
	}

	// --- DMOJ bridged checker, default type: input_file output_file
	// judge_file; 0 accepted, 1 wrong, anything else an internal error.
	for (const [how, cmd, pre] of [
		['dropjudge check --protocol dmoj', BIN, ['check', '--problem', problem, '--protocol', 'dmoj']],
		['dropjudge-checker-dmoj-PROBLEM', linkAs(`dropjudge-checker-dmoj-${problem}`), []],
	]) {
		const expected = { accepted: [0, 'accepted'], wrong: [1, 'wrong answer'], presentation: [1, 'presentation error'] };
		for (const kind of KINDS) {
			test(`dmoj (${how}, ${problem}): ${kind} exits ${expected[kind][0]} with "${expected[kind][1]}" as feedback`, () => {
				const dir = writeFiles(tmpDir('dmoj'), { tmpin: o.input, tmpout: o[kind], tmpjudge: o.answer });
				const r = run(cmd, [...pre, path.join(dir, 'tmpin'), path.join(dir, 'tmpout'), path.join(dir, 'tmpjudge')], { cwd: tmpDir('dmojcwd') });
				assert.equal(r.status, expected[kind][0], r.stderr);
				assert.equal(r.stdout, `${expected[kind][1]}\n`);
			});
		}
		test(`dmoj (${how}, ${problem}): a disagreeing judge file is an internal error (exit 2)`, () => {
			const dir = writeFiles(tmpDir('dmoj'), { tmpin: o.input, tmpout: o.accepted, tmpjudge: o.badAnswer });
			const r = run(cmd, [...pre, path.join(dir, 'tmpin'), path.join(dir, 'tmpout'), path.join(dir, 'tmpjudge')]);
			assert.equal(r.status, 2, r.stderr);
			assert.equal(r.stdout, '');
		});
	}
}

test('the checker gives the verdict and message of POST /v1/{problem}/judge', () => {
	// The message of a wrong answer is judge_compare()'s, as the HTTP
	// judge answers it (tests/http/judge.test.mjs checks the same words).
	const o = outputs('monomino-domino');
	const cwd = writeFiles(tmpDir('t'), { in: o.input, out: '2\n16\n', ans: o.answer });
	const r = run(BIN, ['check', '--problem', 'monomino-domino', '--protocol', 'testlib', 'in', 'out', 'ans'], { cwd });
	assert.equal(r.status, 1);
	assert.equal(r.stderr, "wrong answer token 2 (line 2 of the output): expected '15', found '16'\n");
});

test('bad usage names what is wrong', () => {
	let r = run(BIN, ['check', '--protocol', 'nope']);
	assert.equal(r.status, 2);
	assert.match(r.stderr, /unknown protocol 'nope'/);
	r = run(BIN, ['check', '--protocol', 'testlib', 'a', 'b', 'c'], { env: { DROPJUDGE_PROBLEM: '' } });
	assert.equal(r.status, 3);
	assert.match(r.stderr, /missing --problem/);
	r = run(BIN, ['validate', '--problem', 'puyo', '--protocol', 'cms']);
	assert.equal(r.status, 2);
	assert.match(r.stderr, /no validator/);
	assert.ok(fs.existsSync(ROOT));
});

test('too few checker arguments are a judge error in every protocol, with its exit code, never a crash', () => {
	// the judge-error exit code of each protocol, as its contest system reads it
	const judgeError = { testlib: 3, kattis: 1, cms: 1, dmoj: 2 };
	for (const [protocol, code] of Object.entries(judgeError)) {
		for (const args of [[], ['a'], ['a', 'b']]) {
			const r = run(BIN, ['check', '--protocol', protocol, '--problem', 'puyo', ...args], { input: '' });
			// a crash has no exit status (null), so it fails here
			assert.equal(r.status, code, `${protocol} with ${args.length} arguments: ${r.stderr}`);
			assert.match(r.stderr, new RegExp(`${protocol} checker arguments: input, .* \\(got ${args.length} argument`));
		}
	}
});

test('validate without --protocol, or with an unknown one, lists only the protocols that validate', () => {
	let r = run(BIN, ['validate', '--problem', 'puyo']);
	assert.notEqual(r.status, 0);
	assert.match(r.stderr, /missing --protocol \(testlib or kattis\)/);
	assert.doesNotMatch(r.stderr, /cms|dmoj/);
	r = run(BIN, ['validate', '--problem', 'puyo', '--protocol', 'nope']);
	assert.match(r.stderr, /unknown protocol 'nope' \(expected testlib or kattis\)/);
	r = run(BIN, ['check', '--problem', 'puyo']);
	assert.match(r.stderr, /missing --protocol \(testlib, kattis, cms or dmoj\)/);
});

test('every name a judge may run the binary under picks its protocol', () => {
	const o = outputs('puyo');
	const env = { DROPJUDGE_PROBLEM: 'puyo' };
	const dir = writeFiles(tmpDir('names'), { in: o.input, out: o.wrong, ans: o.answer });
	fs.mkdirSync(path.join(dir, 'fb'));
	const cases = [
		['check', ['in', 'out', 'ans'], { status: 1, stderr: /^wrong answer / }],
		['checker', ['in', 'ans', 'out'], { status: 0, stdout: '0.0\n' }],
		['output_validator', ['in', 'ans', 'fb/'], { status: 43 }],
		['dropjudge-checker-kattis', ['in', 'ans', 'fb/'], { status: 43 }],
		['dropjudge-checker-testlib', ['in', 'out', 'ans'], { status: 1 }],
		['dropjudge-checker-dmoj-puyo', ['in', 'out', 'ans'], { status: 1, stdout: 'wrong answer\n' }],
		['validator', [], { status: 0, input: o.input }],
		['input_validator', [], { status: 42, input: o.input }],
		['dropjudge-validator-kattis-puyo', [], { status: 43, input: 'RRRR\n' }],
	];
	for (const [name, args, want] of cases) {
		const r = run(linkAs(name), args, { cwd: dir, env, input: want.input ?? o.wrong });
		assert.equal(r.status, want.status, `${name}: ${r.stderr}`);
		if (want.stderr) assert.match(r.stderr, want.stderr, name);
		if (want.stdout) assert.equal(r.stdout, want.stdout, name);
	}
	// Any other name is the ordinary program.
	const r = run(linkAs('dropjudge'), ['--version']);
	assert.equal(r.status, 0);
	assert.match(r.stdout, /^dropjudge /);
});
