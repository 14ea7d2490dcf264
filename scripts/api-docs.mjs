#!/usr/bin/env node
// Writes src/www/docs.html, the readable API reference served at GET /docs,
// from openapi.yaml: the description, then every operation grouped by tag
// (its parameters, request body, answers and their examples), then the
// schemas. Markdown in the spec is rendered by marked; everything else is
// escaped here. The page is static HTML: no script, no inline style, its
// style sheet /docs.css (src/www/docs.css), so that the service's
// Content-Security-Policy stays 'self'.
//
//   node scripts/api-docs.mjs          write src/www/docs.html
//   node scripts/api-docs.mjs --check  exit 1 when the committed file is stale
//
// The same input gives the same bytes (tests/http/docs-page.test.mjs checks
// that the committed page is what this writes).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { marked } from 'marked';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const SPEC = path.join(ROOT, 'openapi.yaml');
const OUT = path.join(ROOT, 'src/www/docs.html');
const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options'];

marked.setOptions({ mangle: false, headerIds: false, gfm: true });

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
// Markdown from the spec (the spec is the project's own text). Headings
// inside a description sit under the page's own headings.
const md = (s, shift = 2) => (s ? marked.parse(String(s)).replace(/<(\/?)h([1-6])>/g, (_, c, n) => `<${c}h${Math.min(6, Number(n) + shift)}>`) : '');
const anchor = (s) => String(s).replace(/[^A-Za-z0-9_-]+/g, '-');

