// Heavy clients, for the head-of-line test: N connections each posting the
// body in FILE to PATH in a loop for SECONDS, reading every answer whole
// (Content-Length framed, or chunked as a streamed answer is).
// Prints one JSON line: answers by status, and the slowest one in ms.
//
//   node heavy.mjs PORT PATH FILE N SECONDS
import net from 'node:net';
import fs from 'node:fs';

const [port, path, file, n, seconds] = process.argv.slice(2).map((v, i) => (i === 1 || i === 2 ? v : Number(v)));
const body = fs.readFileSync(file);
const head = Buffer.from(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
const end = Date.now() + seconds * 1000;
const stats = { statuses: {}, slowestMs: 0, answers: 0 };

function client() {
	return new Promise((resolve) => {
		const s = net.connect({ port, host: '127.0.0.1' });
		let chunks = [];
		let buffered = 0;
		let buf = Buffer.alloc(0);
		let want = -1; // end of the answer in buf, when Content-Length framed
		let chunked = false; // the answer is chunked: buf holds its rest
		let t0 = 0;
		const send = () => {
			if (Date.now() >= end) { s.destroy(); resolve(); return; }
			t0 = Date.now();
			s.write(Buffer.concat([head, body]));
		};
		const answered = () => {
			stats.answers++;
			stats.slowestMs = Math.max(stats.slowestMs, Date.now() - t0);
			send();
		};
		// Skips whole chunks at the start of buf; true once the last one is read.
		const chunksDone = () => {
			for (;;) {
				const i = buf.indexOf('\r\n');
				if (i < 0) return false;
				const size = parseInt(buf.subarray(0, i).toString('latin1'), 16);
				if (buf.length < i + 2 + size + 2) return false;
				buf = buf.subarray(i + 2 + size + 2);
				if (size === 0) return true;
			}
		};
		s.on('connect', send);
		s.on('data', (d) => {
			chunks.push(d);
			buffered += d.length;
			// a streamed answer arrives in many small pieces: join them only
			// when there is enough to look at
			if (want >= 0 && buf.length + buffered < want) return;
			buf = Buffer.concat([buf, ...chunks]);
			chunks = [];
			buffered = 0;
			for (;;) {
				if (chunked) {
					if (!chunksDone()) return;
					chunked = false;
					answered();
					continue;
				}
				if (want < 0) {
					const i = buf.indexOf('\r\n\r\n');
					if (i < 0) return;
					const h = buf.subarray(0, i).toString('latin1');
					const status = h.slice(9, 12);
					stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
					if (/transfer-encoding: *chunked/i.test(h)) {
						buf = buf.subarray(i + 4);
						chunked = true;
						continue;
					}
					want = i + 4 + Number(h.match(/content-length: *(\d+)/i)[1]);
				}
				if (buf.length < want) return;
				buf = buf.subarray(want);
				want = -1;
				answered();
			}
		});
		s.on('error', () => resolve());
		s.on('close', () => resolve());
	});
}

await Promise.all(Array.from({ length: n }, client));
console.log(JSON.stringify(stats));
