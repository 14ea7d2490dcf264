// The dropjudge viewer: a case in, the service's answer and pictures out.
//
// The case is solved by POST /v1/{problem} (JSON or Baekjoon text, as
// typed); its pictures are the service's own SVG from
// GET /v1/{problem}/render.svg, one frame per step and the final state,
// shown one at a time. Errors are shown where they point: the line of a
// text, the member of a JSON case. The case lives in the page's fragment,
// so the address can be shared. Nothing is fetched from anywhere else.
'use strict';

const STRIP_MAX = 500; // steps a strip draws (src/render/render.h)

const EXAMPLES = {
	'monomino-domino': {
		text: '8\n1 1 1\n2 3 0\n3 2 2\n3 2 3\n3 1 3\n2 0 0\n3 2 0\n3 1 2\n',
		json: '{\n  "blocks": [\n    [1, 1, 1], [2, 3, 0], [3, 2, 2], [3, 2, 3],\n' +
			'    [3, 1, 3], [2, 0, 0], [3, 2, 0], [3, 1, 2]\n  ]\n}\n',
	},
	puyo: {
		text: '......\n......\n......\n......\n......\n......\n......\n......\n' +
			'.Y....\n.YG...\nRRYG..\nRRYGG.\n',
		json: '{\n  "field": [\n    "......", "......", "......", "......",\n' +
			'    "......", "......", "......", "......",\n' +
			'    ".Y....", ".YG...", "RRYG..", "RRYGG."\n  ]\n}\n',
	},
};

const $ = (id) => document.getElementById(id);
const input = $('input');
const state = { problem: 'monomino-domino', format: 'text', frames: [], frame: 0, timer: null, svg: null };

// ---- the fragment ---------------------------------------------------------

function readFragment() {
	const params = new URLSearchParams(location.hash.slice(1));
	const problem = params.get('problem');
	const format = params.get('format');
	if (Object.hasOwn(EXAMPLES, problem)) state.problem = problem; // never a name from Object.prototype
	if (format === 'text' || format === 'json') state.format = format;
	return params.get('case');
}

function fragment() {
	const params = new URLSearchParams({ problem: state.problem, format: state.format, case: input.value });
	return '#' + params.toString();
}

function syncChoices() {
	for (const r of document.querySelectorAll('input[name=problem]')) r.checked = r.value === state.problem;
	for (const r of document.querySelectorAll('input[name=format]')) r.checked = r.value === state.format;
	$('search').hidden = state.problem !== 'puyo';
}

// ---- the editor: line numbers and marks ----------------------------------

function lineHeight() {
	return parseFloat(getComputedStyle(input).lineHeight) || 20;
}

function paddingTop() {
	return parseFloat(getComputedStyle(input).paddingTop) || 0;
}

let badLines = new Set();

function drawGutter() {
	const n = input.value.split('\n').length;
	const gutter = $('gutter');
	gutter.textContent = '';
	for (let i = 1; i <= n; i++) {
		const span = document.createElement('span');
		span.textContent = String(i);
		if (badLines.has(i)) span.className = 'bad';
		gutter.append(span, '\n');
	}
	gutter.scrollTop = input.scrollTop;
	drawMarks();
}

function drawMarks() {
	const marks = $('marks');
	marks.textContent = '';
	const lh = lineHeight();
	for (const line of badLines) {
		const div = document.createElement('div');
		div.className = 'mark';
		div.dataset.line = String(line);
		div.style.top = `${paddingTop() + (line - 1) * lh - input.scrollTop}px`;
		marks.append(div);
	}
}

function selectLine(line) {
	const lines = input.value.split('\n');
	let start = 0;
	for (let i = 0; i < line - 1 && i < lines.length; i++) start += lines[i].length + 1;
	const end = start + (lines[line - 1] ?? '').length;
	input.focus();
	input.setSelectionRange(start, end);
	const lh = lineHeight();
	const top = (line - 1) * lh;
	if (top < input.scrollTop || top > input.scrollTop + input.clientHeight - lh) input.scrollTop = Math.max(0, top - lh);
}

// ---- JSON pointers to lines ----------------------------------------------

