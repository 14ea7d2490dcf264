// serve under systemd, as on this machine's libmicrohttpd (0.9.75 on
// Debian 12, 1.0 in make test-debian13): tests/http/sd_activate.py hands it
// a listening socket as socket activation does (descriptor 3, LISTEN_FDS,
// LISTEN_PID) and reads its notifications (NOTIFY_SOCKET). The server must
// serve that socket (its start line names its port; --port is not used),
// say READY=1 once it answers, answer a public example right, and on
// SIGTERM say STOPPING=1, drain and exit 0. The whole package under a real
// systemd is make test-systemd.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { ROOT, BIN, CASES_DIR, timeScale } from './helper.mjs';

test('a socket passed by socket activation is served; READY=1 and STOPPING=1 are sent', async () => {
	const proc = spawn('python3', [path.join(ROOT, 'tests/http/sd_activate.py'), BIN, 'serve', '--port', '1', '--log-format', 'text'],
		{ stdio: ['ignore', 'pipe', 'pipe'] });
	let out = '';
	let err = '';
	proc.stdout.on('data', (d) => { out += d; });
	proc.stderr.on('data', (d) => { err += d; });
	const exited = new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
	const until = async (what, ms = 10000 * timeScale) => {
		for (const t0 = Date.now(); !what(); ) {
			if (Date.now() - t0 > ms) throw new Error(`timed out; stdout: ${out}; stderr: ${err}`);
			await new Promise((r) => setTimeout(r, 20));
		}
	};
	try {
		await until(() => /notify READY=1/.test(out));
		const port = Number(out.match(/^port (\d+)$/m)[1]);
		assert.match(err, new RegExp(`listening on http://127\\.0\\.0\\.1:${port}\\n`), 'the start line names the passed socket');
		const dir = path.join(CASES_DIR, 'puyo/example-text');
		const res = await fetch(`http://127.0.0.1:${port}/v1/puyo`, {
			method: 'POST', headers: { 'Content-Type': 'text/plain', Accept: 'text/plain' },
			body: fs.readFileSync(path.join(dir, 'input.txt')) });
		assert.equal(res.status, 200);
		assert.equal(await res.text(), fs.readFileSync(path.join(dir, 'expected.txt'), 'utf8'));
		assert.doesNotMatch(out, /STOPPING/);
		proc.kill('SIGTERM');
		const { code } = await exited;
		assert.equal(code, 0, err);
		assert.match(out, /notify READY=1\nnotify STOPPING=1\n/);
		assert.match(err, /draining/);
		assert.match(err, /stopped/);
	} finally {
		proc.kill('SIGKILL');
	}
});

test('more than one passed socket is refused with a message, exit 1', async () => {
	const sh = spawn('sh', ['-c', 'LISTEN_PID=$$ LISTEN_FDS=2 exec "$0" serve --port 0', BIN], { stdio: ['ignore', 'pipe', 'pipe'] });
	let err = '';
	sh.stderr.on('data', (d) => { err += d; });
	const code = await new Promise((resolve) => sh.on('exit', resolve));
	assert.equal(code, 1);
	assert.match(err, /socket activation passed 2 sockets/);
});
