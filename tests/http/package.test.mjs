// GET /v1/{problem}/package: the package of `dropjudge package`, byte for
// byte, as a zip (default) or a tar.gz (Accept: application/gzip), with the
// seed echoed and a file name to save it under; bad parameters are 4xx
// problems naming the parameter. Every response is validated against
// openapi.yaml by the helper.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startServer, request, run, BIN, tmpFile } from './helper.mjs';

const server = await startServer();

async function cliPackage(args, ext) {
	const out = `${tmpFile()}.${ext}`;
	const r = await run(BIN, ['package', ...args, out]);
	assert.equal(r.code, 0, r.stderr);
	return fs.readFileSync(out);
}

for (const [problem, format, extra, name] of [
	['puyo', 'kattis', { min_chains: '6' }, 'puyo'],
	['monomino-domino', 'domjudge', {}, 'monominodomino'],
	['monomino-domino', 'polygon', {}, 'monominodomino-polygon'],
]) {
	for (const [accept, ext, media] of [
		[undefined, 'zip', 'application/zip'],
		['application/zip', 'zip', 'application/zip'],
		['application/gzip', 'tar.gz', 'application/gzip'],
	]) {
		test(`GET /v1/${problem}/package?format=${format} (Accept ${accept ?? 'absent'}) is dropjudge package's ${ext}, byte for byte`, async () => {
			const query = { format, tests: '6', seed: '77', ...extra };
			const res = await request(server, { path: `/v1/${problem}/package`, query, ...(accept ? { accept } : {}) });
			assert.equal(res.status, 200);
			assert.equal(res.mediaType, media);
			assert.equal(res.headers['dropjudge-seed'], '77');
			assert.equal(res.headers['content-disposition'], `attachment; filename="${name}.${ext}"`);
			const cli = await cliPackage(['--problem', problem, '--format', format, '--tests', '6', '--seed', '77',
				...(extra.min_chains ? ['--min-chains', extra.min_chains] : [])], ext);
			assert.ok(fs.readFileSync(res.bodyFile).equals(cli), 'the same bytes as the CLI');
		});
	}
}

test('GET /v1/puyo/package without seed, tests and min_chains takes the defaults of the command line', async () => {
	const res = await request(server, { path: '/v1/puyo/package', query: { format: 'kattis' } });
	assert.equal(res.status, 200);
	assert.equal(res.headers['dropjudge-seed'], '1');
	const cli = await cliPackage(['--problem', 'puyo', '--format', 'kattis'], 'zip');
	assert.ok(fs.readFileSync(res.bodyFile).equals(cli));
});

test('HEAD /v1/puyo/package answers the headers without a body', async () => {
	const res = await request(server, { method: 'HEAD', path: '/v1/puyo/package', query: { format: 'kattis', tests: '2', seed: '1' } });
	assert.equal(res.status, 200);
	assert.equal(res.mediaType, 'application/zip');
});

for (const [problem, query, status, parameter] of [
	['puyo', { tests: '2' }, 400, 'format'],
	['puyo', { format: 'hackerrank' }, 422, 'format'],
	['puyo', { format: 'kattis', tests: '0' }, 422, 'tests'],
	['puyo', { format: 'kattis', tests: '501' }, 422, 'tests'],
	['puyo', { format: 'kattis', tests: 'many' }, 400, 'tests'],
	['puyo', { format: 'kattis', min_chains: '13' }, 422, 'min_chains'],
	['monomino-domino', { format: 'kattis', min_chains: '3' }, 400, 'min_chains'],
	['puyo', { format: 'kattis', seed: '-1' }, 400, 'seed'],
]) {
	test(`GET /v1/${problem}/package?${new URLSearchParams(query)} is ${status} at parameter ${parameter}`, async () => {
		const res = await request(server, { path: `/v1/${problem}/package`, query });
		assert.equal(res.status, status);
		assert.ok(res.json.errors.some((e) => e.parameter === parameter), JSON.stringify(res.json));
	});
}

test('GET /v1/puyo/package answers zip or gzip only: Accept application/json is 406', async () => {
	const res = await request(server, { path: '/v1/puyo/package', query: { format: 'kattis' }, accept: 'application/json' });
	assert.equal(res.status, 406);
});

test('POST /v1/puyo/package is 405', async () => {
	const res = await request(server, { method: 'POST', path: '/v1/puyo/package', body: '{}' });
	assert.equal(res.status, 405);
});
