// Plumbing of the hardening tests: raw sockets, percentiles, /proc
// readings. The server is started by the integration suite's
// startServer() (real binary, port 0, stopped by PID).
import net from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import { CASES_DIR } from '../http/helper.mjs';

export { startServer, sleep } from '../http/helper.mjs';

// The public Puyo example of the problem statement and its answer.
export const PUYO_EXAMPLE = fs.readFileSync(path.join(CASES_DIR, 'puyo/example-text/input.txt'), 'utf8');
export const PUYO_EXAMPLE_CHAINS = Number(fs.readFileSync(path.join(CASES_DIR, 'puyo/example-text/expected.txt'), 'utf8').trim());

export function puyoRequest(host = 'x') {
	return `POST /v1/puyo HTTP/1.1\r\nHost: ${host}\r\nContent-Type: text/plain\r\n` +
		`Content-Length: ${Buffer.byteLength(PUYO_EXAMPLE)}\r\n\r\n${PUYO_EXAMPLE}`;
}

// Splits a byte stream into HTTP/1.1 responses (Content-Length framed;
// a response without one runs to the end). Returns [{status, headers,
// body}] and the bytes left over.
export function parseResponses(buf) {
	const out = [];
	let rest = buf;
	for (;;) {
		const end = rest.indexOf('\r\n\r\n');
		if (end < 0) break;
		const head = rest.subarray(0, end).toString('latin1').split('\r\n');
		const m = head[0].match(/^HTTP\/1\.[01] (\d{3})/);
		if (!m) break;
		const headers = {};
		for (const line of head.slice(1)) {
			const i = line.indexOf(':');
			headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
		}
		const len = headers['content-length'] !== undefined ? Number(headers['content-length']) : rest.length - end - 4;
		if (rest.length < end + 4 + len) break;
		out.push({ status: Number(m[1]), headers, body: rest.subarray(end + 4, end + 4 + len).toString('utf8') });
		rest = rest.subarray(end + 4 + len);
	}
	return { responses: out, rest };
}

// Opens a connection, writes each chunk of `parts` (a small pause
// between them), and collects everything the server sends until it closes
// or `ms` pass, or `responses` answers have come. Returns {data, closed}.
export function exchange(port, parts, { ms = 3000, gap = 100, localAddress, responses = Infinity } = {}) {
	return new Promise((resolve) => {
		const s = net.connect({ port, host: '127.0.0.1', localAddress });
		const chunks = [];
		let done = false;
		const finish = (closed) => {
			if (done) return;
			done = true;
			clearTimeout(timer);
			s.destroy();
			resolve({ data: Buffer.concat(chunks), closed });
		};
		const timer = setTimeout(() => finish(false), ms);
		s.on('data', (d) => {
			chunks.push(d);
			if (parseResponses(Buffer.concat(chunks)).responses.length >= responses) finish(false);
		});
		s.on('end', () => finish(true));
		s.on('close', () => finish(true));
		s.on('error', () => finish(true));
		s.on('connect', async () => {
			for (const p of parts) {
				if (done) return;
				s.write(p);
				await new Promise((r) => setTimeout(r, gap));
			}
		});
	});
}

export function percentile(values, p) {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

// VmRSS and VmHWM of a process, in bytes.
export function memory(pid) {
	const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
	const kb = (name) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm'))[1]) * 1024;
	return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

// Resets the peak RSS (VmHWM) of a process to its current RSS (Linux:
// writing 5 to clear_refs).
export function resetPeak(pid) {
	fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}
