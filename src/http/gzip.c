/* gzip both ways with zlib (gzip.h). */
#include "http/gzip.h"

#include <string.h>
#include <strings.h>
#include <zlib.h>

#include "mem/alloc.h"

/* zlib's windowBits for a gzip wrapper (15 bits of window + 16). */
#define GZIP_WINDOW (15 + 16)
/* Bytes inflated at a time. */
#define GUNZIP_CHUNK 16384

struct http_gunzip {
	z_stream zs; /* inflate state */
	bool failed; /* the data was not gzip */
	bool done;   /* the stream's end was read */
};

/* Whether s[0..n) names the gzip coding: "gzip" or "x-gzip", in any case. */
static bool gzip_is_coding(const char *s, size_t n)
{
	return (n == 4 && strncasecmp(s, "gzip", 4) == 0) ||
	       (n == 6 && strncasecmp(s, "x-gzip", 6) == 0);
}

bool http_gzip_named(const char *content_encoding)
{
	if (!content_encoding)
		return false;
	content_encoding += strspn(content_encoding, " \t");
	return gzip_is_coding(content_encoding, strcspn(content_encoding, " \t"));
}

struct http_gunzip *http_gunzip_new(void)
{
	struct http_gunzip *z = dj_calloc(1, sizeof *z);
	if (!z)
		return NULL;
	z->zs.zalloc = dj_zalloc;
	z->zs.zfree = dj_zfree;
	if (inflateInit2(&z->zs, GZIP_WINDOW) != Z_OK) {
		dj_free(z);
		return NULL;
	}
	return z;
}

bool http_gunzip_feed(struct http_gunzip *z, const char *data, size_t size, http_gunzip_sink *sink,
		      void *ctx)
{
	char out[GUNZIP_CHUNK];
	if (z->failed)
		return false;
	while (size > 0) {
		if (z->done) { /* bytes after the end of the stream */
			z->failed = true;
			return false;
		}
		uInt take = size > UINT32_MAX ? UINT32_MAX : (uInt)size;
		z->zs.next_in = (Bytef *)(uintptr_t)data;
		z->zs.avail_in = take;
		do {
			z->zs.next_out = (Bytef *)out;
			z->zs.avail_out = sizeof out;
			int rc = inflate(&z->zs, Z_NO_FLUSH);
			if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
				z->failed = true;
				return false;
			}
			size_t got = sizeof out - z->zs.avail_out;
			if (got && !sink(ctx, out, got))
				return false;
			if (rc == Z_STREAM_END) {
				z->done = true;
				break;
			}
			if (rc == Z_BUF_ERROR && got == 0)
				break;
		} while (z->zs.avail_in > 0 || z->zs.avail_out == 0);
		size_t used = take - z->zs.avail_in;
		data += used;
		size -= used;
		if (used == 0 && !z->done)
			break;
	}
	return true;
}

bool http_gunzip_failed(const struct http_gunzip *z)
{
	return z->failed;
}

bool http_gunzip_done(const struct http_gunzip *z)
{
	return z->done;
}

void http_gunzip_free(struct http_gunzip *z)
{
	if (!z)
		return;
	inflateEnd(&z->zs);
	dj_free(z);
}

/* Whether an Accept-Encoding header lets gzip through (RFC 9110, 12.5.3). */
static bool gzip_accepted(const char *accept)
{
	bool gzip = false, star = false, gzip_named = false;
	for (const char *s = accept; s && *s;) {
		while (*s == ' ' || *s == '\t' || *s == ',')
			s++;
		size_t n = strcspn(s, ",");
		size_t tok = strcspn(s, " \t;,");
		/* A weight of zero: "q=0", then only '0' and '.' to its end. */
		const char *q = memchr(s, ';', n);
		const char *v = q ? strstr(q, "q=") : NULL;
		size_t k = v && v < s + n ? strspn(v + 2, "0.") : 0;
		bool zero =
		    k > 0 && v[2] == '0' && (v[2 + k] == ' ' || v[2 + k] == ',' || !v[2 + k]);
		if (gzip_is_coding(s, tok)) {
			gzip_named = true;
			gzip = !zero;
		} else if (tok == 1 && *s == '*') {
			star = !zero;
		}
		s += n;
	}
	return gzip_named ? gzip : star;
}

