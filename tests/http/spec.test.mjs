// openapi.yaml against the running server: every request example in the
// spec is sent as it stands and must be answered 200 (and validate, as
// every response does); where the operation documents a response example
// of the same name inline, the answer must equal it, so the examples in
// the documentation are real. The generator examples are the documented
// seeds' outputs.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, request, SPEC, tmpFile } from './helper.mjs';
import { mdGenerate } from './prng.mjs';

const server = await startServer();

function deref(node) {
	while (node && node.$ref) {
		node = node.$ref.slice(2).split('/').reduce((n, k) => n[k.replace(/~1/g, '/').replace(/~0/g, '~')], SPEC);
	}
	return node;
}

for (const [path, item] of Object.entries(SPEC.paths)) {
	const op = item.post;
	if (!op?.requestBody) continue;
	const ok = op.responses['200'];
	const inline = ok.$ref ? null : ok.content;
	for (const [mt, media] of Object.entries(deref(op.requestBody).content)) {
		for (const [name, ex] of Object.entries(media.examples ?? {})) {
			test(`spec request example "${name}" of POST ${path} (${mt}) is answered 200 as documented`, async () => {
				const body = mt === 'application/json' ? JSON.stringify(ex.value) : ex.value;
				const res = await request(server, { path, body, contentType: mt });
				assert.equal(res.status, 200, res.body);
				const docJson = inline?.['application/json']?.examples?.[name];
				if (docJson) assert.deepEqual(res.json, docJson.value, `response example "${name}"`);
				const docLines = inline?.['application/x-ndjson']?.examples?.[name];
				if (docLines) assert.equal(res.body, docLines.value, `stream response example "${name}"`);
				const docText = inline?.['text/plain']?.examples?.[name];
				if (docText) {
					const t = await request(server, { path, body, contentType: mt, accept: 'text/plain' });
					assert.equal(t.body, docText.value, `text response example "${name}"`);
				}
			});
		}
	}
}

test('the Monomino-Domino generate examples are seed=42, n=3 (JSON and text)', async () => {
	const docs = SPEC.paths['/v1/monomino-domino/generate'].get.responses['200'].content;
	assert.deepEqual(docs['application/json'].examples.three.value, { blocks: mdGenerate(42n, 3) });
	const res = await request(server, { path: '/v1/monomino-domino/generate', query: { seed: '42', n: '3' } });
	assert.deepEqual(res.json, docs['application/json'].examples.three.value);
	const t = await request(server, { path: '/v1/monomino-domino/generate', query: { seed: '42', n: '3' }, accept: 'text/plain' });
	assert.equal(t.body, docs['text/plain'].examples.three.value);
});

test('the Puyo generate examples are seed=1 with the defaults (JSON and text)', async () => {
	const docs = SPEC.paths['/v1/puyo/generate'].get.responses['200'].content;
	const res = await request(server, { path: '/v1/puyo/generate', query: { seed: '1' } });
	assert.deepEqual(res.json, docs['application/json'].examples.field.value);
	const t = await request(server, { path: '/v1/puyo/generate', query: { seed: '1' }, accept: 'text/plain' });
	assert.equal(t.body, docs['text/plain'].examples.field.value);
});

test('the /v1 example shows the default limits', async () => {
	const res = await request(server, { path: '/v1' });
	assert.deepEqual(res.json, SPEC.paths['/v1'].get.responses['200'].content['application/json'].examples.defaults.value);
});

// Every response example: sent as its x-request says (to a server started
// with x-request.server when given; TOKENS stands for a token file) and the
// answer must equal the example. An example no request can cause says why
// in x-not-executed; any other example fails here, so none can drift.
const servers = new Map();
after(() => Promise.all([...servers.values()].map((s) => s.stop())));
async function serverFor(args) {
	if (!args) return server;
	const key = JSON.stringify(args);
	if (!servers.has(key)) {
		const tokens = tmpFile('sesame\n');
		servers.set(key, await startServer({ args: args.map((a) => (a === 'TOKENS' ? tokens : a)), autoStop: false }));
	}
	return servers.get(key);
}

