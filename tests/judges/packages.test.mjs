// Problem packages as the contest systems take them: every file each
// format requires, metadata with the original limits, tests in order
// (samples, edge cases, random, large, long chains) whose answers match the
// reference simulators, every test passing the package's own input
// validator and every answer (and the accepted solution's output) accepted
// by the package's own checker, run with the system's arguments and
// working directories. Packages are reproducible from their seed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { BIN, run, tmpDir, writeFiles, compileC, compileOnJudge, buildOnJudge, runOnJudge, referenceAnswer, listFiles, isExecutable } from './helper.mjs';
import { puyoSolve } from '../http/reference.mjs';

// Baekjoon's limits, and what the problems are called in packages.
const PROBLEMS = {
	'monomino-domino': { short: 'monominodomino', title: 'Monomino-Domino', ms: 1000, mib: 512, samples: 7, edges: 7 },
	puyo: { short: 'puyo', title: 'Puyo Puyo', ms: 2000, mib: 256, samples: 1, edges: 7 },
};
// Sentences of each statement that its PDF must show (src/package/problems.c).
const SENTENCES = {
	'monomino-domino': [
		'Monomino-Domino is played on three boards.',
		'Given the placements, find the total score and the number of tiles left in green and blue.',
		'Print the total score on the first line and the number of tiles left in green and blue together on the second.',
	],
	puyo: [
		'The field has 12 rows and 6 columns.',
		'Find the number of chain steps in which something popped.',
		'Print the number of chains (0 when nothing pops).',
	],
};
const TESTS = 16;
const MIN_CHAINS = 6;
// Kattis: "All file names ... must match" this (legacy spec, General Requirements).
const KATTIS_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,253}[a-zA-Z0-9]$/;

function build(problem, format, out, extra = []) {
	const r = run(BIN, ['package', '--problem', problem, '--format', format, '--tests', String(TESTS), '--seed', '42', '--min-chains', String(MIN_CHAINS), ...extra, out]);
	assert.equal(r.status, 0, r.stderr);
	return out;
}

// Builds an archive and unpacks it with tools other than libarchive
// (Info-ZIP unzip, GNU tar); returns the directory.
function buildAndExtract(problem, format, kind) {
	const dir = tmpDir('pkg');
	const file = path.join(tmpDir('archive'), kind === 'zip' ? `${PROBLEMS[problem].short}.zip` : `${PROBLEMS[problem].short}.tar.gz`);
	build(problem, format, file);
	const r = kind === 'zip' ? run('unzip', ['-q', file, '-d', dir]) : run('tar', ['-xzf', file, '-C', dir]);
	assert.equal(r.status, 0, r.stderr);
	return dir;
}

function read(dir, file) {
	return fs.readFileSync(path.join(dir, file), 'utf8');
}

// The tests of a Kattis-layout package: [{group, name, input, answer}] in file order.
function kattisTests(dir) {
	const out = [];
	for (const group of ['sample', 'secret']) {
		const names = fs.readdirSync(path.join(dir, 'data', group)).filter((f) => f.endsWith('.in')).sort();
		for (const f of names) {
			const base = f.slice(0, -3);
			out.push({ group, name: base, input: read(dir, `data/${group}/${f}`), answer: read(dir, `data/${group}/${base}.ans`) });
		}
	}
	return out;
}

// The order of the secret tests, by their names: edge, random, large, chains.
function checkSecretOrder(problem, names) {
	assert.equal(names.length, TESTS);
	const kinds = names.map((n) => n.split('-')[1]);
	const rank = { edge: 0, random: 1, large: 2, chains: 3 };
	for (let i = 1; i < kinds.length; i++) assert.ok(rank[kinds[i - 1]] <= rank[kinds[i]], names.join(' '));
	assert.equal(kinds.filter((k) => k === 'edge').length, PROBLEMS[problem].edges);
	assert.ok(kinds.includes('random') && kinds.includes('large'));
	assert.equal(kinds.includes('chains'), problem === 'puyo');
	names.forEach((n, i) => assert.match(n, new RegExp(`^${String(i + 1).padStart(3, '0')}-`)));
}

