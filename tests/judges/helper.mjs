// Plumbing of the judge-protocol suite: run the real binary (or a wrapper
// that runs it) the way a contest system does, with its arguments, working
// directory, standard input and feedback directory, and read back the exit
// code, stdout, stderr and files. Expected answers come from the naive
// reference simulators of tests/http/reference.mjs, never from dropjudge.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mdSolve, puyoSolve } from '../http/reference.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.resolve(ROOT, process.env.DROPJUDGE_BIN ?? 'build/dropjudge');
// The checker and validator alone, built beside it (src/main/checker.c).
export const CHECK_BIN = path.join(path.dirname(BIN), 'dropjudge-check');

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'dropjudge-judges-'));
let counter = 0;
process.on('exit', () => fs.rmSync(TMP, { recursive: true, force: true }));

// A new empty directory, removed when the run ends.
export function tmpDir(name = 'd') {
	const dir = path.join(TMP, `${name}${counter++}`);
	fs.mkdirSync(dir, { recursive: true });
	return dir;
}

// Writes files ({name: content}) into dir; returns dir.
export function writeFiles(dir, files) {
	for (const [name, content] of Object.entries(files)) {
		fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
		fs.writeFileSync(path.join(dir, name), content);
	}
	return dir;
}

// Runs a program; returns {status, stdout, stderr}. Bounded in time.
export function run(cmd, args, { cwd, input, env } = {}) {
	const r = spawnSync(cmd, args, {
		cwd,
		input: input ?? '',
		env: { ...process.env, ...env },
		encoding: 'utf8',
		timeout: 30000,
	});
	// A program may exit before it reads all its input (a checker that finds a
	// judge error first): writing the rest then fails with EPIPE, which says
	// nothing about the program. It ran and exited: its status stands.
	if (r.error && !(r.error.code === 'EPIPE' && (r.status !== null || r.signal))) throw r.error;
	return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// A symlink to the binary under `name` in a new directory; returns its path.
export function linkAs(name) {
	const dir = tmpDir('bin');
	const link = path.join(dir, name);
	fs.symlinkSync(BIN, link);
	return link;
}

// Compiles a C file; returns the executable's path.
export function compileC(source, name) {
	const out = path.join(tmpDir('cc'), name);
	const r = run('cc', ['-O2', '-o', out, source]);
	if (r.status !== 0) throw new Error(`cc ${source} failed:\n${r.stderr}`);
	return out;
}

// The Baekjoon answer of an input text, by the reference simulators.
export function referenceAnswer(problem, input) {
	const lines = input.split('\n').filter((l) => l.trim() !== '');
	if (problem === 'puyo') return `${puyoSolve(lines).chains}\n`;
	const n = Number(lines[0]);
	const blocks = lines.slice(1, n + 1).map((l) => l.trim().split(/\s+/).map(Number));
	const r = mdSolve(blocks);
	return `${r.score}\n${r.tiles}\n`;
}

// Every file under dir, as paths relative to it, sorted.
export function listFiles(dir) {
	const out = [];
	const walk = (d) => {
		for (const e of fs.readdirSync(d, { withFileTypes: true })) {
			const p = path.join(d, e.name);
			if (e.isDirectory()) walk(p);
			else out.push(path.relative(dir, p));
		}
	};
	walk(dir);
	return out.sort();
}

export function isExecutable(file) {
	return (fs.statSync(file).mode & 0o111) !== 0;
}

// What a judge host has: the system's programs, no dropjudge on PATH and no
// DROPJUDGE variable (the environment holds nothing else).
export const JUDGE_PATH = '/usr/local/bin:/usr/bin:/bin';

// Runs a program as a judge host runs it: the environment is JUDGE_PATH
// alone, the working directory `cwd` (a new empty one when not given).
export function runOnJudge(cmd, args, { cwd, input } = {}) {
	const r = spawnSync(cmd, args, {
		cwd: cwd ?? tmpDir('judgecwd'),
		input: input ?? '',
		env: { PATH: JUDGE_PATH },
		encoding: 'utf8',
		timeout: 30000,
	});
	if (r.error && !(r.error.code === 'EPIPE' && (r.status !== null || r.signal))) throw r.error;
	return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// Compiles one C source as a judge does (gcc -O2 -std=c11, and -static
// where the judge links statically), in an empty directory that holds only
// a copy of the source; returns the executable's path.
export function compileOnJudge(source, name, flags = []) {
	const dir = tmpDir('judgecc');
	fs.copyFileSync(source, path.join(dir, path.basename(source)));
	const r = runOnJudge('gcc', ['-O2', '-std=c11', ...flags, '-o', name, path.basename(source)], { cwd: dir });
	if (r.status !== 0) throw new Error(`gcc ${source} failed:\n${r.stderr}`);
	return path.join(dir, name);
}

// Builds a program directory of the Kattis format as Kattis and DOMjudge
// do: a copy of it, its `build` script run there; returns the path of the
// `run` it made.
export function buildOnJudge(programDir) {
	const dir = tmpDir('judgebuild');
	fs.cpSync(programDir, dir, { recursive: true });
	const r = runOnJudge(path.join(dir, 'build'), [], { cwd: dir });
	if (r.status !== 0) throw new Error(`${programDir}/build failed:\n${r.stderr}`);
	const run = path.join(dir, 'run');
	if (!fs.existsSync(run) || !isExecutable(run)) throw new Error(`${programDir}/build made no run`);
	return run;
}