/* Bytes of a streamed answer read before they are compressed. */
#define GZIP_STREAM_CHUNK 16384

/* A streamed answer compressed as it is sent. */
struct gzip_stream {
	z_stream zs;		   /* deflate state */
	struct route_stream inner; /* the answer, owned */
	bool inner_done;	   /* inner has ended */
	bool finished;		   /* the gzip trailer is written */
	char in[GZIP_STREAM_CHUNK];
};

/* route_stream.read: the next compressed bytes, as soon as deflate gives any (bounded work). */
static long gzip_stream_read(void *ctx, char *buf, size_t size)
{
	struct gzip_stream *g = ctx;
	uInt cap = size > UINT32_MAX ? UINT32_MAX : (uInt)size;
	if (g->finished)
		return 0;
	g->zs.next_out = (Bytef *)buf;
	g->zs.avail_out = cap;
	while (g->zs.avail_out == cap) {
		if (g->zs.avail_in == 0 && !g->inner_done) {
			long n = g->inner.read(g->inner.ctx, g->in, sizeof g->in);
			if (n < 0)
				return -1;
			g->inner_done = n == 0;
			g->zs.next_in = (Bytef *)g->in;
			g->zs.avail_in = (uInt)n;
		}
		int r = deflate(&g->zs, g->inner_done ? Z_FINISH : Z_NO_FLUSH);
		if (r == Z_STREAM_END) {
			g->finished = true;
			break;
		}
		if (r != Z_OK && r != Z_BUF_ERROR)
			return -1;
	}
	return (long)(cap - g->zs.avail_out);
}

static void gzip_stream_free(void *ctx)
{
	struct gzip_stream *g = ctx;
	deflateEnd(&g->zs);
	if (g->inner.free)
		g->inner.free(g->inner.ctx);
	dj_free(g);
}

/* Puts a gzip stream around resp's streamed answer; left as it was when out of memory. */
static void gzip_wrap_stream(struct route_response *resp)
{
	struct gzip_stream *g = dj_calloc(1, sizeof *g);
	if (!g)
		return;
	g->zs.zalloc = dj_zalloc;
	g->zs.zfree = dj_zfree;
	int level = resp->stream.gzip_level > 0 ? resp->stream.gzip_level : Z_DEFAULT_COMPRESSION;
	if (deflateInit2(&g->zs, level, Z_DEFLATED, GZIP_WINDOW, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		dj_free(g);
		return;
	}
	g->inner = resp->stream;
	resp->stream =
	    (struct route_stream){.read = gzip_stream_read, .free = gzip_stream_free, .ctx = g};
	route_add_header(resp, "Content-Encoding", "gzip");
}

void http_gzip_response(struct route_response *resp, const char *accept_encoding)
{
	/* Streamed answers are large ones. */
	if (!resp->stream.read && (!resp->body || resp->body_len <= HTTP_GZIP_MIN))
		return;
	route_add_vary(resp, "Accept-Encoding");
	if (!gzip_accepted(accept_encoding))
		return;
	if (resp->stream.read && resp->stream.gzipped && resp->stream.gzipped(resp->stream.ctx))
		route_add_header(resp, "Content-Encoding", "gzip"); /* held compressed */
	else if (resp->stream.read)
		gzip_wrap_stream(resp);
	if (resp->stream.read || resp->body_len > UINT32_MAX)
		return;
	z_stream zs = {.zalloc = dj_zalloc, .zfree = dj_zfree};
	if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, GZIP_WINDOW, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return;
	uLong cap = deflateBound(&zs, (uLong)resp->body_len);
	char *out = dj_malloc(cap);
	if (!out)
		goto out_end;
	zs.next_in = (Bytef *)resp->body;
	zs.avail_in = (uInt)resp->body_len;
	zs.next_out = (Bytef *)out;
	zs.avail_out = (uInt)cap;
	if (deflate(&zs, Z_FINISH) != Z_STREAM_END || zs.total_out >= resp->body_len) {
		dj_free(out);
		goto out_end;
	}
	route_response_free(resp);
	resp->body = out;
	resp->body_len = zs.total_out;
	route_add_header(resp, "Content-Encoding", "gzip");
out_end:
	deflateEnd(&zs);
}
