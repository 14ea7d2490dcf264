// The viewer in a real browser: the service on a free loopback port, the
// page at GET / in headless Chromium driven by playwright-core. Both public
// examples are typed in, their answers and frames checked against the
// problem statements, a trace stepped with the keyboard and the Puyo chain
// played; the Puyo search view ranks placements and plays one; errors must
// be shown at their line; screenshots must match the
// reference PNGs in tests/browser/ref (a small pixel tolerance); and the
// page must make no request outside the service, nor one that answers 404.
// Then what a new user meets: the page opens on the case as given and plays
// forward, frame controls only when there are frames to step, Puyo's
// puyop.com and Puyo Nexus links, a phone's width without sideways scroll,
// the icon, the API reference at /docs, and captions inside the pictures.
//
//   UPDATE_SCREENSHOTS=1  write the reference PNGs instead of comparing
//   DOCS_IMAGES=DIR       also save the screenshots into DIR (docs/images);
//                         make docs-images sets both
//
// Skipped, saying why, only when Chromium is not installed.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, tmpFile } from '../http/helper.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REF = path.join(HERE, 'ref');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const UPDATE = process.env.UPDATE_SCREENSHOTS === '1';
const DOCS = process.env.DOCS_IMAGES;
const haveChromium = fs.existsSync(CHROMIUM);
const skip = haveChromium ? false : `Chromium not installed at ${CHROMIUM} (Debian package chromium; scripts/deps.sh test installs it)`;

const MD_EXAMPLE = '8\n1 1 1\n2 3 0\n3 2 2\n3 2 3\n3 1 3\n2 0 0\n3 2 0\n3 1 2\n';
const PUYO_EXAMPLE = '......\n......\n......\n......\n......\n......\n......\n......\n' +
	'.Y....\n.YG...\nRRYG..\nRRYGG.\n';

let server, browser, context, page, profile;
const requests = [];
const pageErrors = [];
const notFound = []; // every answer 404 the page or its resources got

if (!skip) {
	const { chromium } = await import('playwright-core');
	server = await startServer({ autoStop: false });
	profile = fs.mkdtempSync(path.join(os.tmpdir(), 'dropjudge-chromium-'));
	context = await chromium.launchPersistentContext(profile, {
		executablePath: CHROMIUM,
		headless: true,
		viewport: { width: 1200, height: 900 },
		deviceScaleFactor: 1,
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
			'--disable-background-networking', '--disable-component-update', '--disable-sync',
			'--font-render-hinting=none', '--disable-lcd-text'],
	});
	browser = context;
	page = context.pages()[0] ?? await context.newPage();
	page.on('request', (r) => requests.push(r.url()));
	context.on('response', (r) => { if (r.status() === 404) notFound.push(r.url()); });
	page.on('pageerror', (e) => { pageErrors.push(String(e)); });
}

after(async () => {
	if (skip) return;
	await browser?.close();
	await server?.stop();
	if (profile) fs.rmSync(profile, { recursive: true, force: true });
});

async function open(hash = '') {
	await page.goto(`${server.base}/${hash}`);
	await page.waitForFunction(() => document.body.dataset.state);
}

async function solveCase(problem, format, text) {
	await page.check(`input[name=problem][value=${problem}]`);
	await page.check(`input[name=format][value=${format}]`);
	await page.fill('#input', text);
	await page.evaluate(() => { delete document.body.dataset.state; });
	await page.click('#solve');
	await page.waitForFunction(() => document.body.dataset.state);
}

const frameLabel = () => page.textContent('#frame-label');

// Compares a screenshot with its reference PNG: at most 0.5% of the pixels
// may differ (anti-aliasing), by pixelmatch's perceptual threshold. The copy
// in docs/images is the reference itself (make docs-images writes both from
// one shot), byte for byte, so that the README never shows a page, or an
// error's text, other than the one the test holds the viewer to.
const DOCS_DIR = path.join(HERE, '../../docs/images');