// Finds the line where the value at RFC 6901 `pointer` starts in the JSON
// `text`, or null. A small scanner over the text as typed, so that the line
// is the user's own.
function lineOfPointer(text, pointer) {
	const want = pointer;
	let i = 0;
	let found = null;
	const ws = () => { while (i < text.length && /\s/.test(text[i])) i++; };
	const lineAt = (pos) => text.slice(0, pos).split('\n').length;
	const esc = (s) => s.replace(/~/g, '~0').replace(/\//g, '~1');
	function str() {
		let out = '';
		i++;
		while (i < text.length && text[i] !== '"') {
			if (text[i] === '\\') {
				const c = text[i + 1];
				if (c === 'u') { out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16)); i += 6; continue; }
				out += ({ n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' })[c] ?? c;
				i += 2;
				continue;
			}
			out += text[i++];
		}
		i++;
		return out;
	}
	function value(path) {
		ws();
		if (found === null && path === want) found = lineAt(i);
		const c = text[i];
		if (c === '{') {
			i++;
			ws();
			if (text[i] === '}') { i++; return; }
			for (;;) {
				ws();
				if (text[i] !== '"') throw new Error('key');
				const keyPos = i;
				const key = str();
				ws();
				if (text[i] !== ':') throw new Error(':');
				i++;
				const sub = `${path}/${esc(key)}`;
				if (found === null && want === sub) found = lineAt(keyPos); // the member: its key's line
				value(sub);
				ws();
				if (text[i] === ',') { i++; continue; }
				if (text[i] === '}') { i++; return; }
				throw new Error('}');
			}
		} else if (c === '[') {
			i++;
			ws();
			if (text[i] === ']') { i++; return; }
			for (let k = 0; ; k++) {
				value(`${path}/${k}`);
				ws();
				if (text[i] === ',') { i++; continue; }
				if (text[i] === ']') { i++; return; }
				throw new Error(']');
			}
		} else if (c === '"') {
			str();
		} else {
			const m = /^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i));
			if (!m) throw new Error('value');
			i += m[0].length;
		}
	}
	try {
		value('');
	} catch {
		/* fall through with what was found */
	}
	if (found !== null) return found;
	// A missing member: the line of its parent.
	const parent = pointer.slice(0, pointer.lastIndexOf('/'));
	return parent !== pointer && pointer ? lineOfPointer(text, parent) : null;
}

// ---- errors ---------------------------------------------------------------

function showErrors(problem) {
	const list = $('errors');
	list.textContent = '';
	badLines = new Set();
	const faults = problem.errors?.length ? problem.errors : [{ detail: problem.detail }];
	for (const f of faults) {
		let line = f.line ?? null;
		if (line === null && f.pointer !== undefined && state.format === 'json') line = lineOfPointer(input.value, f.pointer);
		const li = document.createElement('li');
		const where = document.createElement('span');
		where.className = 'where';
		const parts = [];
		if (f.pointer !== undefined && f.pointer !== '') parts.push(f.pointer);
		if (f.parameter) parts.push(`?${f.parameter}`);
		if (line !== null) parts.push(`line ${line}${f.column ? `, column ${f.column}` : ''}`);
		where.textContent = parts.length ? parts.join(' · ') + ':' : '';
		li.append(where, f.detail ?? problem.detail);
		if (line !== null) {
			badLines.add(line);
			li.dataset.line = String(line);
			li.addEventListener('click', () => selectLine(line));
		}
		list.append(li);
	}
	input.setAttribute('aria-invalid', 'true');
	drawGutter();
	const answer = $('answer');
	delete answer.dataset.answer;
	answer.className = 'bad';
	answer.textContent = `${problem.status} ${problem.title}: ${problem.detail}`;
}

function clearErrors() {
	$('errors').textContent = '';
	badLines = new Set();
	input.removeAttribute('aria-invalid');
	drawGutter();
}

// ---- a bearer token, when the service runs with one ----------------------

// Kept for the tab only, never in the address.
function authHeaders() {
	const token = sessionStorage.getItem('dropjudge-token');
	return token ? { Authorization: `Bearer ${token}` } : {};
}

function askToken(problem) {
	if (problem.status === 401) $('token-row').hidden = false;
}

// ---- the case as render.svg's query ---------------------------------------

