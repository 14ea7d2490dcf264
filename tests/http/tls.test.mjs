// HTTPS (--tls-cert, --tls-key, --tls-priorities) with a certificate made
// here by openssl: curl trusting that certificate gets the right answers,
// plain HTTP on the port gets no answer, TLS 1.0 and 1.1 are refused while
// 1.2 and 1.3 are taken, `healthcheck` speaks TLS when given the
// certificate, and unusable TLS settings end the process with status 2.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import path from 'node:path';
import { startServer, request, run, tmpFile, BIN, timeScale } from './helper.mjs';

// The public example of Baekjoon 11559 (3 chains) and example 1 of 20061 (0 points, 2 tiles).
const PUYO = ['......', '......', '......', '......', '......', '......', '......', '......', '.Y....', '.YG...', 'RRYG..', 'RRYGG.'];
const MD_TEXT = '1\n1 1 1\n';

let dir;
let cert;
let key;
let otherCert;
let otherKey;

async function makeCert(name) {
	const c = path.join(dir, `${name}.crt`);
	const k = path.join(dir, `${name}.key`);
	const res = await run('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1',
		'-nodes', '-keyout', k, '-out', c, '-days', '2', '-subj', `/CN=${name}`,
		'-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost']);
	assert.equal(res.code, 0, res.stderr);
	return [c, k];
}

before(async () => {
	dir = path.dirname(tmpFile(''));
	[cert, key] = await makeCert('dropjudge-test');
	[otherCert, otherKey] = await makeCert('someone-else');
});

const tlsArgs = () => ['--tls-cert', cert, '--tls-key', key];

// openssl s_client's handshake at one protocol version: the version and
// cipher agreed, or null when the server refused. SECLEVEL=0 lets the
// client offer the old versions at all, so a refusal is the server's.
async function handshake(port, version, caFile = cert) {
	const res = await run('sh', ['-c', `echo | openssl s_client -connect 127.0.0.1:${port} -${version} ` +
		`-cipher 'DEFAULT@SECLEVEL=0' -CAfile '${caFile}' 2>&1`], { timeout: 15000 * timeScale });
	const m = res.stdout.match(/^New, (\S+), Cipher is (\S+)/m);
	assert.ok(m, `no handshake summary from openssl: ${res.stdout.slice(0, 600)}`);
	return m[1] === '(NONE)' ? null : { version: m[1], cipher: m[2] };
}

// Sends a plain HTTP request over TCP; resolves to every byte the server
// sent back before closing (or before ms passed).
function plainExchange(port, ms) {
	return new Promise((resolve) => {
		const chunks = [];
		const sock = net.connect(port, '127.0.0.1', () => {
			sock.write('GET /livez HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
		});
		const done = () => { clearTimeout(timer); sock.destroy(); resolve(Buffer.concat(chunks)); };
		const timer = setTimeout(done, ms);
		sock.on('data', (d) => chunks.push(d));
		sock.on('close', done);
		sock.on('error', done);
	});
}

test('over HTTPS, curl trusting the certificate gets the right answers', async () => {
	const server = await startServer({ args: tlsArgs(), caFile: cert });
	assert.match(server.startLine, /listening on https:\/\/127\.0\.0\.1:\d+$/);
	const puyo = await request(server, { path: '/v1/puyo', body: { field: PUYO } });
	assert.equal(puyo.status, 200);
	assert.equal(puyo.json.chains, 3);
	const md = await request(server, { path: '/v1/monomino-domino', body: MD_TEXT, contentType: 'text/plain', accept: 'text/plain' });
	assert.equal(md.body, '0\n2\n');

	// Without the certificate curl cannot verify the server: TLS is real.
	const untrusted = await run('curl', ['-s', '-S', '-o', '/dev/null', `${server.base}/livez`]);
	assert.notEqual(untrusted.code, 0);
	assert.match(untrusted.stderr, /certificate/i);
});

test('the TLS files can come from TLS_CERT and TLS_KEY', async () => {
	const server = await startServer({ env: { TLS_CERT: cert, TLS_KEY: key }, caFile: cert });
	assert.equal(server.scheme, 'https');
	assert.equal((await request(server, { path: '/readyz' })).status, 200);
});

test('plain HTTP on the HTTPS port gets no answer', async () => {
	const server = await startServer({ args: tlsArgs(), caFile: cert });
	const bytes = await plainExchange(server.port, 3000 * timeScale);
	assert.ok(!bytes.toString('latin1').includes('HTTP/'), `answered: ${JSON.stringify(bytes.toString('latin1').slice(0, 200))}`);
	const curl = await run('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', '-m', String(5 * timeScale), `http://127.0.0.1:${server.port}/livez`]);
	assert.notEqual(curl.code, 0);
	assert.equal(curl.stdout, '000');
	assert.equal((await request(server, { path: '/livez' })).status, 200, 'HTTPS still served');
});