async function matchScreenshot(name, locator) {
	const shot = await locator.screenshot({ animations: 'disabled', caret: 'hide' });
	if (DOCS) fs.writeFileSync(path.join(DOCS, `viewer-${name}.png`), shot);
	const file = path.join(REF, `${name}.png`);
	if (UPDATE || !fs.existsSync(file)) {
		assert.ok(UPDATE, `no reference ${file}; run make docs-images (or UPDATE_SCREENSHOTS=1) and commit it`);
		fs.mkdirSync(REF, { recursive: true });
		fs.writeFileSync(file, shot);
		return;
	}
	await samePicture(name, shot, file, '');
	const docs = path.join(DOCS_DIR, `viewer-${name}.png`);
	assert.ok(fs.existsSync(docs) && fs.readFileSync(docs).equals(fs.readFileSync(file)),
		`${docs} is not ${file}: run make docs-images, which writes both`);
}

async function samePicture(name, shot, file, hint) {
	const { PNG } = await import('pngjs');
	const pixelmatch = (await import('pixelmatch')).default;
	assert.ok(fs.existsSync(file), `${file} is missing${hint}`);
	const got = PNG.sync.read(shot);
	const want = PNG.sync.read(fs.readFileSync(file));
	assert.equal(`${got.width}x${got.height}`, `${want.width}x${want.height}`, `${name}: size of ${file}${hint}`);
	const diff = new PNG({ width: got.width, height: got.height });
	const n = pixelmatch(got.data, want.data, diff.data, got.width, got.height, { threshold: 0.1 });
	const share = n / (got.width * got.height);
	if (share > 0.005) {
		const out = path.join(os.tmpdir(), `dropjudge-${name}-diff.png`);
		fs.writeFileSync(out, PNG.sync.write(diff));
		assert.fail(`${name}: ${n} pixels (${(share * 100).toFixed(2)}%) differ from ${file}${hint}; diff in ${out}`);
	}
}

test('the viewer solves the Monomino-Domino public example 7: score 2, 15 tiles, 9 frames', { skip }, async () => {
	await open();
	await solveCase('monomino-domino', 'text', MD_EXAMPLE);
	// The statement: example 7 scores 2 and leaves 15 tiles.
	assert.equal(await page.getAttribute('#answer', 'data-answer'), '2 15');
	// One frame per placement and the final state, drawn by the service.
	assert.equal(await page.locator('#picture svg.frame').count(), 9);
	assert.match(await page.textContent('#picture svg > desc'), /Answer: score 2 and 15 tiles/);
	// It opens on the first placement, the case as given.
	assert.equal(await frameLabel(), 'placement 1 of 8');
	await page.click('#last');
	assert.match(await frameLabel(), /final state/);
	await matchScreenshot('md-example-7-final', page.locator('#result'));
});

test('the keyboard steps through the Monomino-Domino trace', { skip }, async () => {
	await page.locator('#picture').click();
	await page.keyboard.press('Home');
	assert.equal(await frameLabel(), 'placement 1 of 8');
	for (let k = 2; k <= 4; k++) {
		await page.keyboard.press('ArrowRight');
		assert.equal(await frameLabel(), `placement ${k} of 8`);
	}
	// Placement 4 completes green row 4: one band marks it.
	const shown = page.locator('#picture svg.frame[visibility=visible]');
	assert.equal(await shown.getAttribute('id'), 'step-4');
	assert.equal(await shown.locator('.cleared').count(), 1);
	await matchScreenshot('md-example-7-step-4', page.locator('#result'));
	await page.keyboard.press('ArrowLeft');
	assert.equal(await frameLabel(), 'placement 3 of 8');
	assert.equal(await page.inputValue('#slider'), '2');
	await page.keyboard.press('End');
	assert.match(await frameLabel(), /final state/);
});

