// dropjudge-check, the checker and validator in a program of their own
// (src/main/checker.c): every protocol invoked on each kind of output, the
// validators on good and bad inputs, the judge's names and the usage
// errors must give the exit status, stdout, stderr and files of
// `dropjudge check` / `dropjudge validate` byte for byte; its verdicts are
// also checked against the reference answers; and it links neither
// libmicrohttpd, GnuTLS nor libarchive (what makes it start fast).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { BIN, CHECK_BIN, run, tmpDir, writeFiles, listFiles, referenceAnswer } from './helper.mjs';

const INPUTS = {
	'monomino-domino': '8\n1 1 1\n2 3 0\n3 2 2\n3 2 3\n3 1 3\n2 0 0\n3 2 0\n3 1 2\n',
	puyo: '......\n......\n......\n......\n......\n......\n......\n......\n.Y....\n.YG...\nRRYG..\nRRYGG.\n',
};
const BAD_INPUTS = { 'monomino-domino': '2\n1 1 1\n4 0 0\n', puyo: '......\nRRRR\n' };

// The contestant outputs of each kind, from the reference answer.
function outputs(problem) {
	const answer = referenceAnswer(problem, INPUTS[problem]);
	const tokens = answer.trim().split('\n');
	const wrong = tokens.map((t, i) => (i === 0 ? String(Number(t) + 1) : t)).join('\n') + '\n';
	return {
		accepted: answer,
		wrong,
		presentation: `${tokens.join(' ')} x\n`,
		empty: '',
	};
}

// Each protocol's check arguments, run in a directory holding in, out, ans
// and fb/; the contestant's output also on stdin (kattis reads it there).
const CHECK_ARGS = {
	testlib: ['in', 'out', 'ans', 'report'],
	kattis: ['in', 'ans', 'fb/'],
	cms: ['in', 'ans', 'out'],
	dmoj: ['in', 'out', 'ans'],
};
// What each protocol says of an accepted and a wrong output.
const VERDICT_STATUS = { testlib: [0, 1], kattis: [42, 43], cms: [0, 0], dmoj: [0, 1] };

// Runs argv with each program in a fresh copy of the files; returns both
// runs with the files each left behind.
function both(programs, args, files, { input, env } = {}) {
	return programs.map((program) => {
		const cwd = writeFiles(tmpDir('chk'), files);
		fs.mkdirSync(path.join(cwd, 'fb'));
		const r = run(program, args, { cwd, input: input ?? '', env });
		const left = Object.fromEntries(listFiles(cwd).map((f) => [f, fs.readFileSync(path.join(cwd, f), 'utf8')]));
		return { ...r, files: left };
	});
}

function assertSame([a, b], what) {
	assert.equal(b.status, a.status, `${what}: exit status`);
	assert.equal(b.stdout, a.stdout, `${what}: stdout`);
	assert.equal(b.stderr, a.stderr, `${what}: stderr`);
	assert.deepEqual(b.files, a.files, `${what}: files`);
}

for (const problem of Object.keys(INPUTS)) {
	const o = outputs(problem);
	for (const protocol of Object.keys(CHECK_ARGS)) {
		test(`dropjudge-check check --protocol ${protocol} (${problem}) answers as dropjudge check`, () => {
			const answer = o.accepted;
			for (const [kind, output] of Object.entries(o)) {
				for (const judgeAnswer of [answer, o.wrong]) {
					const files = { in: INPUTS[problem], out: output, ans: judgeAnswer };
					const args = ['check', '--problem', problem, '--protocol', protocol, ...CHECK_ARGS[protocol]];
					const runs = both([BIN, CHECK_BIN], args, files, { input: output });
					assertSame(runs, `${protocol} ${kind}${judgeAnswer === answer ? '' : ' (jury answer wrong)'}`);
					if (judgeAnswer === answer && (kind === 'accepted' || kind === 'wrong'))
						assert.equal(runs[1].status, VERDICT_STATUS[protocol][kind === 'accepted' ? 0 : 1], `${protocol} ${kind}`);
				}
			}
			// A missing file is the protocol's judge error, alike.
			const args = ['check', '--problem', problem, '--protocol', protocol, ...CHECK_ARGS[protocol]];
			assertSame(both([BIN, CHECK_BIN], args, { in: INPUTS[problem], out: o.accepted }), `${protocol} missing file`);
		});
	}
	for (const protocol of ['testlib', 'kattis']) {
		test(`dropjudge-check validate --protocol ${protocol} (${problem}) answers as dropjudge validate`, () => {
			for (const input of [INPUTS[problem], BAD_INPUTS[problem]]) {
				const args = ['validate', '--problem', problem, '--protocol', protocol];
				const runs = both([BIN, CHECK_BIN], args, {}, { input });
				assertSame(runs, `validate ${protocol}`);
				const valid = input === INPUTS[problem];
				assert.equal(runs[1].status, protocol === 'kattis' ? (valid ? 42 : 43) : valid ? 0 : 3);
			}
		});
	}
}

test('dropjudge-check under a judge name answers as dropjudge under it', () => {
	const o = outputs('puyo');
	const files = { in: INPUTS.puyo, out: o.wrong, ans: o.accepted };
	for (const [name, args, env] of [
		['dropjudge-checker-testlib-puyo', ['in', 'out', 'ans'], {}],
		['output_validator', ['in', 'ans', 'fb/'], { DROPJUDGE_PROBLEM: 'puyo' }],
		['input_validator', [], { DROPJUDGE_PROBLEM: 'puyo' }],
	]) {
		const links = [BIN, CHECK_BIN].map((target) => {
			const link = path.join(tmpDir('name'), name);
			fs.symlinkSync(target, link);
			return link;
		});
		assertSame(both(links, args, files, { input: name === 'input_validator' ? INPUTS.puyo : o.wrong, env }), name);
	}
});

test('dropjudge-check refuses bad arguments as dropjudge does, and says how it is used', () => {
	for (const args of [
		['check', '--protocol', 'nope'],
		['check', '--problem', 'puyo'],
		['validate', '--problem', 'puyo', '--protocol', 'cms'],
		['check', '--problem', 'chess', '--protocol', 'testlib', 'a', 'b', 'c'],
	])
		assertSame(both([BIN, CHECK_BIN], args, {}, { env: { DROPJUDGE_PROBLEM: '' } }), args.join(' '));
	const usage = run(CHECK_BIN, ['--help']);
	assert.equal(usage.status, 0);
	assert.match(usage.stdout, /^usage: dropjudge-check check /);
	const none = run(CHECK_BIN, []);
	assert.equal(none.status, 2);
	assert.match(none.stderr, /a command is needed/);
	const other = run(CHECK_BIN, ['serve']);
	assert.equal(other.status, 2);
	assert.match(other.stderr, /unknown command 'serve'/);
});

test('dropjudge-check links neither libmicrohttpd, GnuTLS nor libarchive', () => {
	const ldd = run('ldd', [CHECK_BIN]);
	assert.equal(ldd.status, 0, ldd.stderr);
	assert.match(ldd.stdout, /libjansson/);
	assert.doesNotMatch(ldd.stdout, /microhttpd|gnutls|libarchive/);
});
