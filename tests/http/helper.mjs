// The integration suite's plumbing: start the real binary on a free port,
// talk to it with real curl, and check every response against openapi.yaml.
//
// - startServer() runs DROPJUDGE_BIN (default build/dropjudge) with
//   `--port 0`, reads the port from its start line, polls GET /livez until
//   200 and registers an after() hook that stops it by PID.
// - request() is the only way tests talk HTTP: it runs curl, parses status,
//   headers and body, and validates the response (status documented for
//   that path and method, documented headers present, body valid against the
//   schema of that status and content type) before returning it. So no
//   response the suite receives escapes the spec.
// - curlSequence() runs several requests in one curl process (`--next`), so
//   that they share a keep-alive connection; each response is validated the
//   same way.
// - DROPJUDGE_WRAP (e.g. "valgrind --leak-check=full") runs the server under
//   that command line; DROPJUDGE_TIME_SCALE (default 1) multiplies the
//   start-up waits for such slow runs (see timeScale).
// - An HTTPS server (start line "listening on https://...") is reached
//   with curl --cacert startServer's `caFile`.
import { spawn, execFile } from 'node:child_process';
import { after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.resolve(ROOT, process.env.DROPJUDGE_BIN ?? 'build/dropjudge');
export const SPEC_TEXT = fs.readFileSync(path.join(ROOT, 'openapi.yaml'), 'utf8');
export const SPEC = YAML.parse(SPEC_TEXT);
export const CASES_DIR = path.join(ROOT, 'tests/cases');

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'dropjudge-http-'));
let tmpCounter = 0;
process.on('exit', () => fs.rmSync(TMP, { recursive: true, force: true }));

export function tmpFile(content) {
	const file = path.join(TMP, `f${tmpCounter++}`);
	if (content !== undefined) fs.writeFileSync(file, content);
	return file;
}

// --- the spec -----------------------------------------------------------------

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
ajv.addSchema(SPEC, 'openapi');
const validators = new Map();