// The case the service has accepted, as the query of render.svg, and its
// number of steps when known before drawing (Monomino-Domino), else null.
function renderQuery() {
	const q = new URLSearchParams();
	const text = input.value;
	if (state.problem === 'monomino-domino') {
		let blocks;
		if (state.format === 'json') {
			blocks = JSON.parse(text).blocks.map((b) => (Array.isArray(b) ? b : [b.t, b.x, b.y]));
		} else {
			const nums = text.trim().split(/\s+/).map(Number);
			blocks = [];
			for (let k = 0; k < nums[0]; k++) blocks.push(nums.slice(1 + 3 * k, 4 + 3 * k));
		}
		q.set('blocks', blocks.map((b) => b.join('')).join(','));
		return { q, steps: blocks.length };
	}
	if (state.format === 'json') {
		const c = JSON.parse(text);
		if (c.puyop !== undefined) q.set('puyop', c.puyop);
		else if (c.puyo_nexus !== undefined) q.set('puyo_nexus', c.puyo_nexus);
		else q.set('field', c.field.join(','));
	} else {
		q.set('field', text.split(/\r?\n/).filter((l) => l.trim() !== '').join(','));
	}
	return { q, steps: null };
}

// ---- pictures and frames --------------------------------------------------

async function fetchPicture(query, strip) {
	const q = new URLSearchParams(query);
	q.set('cell', '28');
	if (strip) q.set('strip', 'true');
	const res = await fetch(`/v1/${state.problem}/render.svg?${q}`, { headers: authHeaders() });
	if (!res.ok) throw await res.json();
	const doc = new DOMParser().parseFromString(await res.text(), 'image/svg+xml');
	return document.importNode(doc.documentElement, true);
}

function showFrame(k) {
	stopIfAtEnd(k);
	const frames = state.frames;
	if (!frames.length) return;
	k = Math.max(0, Math.min(frames.length - 1, k));
	state.frame = k;
	const f = frames[k];
	const [x, y, w, h] = ['x', 'y', 'width', 'height'].map((a) => f.getAttribute(a));
	state.svg.setAttribute('viewBox', `${x} ${y} ${w} ${h}`);
	state.svg.setAttribute('width', w);
	state.svg.setAttribute('height', h);
	for (const g of frames) g.setAttribute('visibility', g === f ? 'visible' : 'hidden');
	$('slider').value = String(k);
	const steps = frames.length - 1;
	const unit = state.problem === 'puyo' ? 'chain step' : 'placement';
	$('frame-label').textContent = f.id === 'final'
		? `final state (frame ${k + 1} of ${frames.length})`
		: `${unit} ${k + 1} of ${steps}`;
	$('first').disabled = $('prev').disabled = k === 0;
	$('last').disabled = $('next').disabled = k === frames.length - 1;
}

function stopIfAtEnd(k) {
	if (state.timer && k >= state.frames.length - 1) stop();
}

function stop() {
	clearInterval(state.timer);
	state.timer = null;
	$('play').textContent = 'Play';
}

function play() {
	if (state.timer) { stop(); return; }
	if (state.frame >= state.frames.length - 1) showFrame(0);
	$('play').textContent = 'Pause';
	state.timer = setInterval(() => showFrame(state.frame + 1), 700);
}

function showPicture(svg, note) {
	const box = $('picture');
	box.textContent = '';
	state.svg = svg;
	state.frames = [...svg.querySelectorAll('svg.frame')];
	box.append(svg);
	if (note) {
		const p = document.createElement('p');
		p.className = 'note';
		p.textContent = note;
		box.append(p);
	}
	const controls = $('controls');
	controls.hidden = state.frames.length < 2;
	$('slider').max = String(state.frames.length - 1);
	$('play').textContent = 'Play';
	showFrame(0); // the case as given; Play and the arrows go forward from it
}

// ---- solving --------------------------------------------------------------