test('the viewer solves the Puyo public example: 3 chains, 4 frames, and plays the chain', { skip }, async () => {
	await solveCase('puyo', 'text', PUYO_EXAMPLE);
	assert.equal(await page.getAttribute('#answer', 'data-answer'), '3');
	assert.equal(await page.locator('#picture svg.frame').count(), 4);
	// Each chain step's frame outlines what pops; the final frame nothing.
	assert.equal(await page.locator('#picture svg.frame .pop').count(), 3);
	// It opens on the first chain step, the field as given: |◀ and ◀ have nowhere to go.
	assert.equal(await frameLabel(), 'chain step 1 of 3');
	assert.equal(await page.isDisabled('#first'), true);
	await matchScreenshot('puyo-example-step-1', page.locator('#result'));
	await page.click('#play');
	await page.waitForFunction(() => /final state/.test(document.getElementById('frame-label').textContent),
		null, { timeout: 10000 });
	assert.equal(await page.textContent('#play'), 'Play');
	await matchScreenshot('puyo-example-final', page.locator('#result'));
});

test('the search view ranks the placements of a pair and plays the one clicked', { skip }, async () => {
	// A red on column 2 fires two chains; four placements of [R, B] put one there (docs/SEARCH.md).
	const field = '......\n......\n......\n......\n......\n......\n......\nG.....\nR.....\nR.....\nRG....\nGG....\n';
	await solveCase('puyo', 'text', field);
	assert.equal(await page.isVisible('#search'), true);
	await page.fill('#pairs', 'RB');
	await page.fill('#add', '1');
	await page.fill('#colors', 'R');
	await page.click('#search-run');
	await page.waitForSelector('#sequences li');
	assert.equal(await page.locator('#sequences li').count(), 10);
	assert.equal(await page.textContent('#search-answer'),
		'22 sequences examined; best trigger of the field: 1 R on column 2: 2 chains');
	assert.equal(await page.textContent('#sequences li:first-child'), '2/0 — fired 2 — then no trigger');
	await page.evaluate(() => { delete document.body.dataset.state; });
	await page.click('#sequences li:first-child button');
	await page.waitForFunction(() => document.body.dataset.state === 'solved');
	assert.equal(await page.getAttribute('#answer', 'data-answer'), '2');
	// Monomino-Domino has no search.
	await page.check('input[name=problem][value=monomino-domino]');
	assert.equal(await page.isVisible('#search'), false);
});

test('JSON cases of both problems give the same answers', { skip }, async () => {
	await solveCase('monomino-domino', 'json', JSON.stringify({ blocks: [[1, 1, 1], [2, 3, 0], [3, 2, 2], [3, 2, 3]] }));
	assert.equal(await page.getAttribute('#answer', 'data-answer'), '1 10'); // example 3
	assert.equal(await page.locator('#picture svg.frame').count(), 5);
	await solveCase('puyo', 'json', JSON.stringify({ puyop: 'http://www.puyop.com/s/4004g09y09yg' }));
	assert.equal(await page.getAttribute('#answer', 'data-answer'), '3');
});

test('errors are shown at the line they point to, in text and in JSON', { skip }, async () => {
	await solveCase('monomino-domino', 'text', '3\n1 1 1\n4 0 0\n1 0 0\n');
	assert.match(await page.textContent('#errors li'), /line 3/);
	assert.deepEqual(await page.locator('#gutter .bad').allTextContents(), ['3']);
	assert.equal(await page.locator('#marks .mark').getAttribute('data-line'), '3');
	assert.equal(await page.getAttribute('#input', 'aria-invalid'), 'true');
	await matchScreenshot('md-error-line-3', page.locator('#case'));

	// A JSON pointer is turned into the line of the member in the text.
	await solveCase('monomino-domino', 'json', '{\n  "blocks": [\n    [1, 1, 1],\n    [2, 3, 3]\n  ]\n}\n');
	assert.match(await page.textContent('#errors li'), /\/blocks\/1\/2/);
	assert.deepEqual(await page.locator('#gutter .bad').allTextContents(), ['4']);

	await solveCase('puyo', 'text', PUYO_EXAMPLE.replace('.YG...', '.YX...'));
	assert.deepEqual(await page.locator('#gutter .bad').allTextContents(), ['10']);
	assert.equal(await page.locator('#picture svg').count(), 0);
});