// Every TLS 1.2 suite OpenSSL knows, offered alone to a server with an RSA
// certificate (the one kind where static-RSA key exchange could be had):
// the default takes only ECDHE with AES-GCM or ChaCha20-Poly1305.
test('the default TLS 1.2 suites are forward-secret AEAD only: no static RSA, no CBC, no SHA-1 MAC', async () => {
	const rsaCert = path.join(dir, 'rsa.crt');
	const rsaKey = path.join(dir, 'rsa.key');
	const made = await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', rsaKey,
		'-out', rsaCert, '-days', '2', '-subj', '/CN=rsa', '-addext', 'subjectAltName=IP:127.0.0.1']);
	assert.equal(made.code, 0, made.stderr);
	const server = await startServer({ args: ['--tls-cert', rsaCert, '--tls-key', rsaKey], caFile: rsaCert });
	const list = await run('openssl', ['ciphers', 'ALL:COMPLEMENTOFALL:@SECLEVEL=0']);
	const suites = list.stdout.trim().split(':');
	assert.ok(suites.length > 40, `openssl knows ${suites.length} suites`);
	const probe = (c) => run('sh', ['-c', `echo | openssl s_client -connect 127.0.0.1:${server.port} -tls1_2 ` +
		`-cipher '${c}@SECLEVEL=0' 2>&1 | sed -n 's/^New, \\(\\S*\\), Cipher is \\(\\S*\\)/\\1 \\2/p'`],
	{ timeout: 30000 * timeScale });
	let stdout = '';
	for (let i = 0; i < suites.length; i += 4) { // four handshakes at a time
		for (const res of await Promise.all(suites.slice(i, i + 4).map(probe))) stdout += res.stdout;
	}
	const accepted = stdout.split('\n').filter((l) => l && !l.includes('(NONE)')).map((l) => l.split(' ')[1]);
	assert.ok(accepted.length >= 2, `accepted: ${accepted.join(', ')}`);
	for (const c of accepted) {
		assert.match(c, /^ECDHE-(RSA|ECDSA)-(AES(128|256)-GCM-SHA(256|384)|CHACHA20-POLY1305)$/, `the server took ${c}`);
	}
	const plain = await handshake(server.port, 'tls1_2', rsaCert);
	assert.match(plain.cipher, /^ECDHE-RSA-(AES(128|256)-GCM|CHACHA20)/, 'what a default TLS 1.2 client gets');
	const modern = await handshake(server.port, 'tls1_3', rsaCert);
	assert.match(modern.cipher, /^TLS_(AES_(128|256)_GCM|CHACHA20_POLY1305)_SHA/, 'what a TLS 1.3 client gets');
});

test('TLS 1.0 and 1.1 are refused, TLS 1.2 and 1.3 taken; --tls-priorities narrows it', async () => {
	const server = await startServer({ args: tlsArgs(), caFile: cert });
	assert.equal(await handshake(server.port, 'tls1'), null, 'TLS 1.0');
	assert.equal(await handshake(server.port, 'tls1_1'), null, 'TLS 1.1');
	assert.equal((await handshake(server.port, 'tls1_2'))?.version, 'TLSv1.2');
	assert.equal((await handshake(server.port, 'tls1_3'))?.version, 'TLSv1.3');

	const only13 = await startServer({ args: [...tlsArgs(), '--tls-priorities', 'NORMAL:-VERS-ALL:+VERS-TLS1.3'], caFile: cert });
	assert.equal(await handshake(only13.port, 'tls1_2'), null, 'TLS 1.2 with a 1.3-only priority string');
	assert.equal((await handshake(only13.port, 'tls1_3'))?.version, 'TLSv1.3');
});

test('healthcheck speaks TLS when given the server\'s certificate, and only trusts it', async () => {
	const server = await startServer({ args: tlsArgs(), caFile: cert });
	const port = String(server.port);
	const flag = await run(BIN, ['healthcheck', '--port', port, '--tls-cert', cert]);
	assert.equal(flag.code, 0, flag.stderr);
	const env = await run('/usr/bin/env', [`TLS_CERT=${cert}`, `PORT=${port}`, BIN, 'healthcheck']);
	assert.equal(env.code, 0, env.stderr);

	const plain = await run(BIN, ['healthcheck', '--port', port]);
	assert.equal(plain.code, 1);
	assert.match(plain.stderr, /not an HTTP answer/);
	const other = await run(BIN, ['healthcheck', '--port', port, '--tls-cert', otherCert]);
	assert.equal(other.code, 1);
	assert.match(other.stderr, /not trusted/);

	// And a TLS healthcheck against a plain server fails rather than hangs.
	const plainServer = await startServer();
	const mismatch = await run(BIN, ['healthcheck', '--port', String(plainServer.port), '--tls-cert', cert]);
	assert.equal(mismatch.code, 1);
	assert.match(mismatch.stderr, /TLS/);
});

test('unusable TLS settings end the process with status 2, naming what is wrong', async () => {
	const garbage = tmpFile('not a certificate\n');
	const cases = [
		[['--tls-cert', cert], /--tls-cert needs --tls-key/],
		[['--tls-cert', '/nonexistent/c.pem', '--tls-key', key], /cannot open the TLS certificate \/nonexistent\/c\.pem/],
		[['--tls-cert', cert, '--tls-key', '/nonexistent/k.pem'], /cannot open the TLS key \/nonexistent\/k\.pem/],
		[['--tls-cert', cert, '--tls-key', otherKey], /--tls-cert .* with --tls-key .*:/],
		[['--tls-cert', garbage, '--tls-key', key], /--tls-cert .* with --tls-key/],
		[[...tlsArgs(), '--tls-priorities', 'NORMAL:+NO-SUCH-THING'], /--tls-priorities: 'NORMAL:\+NO-SUCH-THING' is not a GnuTLS priority string/],
	];
	for (const [args, re] of cases) {
		const res = await run(BIN, ['serve', '--host', '127.0.0.1', '--port', '0', ...args], { timeout: 10000 * timeScale });
		assert.equal(res.code, 2, `${args.join(' ')}: ${res.stderr}`);
		assert.match(res.stderr, re);
		assert.equal(res.stdout, '');
		assert.ok(!/PRIVATE KEY/.test(res.stderr), 'the key is never quoted');
	}
});
