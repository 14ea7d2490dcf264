// The readable API reference, GET /docs: the page scripts/api-docs.mjs
// writes from openapi.yaml, committed as src/www/docs.html, must be what the
// spec gives today (else the reference would drift from the spec), and the
// binary must serve it as HTML that names every operation of the spec, with
// a strict Content-Security-Policy and nothing loaded from elsewhere. Every
// answer is validated against openapi.yaml by the helper.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startServer, request, ROOT, SPEC, SPEC_TEXT } from './helper.mjs';
import { render } from '../../scripts/api-docs.mjs';

const server = await startServer();
const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options'];
const operations = Object.entries(SPEC.paths).flatMap(([p, item]) =>
	METHODS.filter((m) => item[m]).map((m) => ({ path: p, method: m, id: item[m].operationId })));

const unescape = (s) => s.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

test('src/www/docs.html is what scripts/api-docs.mjs writes from openapi.yaml today', () => {
	const committed = fs.readFileSync(path.join(ROOT, 'src/www/docs.html'), 'utf8');
	assert.ok(committed === render(SPEC_TEXT), 'src/www/docs.html is stale: run node scripts/api-docs.mjs and commit it');
});

test('GET /docs is an HTML reference naming every operation of the spec', async () => {
	const res = await request(server, { path: '/docs', accept: HTML });
	assert.equal(res.status, 200);
	assert.equal(res.mediaType, 'text/html');
	assert.match(res.body, /^<!DOCTYPE html>/);
	assert.ok(operations.length >= 25, `${operations.length} operations in the spec`);
	for (const op of operations) {
		assert.ok(op.id, `${op.method} ${op.path} has an operationId`);
		const section = new RegExp(`<section class="op" id="${op.id}">\\s*<h3><span class="method ${op.method}">` +
			`${op.method.toUpperCase()}</span> <code>([^<]*)</code>`);
		const m = section.exec(res.body);
		assert.ok(m, `no section for ${op.method.toUpperCase()} ${op.path} (${op.id})`);
		assert.equal(unescape(m[1]), op.path);
	}
	// Every status an operation documents is shown with it; every schema has its section.
	for (const name of Object.keys(SPEC.components.schemas)) assert.match(res.body, new RegExp(`id="schema-${name}"`));
	assert.match(res.body, /<span class="status s4">422<\/span>/);
});

test('GET /docs loads nothing from elsewhere and runs no script; its style sheet is served', async () => {
	const res = await request(server, { path: '/docs', accept: HTML });
	assert.equal(res.headers['content-security-policy'], "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'");
	assert.doesNotMatch(res.body, /<script|<iframe|<object|<embed|<img|\sstyle=|<style|\son[a-z]+=/i);
	const loaded = [...res.body.matchAll(/<link [^>]*href="([^"]*)"/g)].map((m) => m[1]);
	assert.deepEqual(loaded.sort(), ['/docs.css', '/favicon.svg']);
	const css = await request(server, { path: '/docs.css' });
	assert.equal(css.status, 200);
	assert.equal(css.mediaType, 'text/css');
	assert.doesNotMatch(css.body, /@import|url\(/);
});

test('the index, the viewer and the README link the reference', async () => {
	const index = await request(server, { path: '/' });
	assert.equal(index.json.links.docs, '/docs');
	const page = await request(server, { path: '/', accept: HTML });
	assert.match(page.body, /<a href="\/docs">/);
	const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
	assert.match(readme, /`GET \/docs`/);
});

test('/favicon.svg and /favicon.ico answer the icon, an SVG picture', async () => {
	for (const p of ['/favicon.svg', '/favicon.ico']) {
		const res = await request(server, { path: p });
		assert.equal(res.status, 200, p);
		assert.equal(res.mediaType, 'image/svg+xml', p);
		assert.match(res.body, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
		assert.doesNotMatch(res.body, /<script/i);
	}
});
