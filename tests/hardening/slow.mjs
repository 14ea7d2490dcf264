// Slow clients, for the lock-out test: N slowloris connections (request
// headers, one byte every DRIP ms, never finished) and N slow-body
// connections (complete headers, then the body one byte every DRIP ms)
// from one local address, for SECONDS. A connection the server closes is
// opened again after a pause, as an attacker would. Prints one JSON line:
// how many connections were opened, refused at once (closed within 1 s
// without an answer) and cut later, and the longest any connection lived.
//
//   node slow.mjs PORT FROM_ADDRESS N SECONDS DRIP_MS
import net from 'node:net';

const [port, from, n, seconds, drip] = process.argv.slice(2).map((v, i) => (i === 1 ? v : Number(v)));
const end = Date.now() + seconds * 1000;
const stats = { opened: 0, refused: 0, cut: 0, errors: 0, longestMs: 0, stillOpen: 0 };
const open = new Set();

const HEAD = 'GET /livez HTTP/1.1\r\nHost: x\r\nX-Slow: ';
const BODY_HEAD = 'POST /v1/puyo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n';

function slot(kind) {
	if (Date.now() >= end) return;
	const s = net.connect({ port, host: '127.0.0.1', localAddress: from });
	const opened = Date.now();
	let timer = null;
	let gone = false;
	stats.opened++;
	open.add(s);
	s.on('connect', () => {
		s.write(kind === 'loris' ? HEAD : BODY_HEAD);
		timer = setInterval(() => { if (!gone) s.write('a'); }, drip);
	});
	s.on('data', () => {});
	const done = (err) => {
		if (gone) return;
		gone = true;
		clearInterval(timer);
		open.delete(s);
		s.destroy();
		const lived = Date.now() - opened;
		if (Date.now() >= end) return; // closed by us at the end
		if (err && err.code !== 'ECONNRESET' && err.code !== 'EPIPE') stats.errors++;
		if (lived < 1000) stats.refused++;
		else stats.cut++;
		stats.longestMs = Math.max(stats.longestMs, lived);
		setTimeout(() => slot(kind), lived < 1000 ? 1000 : 50);
	};
	s.on('error', done);
	s.on('close', () => done());
}

for (let i = 0; i < n; i++) {
	slot('loris');
	slot('body');
}
setTimeout(() => {
	stats.stillOpen = open.size;
	for (const s of open) stats.longestMs = Math.max(stats.longestMs, 0);
	console.log(JSON.stringify(stats));
	for (const s of open) s.destroy();
	process.exit(0);
}, seconds * 1000 + 100);
