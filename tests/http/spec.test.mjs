// openapi.yaml against the running server: every request example in the
// spec is sent as it stands and must be answered 200 (and validate, as
// every response does); where the operation documents a response example
// of the same name inline, the answer must equal it, so the examples in
// the documentation are real. The generator examples are the documented
// seeds' outputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, request, SPEC } from './helper.mjs';
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