test('the address holds the case: opening it solves the same case', { skip }, async () => {
	await solveCase('puyo', 'text', PUYO_EXAMPLE);
	const href = await page.getAttribute('#share', 'href');
	assert.match(href, /^#problem=puyo&format=text&case=/);
	await page.goto('about:blank');
	await open(href);
	assert.equal(await page.inputValue('#input'), PUYO_EXAMPLE);
	assert.equal(await page.getAttribute('#answer', 'data-answer'), '3');
});

test('a problem named after a property every object has (__proto__, constructor) is not taken from the address', { skip }, async () => {
	for (const name of ['__proto__', 'constructor', 'toString']) {
		const posted = [];
		const seen = (req) => { if (req.method() === 'POST') posted.push(new URL(req.url()).pathname); };
		page.on('request', seen);
		await page.goto('about:blank');
		await open(`#problem=${name}&format=text&case=${encodeURIComponent('1\n1 1 1\n')}`);
		page.off('request', seen);
		assert.equal(await page.isChecked('input[name=problem][value=monomino-domino]'), true, name);
		assert.ok(posted.every((p) => p === '/v1/monomino-domino'), `${name}: posted to ${posted.join(', ')}`);
	}
});

test('with a token file the viewer asks for the token, and solves with it', { skip }, async () => {
	const token = 'viewer-test-token-0042';
	const guarded = await startServer({ args: ['--auth-token-file', tmpFile(`${token}\n`)], autoStop: false });
	try {
		await page.goto(`${guarded.base}/`);
		await page.waitForFunction(() => document.body.dataset.state);
		assert.match(await page.textContent('#answer'), /^401 /);
		assert.equal(await page.isVisible('#token-row'), true);
		await page.fill('#token', token);
		await page.evaluate(() => { delete document.body.dataset.state; });
		await page.click('#token-use');
		await page.waitForFunction(() => document.body.dataset.state);
		assert.equal(await page.getAttribute('#answer', 'data-answer'), '2 15');
		assert.equal(await page.locator('#picture svg.frame').count(), 9);
		assert.equal(await page.isVisible('#token-row'), false);
	} finally {
		await guarded.stop();
	}
	// The token stays with the tab, never in the address.
	assert.doesNotMatch(page.url(), new RegExp(token));
	await page.goto('about:blank');
});

test('the page keeps the service index links and makes no request elsewhere', { skip }, async () => {
	await open();
	const links = await page.locator('#index a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
	assert.ok(links.includes('/v1') && links.includes('/openapi.yaml'), links.join(' '));
	assert.ok(requests.length > 10, `${requests.length} requests seen`);
	const outside = requests.filter((u) => !/^http:\/\/127\.0\.0\.1:\d+\//.test(u) && u !== 'about:blank');
	const ports = new Set(requests.filter((u) => u.startsWith('http')).map((u) => new URL(u).port));
	assert.ok(ports.size <= 2, `requests to ${[...ports].join(', ')}: only the two services of this test`);
	assert.deepEqual(outside, []);
	assert.deepEqual(pageErrors, [], 'script errors in the page');
});

// ---- what a new user meets -------------------------------------------------

const visibleFrame = () => page.locator('#picture svg.frame[visibility=visible]');

test('the viewer opens on the case as given and plays forward from it', { skip }, async () => {
	await open();
	await solveCase('puyo', 'text', PUYO_EXAMPLE);
	// Frame 1 is the field as typed: the example's 12 puyos, before any pop
	// (an all clear, so the last frame would be empty).
	assert.equal(await frameLabel(), 'chain step 1 of 3');
	assert.equal(await visibleFrame().getAttribute('id'), 'step-1');
	assert.equal(await visibleFrame().locator('circle.puyo').count(), 12);
	assert.equal(await page.inputValue('#slider'), '0');
	await page.click('#play');
	await page.waitForFunction(() => document.getElementById('frame-label').textContent === 'chain step 2 of 3',
		null, { timeout: 5000 });
	await page.click('#play'); // pause
	assert.equal(await page.textContent('#play'), 'Play');
	await solveCase('monomino-domino', 'text', MD_EXAMPLE);
	assert.equal(await visibleFrame().getAttribute('id'), 'step-1');
});

test('Puyo answers show their puyop.com and Puyo Nexus links', { skip }, async () => {
	await solveCase('puyo', 'text', PUYO_EXAMPLE);
	assert.equal(await page.isVisible('#links'), true);
	const hrefs = await page.locator('#links a').evaluateAll((as) => as.map((a) => a.href));
	// The example as puyop.com and Puyo Nexus encode it (tests/render checks the encoders).
	assert.deepEqual(hrefs, ['http://www.puyop.com/s/4004g09y09yg',
		'https://puyonexus.com/chainsim/?w=6&h=12&chain=60000067000446700446770']);
	await solveCase('monomino-domino', 'text', MD_EXAMPLE);
	assert.equal(await page.isVisible('#links'), false);
});

const controlsShown = () => page.locator('#controls, #controls button, #slider').evaluateAll(
	(els) => els.filter((e) => e.getClientRects().length > 0).map((e) => e.id || e.textContent));

test('no frame controls after an error, nor for an answer of one frame', { skip }, async () => {
	await solveCase('monomino-domino', 'text', MD_EXAMPLE);
	assert.equal((await controlsShown()).length, 7); // the box, five buttons (Play one of them), the slider
	await solveCase('monomino-domino', 'text', '2\n1 1 1\n4 0 0\n');
	assert.equal(await page.textContent('#answer').then((t) => t.startsWith('422 ')), true);
	assert.deepEqual(await controlsShown(), []);
	assert.equal(await page.locator('#picture svg').count(), 0);
	// A field where nothing pops: its one frame, no controls.
	await solveCase('puyo', 'text', '......\n'.repeat(11) + 'RGB...\n');
	assert.equal(await page.getAttribute('#answer', 'data-answer'), '0');
	assert.equal(await page.locator('#picture svg.frame').count(), 1);
	assert.deepEqual(await controlsShown(), []);
	// And after an error on a Puyo case, no links either.
	await solveCase('puyo', 'text', PUYO_EXAMPLE);
	await solveCase('puyo', 'text', PUYO_EXAMPLE.replace('.YG...', '.YX...'));
	assert.deepEqual(await controlsShown(), []);
	assert.equal(await page.isVisible('#links'), false);
});

test('on a 390 px phone nothing scrolls sideways, no path breaks and no button wraps', { skip }, async () => {
	await page.setViewportSize({ width: 390, height: 844 });
	try {
		for (const [problem, text] of [['monomino-domino', MD_EXAMPLE], ['puyo', PUYO_EXAMPLE]]) {
			await open();
			await solveCase(problem, 'text', text);
			const m = await page.evaluate(() => {
				const lines = (el) => {
					const r = el.getClientRects();
					return new Set([...r].map((x) => Math.round(x.top))).size;
				};
				const oneLine = (el) => {
					const cs = getComputedStyle(el);
					const inner = el.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom);
					return inner < 1.5 * parseFloat(cs.lineHeight || cs.fontSize);
				};
				return {
					width: document.documentElement.scrollWidth,
					body: document.body.scrollWidth,
					brokenLinks: [...document.querySelectorAll('header a')].filter((a) => lines(a) > 1).map((a) => a.textContent),
					wrapped: [...document.querySelectorAll('button')].filter((b) => b.getClientRects().length && !oneLine(b)).map((b) => b.textContent),
				};
			});
			assert.ok(m.width <= 390 && m.body <= 390, `${problem}: the page is ${m.width} px wide`);
			assert.deepEqual(m.brokenLinks, [], `${problem}: links broken over two lines`);
			assert.deepEqual(m.wrapped, [], `${problem}: buttons wrapped`);
		}
		// The API reference too.
		await page.goto(`${server.base}/docs`);
		assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390, '/docs scrolls sideways');
		await page.goto('about:blank');
	} finally {
		await page.setViewportSize({ width: 1200, height: 900 });
	}
});

test('the page has its icon from the service, and its API link is the readable reference', { skip }, async () => {
	await open();
	const icon = await page.getAttribute('link[rel=icon]', 'href');
	for (const href of [icon, '/favicon.ico']) {
		const res = await page.request.get(`${server.base}${href}`);
		assert.equal(res.status(), 200, href);
		assert.equal(res.headers()['content-type'], 'image/svg+xml', href);
		assert.match(await res.text(), /^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
	}
	const api = page.locator('#index a', { hasText: 'GET /docs' });
	assert.equal(await api.getAttribute('href'), '/docs');
	const [res] = await Promise.all([page.waitForNavigation(), api.click()]);
	assert.equal(res.status(), 200);
	assert.match(res.headers()['content-type'], /^text\/html/);
	assert.match(res.headers()['content-security-policy'], /default-src 'self'/);
	assert.match(await page.title(), /API reference/);
	// Laid out by its own style sheet, and nothing of it ran as a script.
	assert.equal(await page.locator('script').count(), 0);
	assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('.method')).color), 'rgb(255, 255, 255)');
	assert.equal(await page.locator('section.op').count() > 20, true);
	await page.goto('about:blank');
});