// What every test of a package must satisfy, whatever the format.
function checkTests(problem, tests) {
	assert.equal(tests.filter((t) => t.group === 'sample').length, PROBLEMS[problem].samples);
	for (const t of tests) assert.equal(t.answer, referenceAnswer(problem, t.input), `${t.name}`);
	if (problem === 'puyo') {
		for (const t of tests.filter((x) => x.name.endsWith('-chains')))
			assert.ok(puyoSolve(t.input.trim().split('\n')).chains >= MIN_CHAINS, t.name);
		assert.equal(tests.find((t) => t.group === 'sample').answer, '3\n'); // the statement's example
	} else {
		assert.equal(tests.filter((t) => t.group === 'sample').at(-1).answer, '2\n15\n');
		const large = tests.filter((t) => t.name.endsWith('-large'));
		for (const t of large) assert.equal(t.input.split('\n')[0], '10000');
	}
}

// The Kattis programs of a package directory, built by their build scripts
// and run as DOMjudge runs them, with no dropjudge reachable.
function checkKattisPrograms(problem, dir, tests) {
	for (const f of ['input_validators/dropjudge/build', 'output_validators/dropjudge/build']) assert.ok(isExecutable(path.join(dir, f)), f);
	const inputValidator = buildOnJudge(path.join(dir, 'input_validators/dropjudge'));
	const outputValidator = buildOnJudge(path.join(dir, 'output_validators/dropjudge'));
	const solutions = fs.readdirSync(path.join(dir, 'submissions/accepted'));
	assert.ok(solutions.length >= 1);
	const solution = compileC(path.join(dir, 'submissions/accepted', solutions[0]), 'solution');
	for (const t of tests) {
		let r = runOnJudge(inputValidator, [], { input: t.input });
		assert.equal(r.status, 42, `${t.name}: ${r.stderr}`);
		const produced = run(solution, [], { input: t.input });
		assert.equal(produced.status, 0);
		for (const [output, code] of [[t.answer, 42], [produced.stdout, 42], [`${t.answer}9\n`, 43]]) {
			const cwd = writeFiles(tmpDir('judging'), { 'testdata.in': t.input, 'testdata.out': t.answer });
			fs.mkdirSync(path.join(cwd, 'feedback'));
			r = runOnJudge(outputValidator, ['testdata.in', 'testdata.out', 'feedback/'], { cwd, input: output });
			assert.equal(r.status, code, `${t.name}: ${r.stderr}`);
			assert.ok(fs.existsSync(path.join(cwd, 'feedback/judgemessage.txt')));
		}
	}
}

function checkKattisLayout(problem, dir) {
	const p = PROBLEMS[problem];
	const files = listFiles(dir);
	for (const f of files) for (const part of f.split('/')) assert.match(part, KATTIS_NAME, f);
	for (const required of ['problem.yaml', 'problem_statement/problem.en.tex', 'input_validators/dropjudge/validator.c', 'input_validators/dropjudge/build', 'output_validators/dropjudge/checker.c', 'output_validators/dropjudge/build'])
		assert.ok(files.includes(required), `${required} in ${files.join(' ')}`);
	const yaml = read(dir, 'problem.yaml');
	assert.match(yaml, new RegExp(`^name: ${p.title}$`, 'm'));
	assert.match(yaml, /^validation: custom$/m);
	assert.match(yaml, new RegExp(`^limits:\\n  memory: ${p.mib}$`, 'm'));
	assert.match(yaml, new RegExp(`^source_url: https://www.acmicpc.net/problem/\\d+$`, 'm'));
	const tex = read(dir, 'problem_statement/problem.en.tex');
	assert.ok(tex.startsWith(`\\problemname{${p.title}}`));
	assert.match(tex, /\\section\*\{Input\}/);
	assert.ok(!tex.includes('\\exmp'), 'problemtools adds the samples itself');
	const tests = kattisTests(dir);
	checkSecretOrder(problem, tests.filter((t) => t.group === 'secret').map((t) => t.name));
	checkTests(problem, tests);
	checkKattisPrograms(problem, dir, tests);
}

