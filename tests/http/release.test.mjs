// What ships with a release (issue 46): one version everywhere it is
// stated (--version, GET /v1, the build_info metric, openapi.yaml's
// info.version, the man page, debian/changelog, CHANGELOG.md's latest
// release); the man page, made by scripts/gen-docs.sh, names every flag
// and subcommand that --help names and renders without a groff warning;
// the completions offer every flag; LICENSE is the spec's MIT; the systemd
// units name the binary and the environment file make install lays out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { ROOT, BIN, SPEC, startServer, request, run } from './helper.mjs';

const HELP = execFileSync(BIN, ['--help'], { encoding: 'utf8' });
const VERSION = fs.readFileSync(path.join(ROOT, 'include/dropjudge/version.h'), 'utf8')
	.match(/#define DROPJUDGE_VERSION "([^"]+)"/)[1];
const DOCS = fs.mkdtempSync(path.join(os.tmpdir(), 'dropjudge-docs-'));
process.on('exit', () => fs.rmSync(DOCS, { recursive: true, force: true }));
execFileSync(path.join(ROOT, 'scripts/gen-docs.sh'), [BIN, DOCS]);
const MAN = fs.readFileSync(path.join(DOCS, 'dropjudge.1'), 'utf8');
// The page as a reader sees it (groff's plain text, no hyphenation).
const MAN_TEXT = execFileSync('groff', ['-man', '-Tutf8', '-P-cbou', '-rHY=0', path.join(DOCS, 'dropjudge.1')],
	{ encoding: 'utf8' }).replace(/\u2010/g, '-').replace(/\s+/g, ' ');

// Flags --help names for serve, with their variables.
const SERVE_FLAGS = [...HELP.matchAll(/^ {2}(--[a-z-]+) [^ ]+, ([A-Z_]+)=/gm)].map((m) => [m[1], m[2]]);
// Every --flag anywhere in --help, and the subcommands of its usage lines.
const ALL_FLAGS = [...new Set([...HELP.matchAll(/(?<![\w-])(--[a-z][a-z-]*)/g)].map((m) => m[1]))];
const USAGE = HELP.slice(HELP.indexOf('\nUsage:\n'), HELP.indexOf('\n\n', HELP.indexOf('\nUsage:\n') + 1));
const SUBCOMMANDS = [...new Set([...USAGE.matchAll(/^ {2}dropjudge \[?([a-z]+)/gm)].map((m) => m[1]))];

test('--version, GET /v1, build_info, the spec, the man page, debian/changelog and CHANGELOG.md say one version', async () => {
	assert.match(VERSION, /^\d+\.\d+\.\d+$/);
	assert.equal(VERSION, '2.0.0');
	const { stdout } = await run(BIN, ['--version']);
	assert.equal(stdout.split('\n')[0], `dropjudge ${VERSION}`);
	assert.equal(SPEC.info.version, VERSION);
	const server = await startServer({ args: ['--metrics-open', '1'] });
	const v1 = await request(server, { path: '/v1' });
	assert.equal(v1.json.version, VERSION);
	const metrics = await request(server, { path: '/metrics' });
	assert.match(metrics.body, new RegExp(`^dropjudge_build_info\\{version="${VERSION.replace(/\./g, '\\.')}"\\} 1$`, 'm'));
	assert.match(MAN, new RegExp(`^\\.TH "dropjudge" "1" "[^"]*" "dropjudge ${VERSION}"`, 'm'));
	const changelog = fs.readFileSync(path.join(ROOT, 'debian/changelog'), 'utf8');
	assert.equal(changelog.match(/^dropjudge \(([^)]+)\)/)[1], VERSION);
	const keep = fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8');
	assert.equal(keep.match(/^## \[(\d[^\]]*)\]/m)[1], VERSION, 'the first release in CHANGELOG.md');
});

test('the man page names every flag and subcommand that --help names', () => {
	assert.ok(SERVE_FLAGS.length >= 20, `serve flags found in --help: ${SERVE_FLAGS.length}`);
	for (const [flag, env] of SERVE_FLAGS) {
		assert.ok(MAN_TEXT.includes(`${flag} `), `man page lacks ${flag}`);
		assert.ok(MAN_TEXT.includes(`${env}=`), `man page lacks ${env}`);
	}
	for (const flag of ALL_FLAGS) assert.ok(MAN_TEXT.includes(flag), `man page lacks ${flag}`);
	assert.deepEqual(SUBCOMMANDS.sort(), ['check', 'healthcheck', 'package', 'search', 'serve', 'solve', 'validate']);
	for (const sub of SUBCOMMANDS) assert.ok(MAN_TEXT.includes(`dropjudge ${sub}`) || MAN_TEXT.includes(` ${sub} `), `man page lacks ${sub}`);
	for (const env of ['DROPJUDGE_SOLVE_THREADS', 'DROPJUDGE_PROBLEM', 'LISTEN_FDS', 'NOTIFY_SOCKET'])
		assert.ok(MAN_TEXT.includes(env), `man page lacks ${env}`);
});

test('the man pages render without warnings (groff -ww)', () => {
	for (const page of ['dropjudge.1', 'dropjudge-check.1']) {
		const out = execFileSync('sh', ['-c', 'groff -ww -man -Tutf8 -z "$1" 2>&1', 'sh', path.join(DOCS, page)],
			{ encoding: 'utf8' });
		assert.equal(out, '', page);
	}
});

test('the man page of dropjudge-check names what its --help names, at the same version', () => {
	const text = execFileSync('groff', ['-man', '-Tutf8', '-P-cbou', '-rHY=0', path.join(DOCS, 'dropjudge-check.1')],
		{ encoding: 'utf8' }).replace(/\u2010/g, '-').replace(/\s+/g, ' ');
	const checker = path.join(path.dirname(BIN), 'dropjudge-check');
	const help = execFileSync(checker, ['--help'], { encoding: 'utf8' });
	for (const word of ['check', 'validate', '--problem', '--protocol', 'testlib', 'kattis', 'cms', 'dmoj'])
		assert.ok(help.includes(word) && text.includes(word), word);
	const version = execFileSync(checker, ['--version'], { encoding: 'utf8' }).split('\n')[0].split(' ')[1];
	assert.match(text, new RegExp(`dropjudge ${version.replace(/\./g, '\\.')}`));
});

test('the bash and zsh completions offer every flag of serve and every subcommand', () => {
	const bash = fs.readFileSync(path.join(DOCS, 'dropjudge.bash'), 'utf8');
	const zsh = fs.readFileSync(path.join(DOCS, '_dropjudge'), 'utf8');
	execFileSync('bash', ['-n', path.join(DOCS, 'dropjudge.bash')]);
	for (const [flag] of SERVE_FLAGS) {
		assert.ok(new RegExp(`[ "]${flag}[ "]`).test(bash), `bash completion lacks ${flag}`);
		assert.ok(zsh.includes(`'${flag}=[`), `zsh completion lacks ${flag}`);
	}
	for (const sub of SUBCOMMANDS) {
		assert.ok(new RegExp(`[ "]${sub}[ "]`).test(bash), `bash completion lacks ${sub}`);
		assert.ok(zsh.includes(sub), `zsh completion lacks ${sub}`);
	}
	// What bash offers after `dropjudge --p`, as a user would see it.
	const offered = execFileSync('bash', ['-c', `source "$1"; COMP_WORDS=(dropjudge serve --p); COMP_CWORD=2; _dropjudge; printf '%s\\n' "\${COMPREPLY[@]}"`,
		'bash', path.join(DOCS, 'dropjudge.bash')], { encoding: 'utf8' });
	const expected = SERVE_FLAGS.map(([flag]) => flag).filter((flag) => flag.startsWith('--p')).sort();
	assert.ok(expected.includes('--port'));
	assert.deepEqual(offered.trim().split('\n').sort(), expected);
});

test('LICENSE is the MIT licence the spec names; CHANGELOG.md and SECURITY.md are there', () => {
	assert.equal(SPEC.info.license.identifier, 'MIT');
	const license = fs.readFileSync(path.join(ROOT, 'LICENSE'), 'utf8');
	assert.match(license, /^MIT License/);
	assert.match(license, /Permission is hereby granted, free of charge/);
	const changelog = fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8');
	assert.match(changelog, /keepachangelog\.com/);
	assert.match(changelog, /^## \[1\.0\.0\]/m);
	const security = fs.readFileSync(path.join(ROOT, 'SECURITY.md'), 'utf8');
	assert.match(security, /## Reporting a vulnerability/);
});

test('make install DESTDIR lays the files out where the FHS says, and uninstall removes them', () => {
	const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'dropjudge-install-'));
	try {
		const build = path.dirname(BIN);
		const args = ['-s', '-C', ROOT, `BUILD=${path.relative(ROOT, build)}`, `DESTDIR=${stage}`, 'PREFIX=/usr', 'SYSCONFDIR=/etc'];
		execFileSync('make', [...args, 'install'], { encoding: 'utf8' });
		const files = execFileSync('find', [stage, '-type', 'f'], { encoding: 'utf8' }).trim().split('\n')
			.map((f) => f.slice(stage.length)).sort();
		assert.deepEqual(files, [
			'/etc/default/dropjudge',
			'/usr/bin/dropjudge',
			'/usr/bin/dropjudge-check',
			'/usr/lib/systemd/system/dropjudge.service',
			'/usr/lib/systemd/system/dropjudge.socket',
			'/usr/share/bash-completion/completions/dropjudge',
			'/usr/share/doc/dropjudge/OPERATING.md',
			'/usr/share/doc/dropjudge/dropjudge-alerts.yaml',
			'/usr/share/doc/dropjudge/dropjudge-dashboard.json',
			'/usr/share/doc/dropjudge/dropjudge-rules.yaml',
			'/usr/share/man/man1/dropjudge-check.1',
			'/usr/share/man/man1/dropjudge.1',
			'/usr/share/zsh/vendor-completions/_dropjudge',
		]);
		const unit = fs.readFileSync(path.join(stage, 'usr/lib/systemd/system/dropjudge.service'), 'utf8');
		assert.match(unit, /^ExecStart=\/usr\/bin\/dropjudge serve$/m);
		assert.match(unit, /^EnvironmentFile=-\/etc\/default\/dropjudge$/m);
		assert.match(unit, /^Type=notify$/m);
		// Every variable the default file sets or shows is one --help documents.
		const defaults = fs.readFileSync(path.join(stage, 'etc/default/dropjudge'), 'utf8');
		for (const m of defaults.matchAll(/^#?([A-Z_]+)=/gm))
			assert.ok(SERVE_FLAGS.some(([, env]) => env === m[1]), `${m[1]} is not a variable of --help`);
		execFileSync('make', [...args, 'uninstall'], { encoding: 'utf8' });
		assert.equal(execFileSync('find', [stage, '-type', 'f'], { encoding: 'utf8' }), '');
	} finally {
		fs.rmSync(stage, { recursive: true, force: true });
	}
});
