// The data-driven cases of tests/cases/{monomino-domino,puyo}: each
// directory holds input.txt or input.json and expected.txt (the Baekjoon
// output) or expected-error.json ({"status", "errors": [locations]}). Every
// case is run over HTTP in its own form and, when it is a valid case, in the
// other form too, with both Accepts, through the judge, and through
// `dropjudge solve`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, request, loadCases, assertFaults, run, BIN } from './helper.mjs';
import { mdSolve, puyoSolve } from './reference.mjs';

const server = await startServer();

// Lenient readers for turning a valid case into its other form.
function mdBlocksFromText(text) {
	const lines = text.replace(/\r/g, '').split('\n');
	const n = Number(lines[0].trim());
	return lines.slice(1, 1 + n).map((l) => l.trim().split(/[ \t]+/).map(Number));
}
function mdTextFromJson(obj) {
	const blocks = obj.blocks.map((b) => (Array.isArray(b) ? b : [b.t, b.x, b.y]));
	return `${blocks.length}\n${blocks.map((b) => b.join(' ')).join('\n')}\n`;
}
function puyoRowsFromText(text) {
	const lines = text.replace(/\r/g, '').split('\n');
	while (lines.length && lines[lines.length - 1] === '') lines.pop();
	return lines;
}

const problems = {
	'monomino-domino': {
		toJson: (text) => ({ blocks: mdBlocksFromText(text) }),
		toText: mdTextFromJson,
		check(expected, json, c) {
			const [score, tiles] = expected.trim().split(/\s+/).map(Number);
			assert.equal(json.score, score, `${c.name}: score`);
			assert.equal(json.tiles, tiles, `${c.name}: tiles`);
		},
		reference: (text) => {
			const r = mdSolve(mdBlocksFromText(text));
			return `${r.score}\n${r.tiles}\n`;
		},
	},
	puyo: {
		toJson: (text) => ({ field: puyoRowsFromText(text) }),
		toText: (obj) => obj.field.join('\n') + '\n',
		check(expected, json, c) {
			assert.equal(json.chains, Number(expected.trim()), `${c.name}: chains`);
		},
		reference: (text) => `${puyoSolve(puyoRowsFromText(text)).chains}\n`,
	},
};

