// The load of make test-scale: a bounded number of correct-answer checks
// sent through nginx by a few keep-alive clients at once. Every case is
// random (Monomino-Domino placements and Puyo fields from a fixed seed),
// and every answer is compared with the reference implementation of the
// rules (tests/http/reference.mjs), never with dropjudge's own output.
// Midway it stops two replicas: one with SIGTERM (it drains), one with
// SIGKILL (it vanishes mid-request). Any answer other than 200 with the
// right body, and any transport error, is a failure.
//
//   node scale-load.mjs URL REQUESTS CLIENTS TERM_PID KILL_PID
//
// Prints one line of figures; exits 1 on any failure.
import http from 'node:http';
import { mdSolve, puyoSolve } from '../http/reference.mjs';
import { xoshiro, mdGenerate } from '../http/prng.mjs';

const [url, total, clients, termPid, killPid] = process.argv.slice(2);
const N = Number(total);
const C = Number(clients);
const target = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: C });

const rng = xoshiro(20240601n);
const COLORS = '.....RGBPY';

function makeCase(i) {
	if (i % 2 === 0) {
		const blocks = mdGenerate(BigInt(1000 + i), 1 + rng.below(i % 10 === 0 ? 3000 : 40));
		const r = mdSolve(blocks);
		return { path: '/v1/monomino-domino', body: JSON.stringify({ blocks }), want: `${r.score}\n${r.tiles}\n` };
	}
	const field = [];
	for (let y = 0; y < 12; y++) {
		let row = '';
		for (let x = 0; x < 6; x++) row += COLORS[rng.below(COLORS.length)];
		field.push(row);
	}
	const r = puyoSolve(field);
	return { path: '/v1/puyo', body: JSON.stringify({ field }), want: `${r.chains}\n` };
}

function post(c) {
	return new Promise((resolve) => {
		const req = http.request({
			host: target.hostname, port: target.port, path: c.path, method: 'POST', agent,
			headers: { 'Content-Type': 'application/json', Accept: 'text/plain', 'Content-Length': Buffer.byteLength(c.body) },
			timeout: 30000,
		}, (res) => {
			let body = '';
			res.setEncoding('utf8');
			res.on('data', (d) => { body += d; });
			res.on('end', () => resolve({ status: res.statusCode, body }));
			res.on('error', (e) => resolve({ error: e.message }));
		});
		req.on('timeout', () => req.destroy(new Error('timeout')));
		req.on('error', (e) => resolve({ error: e.message }));
		req.end(c.body);
	});
}

let next = 0;
let done = 0;
let failed = 0;
let wrong = 0;
let stopped = false;
const latencies = [];
const failures = [];

async function client() {
	while (next < N) {
		const i = next++;
		const c = makeCase(i);
		const t0 = process.hrtime.bigint();
		const r = await post(c);
		latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
		done++;
		if (r.error || r.status !== 200) {
			failed++;
			if (failures.length < 5) failures.push(`#${i} ${c.path}: ${r.error ?? `${r.status} ${r.body.slice(0, 200)}`}`);
		} else if (r.body !== c.want) {
			wrong++;
			if (failures.length < 5) failures.push(`#${i} ${c.path}: got ${JSON.stringify(r.body)}, want ${JSON.stringify(c.want)}`);
		}
		if (!stopped && done >= N / 2) {
			stopped = true;
			process.kill(Number(termPid), 'SIGTERM');
			process.kill(Number(killPid), 'SIGKILL');
			console.log(`   at request ${done}: SIGTERM to replica ${termPid}, SIGKILL to replica ${killPid}`);
		}
	}
}

const t0 = Date.now();
await Promise.all(Array.from({ length: C }, client));
const secs = (Date.now() - t0) / 1000;
agent.destroy();
latencies.sort((a, b) => a - b);
const p = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1);
console.log(`scale: ${done} requests through nginx to 3 replicas, ${C} clients, ${secs.toFixed(1)} s ` +
	`(${(done / secs).toFixed(0)} req/s), p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, max ${latencies.at(-1).toFixed(1)} ms: ` +
	`${failed} failed, ${wrong} wrong answers`);
for (const f of failures) console.log(`   ${f}`);
process.exit(failed || wrong || !stopped ? 1 : 0);
