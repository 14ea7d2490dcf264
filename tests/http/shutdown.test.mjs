// SIGTERM during requests: requests in flight complete, /readyz answers 503
// on a keep-alive connection opened before the signal, no new connections
// are taken, and the process exits 0; the drain is bounded by
// --drain-timeout and cut short by a second signal.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, request, curlSequence, sleep, timeScale } from './helper.mjs';

const MD_TEXT = '8\n1 1 1\n2 3 0\n3 2 2\n3 2 3\n3 1 3\n2 0 0\n3 2 0\n3 1 2\n';
const PUBLIC = ['......', '......', '......', '......', '......', '......', '......', '......', '.Y....', '.YG...', 'RRYG..', 'RRYGG.'];

// Deadlines and the bounds on how long an exit takes scale with
// DROPJUDGE_TIME_SCALE (10 under valgrind, whose exit alone checks the heap).
async function waitFor(predicate, what, ms = 10000) {
	const end = Date.now() + ms * timeScale;
	while (!predicate()) {
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await sleep(20);
	}
}

// A curl run whose last request streams its body from stdin (chunked), so
// that the request stays in flight until the test ends the body.
// A failed assertion leaves such a run waiting on its stdin: every one is
// killed when the file ends, so that a failure never hangs the suite.
const runs = [];
after(() => { for (const r of runs) r.child.kill(); });
function streaming(server, requests) {
	const run = curlSequence(server, requests, { verbose: true, stdin: true });
	runs.push(run);
	run.stderr = '';
	run.child.stderr.on('data', (d) => { run.stderr += d; });
	return run;
}

test('SIGTERM: in-flight requests complete, readyz is 503 on an open connection, new connections are refused, exit 0', async (t) => {
	const server = await startServer({ args: ['--drain-timeout', '20'] });

	// Two requests in flight: their headers and half their bodies are sent.
	const a = streaming(server, [{ path: '/v1/monomino-domino', stdinBody: true, contentType: 'text/plain', accept: 'text/plain' }]);
	const b = streaming(server, [{ path: '/v1/puyo', stdinBody: true, contentType: 'application/json' }]);
	const half = MD_TEXT.length >> 1;
	a.child.stdin.write(MD_TEXT.slice(0, half));
	const pbody = JSON.stringify({ field: PUBLIC });
	b.child.stdin.write(pbody.slice(0, 40));
	await waitFor(() => /> POST/.test(a.stderr) && /> POST/.test(b.stderr), 'both requests sent');

	// A keep-alive connection: /livez now, /readyz a second later (--rate),
	// on the same connection.
	const k = curlSequence(server, [{ path: '/livez' }, { path: '/readyz' }], { verbose: true, globalArgs: ['--rate', '1/s'] });
	let kErr = '';
	k.child.stderr.on('data', (d) => { kErr += d; });
	await waitFor(() => /< HTTP\/1\.1 200/.test(kErr), 'the first keep-alive answer');
	await sleep(100);

	process.kill(server.pid, 'SIGTERM');
	await sleep(300);
	assert.equal(server.exitStatus, undefined, 'still draining while requests are in flight');

	// No new connections.
	await assert.rejects(request(server, { path: '/livez' }), /curl failed/, 'a new connection during the drain');

	const kr = await k.done;
	assert.match(kr.stderr, /Re-using existing (?:\w+: )?connection/, 'readyz went on the open connection');
	assert.equal(kr.responses[0].status, 200);
	assert.ok(kr.responses[1], `readyz answered: ${kr.stderr.slice(-500)}`);
	assert.equal(kr.responses[1].status, 503);
	assert.equal(kr.responses[1].json.type, '/errors/unavailable');
	assert.equal(kr.responses[1].headers.connection, 'close');

	// Finish the in-flight bodies: both are answered in full.
	a.child.stdin.end(MD_TEXT.slice(half));
	b.child.stdin.end(pbody.slice(40));
	const ar = await a.done;
	const br = await b.done;
	assert.equal(ar.code, 0, ar.stderr);
	assert.equal(ar.responses[0].status, 200);
	assert.equal(ar.responses[0].body, '2\n15\n');
	assert.equal(br.responses[0].status, 200);
	assert.equal(br.responses[0].json.chains, 3);

	const exit = await Promise.race([server.exited, sleep(10000 * timeScale).then(() => 'timeout')]);
	assert.deepEqual(exit, { code: 0, signal: null });
	t.diagnostic(server.log.trim().split('\n').slice(-3).join(' | '));
});

test('SIGTERM with nothing in flight exits 0 at once', async () => {
	const server = await startServer();
	const res = await request(server, { path: '/v1/monomino-domino', body: MD_TEXT, contentType: 'text/plain', accept: 'text/plain' });
	assert.equal(res.body, '2\n15\n');
	const t0 = Date.now();
	process.kill(server.pid, 'SIGTERM');
	const exit = await Promise.race([server.exited, sleep(5000 * timeScale).then(() => 'timeout')]);
	assert.deepEqual(exit, { code: 0, signal: null });
	assert.ok(Date.now() - t0 < 3000 * timeScale, 'promptly');
});

test('SIGINT drains like SIGTERM', async () => {
	const server = await startServer();
	process.kill(server.pid, 'SIGINT');
	const exit = await Promise.race([server.exited, sleep(5000 * timeScale).then(() => 'timeout')]);
	assert.deepEqual(exit, { code: 0, signal: null });
});

test('the drain is bounded by --drain-timeout: a stalled request does not keep the process alive', async () => {
	const server = await startServer({ args: ['--drain-timeout', '1', '--timeout', '60'] });
	const a = streaming(server, [{ path: '/v1/monomino-domino', stdinBody: true, contentType: 'text/plain' }]);
	a.child.stdin.write('8\n1 1 1\n');
	await waitFor(() => /> POST/.test(a.stderr), 'the request sent');
	await sleep(100);
	const t0 = Date.now();
	process.kill(server.pid, 'SIGTERM');
	const exit = await Promise.race([server.exited, sleep(8000 * timeScale).then(() => 'timeout')]);
	assert.deepEqual(exit, { code: 0, signal: null });
	const took = Date.now() - t0;
	assert.ok(took >= 900 && took < 5000 * timeScale, `exited after ${took} ms`);
	a.child.stdin.destroy();
	a.child.kill();
	await a.done.catch(() => {});
});

test('a second signal ends the drain at once', async () => {
	const server = await startServer({ args: ['--drain-timeout', '30', '--timeout', '60'] });
	const a = streaming(server, [{ path: '/v1/puyo', stdinBody: true, contentType: 'text/plain' }]);
	a.child.stdin.write('......\n');
	await waitFor(() => /> POST/.test(a.stderr), 'the request sent');
	await sleep(100);
	process.kill(server.pid, 'SIGTERM');
	await sleep(300);
	assert.equal(server.exitStatus, undefined, 'draining');
	const t0 = Date.now();
	process.kill(server.pid, 'SIGTERM');
	const exit = await Promise.race([server.exited, sleep(5000 * timeScale).then(() => 'timeout')]);
	assert.deepEqual(exit, { code: 0, signal: null });
	assert.ok(Date.now() - t0 < 3000 * timeScale);
	a.child.stdin.destroy();
	a.child.kill();
	await a.done.catch(() => {});
});
