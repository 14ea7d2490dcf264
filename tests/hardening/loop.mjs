// Looping clients, for the pictures test: N connections (spread over the
// source addresses 127.0.0.1..127.0.0.4) each sending the GET request in
// FILE again as soon as its answer (Content-Length framed) is read whole,
// for SECONDS. A process of its own, so that reading megabytes does not
// delay the probes of the test. Prints one JSON line: answers by status.
//
//   node loop.mjs PORT FILE N SECONDS
import net from 'node:net';
import fs from 'node:fs';

const [port, file, n, seconds] = process.argv.slice(2).map((v, i) => (i === 1 ? v : Number(v)));
const request = fs.readFileSync(file);
const end = Date.now() + seconds * 1000;
const stats = { statuses: {}, answers: 0 };

function client(i) {
	return new Promise((resolve) => {
		const s = net.connect({ port, host: '127.0.0.1', localAddress: `127.0.0.${1 + (i % 4)}` });
		let head = Buffer.alloc(0); // the answer's head while it is incomplete
		let left = -1; // body bytes still to come; -1: reading the head
		const send = () => {
			if (Date.now() >= end) { s.destroy(); resolve(); return; }
			s.write(request);
		};
		const take = (d) => {
			while (d.length) {
				if (left < 0) {
					head = Buffer.concat([head, d]);
					const at = head.indexOf('\r\n\r\n');
					if (at < 0) return;
					const text = head.subarray(0, at).toString('latin1');
					const status = text.slice(9, 12);
					stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
					left = Number(text.match(/\r\ncontent-length: *(\d+)/i)?.[1] ?? 0);
					d = head.subarray(at + 4);
					head = Buffer.alloc(0);
				}
				const used = Math.min(left, d.length);
				left -= used;
				d = d.subarray(used);
				if (left === 0) { left = -1; stats.answers++; send(); }
			}
		};
		s.on('connect', send);
		s.on('data', take);
		s.on('error', resolve);
		s.on('close', resolve);
	});
}

await Promise.all(Array.from({ length: n }, (_, i) => client(i)));
console.log(JSON.stringify(stats));