function showAnswer(result) {
	const answer = $('answer');
	answer.className = '';
	answer.textContent = '';
	const add = (label, value) => {
		const v = document.createElement('span');
		v.className = 'value';
		v.textContent = String(value);
		answer.append(`${label} `, v, '  ');
	};
	if (state.problem === 'monomino-domino') {
		add('score', result.score);
		add('tiles', result.tiles);
	} else {
		add('chains', result.chains);
		add('score', result.score);
		if (result.all_clear) answer.append('all clear');
	}
	answer.dataset.answer = state.problem === 'puyo' ? String(result.chains) : `${result.score} ${result.tiles}`;
	const links = $('links');
	links.textContent = '';
	links.hidden = !result.links;
	if (result.links) {
		for (const [name, href] of [['puyop.com', result.links.puyop], ['Puyo Nexus', result.links.puyo_nexus]]) {
			const a = document.createElement('a');
			a.href = href;
			a.textContent = `open in ${name}`;
			a.rel = 'noreferrer';
			links.append(a);
		}
	}
}

let solving = 0;

async function solve() {
	const ticket = ++solving;
	stop();
	history.replaceState(null, '', fragment());
	$('share').href = fragment();
	// Puyo's answer carries its links into puyop.com and Puyo Nexus.
	const query = state.problem === 'puyo' ? '?links=true' : '';
	let res;
	try {
		res = await fetch(`/v1/${state.problem}${query}`, {
			method: 'POST',
			headers: {
				'Content-Type': state.format === 'json' ? 'application/json' : 'text/plain; charset=utf-8',
				Accept: 'application/json',
				...authHeaders(),
			},
			body: input.value,
		});
	} catch (e) {
		if (ticket === solving) showErrors({ status: 0, title: 'No answer', detail: String(e) });
		return;
	}
	const body = await res.json();
	if (ticket !== solving) return;
	if (!res.ok) {
		askToken(body);
		showErrors(body);
		$('picture').textContent = '';
		$('controls').hidden = true;
		$('links').hidden = true;
		state.frames = [];
		document.body.dataset.state = 'error';
		return;
	}
	clearErrors();
	showAnswer(body);
	try {
		const { q, steps } = renderQuery();
		const known = steps ?? body.chains;
		const strip = known <= STRIP_MAX;
		const svg = await fetchPicture(q, strip);
		if (ticket !== solving) return;
		showPicture(svg, strip ? '' : `${known} steps: the final state only (a strip draws at most ${STRIP_MAX})`);
	} catch (problem) {
		if (ticket !== solving) return;
		showErrors(problem);
		$('picture').textContent = '';
		$('controls').hidden = true;
		state.frames = [];
	}
	document.body.dataset.state = 'solved';
}

// ---- the Puyo search ------------------------------------------------------

// Posts JSON to a Puyo path; the answer's JSON, or throws the problem.
async function postJson(path, body) {
	const res = await fetch(path, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...authHeaders() },
		body: JSON.stringify(body),
	});
	const json = await res.json();
	if (!res.ok) {
		askToken(json);
		throw json;
	}
	return json;
}

// The field of the editor as rows, top first (a field given as rows only).
function fieldRows() {
	const { q } = renderQuery();
	if (!q.has('field')) throw { status: 422, title: 'The search takes a field given as rows', detail: 'give the field as rows, not a link' };
	return q.get('field').split(',');
}

// Pair [a, b] placed at {column, rotation} on a field at rest (13 rows out):
// the lower puyo first, each at the lowest free cell of its column.
function land(rows, [a, b], { column, rotation }) {
	const g = (rows.length === 12 ? ['......', ...rows] : rows).map((r) => r.split(''));
	const c = column - 1, c2 = c + (rotation === 1) - (rotation === 3);
	const drop = (col, v) => {
		for (let r = 12; r >= 0; r--) if (g[r][col] === '.') { g[r][col] = v; return; }
	};
	drop(c, rotation === 2 ? b : a);
	drop(c2, rotation === 2 ? a : b);
	return g.map((r) => r.join(''));
}

const describe = (t) => (t ? `${t.puyos} ${t.color} on column ${t.column}: ${t.chains} chain${t.chains === 1 ? '' : 's'}` : 'no trigger');

