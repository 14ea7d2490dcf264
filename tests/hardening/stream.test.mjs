// A text case is judged as it arrives, not kept whole: with --max-body
// 100000000 and --max-blocks 20000000, a 60 MB Monomino-Domino text body
// (10,000,000 placements) leaves the server's peak RSS (VmHWM, the peak
// reset through /proc/PID/clear_refs) within 2 MiB of its RSS before the
// request. Its answer is the one the same body gets when it is kept whole
// (asked with ?trace=false, which reads the body after it has all come).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startServer, sleep, parseResponses, memory, resetPeak } from './lib.mjs';

const MIB = 1024 * 1024;

// One request over its own connection; resolves to {status, body}.
function post(port, path, body) {
	return new Promise((resolve, reject) => {
		const s = net.connect({ port, host: '127.0.0.1' });
		const chunks = [];
		s.on('connect', () => {
			s.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nAccept: application/json\r\n` +
				`Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`);
			s.write(body);
		});
		s.on('data', (d) => chunks.push(d));
		s.on('end', () => {
			const { responses } = parseResponses(Buffer.concat(chunks));
			s.destroy();
			resolve(responses[0]);
		});
		s.on('error', reject);
	});
}

// N placements "t x y", every one inside the red board, from a small LCG.
function mdText(n, seed = 7) {
	const lines = new Array(n + 1);
	lines[0] = `${n}`;
	for (let i = 1; i <= n; i++) {
		seed = (seed * 1103515245 + 12345) & 0x7fffffff;
		const t = 1 + (seed % 3);
		lines[i] = `${t} ${(seed >> 4) % (t === 3 ? 3 : 4)} ${(seed >> 8) % (t === 2 ? 3 : 4)}`;
	}
	return `${lines.join('\n')}\n`;
}

const server = await startServer({ args: ['--max-body', '100000000', '--max-blocks', '20000000'] });

test('a 60 MB text case streams through the simulator: peak RSS within 2 MiB of idle, and the answer of the body kept', async () => {
	const body = mdText(10_000_000);
	assert.ok(Buffer.byteLength(body) >= 60_000_000, 'a 60 MB body');
	// The threads' stacks and heaps exist before the measure.
	const warm = await post(server.port, '/v1/monomino-domino', mdText(1000));
	assert.equal(warm.status, 200);
	await sleep(500);
	const idle = memory(server.pid).rss;
	resetPeak(server.pid);
	const streamed = await post(server.port, '/v1/monomino-domino', body);
	const peak = memory(server.pid).hwm;
	assert.equal(streamed.status, 200, streamed.body);
	console.log(`a 60 MB text case: idle RSS ${(idle / MIB).toFixed(2)} MiB, peak ${(peak / MIB).toFixed(2)} MiB, ` +
		`extra ${((peak - idle) / MIB).toFixed(2)} MiB`);
	assert.ok(peak - idle <= 2 * MIB, `peak ${peak} is more than 2 MiB over idle ${idle}`);

	const kept = await post(server.port, '/v1/monomino-domino?trace=false', body);
	assert.equal(kept.status, 200, kept.body);
	assert.equal(streamed.body, kept.body, 'the answer of the body kept');
	const answer = JSON.parse(streamed.body);
	assert.ok(answer.score > 0 && answer.tiles >= 0);
});

test('a text case with faults deep in a large body gets every fault, as when kept', async () => {
	const good = mdText(200_000);
	const lines = good.split('\n');
	lines[100] = '4 0 0';
	lines[150_000] = '1 x 0';
	lines[199_999] = '2 0 3';
	const body = lines.join('\n');
	const streamed = await post(server.port, '/v1/monomino-domino', body);
	const kept = await post(server.port, '/v1/monomino-domino?trace=false', body);
	assert.equal(streamed.status, 422);
	assert.equal(kept.status, streamed.status);
	const a = JSON.parse(streamed.body);
	const b = JSON.parse(kept.body);
	delete a.request_id;
	delete b.request_id;
	assert.deepEqual(a, b);
	assert.deepEqual(a.errors.map((e) => e.line), [101, 150_001, 200_000]);
});
