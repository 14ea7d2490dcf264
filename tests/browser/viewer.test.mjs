// The viewer in a real browser: the service on a free loopback port, the
// page at GET / in headless Chromium driven by playwright-core. Both public
// examples are typed in, their answers and frames checked against the
// problem statements, a trace stepped with the keyboard and the Puyo chain
// played; errors must be shown at their line; screenshots must match the
// reference PNGs in tests/browser/ref (a small pixel tolerance); and the
// page must make no request outside the service.
//
//   UPDATE_SCREENSHOTS=1  write the reference PNGs instead of comparing
//   DOCS_IMAGES=DIR       also save the screenshots into DIR (docs/images)
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
// may differ (anti-aliasing), by pixelmatch's perceptual threshold.
async function matchScreenshot(name, locator) {
	const { PNG } = await import('pngjs');
	const pixelmatch = (await import('pixelmatch')).default;
	const shot = await locator.screenshot({ animations: 'disabled', caret: 'hide' });
	if (DOCS) fs.writeFileSync(path.join(DOCS, `viewer-${name}.png`), shot);
	const file = path.join(REF, `${name}.png`);
	if (UPDATE || !fs.existsSync(file)) {
		assert.ok(UPDATE, `no reference ${file}; run with UPDATE_SCREENSHOTS=1 and commit it`);
		fs.mkdirSync(REF, { recursive: true });
		fs.writeFileSync(file, shot);
		return;
	}
	const got = PNG.sync.read(shot);
	const want = PNG.sync.read(fs.readFileSync(file));
	assert.equal(`${got.width}x${got.height}`, `${want.width}x${want.height}`, `${name}: size`);
	const diff = new PNG({ width: got.width, height: got.height });
	const n = pixelmatch(got.data, want.data, diff.data, got.width, got.height, { threshold: 0.1 });
	const share = n / (got.width * got.height);
	if (share > 0.005) {
		const out = path.join(os.tmpdir(), `dropjudge-${name}-diff.png`);
		fs.writeFileSync(out, PNG.sync.write(diff));
		assert.fail(`${name}: ${n} pixels (${(share * 100).toFixed(2)}%) differ from ${file}; diff in ${out}`);
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
	await page.click('#first');
	assert.equal(await frameLabel(), 'chain step 1 of 3');
	await matchScreenshot('puyo-example-step-1', page.locator('#result'));
	await page.click('#play');
	await page.waitForFunction(() => /final state/.test(document.getElementById('frame-label').textContent),
		null, { timeout: 10000 });
	assert.equal(await page.textContent('#play'), 'Play');
	await matchScreenshot('puyo-example-final', page.locator('#result'));
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