for (const [problem, p] of Object.entries(problems)) {
	const cases = loadCases(problem);
	const solvePath = `/v1/${problem}`;

	test(`tests/cases/${problem} holds data-driven cases`, () => {
		assert.ok(cases.length > 0, `no cases under tests/cases/${problem}`);
		assert.ok(cases.some((c) => c.expected), 'some valid cases');
		assert.ok(cases.some((c) => c.expectedError), 'some error cases');
	});

	for (const c of cases) {
		const ct = c.inputKind === 'text' ? 'text/plain' : 'application/json';
		if (c.expected !== undefined) {
			test(`${problem}/${c.name}: answers ${JSON.stringify(c.expected)} in both forms and both Accepts`, async () => {
				const asText = c.inputKind === 'text' ? c.input : p.toText(JSON.parse(c.input));
				const asJson = c.inputKind === 'json' ? c.input : JSON.stringify(p.toJson(c.input));
				assert.equal(p.reference(asText), c.expected, `${c.name}: the reference simulator agrees with expected.txt`);
				for (const [body, contentType] of [[c.input, ct], [asText, 'text/plain'], [asJson, 'application/json']]) {
					const t = await request(server, { path: solvePath, body, contentType, accept: 'text/plain' });
					if (contentType === 'application/json' && JSON.parse(body).trace === true) {
						// A trace cannot be told in the Baekjoon output: 406, not ignored.
						assert.equal(t.status, 406, `${c.name}: a traced case with Accept: text/plain`);
					} else {
						assert.equal(t.status, 200, `${c.name} (${contentType}): ${t.body}`);
						assert.equal(t.body, c.expected, `${c.name} (${contentType})`);
					}
					const j = await request(server, { path: solvePath, body, contentType });
					assert.equal(j.status, 200);
					p.check(c.expected, j.json, c);
				}
				const traced = await request(server, { path: solvePath, body: asText, contentType: 'text/plain', query: { trace: 'true' } });
				if (problem === 'puyo') {
					assert.equal(traced.json.steps.length, traced.json.chains);
					assert.equal(traced.json.steps.reduce((s, x) => s + x.score, 0), traced.json.score);
				} else if (traced.json.steps.length > 0) {
					const last = traced.json.steps.at(-1);
					assert.deepEqual([last.score, last.tiles], [traced.json.score, traced.json.tiles]);
				}
				const judged = await request(server, {
					path: `${solvePath}/judge`,
					body: { input: c.inputKind === 'json' ? JSON.parse(c.input) : c.input, output: c.expected },
				});
				assert.equal(judged.json.verdict, 'accepted', judged.json.message);
				assert.equal(judged.json.expected, c.expected);
			});
			test(`${problem}/${c.name}: dropjudge solve prints expected.txt (file and stdin)`, async () => {
				const input = c.inputKind === 'text' ? c.input : p.toText(JSON.parse(c.input));
				const file = c.inputKind === 'text' ? c.inputFile : null;
				if (file) {
					const r = await run(BIN, ['solve', problem, file]);
					assert.equal(r.code, 0, r.stderr);
					assert.equal(r.stdout, c.expected);
				}
				const s = await run(BIN, ['solve', problem], { input });
				assert.equal(s.code, 0, s.stderr);
				assert.equal(s.stdout, c.expected);
			});
		} else {
			const e = c.expectedError;
			test(`${problem}/${c.name}: ${e.status} with faults ${JSON.stringify(e.errors ?? [])}`, async () => {
				const res = await request(server, { path: solvePath, body: c.input, contentType: ct });
				assert.equal(res.status, e.status, res.body);
				assert.equal(res.mediaType, 'application/problem+json');
				if (e.errors) assertFaults(res.json.errors, e.errors, c.name);
				const t = await request(server, { path: solvePath, body: c.input, contentType: ct, accept: 'text/plain' });
				assert.equal(t.status, e.status, 'the same error with Accept text/plain');
				const v = await request(server, { path: `${solvePath}/validate`, body: c.input, contentType: ct });
				if (v.status === 200) {
					assert.equal(v.json.valid, false, `${c.name}: validate`);
				} else {
					assert.equal(v.status, 400, `${c.name}: validate`);
				}
			});
			if (c.inputKind === 'text') {
				test(`${problem}/${c.name}: dropjudge solve fails naming the line`, async () => {
					const r = await run(BIN, ['solve', problem, c.inputFile]);
					assert.notEqual(r.code, 0);
					assert.equal(r.stdout, '');
					const line = e.errors?.find((f) => f.line)?.line;
					if (line) assert.match(r.stderr, new RegExp(`\\b${line}\\b`), r.stderr);
				});
			}
		}
	}
}

test('dropjudge solve answers the public examples from stdin', async () => {
	const md = await run(BIN, ['solve', 'monomino-domino'], { input: '8\n1 1 1\n2 3 0\n3 2 2\n3 2 3\n3 1 3\n2 0 0\n3 2 0\n3 1 2\n' });
	assert.equal(md.code, 0, md.stderr);
	assert.equal(md.stdout, '2\n15\n');
	const puyo = await run(BIN, ['solve', 'puyo'], { input: '......\n......\n......\n......\n......\n......\n......\n......\n.Y....\n.YG...\nRRYG..\nRRYGG.\n' });
	assert.equal(puyo.code, 0, puyo.stderr);
	assert.equal(puyo.stdout, '3\n');
});

test('dropjudge solve with a missing file or an unknown problem fails', async () => {
	const a = await run(BIN, ['solve', 'puyo', '/nonexistent/input.txt']);
	assert.notEqual(a.code, 0);
	const b = await run(BIN, ['solve', 'tetris'], { input: '' });
	assert.notEqual(b.code, 0);
});
