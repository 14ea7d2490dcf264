// No desync (RFC 9112 sections 3.2, 5, 6.1, 6.3): each ambiguous framing is
// sent raw over a socket, with a complete request smuggled in its bytes
// (GET /v1, whose answer is unmistakable) and followed on the same
// connection by GET /livez. Whatever happens, no answer may come out of
// the smuggled bytes: every response is the first request's verdict or
// the /livez answer. Answers dropjudge chooses are problem+json and close
// the connection; malformed framings that libmicrohttpd refuses itself
// (text/html 400, or a closed connection, more of them on 1.0 than on
// 0.9.75) are checked for the same safety. The table is the "Framing by
// libmicrohttpd version" table of docs/OPERATING.md, row by row.
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, exchange, parseResponses, PUYO_EXAMPLE } from './lib.mjs';

const SMUGGLED = 'GET /v1 HTTP/1.1\r\nHost: x\r\n\r\n';
const SECOND = 'GET /livez HTTP/1.1\r\nHost: x\r\n\r\n';
const POST = 'POST /v1/puyo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n';
const chunked = (s) => `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n0\r\n\r\n`;

// Which libmicrohttpd the server runs with decides which rules it enforces
// itself (docs/OPERATING.md, "Framing"): 0.9.75 (Debian 12) hands out strings that a
// NUL byte cuts short and joins a folded line into the field's name, so
// those requests are read as it reads them; 1.0 (Debian 13), at the
// strictness level the server sets, refuses them, and several others,
// before the service sees them.
const MHD = /libmicrohttpd (\d+)\.(\d+)/.exec(execFileSync(process.env.DROPJUDGE_BIN, ['--version'], { encoding: 'utf8' }));
const MHD_1 = Number(MHD[1]) >= 1;

// Who answers: 'service' (problem+json, closed), 'library' (libmicrohttpd's
// own HTML 400, closed), 'dropped' (closed with no answer), 'read' (read as
// 0.9.75 reads it: answered, and what follows the blank line is a request
// of its own on the same connection, as for any reader), 'accepted'.
// [name, first request, [status, who] on 0.9.75, [status, who] on 1.0]
const CASES = [
	['Content-Length with Transfer-Encoding', `${POST}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${SMUGGLED}`, [400, 'service'], [400, 'library']],
	['two different Content-Length values', `${POST}Content-Length: 0\r\nContent-Length: ${SMUGGLED.length}\r\n\r\n${SMUGGLED}`, [400, 'service'], [400, 'service']],
	['space between a header name and its colon', `${POST}Transfer-Encoding : chunked\r\n\r\n0\r\n\r\n${SMUGGLED}`, [400, 'service'], [400, 'library']],
	['tab between a header name and its colon', `${POST}Content-Length\t: ${SMUGGLED.length}\r\n\r\n${SMUGGLED}`, [400, 'service'], [400, 'library']],
	['Transfer-Encoding: identity', `${POST}Transfer-Encoding: identity\r\n\r\n${SMUGGLED}`, [501, 'service'], [400, 'library']],
	['Transfer-Encoding: gzip, chunked', `${POST}Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n${SMUGGLED}`, [501, 'service'], [400, 'library']],
	['Transfer-Encoding: chunked, gzip', `${POST}Transfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n${SMUGGLED}`, [501, 'service'], [400, 'library']],
	['two Transfer-Encoding fields', `${POST}Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${SMUGGLED}`, [501, 'service'], [501, 'service']],
	['HTTP/1.1 without Host', `GET /livez HTTP/1.1\r\n\r\n${SMUGGLED}`, [400, 'service'], [400, 'library']],
	['two Host fields', `GET /livez HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n${SMUGGLED}`, [400, 'service'], [400, 'service']],
	['%00 in the path', `GET /livez%00abc HTTP/1.1\r\nHost: x\r\n\r\n${SMUGGLED}`, [400, 'service'], [400, 'service']],
	['a raw NUL in the path', `GET /livez\0abc HTTP/1.1\r\nHost: x\r\n\r\n${SMUGGLED}`, [200, 'read'], [0, 'dropped']],
	['%00 in a parameter', `GET /v1/puyo/generate?seed=1%00x HTTP/1.1\r\nHost: x\r\n\r\n${SMUGGLED}`, [400, 'service'], [400, 'service']],
	['a raw NUL in a parameter', `GET /v1/puyo/generate?seed=1\0x HTTP/1.1\r\nHost: x\r\n\r\n${SMUGGLED}`, [200, 'read'], [0, 'dropped']],
	['a raw NUL in the last header value', `GET /livez HTTP/1.1\r\nHost: x\r\nAccept: a\0b\r\n\r\n${SMUGGLED}`, [406, 'read'], [400, 'library']],
	['a raw NUL in a header value', `GET /livez HTTP/1.1\r\nAccept: a\0b\r\nHost: x\r\n\r\n${SMUGGLED}`, [406, 'read'], [400, 'library']],
	['a raw NUL ending the Host value', `GET /livez HTTP/1.1\r\nHost: x\0\r\nAccept: */*\r\n\r\n${SMUGGLED}`, [200, 'read'], [400, 'library']],
	['a header folded over two lines', `GET /livez HTTP/1.1\r\nHost: x\r\nAccept: a\r\n b\r\n\r\n${SMUGGLED}`, [200, 'read'], [400, 'library']],
	['a folded list (its characters cannot be in a name)', `GET /livez HTTP/1.1\r\nHost: x\r\nAccept: a\r\n text/html, */*\r\n\r\n${SMUGGLED}`, [400, 'service'], [400, 'library']],
	['a bare CR in a header value', `GET /livez HTTP/1.1\r\nHost: x\r\nAccept: a\rb\r\n\r\n${SMUGGLED}`, [400, 'service'], [400, 'library']],
	['a header name that is not a token', `GET /livez HTTP/1.1\r\nHost: x\r\nAc(cept: a\r\n\r\n${SMUGGLED}`, [400, 'service'], [400, 'service']],
	['a space in the target', `GET /li vez HTTP/1.1\r\nHost: x\r\n\r\n${SMUGGLED}`, [400, 'service'], [400, 'library']],
	['an encoded slash (%2F) in the path', `GET /v1%2Fpuyo/generate HTTP/1.1\r\nHost: x\r\n\r\n${SMUGGLED}`, [404, 'service'], [404, 'service']],
	['a list in Content-Length', `${POST}Content-Length: 0, ${SMUGGLED.length}\r\n\r\n${SMUGGLED}`, [400, 'library'], [400, 'library']],
	['a negative Content-Length', `${POST}Content-Length: -1\r\n\r\n${SMUGGLED}`, [400, 'library'], [400, 'library']],
	['a chunk size that is not hexadecimal', `${POST}Transfer-Encoding: chunked\r\n\r\nzz\r\n${SMUGGLED}\r\n0\r\n\r\n`, [400, 'library'], [400, 'library']],
	// Controls: unambiguous framings are answered and the connection goes on.
	['the same Content-Length twice', `${POST}Content-Length: ${PUYO_EXAMPLE.length}\r\nContent-Length: ${PUYO_EXAMPLE.length}\r\n\r\n${PUYO_EXAMPLE}`, [200, 'accepted'], [200, 'accepted']],
	['a chunked body', `${POST}Transfer-Encoding: chunked\r\n\r\n${chunked(PUYO_EXAMPLE)}`, [200, 'accepted'], [200, 'accepted']],
	['a decoded path segment (%76 for v)', `GET /li%76ez HTTP/1.1\r\nHost: x\r\n\r\n`, [200, 'accepted'], [200, 'accepted']],
	['bare LF line ends', 'GET /livez HTTP/1.1\nHost: x\nAccept: */*\n\n', [200, 'accepted'], [400, 'library']],
	['blanks after header values and an empty value', 'GET /livez HTTP/1.1\r\nHost: x  \r\nAccept: */*\t\r\nX-Empty:\r\n\r\n', [200, 'accepted'], [200, 'accepted']],
	['26 kB of headers', `GET /livez HTTP/1.1\r\nHost: x\r\nX-A: ${'a'.repeat(16000)}\r\nX-B: ${'b'.repeat(10000)}\r\n\r\n`, [200, 'accepted'], [200, 'accepted']],
];