test('captions and numbers stay inside the pictures, as Chromium draws them', { skip }, async () => {
	const md = 'blocks=111,230,322,323,313,200,320,312';
	const puyo = `field=${PUYO_EXAMPLE.trim().split('\n').join(',')}`;
	for (const q of [`monomino-domino/render.svg?${md}&step=4`, `monomino-domino/render.svg?${md}&step=4&cell=12`,
		`monomino-domino/render.svg?${md}`, `puyo/render.svg?${puyo}`, `puyo/render.svg?${puyo}&step=1&cell=16`]) {
		await page.goto(`${server.base}/v1/${q}`);
		const out = await page.evaluate(() => {
			const frame = document.querySelector('svg.frame');
			const w = Number(frame.getAttribute('width')), h = Number(frame.getAttribute('height'));
			return [...frame.querySelectorAll('text')].map((t) => {
				const b = t.getBBox();
				return { text: t.textContent, left: b.x, right: b.x + b.width, top: b.y, bottom: b.y + b.height, w, h };
			}).filter((b) => b.left < 0 || b.top < 0 || b.right > b.w || b.bottom > b.h);
		});
		assert.deepEqual(out, [], q);
	}
	await page.goto('about:blank');
});

// Headless Chromium fetches no icon; a browser with a tab strip asks for the
// one the page links, or /favicon.ico when it links none. Asked here as it would.
async function fetchIcon() {
	const href = await page.evaluate(() => document.querySelector('link[rel~=icon]')?.href ??
		new URL('/favicon.ico', location.href).href);
	const res = await page.request.get(href);
	if (res.status() === 404) notFound.push(href);
}

test('no request of the page answered 404', { skip }, async () => {
	await open();
	await fetchIcon();
	await solveCase('puyo', 'text', PUYO_EXAMPLE);
	await page.goto(`${server.base}/docs`);
	await fetchIcon();
	await page.goto('about:blank');
	assert.deepEqual(notFound, []);
});