async function searchRun() {
	const pairs = $('pairs').value.trim().split(/[\s,]+/).filter(Boolean).map((p) => [p[0], p.slice(1)]);
	const list = $('sequences');
	list.textContent = '';
	try {
		const body = { field: fieldRows(), pairs, add: Number($('add').value), colors: $('colors').value, limit: 10 };
		const ans = await postJson('/v1/puyo/search', body);
		clearErrors();
		state.search = { field: body.field, pairs, answer: ans };
		$('search-answer').textContent = `${ans.examined} sequence${ans.examined === 1 ? '' : 's'} examined; ` +
			`best trigger of the field: ${describe(ans.triggers[0])}`;
		ans.sequences.forEach((seq, i) => {
			const li = document.createElement('li');
			const button = document.createElement('button');
			button.type = 'button';
			const fired = seq.fired.map((f) => f.chains).join(', ');
			button.textContent = `${seq.placements.map((p) => `${p.column}/${p.rotation}`).join(' ') || 'no pairs'}` +
				` — fired ${fired || 'nothing'} — then ${describe(seq.trigger)}`;
			button.addEventListener('click', () => playSequence(i));
			li.append(button);
			list.append(li);
		});
	} catch (problem) {
		$('search-answer').textContent = '';
		showErrors(problem);
	}
}

// Plays sequence i: each placement landed and run in turn, the last one's
// chain shown in the viewer (the field it lands on, as a JSON case).
async function playSequence(i) {
	const { field, pairs, answer } = state.search;
	const seq = answer.sequences[i];
	try {
		let rows = (await postJson('/v1/puyo', { field })).field;
		for (let k = 0; k + 1 < seq.placements.length; k++)
			rows = (await postJson('/v1/puyo', { field: land(rows, pairs[k], seq.placements[k]) })).field;
		if (seq.placements.length) rows = land(rows, pairs.at(-1), seq.placements.at(-1));
		document.querySelector('input[name=format][value=json]').checked = true;
		state.format = 'json';
		input.value = JSON.stringify({ field: rows }, null, 1);
		drawGutter();
		await solve();
	} catch (problem) {
		showErrors(problem);
	}
}

// ---- wiring ---------------------------------------------------------------

function loadExample() {
	input.value = EXAMPLES[state.problem][state.format];
	drawGutter();
}

function onChoice() {
	const problem = document.querySelector('input[name=problem]:checked').value;
	const format = document.querySelector('input[name=format]:checked').value;
	const wasExample = input.value === '' || input.value === EXAMPLES[state.problem][state.format];
	state.problem = problem;
	state.format = format;
	$('search').hidden = problem !== 'puyo';
	if (wasExample) loadExample();
	clearErrors();
}

function onKey(e) {
	if (e.target === input) {
		if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); solve(); }
		return;
	}
	if (!state.frames.length || e.target.tagName === 'INPUT' && e.target.type !== 'range' && e.target.type !== 'radio') return;
	const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 };
	if (e.key in moves) showFrame(state.frame + moves[e.key]);
	else if (e.key === 'Home') showFrame(0);
	else if (e.key === 'End') showFrame(state.frames.length - 1);
	else if (e.key === ' ' && e.target.tagName !== 'BUTTON') play();
	else return;
	e.preventDefault();
}

function init() {
	const saved = readFragment();
	syncChoices();
	if (saved !== null) input.value = saved;
	else loadExample();
	drawGutter();
	for (const r of document.querySelectorAll('input[name=problem], input[name=format]')) r.addEventListener('change', onChoice);
	input.addEventListener('input', drawGutter);
	input.addEventListener('scroll', () => { $('gutter').scrollTop = input.scrollTop; drawMarks(); });
	$('example').addEventListener('click', () => { loadExample(); solve(); });
	$('solve').addEventListener('click', solve);
	$('search-run').addEventListener('click', searchRun);
	$('token-use').addEventListener('click', () => {
		sessionStorage.setItem('dropjudge-token', $('token').value.trim());
		$('token-row').hidden = true;
		solve();
	});
	$('first').addEventListener('click', () => showFrame(0));
	$('prev').addEventListener('click', () => showFrame(state.frame - 1));
	$('next').addEventListener('click', () => showFrame(state.frame + 1));
	$('last').addEventListener('click', () => showFrame(state.frames.length - 1));
	$('play').addEventListener('click', play);
	$('slider').addEventListener('input', (e) => { stop(); showFrame(Number(e.target.value)); });
	document.addEventListener('keydown', onKey);
	window.addEventListener('hashchange', () => {
		if (location.hash === fragment()) return;
		const c = readFragment();
		syncChoices();
		if (c !== null) input.value = c;
		solve();
	});
	$('share').href = fragment();
	solve();
}

init();