const server = await startServer();

for (const [name, first, old, current] of CASES) {
	const [status, who] = MHD_1 ? current : old;
	const outcome = { accepted: ', then the next request', read: ', read as the library reads it', dropped: ': closed with no answer' }[who] ?? ', connection closed';
	test(`${name}: ${who === 'dropped' ? 'no answer' : status}${outcome}; nothing answered from the smuggled bytes (libmicrohttpd ${MHD[1]}.${MHD[2]})`, async () => {
		const { data, closed } = await exchange(server.port, [first, SECOND], { ms: 2500, gap: 150, responses: who === 'accepted' ? 2 : Infinity });
		const { responses, rest } = parseResponses(data);
		if (who === 'dropped') {
			assert.equal(data.length, 0, `an answer came: ${JSON.stringify(data.toString('latin1'))}`);
			assert.ok(closed, 'the connection stayed open');
			return;
		}
		assert.ok(responses.length >= 1, `no answer at all: ${JSON.stringify(data.toString('latin1'))}`);
		const [r] = responses;
		assert.equal(r.status, status, `${name}: ${r.body}`);
		if (who === 'read') {
			// The request ended at its blank line: the next bytes are a
			// request of their own, answered in order, then GET /livez.
			assert.equal(responses.length, 3, 'the requests after the first were not answered in order');
			assert.match(responses[1].body, /"problems"/);
			assert.deepEqual(JSON.parse(responses[2].body), { status: 'ok' });
			return;
		}
		for (const x of responses) {
			assert.doesNotMatch(x.body, /"problems"|monomino-domino/, 'an answer came from the smuggled GET /v1');
		}
		if (who === 'accepted') {
			assert.equal(responses.length, 2, 'the second request was not answered');
			assert.equal(responses[1].status, 200);
			assert.deepEqual(JSON.parse(responses[1].body), { status: 'ok' });
			return;
		}
		assert.ok(closed, 'the connection stayed open after the refusal');
		assert.equal(r.headers.connection, 'close');
		if (who === 'service') {
			assert.equal(responses.length, 1, 'more than one answer on a refused connection');
			assert.equal(rest.length, 0);
			assert.equal(r.headers['content-type'], 'application/problem+json');
			const p = JSON.parse(r.body);
			assert.equal(p.status, status);
			assert.ok(p.detail.length > 0);
		} else {
			// libmicrohttpd's own answer: its html page, then it closes. (0.9.75
			// writes its header block twice inside it; the declared length covers
			// the rest of what it sends, and nothing else follows.)
			assert.match(data.toString('latin1'), /<html>/);
			assert.doesNotMatch(data.toString('latin1'), /"status":"ok"/, 'the second request was answered');
		}
	});
}