for (const problem of Object.keys(PROBLEMS)) {
	const p = PROBLEMS[problem];

	test(`kattis (${problem}): the zip holds one directory named [a-z0-9]+, laid out as the legacy spec says`, () => {
		const root = buildAndExtract(problem, 'kattis', 'zip');
		assert.deepEqual(fs.readdirSync(root), [p.short]);
		assert.match(p.short, /^[a-z0-9]+$/);
		checkKattisLayout(problem, path.join(root, p.short));
	});

	test(`kattis (${problem}): a directory OUT is the package itself`, () => {
		const dir = build(problem, 'kattis', path.join(tmpDir('out'), p.short));
		assert.ok(fs.existsSync(path.join(dir, 'problem.yaml')));
		checkSecretOrder(problem, kattisTests(dir).filter((t) => t.group === 'secret').map((t) => t.name));
	});

	test(`domjudge (${problem}): the zip has the ICPC package at its root, domjudge-problem.ini with the time limit, problem.html`, () => {
		const dir = buildAndExtract(problem, 'domjudge', 'zip');
		checkKattisLayout(problem, dir);
		const ini = read(dir, 'domjudge-problem.ini');
		assert.match(ini, new RegExp(`^name = "${p.title}"$`, 'm'));
		assert.match(ini, new RegExp(`^timelimit = ${p.ms / 1000}$`, 'm'));
		const html = read(dir, 'problem.html');
		assert.match(html, new RegExp(`<h1>${p.title}</h1>`));
		assert.match(html, /<h2>Examples<\/h2>/);
		const md = read(dir, 'statement.md');
		assert.ok(md.startsWith(`# ${p.title}\n`));
		assert.match(md, /## Examples/);
	});

	test(`polygon (${problem}): problem.xml describes the tests, limits, checker, validator and solution in the package`, () => {
		const dir = buildAndExtract(problem, 'polygon', 'tar.gz');
		const xml = read(dir, 'problem.xml');
		const count = Number(xml.match(/<test-count>(\d+)<\/test-count>/)[1]);
		assert.equal(count, p.samples + TESTS);
		assert.match(xml, new RegExp(`<time-limit>${p.ms}</time-limit>`));
		assert.match(xml, new RegExp(`<memory-limit>${p.mib * 1024 * 1024}</memory-limit>`));
		assert.match(xml, /<input-path-pattern>tests\/%02d<\/input-path-pattern>/);
		assert.match(xml, /<answer-path-pattern>tests\/%02d\.a<\/answer-path-pattern>/);
		assert.equal((xml.match(/<test method="manual" sample="true"\/>/g) ?? []).length, p.samples);
		assert.equal((xml.match(/<test method="manual"/g) ?? []).length, count);
		for (const ref of xml.matchAll(/path="([^"]+)"/g)) assert.ok(fs.existsSync(path.join(dir, ref[1])), ref[1]);
		assert.match(xml, /<checker type="testlib">/);
		const tex = read(dir, 'statements/english/problem.tex');
		assert.ok(tex.startsWith(`\\begin{problem}{${p.title}}{standard input}{standard output}{${p.ms / 1000} second`));
		assert.equal((tex.match(/\\exmp\{/g) ?? []).length, p.samples);

		const check = compileOnJudge(path.join(dir, 'files/check.c'), 'check');
		const validator = compileOnJudge(path.join(dir, 'files/validator.c'), 'validator');
		const solution = compileC(path.join(dir, `solutions/${p.short}.c`), 'solution');
		const tests = [];
		for (let i = 1; i <= count; i++) {
			const name = String(i).padStart(2, '0');
			tests.push({ group: i <= p.samples ? 'sample' : 'secret', name, input: read(dir, `tests/${name}`), answer: read(dir, `tests/${name}.a`) });
		}
		checkTests(problem, tests);
		for (const t of tests) {
			let r = runOnJudge(validator, ['--testset', 'tests'], { input: t.input });
			assert.equal(r.status, 0, `${t.name}: ${r.stderr}`);
			const produced = run(solution, [], { input: t.input });
			for (const [output, code] of [[t.answer, 0], [produced.stdout, 0], [`${t.answer}9\n`, 1]]) {
				const cwd = writeFiles(tmpDir('inv'), { 'input.txt': t.input, 'output.txt': output, 'answer.txt': t.answer });
				r = runOnJudge(check, ['input.txt', 'output.txt', 'answer.txt'], { cwd });
				assert.equal(r.status, code, `${t.name}: ${r.stderr}`);
			}
		}
	});

	// CMS's italy_yaml loader aborts ("Couldn't find any task statement")
	// without statement/statement.pdf. Checked with Debian's strict readers:
	// qpdf (structure, cross-reference table, stream lengths) and poppler's
	// pdftotext (what a reader shows).
	test(`cms (${problem}): statement/statement.pdf passes qpdf --check, and pdftotext shows the title, the rules and every sample input`, () => {
		const dir = path.join(buildAndExtract(problem, 'cms', 'zip'), p.short);
		const pdf = path.join(dir, 'statement/statement.pdf');
		const check = run('qpdf', ['--check', pdf]);
		assert.equal(check.status, 0, check.stdout + check.stderr);
		assert.doesNotMatch(check.stdout + check.stderr, /warning|error:/i);
		assert.match(check.stdout, /No syntax or stream encoding errors found/);
		const info = run('pdfinfo', [pdf]);
		assert.equal(info.status, 0, info.stderr);
		assert.match(info.stdout, new RegExp(`^Title: +${p.title}$`, 'm'));
		assert.match(info.stdout, /^Page size: +595 x 842 pts \(A4\)$/m);
		const r = run('pdftotext', [pdf, '-']);
		assert.equal(r.status, 0, r.stderr);
		assert.equal(r.stderr, '');
		const text = r.stdout.replace(/\f/g, '');
		const prose = text.replace(/\s+/g, ' ');
		assert.ok(text.startsWith(`${p.title}\n`), text.slice(0, 80));
		for (const sentence of SENTENCES[problem]) assert.ok(prose.includes(sentence), sentence);
		for (const heading of ['Input', 'Output', 'Examples', 'Example 1']) assert.match(text, new RegExp(`^${heading}$`, 'm'));
		for (let i = 0; i < p.samples; i++) {
			const input = read(dir, `input/input${i}.txt`);
			assert.ok(text.includes(`Input:\n${input}\nOutput:\n${read(dir, `output/output${i}.txt`)}`), `example ${i + 1}`);
		}
		for (const other of ['statement/statement.md', 'statement/statement.html']) assert.ok(fs.existsSync(path.join(dir, other)), other);
	});

	test(`packages of ${problem} are reproducible: the same request gives the same bytes, another seed other tests`, () => {
		for (const ext of ['zip', 'tar.gz']) {
			const a = build(problem, 'domjudge', path.join(tmpDir('r'), `a.${ext}`));
			const b = build(problem, 'domjudge', path.join(tmpDir('r'), `b.${ext}`));
			assert.ok(fs.readFileSync(a).equals(fs.readFileSync(b)), ext);
		}
		const a = build(problem, 'kattis', path.join(tmpDir('r'), 'a'));
		const c = build(problem, 'kattis', path.join(tmpDir('r'), 'c'), ['--seed', '43']);
		const generated = (dir) => kattisTests(dir).filter((t) => /-(random|large|chains)$/.test(t.name)).map((t) => t.input);
		const ga = generated(a), gc = generated(c);
		assert.equal(ga.length, gc.length);
		assert.ok(ga.every((input, i) => input !== gc[i]), 'every generated test changes with the seed');
		const edges = (dir) => kattisTests(dir).filter((t) => t.name.includes('-edge-')).map((t) => t.input);
		assert.deepEqual(edges(a), edges(c));
	});
}

test('bad package requests name the flag at fault', () => {
	const cases = [
		[['--problem', 'tetris', '--format', 'kattis', 'x'], /--problem must be monomino-domino or puyo, not 'tetris'/],
		[['--problem', 'puyo', '--format', 'hackerrank', 'x'], /--format must be kattis, polygon, domjudge or cms/],
		[['--problem', 'puyo', '--format', 'kattis', '--tests', '0', 'x'], /--tests must be 1\.\.500, not '0'/],
		[['--problem', 'puyo', '--format', 'kattis', '--tests', '501', 'x'], /--tests must be 1\.\.500/],
		[['--problem', 'puyo', '--format', 'kattis', '--min-chains', '13', 'x'], /--min-chains must be 1\.\.12/],
		[['--problem', 'puyo', '--format', 'kattis', '--seed', '-1', 'x'], /--seed must be/],
		[['--problem', 'puyo', '--format', 'kattis'], /missing OUT/],
		[['--format', 'kattis', 'x'], /missing --problem/],
		// an archive dropjudge does not write is refused, not made a directory
		...['pk.rar', 'pk.7z', 'pk.tar', 'pk.tar.bz2', 'pk.tar.xz', 'pk.gz', 'PK.RAR'].map((name) => [
			['--problem', 'puyo', '--format', 'kattis', name],
			new RegExp(`OUT '${name.replace(/\./g, '\\.')}' names a \\.${name.split('.').slice(1).join('\\.').toLowerCase()} archive.*\\.zip or \\.kpp \\(zip\\), \\.tar\\.gz or \\.tgz`, 'i'),
		]),
	];
	for (const [args, message] of cases) {
		const cwd = tmpDir('bad');
		const r = run(BIN, ['package', ...args], { cwd });
		assert.equal(r.status, 2, args.join(' '));
		assert.match(r.stderr, message);
		assert.deepEqual(fs.readdirSync(cwd), [], `${args.join(' ')} made nothing`);
	}
});
