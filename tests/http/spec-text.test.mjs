// The text of openapi.yaml as a reader meets it: the status table of the
// errors lists each status once, in order; no sentence of a description or
// summary starts in lower case (a fragment left behind by an edit); every
// integer bound is written so that a reader holding numbers as doubles (a
// JavaScript or Python JSON/YAML reader) reads the value written; and an
// example says what its summary promises.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SPEC, SPEC_TEXT } from './helper.mjs';

test('the status table of the errors lists each status once, in ascending order', () => {
	const rows = [...SPEC.info.description.matchAll(/^\| (\d{3}) \|/gm)].map((m) => Number(m[1]));
	assert.ok(rows.length >= 10, `${rows.length} rows`);
	for (let i = 1; i < rows.length; i++) {
		assert.ok(rows[i] > rows[i - 1], `status ${rows[i]} follows ${rows[i - 1]}: ${rows.join(' ')}`);
	}
});

test('no sentence of the spec starts in lower case (a stray fragment)', () => {
	const found = [];
	(function walk(o, where) {
		if (!o || typeof o !== 'object') return;
		for (const [k, v] of Object.entries(o)) {
			if ((k === 'description' || k === 'summary') && typeof v === 'string') {
				const prose = v.replace(/`[^`]*`/g, 'CODE').replace(/\b(e\.g|i\.e|etc|vs)\./g, 'X');
				for (const m of prose.matchAll(/[.!?]\s+([a-z][\w-]*)(?![\w./])/g)) {
					found.push(`${where}/${k}: "...${prose.slice(Math.max(0, m.index - 40), m.index + 30)}..."`);
				}
			} else {
				walk(v, `${where}/${k}`);
			}
		}
	})(SPEC, '');
	assert.deepEqual(found, []);
});

test('every integer bound and default is written as the number a double holds', () => {
	const bad = [];
	for (const m of SPEC_TEXT.matchAll(/^\s*(minimum|maximum|exclusiveMinimum|exclusiveMaximum|default|const): (-?\d+)\s*$/gm)) {
		if (BigInt(m[2]) !== BigInt(Number(m[2]))) bad.push(`${m[1]}: ${m[2]} reads as ${BigInt(Number(m[2]))}`);
	}
	assert.deepEqual(bad, []);
	// The seeds: 0..2^64-1, the bound written as the exclusive 2^64.
	for (const name of ['seed', 'packageSeed']) {
		assert.equal(SPEC.components.parameters[name].schema.exclusiveMaximum, 2 ** 64, name);
		assert.match(SPEC_TEXT, /exclusiveMaximum: 18446744073709551616\n/);
	}
});

test('an example is what its summary says', () => {
	const mismatched = [];
	(function walk(o, where) {
		if (!o || typeof o !== 'object') return;
		if (typeof o.summary === 'string' && o.value && typeof o.value === 'object' && o.value.detail) {
			if (/outside the red board/.test(o.summary) && !/\b[xy] must be/.test(o.value.detail)) {
				mismatched.push(`${where}: "${o.summary}" shows "${o.value.detail}"`);
			}
			if (/\bt\b.*(type|out of range)/.test(o.summary) && !/\bt must be/.test(o.value.detail)) {
				mismatched.push(`${where}: "${o.summary}" shows "${o.value.detail}"`);
			}
		}
		for (const [k, v] of Object.entries(o)) walk(v, `${where}/${k}`);
	})(SPEC, '');
	assert.deepEqual(mismatched, []);
});
