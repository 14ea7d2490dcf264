// docs/CLIENTS.md cannot drift: each of its client examples (Python with the
// standard library, JavaScript with fetch, jq) is written to a file, run
// against a live server (DROPJUDGE_URL) and its output compared with the
// "Output:" block shown under it ("..." stands for any text).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, run, ROOT } from './helper.mjs';

const DOC = fs.readFileSync(path.join(ROOT, 'docs/CLIENTS.md'), 'utf8');
const RUNNERS = { python: ['python3', 'client.py'], js: ['node', 'client.mjs'], sh: ['bash', 'client.sh'] };

// Each "## " section's code block and the text block after "Output:".
const examples = DOC.split(/^## /m).slice(1).map((section) => {
	const title = section.split('\n')[0];
	const code = section.match(/^```(python|js|sh)\n([\s\S]*?)^```$/m);
	const shown = section.match(/^Output:\n\n```text\n([\s\S]*?)^```$/m);
	return { title, lang: code?.[1], code: code?.[2], shown: shown?.[1] };
});

function pattern(text) {
	const parts = text.replace(/\n$/, '').split('...').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
	return new RegExp(`^${parts.join('[^\\n]*')}\\n?$`);
}

const server = await startServer();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dropjudge-clients-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

test('docs/CLIENTS.md has a Python, a JavaScript and a jq example, each with its output', () => {
	assert.deepEqual(examples.map((e) => e.lang), ['python', 'js', 'sh']);
	for (const e of examples) assert.ok(e.code && e.shown, e.title);
	assert.match(examples[2].code, /\| *\n? *jq /);
});

for (const e of examples) {
	test(`docs/CLIENTS.md: ${e.title}`, async () => {
		const [cmd, file] = RUNNERS[e.lang];
		fs.writeFileSync(path.join(dir, file), e.code);
		const { code, stdout, stderr } = await run(cmd, [path.join(dir, file)],
			{ env: { DROPJUDGE_URL: `http://127.0.0.1:${server.port}` }, timeout: 30000 });
		assert.equal(code, 0, stderr);
		assert.match(stdout, pattern(e.shown), `shown:\n${e.shown}\ngot:\n${stdout}`);
	});
}