// Follows a local $ref ("#/components/x/y") to its object; the name of the
// last part when it names a schema.
function deref(spec, obj) {
	let seen = 0;
	while (obj && obj.$ref && seen++ < 16) {
		const parts = obj.$ref.replace(/^#\//, '').split('/');
		obj = parts.reduce((o, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
	}
	return obj ?? {};
}

// A schema in a few words: its type and bounds, or a link to a named one.
function schemaWords(schema) {
	if (!schema) return '';
	if (schema.$ref) {
		const name = schema.$ref.split('/').pop();
		return `<a href="#schema-${anchor(name)}">${esc(name)}</a>`;
	}
	for (const k of ['oneOf', 'anyOf', 'allOf']) {
		if (schema[k]) return schema[k].map(schemaWords).join(k === 'allOf' ? ' and ' : ' or ');
	}
	let t = Array.isArray(schema.type) ? schema.type.join(' or ') : schema.type ?? 'any';
	if (schema.type === 'array' && schema.items) t = `array of ${schemaWords(schema.items)}`;
	else t = esc(t);
	const notes = [];
	if (schema.enum) notes.push(`one of ${schema.enum.map((v) => `<code>${esc(JSON.stringify(v))}</code>`).join(', ')}`);
	if (schema.const !== undefined) notes.push(`<code>${esc(JSON.stringify(schema.const))}</code>`);
	if (schema.minimum !== undefined) notes.push(`&ge; ${esc(schema.minimum)}`);
	if (schema.exclusiveMinimum !== undefined) notes.push(`&gt; ${esc(schema.exclusiveMinimum)}`);
	if (schema.maximum !== undefined) notes.push(`&le; ${esc(schema.maximum)}`);
	// 2^64 is the only exclusive bound of the spec, written so for readers
	// with double-precision numbers; said here as the integer it allows.
	if (schema.exclusiveMaximum !== undefined) {
		notes.push(schema.exclusiveMaximum === 2 ** 64 ? '&le; 18446744073709551615' : `&lt; ${esc(schema.exclusiveMaximum)}`);
	}
	if (schema.minLength !== undefined) notes.push(`length &ge; ${esc(schema.minLength)}`);
	if (schema.maxLength !== undefined) notes.push(`length &le; ${esc(schema.maxLength)}`);
	if (schema.minItems !== undefined) notes.push(`items &ge; ${esc(schema.minItems)}`);
	if (schema.maxItems !== undefined) notes.push(`items &le; ${esc(schema.maxItems)}`);
	if (schema.pattern !== undefined) notes.push(`matching <code>${esc(schema.pattern)}</code>`);
	if (schema.format !== undefined) notes.push(esc(schema.format));
	if (schema.default !== undefined) notes.push(`default <code>${esc(JSON.stringify(schema.default))}</code>`);
	return notes.length ? `${t} (${notes.join(', ')})` : t;
}

function example(value) {
	const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
	return `<pre><code>${esc(text)}</code></pre>`;
}

function examples(media) {
	let out = '';
	if (media.example !== undefined) out += example(media.example);
	for (const [name, ex] of Object.entries(media.examples ?? {})) {
		out += `<details><summary>Example: ${esc(ex.summary ?? name)}</summary>`;
		if (ex.description) out += md(ex.description, 4);
		const req = ex['x-request'];
		if (req) {
			out += `<p class="request">${esc(req.method ?? 'GET')} <code>${esc(req.path ?? '')}${esc(req.query ? `?${req.query}` : '')}</code>${req.contentType ? ` (${esc(req.contentType)})` : ''}</p>`;
			if (req.body !== undefined) out += example(req.body);
			out += '<p class="request">answers</p>';
		}
		if (ex.value !== undefined) out += example(ex.value);
		out += '</details>\n';
	}
	return out;
}

function content(spec, c) {
	let out = '';
	for (const [type, media] of Object.entries(c ?? {})) {
		out += `<p class="media"><code>${esc(type)}</code>${media.schema ? `: ${schemaWords(media.schema)}` : ''}</p>\n`;
		out += examples(media);
	}
	return out;
}

function parameters(spec, params) {
	if (!params?.length) return '';
	let out = '<h4>Parameters</h4>\n<table class="params"><thead><tr><th>name</th><th>in</th><th>schema</th><th>description</th></tr></thead><tbody>\n';
	for (const raw of params) {
		const p = deref(spec, raw);
		out += `<tr><td><code>${esc(p.name)}</code>${p.required ? ' <span class="req">required</span>' : ''}</td><td>${esc(p.in)}</td><td>${schemaWords(p.schema)}</td><td>${md(p.description, 4)}</td></tr>\n`;
	}
	return out + '</tbody></table>\n';
}

function operation(spec, pathName, method, op, shared) {
	const id = op.operationId ?? `${method}-${pathName}`;
	let out = `<section class="op" id="${esc(anchor(id))}">\n`;
	out += `<h3><span class="method ${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(pathName)}</code>${op.summary ? ` <span class="summary">${esc(op.summary)}</span>` : ''}</h3>\n`;
	out += `<p class="opid">operationId <code>${esc(id)}</code>${op.security?.length === 0 ? ' · open to all' : ''}</p>\n`;
	out += md(op.description, 3);
	out += parameters(spec, [...(shared ?? []), ...(op.parameters ?? [])]);
	if (op.requestBody) {
		const body = deref(spec, op.requestBody);
		out += `<h4>Request body${body.required ? '' : ' (optional)'}</h4>\n${md(body.description, 4)}${content(spec, body.content)}`;
	}
	out += '<h4>Answers</h4>\n<dl class="responses">\n';
	for (const [status, raw] of Object.entries(op.responses ?? {})) {
		const r = deref(spec, raw);
		out += `<dt><span class="status s${esc(String(status)[0])}">${esc(status)}</span></dt><dd>${md(r.description, 4)}`;
		const headers = Object.entries(r.headers ?? {});
		if (headers.length) out += `<p class="headers">Headers: ${headers.map(([h]) => `<code>${esc(h)}</code>`).join(', ')}</p>`;
		out += `${content(spec, r.content)}</dd>\n`;
	}
	out += '</dl>\n</section>\n';
	return out;
}

function schemaSection(name, schema) {
	let out = `<section class="schema" id="schema-${esc(anchor(name))}">\n<h3>${esc(name)}</h3>\n${md(schema.description, 3)}`;
	out += `<p>${schemaWords({ ...schema, description: undefined })}</p>\n`;
	const props = Object.entries(schema.properties ?? {});
	if (props.length) {
		const required = new Set(schema.required ?? []);
		out += '<table class="params"><thead><tr><th>member</th><th>schema</th><th>description</th></tr></thead><tbody>\n';
		for (const [p, s] of props) {
			out += `<tr><td><code>${esc(p)}</code>${required.has(p) ? ' <span class="req">required</span>' : ''}</td><td>${schemaWords(s)}</td><td>${md(s.description, 4)}</td></tr>\n`;
		}
		out += '</tbody></table>\n';
	}
	out += `<details><summary>The schema as written</summary>${example(YAML.stringify(schema))}</details>\n</section>\n`;
	return out;
}

export function render(specText) {
	const spec = YAML.parse(specText, { intAsBigInt: false });
	const ops = [];
	for (const [p, item] of Object.entries(spec.paths ?? {})) {
		for (const m of METHODS) if (item[m]) ops.push({ path: p, method: m, op: item[m], shared: item.parameters });
	}
	const tags = (spec.tags ?? []).map((t) => t.name);
	for (const o of ops) for (const t of o.op.tags ?? ['Other']) if (!tags.includes(t)) tags.push(t);
	const title = `${spec.info.title} ${spec.info.version}: API reference`;
	let toc = '<nav class="toc" aria-label="Contents"><h2>Contents</h2>\n<ul>\n<li><a href="#about">About</a></li>\n';
	let body = '';
	for (const tag of tags) {
		const mine = ops.filter((o) => (o.op.tags ?? ['Other'])[0] === tag);
		if (!mine.length) continue;
		const t = (spec.tags ?? []).find((x) => x.name === tag);
		toc += `<li><a href="#tag-${esc(anchor(tag))}">${esc(tag)}</a><ul>\n`;
		body += `<section class="tag" id="tag-${esc(anchor(tag))}">\n<h2>${esc(tag)}</h2>\n${md(t?.description, 2)}`;
		for (const o of mine) {
			const id = o.op.operationId ?? `${o.method}-${o.path}`;
			toc += `<li><a href="#${esc(anchor(id))}"><span class="method ${esc(o.method)}">${esc(o.method.toUpperCase())}</span> ${esc(o.path)}</a></li>\n`;
			body += operation(spec, o.path, o.method, o.op, o.shared);
		}
		body += '</section>\n';
		toc += '</ul></li>\n';
	}
	const schemas = Object.entries(spec.components?.schemas ?? {});
	toc += '<li><a href="#schemas">Schemas</a></li>\n</ul>\n</nav>\n';
	body += '<section id="schemas">\n<h2>Schemas</h2>\n';
	for (const [name, s] of schemas) body += schemaSection(name, s);
	body += '</section>\n';

	return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<link rel="stylesheet" href="/docs.css">
</head>
<body>
<!-- Written by scripts/api-docs.mjs from openapi.yaml; do not edit by hand. -->
<header>
<h1>${esc(title)}</h1>
<p>${esc(spec.info.summary ?? '')} <a href="/">The viewer</a> · <a href="/openapi.yaml">openapi.yaml</a> (OpenAPI ${esc(spec.openapi)})</p>
</header>
<div class="layout">
${toc}<main>
<section id="about">
<h2>About</h2>
${md(spec.info.description, 1)}</section>
${body}</main>
</div>
</body>
</html>
`;
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
	const html = render(fs.readFileSync(SPEC, 'utf8'));
	if (process.argv.includes('--check')) {
		const now = fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '';
		if (now !== html) {
			console.error('src/www/docs.html is not what openapi.yaml gives: run node scripts/api-docs.mjs');
			process.exit(1);
		}
	} else {
		fs.writeFileSync(OUT, html);
	}
}