function* responseExamples() {
	const seen = new Set();
	for (const [path, item] of Object.entries(SPEC.paths)) {
		for (const [method, op] of Object.entries(item)) {
			for (const [code, r] of Object.entries(op.responses ?? {})) {
				const resp = deref(r);
				for (const [mt, media] of Object.entries(resp.content ?? {})) {
					for (const [name, ex] of Object.entries(media.examples ?? {})) {
						const key = `${r.$ref ?? `${method} ${path} ${code}`} ${mt} ${name}`;
						if (seen.has(key)) continue;
						seen.add(key);
						const named = !r.$ref && op.requestBody &&
							Object.values(deref(op.requestBody).content).some((m) => m.examples?.[name]);
						yield { key, code: Number(code), mt, ex, named };
					}
				}
			}
		}
	}
}

for (const { key, code, mt, ex, named } of responseExamples()) {
	if (named) continue; // answered by its request example above
	test(`spec response example ${key} is what the server answers`, async (t) => {
		if (ex['x-not-executed']) {
			assert.ok(!ex['x-request']);
			t.diagnostic(`not executed: ${ex['x-not-executed']}`);
			return;
		}
		const x = ex['x-request'];
		assert.ok(x, `${key}: no x-request (nor x-not-executed): the example is not checked`);
		const s = await serverFor(x.server);
		const req = { method: x.method, path: x.path, headers: x.headers };
		if (x.query) req.query = x.query;
		if (x.accept) req.accept = x.accept;
		if (x.body !== undefined) {
			req.body = x.body;
			req.contentType = x.contentType ?? null;
		}
		const res = await request(s, req);
		assert.equal(res.status, code, res.body);
		// The request id is drawn for each request (X-Request-Id), so only its presence is checked.
		if (mt.includes('json') && res.json && res.json.request_id !== undefined && ex.value.request_id === undefined) {
			assert.match(res.json.request_id, /^[A-Za-z0-9._:-]{1,128}$/);
			delete res.json.request_id;
		}
		if (mt === 'application/x-ndjson') assert.equal(res.body, ex.value);
		else if (mt.includes('json')) assert.deepEqual(res.json, ex.value);
		else if (x.compare === 'prefix') assert.ok(res.body.startsWith(ex.value), res.body.slice(0, 80));
		else if (x.compare === 'line') assert.ok(res.body.split('\n').includes(ex.value.replace(/\n$/, '')), `no line ${ex.value}`);
		else assert.equal(res.body, ex.value);
	});
}

// Every path whose spec marks a query parameter required answers its absence
// with the one status the spec's table gives a malformed request (400),
// naming the parameter; the Puyo picture's field (one of three) likewise.
const requiredParams = [];
for (const [path, ops] of Object.entries(SPEC.paths)) {
	for (const [method, op] of Object.entries(ops)) {
		for (let p of op.parameters ?? []) {
			if (p.$ref) p = SPEC.components.parameters[p.$ref.split('/').pop()];
			if (p.in === 'query' && p.required) requiredParams.push([method, path, p.name]);
		}
	}
}
test('a missing required query parameter is 400 naming it, on every path that has one', async () => {
	assert.ok(requiredParams.length >= 3, JSON.stringify(requiredParams));
	const all = [...requiredParams, ['get', '/v1/puyo/render.svg', 'field']];
	for (const [method, path, name] of all) {
		const res = await request(server, { method: method.toUpperCase(), path });
		assert.equal(res.status, 400, `${path} without ${name}: ${res.body}`);
		assert.equal(res.json.type, '/errors/malformed-input');
		assert.equal(res.json.errors[0].parameter, name);
		assert.match(res.json.errors[0].detail, /required|give the field/);
	}
});
