// The docs cannot drift: every command of the README's API examples, and of
// the examples of docs/ that run against the service (docs/SEARCH.md,
// docs/PICTURES.md, docs/JUDGES.md's "Over HTTP"), is run against the real
// server (localhost:8080 replaced by its address) and its output compared with the lines shown under it ("# ..."),
// where "..." stands for any text; a command that shows nothing must still
// exit 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { startServer, ROOT, BIN } from './helper.mjs';

const server = await startServer();
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

// The examples of a document: the first ```sh block after its heading.
function examples(text, heading) {
	assert.ok(text.includes(`\n${heading}\n`), `${heading} is missing`);
	const api = text.slice(text.indexOf(`\n${heading}\n`));
	const block = api.slice(api.indexOf('```sh\n') + 6, api.indexOf('\n```', api.indexOf('```sh\n')));
	const out = [];
	let cmd = null;
	for (const line of block.split('\n')) {
		if (cmd && cmd.open) {
			cmd.text += '\n' + line;
			cmd.open = /[\\|]$/.test(line);
			continue;
		}
		if (line.startsWith('# ') && cmd) {
			cmd.shown.push(line.slice(2));
		} else if (line.startsWith('#') || line.trim() === '') {
			if (line.trim() === '' || !cmd || cmd.shown.length) cmd = null;
		} else {
			cmd = { text: line, open: /[\\|]$/.test(line), shown: [] };
			out.push(cmd);
		}
	}
	return out;
}

function pattern(lines) {
	const esc = lines.join('\n').split('...').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
	return new RegExp(`^${esc.join('[\\s\\S]*')}\\n?$`);
}

const JUDGES = fs.readFileSync(path.join(ROOT, 'docs/JUDGES.md'), 'utf8');
const SEARCH = fs.readFileSync(path.join(ROOT, 'docs/SEARCH.md'), 'utf8');
const PICTURES = fs.readFileSync(path.join(ROOT, 'docs/PICTURES.md'), 'utf8');
const cmds = [...examples(README, '## The API')];
const docCmds = [...examples(SEARCH, '## Examples').map((c) => ['docs/SEARCH.md', c]),
	...examples(`\n${PICTURES}`, '# Pictures and the viewer').map((c) => ['docs/PICTURES.md', c])];
const judgeCmds = examples(JUDGES, '## Over HTTP');
// The examples run in a directory of their own (one writes puyo.zip), never in the tree.
const workdir = fs.mkdtempSync(path.join(os.tmpdir(), 'dropjudge-readme-'));
process.on('exit', () => fs.rmSync(workdir, { recursive: true, force: true }));

test('the README shows API examples with their output', () => {
	assert.ok(cmds.length >= 10, `${cmds.length} examples`);
	assert.ok(cmds.filter((c) => c.shown.length).length >= 10);
});

// A README a user reads through: at most 250 lines, as the 2.0 layout set it.
test('the README is at most 250 lines', () => {
	const lines = README.split('\n').length - (README.endsWith('\n') ? 1 : 0);
	assert.ok(lines <= 250, `${lines} lines`);
});

test('docs/JUDGES.md shows the package and generator examples with their output', () => {
	assert.ok(judgeCmds.length >= 4, `${judgeCmds.length} examples`);
	assert.ok(judgeCmds.filter((c) => c.shown.length).length >= 3);
	assert.ok(judgeCmds.some((c) => c.text.includes('/package?')));
});

for (const [doc, c] of [...cmds.map((c) => ['README', c]), ...docCmds, ...judgeCmds.map((c) => ['docs/JUDGES.md', c])]) {
	const shell = c.text.replaceAll('localhost:8080', `127.0.0.1:${server.port}`)
		.replaceAll('build/dropjudge', BIN);
	test(`${doc}: ${c.text.split('\n')[0].slice(0, 90)}`, async () => {
		const { code, stdout, stderr } = await new Promise((resolve) => {
			execFile('bash', ['-c', shell], { timeout: 20000, cwd: workdir }, (e, so, se) =>
				resolve({ code: e ? e.code : 0, stdout: so, stderr: se }));
		});
		assert.equal(code, 0, stderr);
		if (c.shown.length) assert.match(stdout, pattern(c.shown), `shown:\n${c.shown.join('\n')}\ngot:\n${stdout}`);
	});
}

test('README and --help name the same flags and variables of serve', async () => {
	const { execFileSync } = await import('node:child_process');
	const help = execFileSync(process.env.DROPJUDGE_BIN ?? 'build/dropjudge', ['--help'], { encoding: 'utf8' });
	const fromHelp = new Set([...help.matchAll(/^ {2}(--[a-z-]+) \S+, ([A-Z_]+)=/gm)].map((m) => `${m[1]} ${m[2]}`));
	const fromReadme = new Set();
	for (const m of README.matchAll(/^\| `(--[a-z-]+)`(?:, `(--[a-z-]+)`)? \| `([A-Z_]+)`(?:, `([A-Z_]+)`)? \|/gm)) {
		fromReadme.add(`${m[1]} ${m[3]}`);
		if (m[2]) fromReadme.add(`${m[2]} ${m[4]}`);
	}
	assert.ok(fromHelp.size >= 10, [...fromHelp].join(', '));
	assert.deepEqual([...fromReadme].sort(), [...fromHelp].sort());
});
