// Defensive headers: every answer says X-Content-Type-Options: nosniff and
// X-Frame-Options: DENY, whatever its route and status; the viewer's page
// also says frame-ancestors 'none' in its Content-Security-Policy; an SVG
// answer carries a Content-Security-Policy under which it runs no script.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, request } from './helper.mjs';

const server = await startServer({ args: ['--max-body', '4096'] });
const FIELD = ['......', '......', '......', '......', '......', '......', '......', '......',
	'.Y....', '.YG...', 'RRYG..', 'RRYGG.'];
const SVG_QUERY = { field: FIELD.join(','), strip: 'true' };

const REQUESTS = [
	{ path: '/', accept: 'text/html' },
	{ path: '/viewer.js' },
	{ path: '/livez' },
	{ path: '/v1' },
	{ path: '/openapi.yaml' },
	{ path: '/metrics' },
	{ path: '/v1/puyo', body: { field: FIELD } },
	{ path: '/v1/puyo', body: `${FIELD.join('\n')}\n`, contentType: 'text/plain' },
	{ path: '/v1/puyo', body: { field: FIELD }, accept: 'image/svg+xml' },
	{ path: '/v1/puyo/render.svg', query: SVG_QUERY },
	{ path: '/v1/puyo', body: { field: ['RRRRRR'] } },
	{ path: '/no/such/path' },
	{ method: 'DELETE', path: '/v1/puyo' },
	{ path: '/v1/puyo', body: 'x', contentType: 'application/xml' },
	{ path: '/v1/puyo', body: { field: FIELD }, accept: 'application/xml' },
	{ path: '/v1/puyo', body: 'x'.repeat(5000), contentType: 'text/plain' },
	{ method: 'OPTIONS', path: '/v1/puyo' },
	{ method: 'HEAD', path: '/livez' },
];

for (const req of REQUESTS) {
	test(`${req.method ?? (req.body !== undefined ? 'POST' : 'GET')} ${req.path}${req.accept ? ` (Accept: ${req.accept})` : ''} says nosniff and cannot be framed`, async () => {
		const res = await request(server, req);
		assert.equal(res.headers['x-content-type-options'], 'nosniff', `${res.status} ${res.headers['content-type']}`);
		assert.equal(res.headers['x-frame-options'], 'DENY', `${res.status} ${res.headers['content-type']}`);
	});
}

test('the viewer cannot be framed: X-Frame-Options DENY and frame-ancestors none', async () => {
	const res = await request(server, { path: '/', accept: 'text/html' });
	assert.equal(res.status, 200);
	assert.match(res.headers['content-type'], /^text\/html/);
	assert.equal(res.headers['x-frame-options'], 'DENY');
	assert.match(res.headers['content-security-policy'], /frame-ancestors 'none'/);
});

for (const req of [{ path: '/v1/puyo/render.svg', query: SVG_QUERY }, { path: '/v1/puyo', body: { field: FIELD }, accept: 'image/svg+xml' }]) {
	test(`an SVG answer (${req.path}) runs no script under its Content-Security-Policy`, async () => {
		const res = await request(server, req);
		assert.equal(res.status, 200);
		assert.equal(res.mediaType, 'image/svg+xml');
		const csp = res.headers['content-security-policy'] ?? '';
		assert.match(csp, /default-src 'none'/);
		assert.match(csp, /\bsandbox\b/);
		assert.doesNotMatch(csp, /script-src|unsafe-eval/);
	});
}