const esc = (s) => s.replace(/~/g, '~0').replace(/\//g, '~1');

function at(ptr) {
	let node = SPEC;
	for (const part of ptr.split('/').slice(1)) {
		node = node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
	}
	return node;
}

// Follows $ref chains inside the spec; returns [object, pointer].
function deref(ptr) {
	let node = at(ptr);
	while (node && typeof node.$ref === 'string') {
		assert.ok(node.$ref.startsWith('#/'), `external $ref ${node.$ref}`);
		ptr = node.$ref.slice(1);
		node = at(ptr);
	}
	return [node, ptr];
}

// Validates `data` against the schema at JSON pointer `ptr` of the spec.
export function validateAt(ptr, data, what) {
	let v = validators.get(ptr);
	if (!v) {
		v = ajv.compile({ $ref: `openapi#${ptr}` });
		validators.set(ptr, v);
	}
	if (!v(data)) {
		const shown = typeof data === 'string' ? data : JSON.stringify(data);
		assert.fail(`${what}: does not match ${ptr}:\n` +
			`${ajv.errorsText(v.errors, { separator: '\n' })}\nbody: ${shown.slice(0, 600)}`);
	}
}

export const stats = { validated: 0 };

// The spec's path for a request path: the same string, or a template such
// as /errors/{type} whose parameter is one of its schema's enum values.
export function specPath(urlPath) {
	if (SPEC.paths[urlPath]) return urlPath;
	const parts = urlPath.split('/');
	for (const [key, item] of Object.entries(SPEC.paths)) {
		const tparts = key.split('/');
		if (!key.includes('{') || tparts.length !== parts.length) continue;
		const ok = tparts.every((t, i) => {
			if (!t.startsWith('{')) return t === parts[i];
			const name = t.slice(1, -1);
			const op = item.get ?? item.post;
			const param = [...(item.parameters ?? []), ...(op?.parameters ?? [])]
				.map((x) => (x.$ref ? at(x.$ref.slice(1)) : x)).find((x) => x.name === name);
			const values = param?.schema?.enum;
			return values ? values.includes(parts[i]) : parts[i] !== '';
		});
		if (ok) return key;
	}
	return null;
}

// Checks one response against openapi.yaml; throws an AssertionError naming
// the mismatch.
export function checkResponse(method, requestPath, res) {
	const m = method.toLowerCase();
	const what = `${method} ${requestPath} -> ${res.status}`;
	const urlPath = specPath(requestPath) ?? requestPath;
	const pathItem = SPEC.paths[urlPath];
	let respPtr;
	if (!pathItem && requestPath.length > 1 && requestPath.endsWith('/') && specPath(requestPath.slice(0, -1))) {
		// A known path with a trailing slash: 308 to the path without it.
		assert.equal(res.status, 308, `${what}: a known path with a trailing slash must be 308`);
		assert.ok((res.headers.location ?? '').startsWith(requestPath.slice(0, -1)), `${what}: Location ${res.headers.location}`);
		assert.equal(res.body, '', `${what}: a redirect has no body`);
		stats.validated++;
		return;
	}
	if (!pathItem) {
		assert.equal(res.status, 404, `${what}: a path not in the spec must be 404`);
		assert.equal(res.mediaType, 'application/problem+json', `${what}: content type`);
		const json = parseJson(res, what);
		validateAt('/components/schemas/Problem', json, what);
		assert.equal(json.status, 404, `${what}: problem status`);
		res.json = json;
		stats.validated++;
		return;
	}
	if (Object.keys(pathItem.get?.responses ?? {}).join() === '308') {
		// A path that only moved (the old /problems): 308 whatever the method.
		assert.equal(res.status, 308, `${what}: a moved path must be 308`);
		const [, ptr] = deref(`#/paths/${esc(urlPath)}/get/responses/308`.slice(1));
		validateAt(`${ptr}/headers/Location/schema`, res.headers.location ?? null, what);
		assert.equal(res.body, '', `${what}: a redirect has no body`);
		stats.validated++;
		return;
	}
	if (m === 'options') {
		// OPTIONS on every path: 204, Allow naming the documented methods.
		assert.equal(res.status, 204, `${what}: OPTIONS must be 204`);
		const allow = (res.headers.allow ?? '').split(',').map((x) => x.trim());
		for (const op of ['get', 'post']) {
			if (pathItem[op]) assert.ok(allow.includes(op.toUpperCase()), `${what}: Allow ${res.headers.allow}`);
		}
		assert.ok(allow.includes('OPTIONS'), `${what}: Allow lists OPTIONS`);
		assert.equal(res.body, '', `${what}: a 204 has no body`);
		stats.validated++;
		return;
	}
	const opMethod = m === 'head' && !pathItem.head && pathItem.get ? 'get' : m;
	if (!pathItem[opMethod]) {
		assert.equal(res.status, 405, `${what}: a method not in the spec must be 405`);
		respPtr = '/components/responses/MethodNotAllowed';
	} else {
		const key = String(res.status);
		assert.ok(pathItem[opMethod].responses[key],
			`${what}: status ${key} is not documented for ${method} ${urlPath}` +
			` (body: ${res.body.slice(0, 300)})`);
		respPtr = `/paths/${esc(urlPath)}/${opMethod}/responses/${key}`;
	}
	const [resp, rptr] = deref(respPtr);
	for (const [name, h] of Object.entries(resp.headers ?? {})) {
		const value = res.headers[name.toLowerCase()];
		assert.ok(value !== undefined, `${what}: header ${name} is documented but missing`);
		const [hdr, hptr] = deref(`${rptr}/headers/${esc(name)}`);
		if (hdr.schema) validateAt(`${hptr}/schema`, value, `${what}: header ${name}`);
	}
	if (!resp.content) {
		assert.equal(res.body, '', `${what}: no content documented, body sent`);
	} else if (m === 'head') {
		assert.equal(res.body, '', `${what}: HEAD answered with a body`);
	} else {
		const mt = res.mediaType;
		assert.ok(resp.content[mt], `${what}: content type ${res.headers['content-type']} is not ` +
			`documented (documented: ${Object.keys(resp.content).join(', ')}; body: ${res.body.slice(0, 300)})`);
		const sptr = `${rptr}/content/${esc(mt)}/schema`;
		let data = res.body;
		if (mt === 'application/json' || mt.endsWith('+json')) {
			data = parseJson(res, what);
			res.json = data;
		}
		if (at(sptr) !== undefined) validateAt(sptr, data, what);
		if (mt === 'application/problem+json') {
			assert.equal(data.status, res.status, `${what}: problem status differs from the HTTP status`);
		}
	}
	stats.validated++;
}

function parseJson(res, what) {
	try {
		return JSON.parse(res.body);
	} catch (e) {
		assert.fail(`${what}: body is not JSON (${e.message}): ${res.body.slice(0, 300)}`);
	}
}

// --- curl ---------------------------------------------------------------------

// Builds curl arguments for one request. req: {method, path, query (object or
// string), headers (object; value null removes a curl default), body (string
// or Buffer), contentType (null: none), accept (null: none), chunked,
// expectContinue, stdinBody}.
function requestArgs(base, req, files) {
	const args = ['-s', '-S', '-D', files.headers, '-o', files.body, '-w', '%{http_code}\\n'];
	const method = req.method ?? (req.body !== undefined || req.stdinBody ? 'POST' : 'GET');
	if (method === 'HEAD') args.push('-I');
	else if (method !== 'GET' || req.body !== undefined) args.push('-X', method);
	const headers = {};
	if (!req.expectContinue) headers.Expect = '';
	if ('accept' in req) headers.Accept = req.accept === null ? '' : req.accept;
	if (req.body !== undefined || req.stdinBody) {
		headers['Content-Type'] = req.contentType === null ? '' : (req.contentType ?? 'application/json');
	}
	if (req.chunked) headers['Transfer-Encoding'] = 'chunked';
	if (req.compressed) args.push('--compressed'); // asks for gzip and inflates the answer
	Object.assign(headers, req.headers ?? {});
	for (const [k, v] of Object.entries(headers)) args.push('-H', v === '' || v === null ? `${k}:` : `${k}: ${v}`);
	if (req.body !== undefined) {
		const body = typeof req.body === 'string' || Buffer.isBuffer(req.body) ? req.body : JSON.stringify(req.body);
		args.push('--data-binary', `@${tmpFile(body)}`);
	} else if (req.stdinBody) {
		args.push('-T', '-');
	}
	let url = base + req.path;
	if (req.query !== undefined) {
		url += '?' + (typeof req.query === 'string' ? req.query : new URLSearchParams(req.query).toString());
	}
	args.push(url);
	return { args, method };
}

function parseHeaderBlock(text) {
	// The last block is the final response (after any 100 Continue).
	const blocks = text.split(/\r\n\r\n/).filter((b) => b.startsWith('HTTP/'));
	assert.ok(blocks.length > 0, `no response headers: ${JSON.stringify(text)}`);
	const lines = blocks[blocks.length - 1].split('\r\n');
	const status = Number(lines[0].split(' ')[1]);
	const headers = {};
	for (const line of lines.slice(1)) {
		const i = line.indexOf(':');
		if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
	}
	return { status, headers, statusLine: lines[0] };
}

// Runs requests in one curl process. Returns {child, done}; done resolves to
// {responses, stderr, code}. Responses are validated against the spec.
export function curlSequence(server, requests, { verbose = false, stdin = false, globalArgs = [] } = {}) {
	const args = [...(server.curlArgs ?? []), ...globalArgs];
	const parts = [];
	requests.forEach((req, i) => {
		if (i > 0) args.push('--next');
		const files = { headers: tmpFile(), body: tmpFile() };
		const { args: a, method } = requestArgs(server.base, req, files);
		if (verbose) args.push('-v');
		args.push(...a);
		parts.push({ req, files, method });
	});
	const child = spawn('curl', args, { stdio: [stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (d) => { stdout += d; });
	child.stderr.on('data', (d) => { stderr += d; });
	const done = new Promise((resolve, reject) => {
		child.on('error', reject);
		child.on('close', (code) => {
			try {
				resolve(collect(code));
			} catch (e) {
				reject(e);
			}
		});
		const collect = (code) => {
			const responses = parts.map(({ req, files, method }) => {
				let headerText = '';
				try { headerText = fs.readFileSync(files.headers, 'latin1'); } catch { /* no response */ }
				if (!headerText.startsWith('HTTP/')) return null;
				const { status, headers, statusLine } = parseHeaderBlock(headerText);
				let body = '';
				// With -I curl writes the headers to -o too and reads no body.
				if (method !== 'HEAD') {
					try { body = fs.readFileSync(files.body, 'utf8'); } catch { /* empty */ }
				}
				const ct = headers['content-type'] ?? '';
				const res = {
					status, headers, statusLine, body,
					bodyFile: files.body, // the raw bytes, for binary answers
					mediaType: ct.split(';')[0].trim().toLowerCase(),
				};
				checkResponse(method, req.path, res);
				return res;
			});
			return { responses, stderr, stdout, code, args };
		};
	});
	return { child, done };
}

// One request; resolves to the validated response. Rejects when curl fails.
export async function request(server, req) {
	const { done } = curlSequence(server, [req]);
	const { responses, stderr, code } = await done;
	if (code !== 0 || !responses[0]) {
		throw new Error(`curl failed (exit ${code}) for ${req.method ?? ''} ${req.path}: ${stderr}`);
	}
	return responses[0];
}

// Many requests, answered in order, through a few curl processes (one per
// chunk, each reusing its connection): for tests that send hundreds of
// cases, where one process per request would cost more than the requests.
// Rejects when curl fails or any request gets no response.
export async function requestAll(server, reqs, { chunk = 50 } = {}) {
	const out = [];
	for (let i = 0; i < reqs.length; i += chunk) {
		const part = reqs.slice(i, i + chunk);
		const { responses, stderr, code } = await curlSequence(server, part).done;
		responses.forEach((res, j) => {
			if (!res) throw new Error(`curl failed (exit ${code}) for ${part[j].method ?? ''} ${part[j].path}: ${stderr}`);
		});
		out.push(...responses);
	}
	return out;
}

export function run(file, args, { input, timeout = 60000, env } = {}) {
	return new Promise((resolve) => {
		const child = execFile(file, args, { timeout, maxBuffer: 64 << 20, encoding: 'utf8',
			env: env ? { ...process.env, ...env } : process.env },
			(error, stdout, stderr) => {
				resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0,
					signal: error?.signal ?? null, stdout, stderr });
			});
		if (input !== undefined) {
			child.stdin.on('error', () => {}); // the program may exit without reading
			child.stdin.end(input);
		}
	});
}

// --- the server -----------------------------------------------------------

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export { sleep };

// How much slower than usual the server runs (under DROPJUDGE_WRAP).
export const timeScale = Math.max(1, Number(process.env.DROPJUDGE_TIME_SCALE ?? 1) || 1);
const WRAP = (process.env.DROPJUDGE_WRAP ?? '').split(' ').filter((w) => w !== '');

// Starts the binary (under DROPJUDGE_WRAP when set); resolves to {base,
// port, pid, proc, exited, stop, log}. caFile: the certificate curl trusts
// for an HTTPS server.
export async function startServer({ args = [], env = {}, autoStop = true, caFile } = {}) {
	const cmd = [...WRAP, BIN, 'serve', '--host', '127.0.0.1', '--port', '0', ...args];
	const proc = spawn(cmd[0], cmd.slice(1), {
		// Access lines as text unless a test asks for JSON (LOG_FORMAT in env).
		env: { ...process.env, LOG_FORMAT: 'text', ...env },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const server = { proc, pid: proc.pid, log: '', curlArgs: caFile ? ['--cacert', caFile] : [] };
	server.exited = new Promise((resolve) => {
		proc.on('exit', (code, signal) => {
			server.exitStatus = { code, signal };
			resolve(server.exitStatus);
		});
	});
	// stdout and stderr go into server.log a whole line at a time, so that a
	// line of one is never cut by a piece of the other.
	for (const stream of [proc.stdout, proc.stderr]) {
		let part = '';
		stream.on('data', (d) => {
			part += d;
			const end = part.lastIndexOf('\n') + 1;
			server.log += part.slice(0, end);
			part = part.slice(end);
		});
		stream.on('end', () => { server.log += part; part = ''; });
	}
	const started = new Promise((resolve, reject) => {
		let out = '';
		const timer = setTimeout(() => reject(new Error(`no start line within ${10 * timeScale} s: ${out}${server.log}`)), 10000 * timeScale);
		proc.stdout.on('data', (d) => {
			out += d;
			const m = out.match(/listening on (https?):\/\/([^\s:]+|\[[^\]]+\]):(\d+)/);
			if (m) {
				clearTimeout(timer);
				resolve({ scheme: m[1], host: m[2], port: Number(m[3]), line: out.split('\n')[0] });
			}
		});
		proc.on('error', (e) => { clearTimeout(timer); reject(e); });
		proc.on('exit', (code, signal) => {
			clearTimeout(timer);
			reject(new Error(`server exited (${code ?? signal}) before listening: ${out}${server.log}`));
		});
	});
	const { scheme, host, port, line } = await started;
	Object.assign(server, { scheme, host, port, startLine: line, base: `${scheme}://127.0.0.1:${port}` });
	server.stop = async () => {
		if (!server.exitStatus) {
			try { process.kill(server.pid, 'SIGTERM'); } catch { /* gone */ }
			const timer = setTimeout(() => { try { process.kill(server.pid, 'SIGKILL'); } catch { /* gone */ } }, 10000 * timeScale);
			await server.exited;
			clearTimeout(timer);
		}
		return server.exitStatus;
	};
	if (autoStop) after(() => server.stop());
	for (let i = 0; ; i++) {
		try {
			const res = await request(server, { path: '/livez' });
			if (res.status === 200) break;
		} catch (e) {
			if (i >= 100 * timeScale) throw e;
		}
		await sleep(50);
	}
	return server;
}

// --- data --------------------------------------------------------------------

// The data-driven cases of a problem: [{name, dir, inputFile, inputKind,
// input, expected (text) | expectedError (object)}].
export function loadCases(problem) {
	const dir = path.join(CASES_DIR, problem);
	if (!fs.existsSync(dir)) return [];
	const out = [];
	for (const name of fs.readdirSync(dir).sort()) {
		const d = path.join(dir, name);
		if (!fs.statSync(d).isDirectory()) continue;
		const c = { name, dir: d };
		if (fs.existsSync(path.join(d, 'input.txt'))) {
			c.inputKind = 'text';
			c.inputFile = path.join(d, 'input.txt');
		} else if (fs.existsSync(path.join(d, 'input.json'))) {
			c.inputKind = 'json';
			c.inputFile = path.join(d, 'input.json');
		} else {
			continue;
		}
		c.input = fs.readFileSync(c.inputFile, 'utf8');
		if (fs.existsSync(path.join(d, 'expected.txt'))) {
			c.expected = fs.readFileSync(path.join(d, 'expected.txt'), 'utf8');
		} else if (fs.existsSync(path.join(d, 'expected-error.json'))) {
			c.expectedError = JSON.parse(fs.readFileSync(path.join(d, 'expected-error.json'), 'utf8'));
		} else {
			continue;
		}
		out.push(c);
	}
	return out;
}

// Asserts that every fault listed in `expected` (objects with some of
// pointer, line, column, parameter and optionally detail) appears in the
// problem's errors array.
export function assertFaults(errors, expected, what) {
	assert.ok(Array.isArray(errors), `${what}: no errors array`);
	for (const e of expected) {
		// A detail matches when the fault's starts with it: messages may go on
		// to echo the value received ("t must be 1, 2 or 3, got 7").
		const found = errors.some((f) => ['pointer', 'line', 'column', 'parameter']
			.every((k) => e[k] === undefined || f[k] === e[k]) &&
			(e.detail === undefined || (typeof f.detail === 'string' && f.detail.startsWith(e.detail))));
		assert.ok(found, `${what}: expected a fault ${JSON.stringify(e)} in ${JSON.stringify(errors)}`);
	}
}

// A small deterministic PRNG for test data (mulberry32).
export function rng(seed) {
	let a = seed >>> 0;
	const next = () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	return { next, int: (n) => Math.floor(next() * n), pick: (arr) => arr[Math.floor(next() * arr.length)] };
}
