/*
 * Streams of cases (application/x-ndjson or jsonl): one case a line, answered as the request
 * holding it alone would be, its "id" echoed, or {"line": n, "id": ..., "error": problem}; then a
 * summary line. Blank lines are skipped, a CR before the LF dropped, a line over the JSON body
 * limit is its 413. Lines the problem's fast reader takes are solved here as route_solve() would.
 *
 * libmicrohttpd sends nothing before the whole body is read, so the answer is held: runs of gzip
 * bytes and packed outcomes, written out as it is sent (the gzip bytes as they are when nothing
 * was packed). The command line hands its own sink and nothing is held.
 */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "mem/alloc.h"
#include "route/handlers.h"

/* 1: lines read with the problems' fast readers; 0: every line through route_handle(). */
#ifndef NDJSON_DIRECT
#define NDJSON_DIRECT 1
#endif

#define NDJSON_BLOCK	   ((size_t)256 << 10) /* bytes of a block of the held answer */
#define NDJSON_LEVEL	   4		       /* zlib's level, held answer (docs/PERFORMANCE.md) */
#define NDJSON_STAGE	   65536	       /* answer bytes deflated together */
#define NDJSON_GZIP_WINDOW (15 + 16)	       /* zlib's windowBits with the gzip wrapper */
#define NDJSON_SEND_LEVEL  1		       /* zlib's level for the gzip of the answer sent */
#define NDJSON_LINE_MAX	   256		       /* bytes of an answer line from a packed outcome */

/* Kinds of held records: a tag byte, then its bytes. */
enum nd_record {
	ND_TEXT = 1,   /* a 4-byte length: answer bytes of the gzip run */
	ND_PACKED = 2, /* a packed outcome (problem.outcome_pack) */
};
#define ND_TEXT_RECORD 5 /* bytes of a text record */

/* A block of the held answer. */
struct nd_block {
	struct nd_block *next; /* the next block, NULL for the last */
	size_t len;	       /* bytes in data, at most NDJSON_BLOCK */
	char data[];	       /* NDJSON_BLOCK bytes */
};

struct route_ndjson {
	struct route_request line_req; /* the stream's, as JSON, for one line */
	struct route_tally tally;      /* what the lines counted */
	struct route_tally *outer;     /* the stream request's tally, or NULL */
	size_t line_max;	       /* bytes of a line, its CR and LF left out */
	struct route_buf line;	       /* the line being read, when split over chunks */
	bool over;		       /* the line being read passed line_max */
	unsigned long lineno;	       /* lines read so far */
	unsigned long cases;	       /* lines that are not blank */
	unsigned long failed;	       /* of them, answered with an error */
	route_put_fn *put;	       /* the caller's sink, or NULL: held below */
	void *ctx;		       /* handed to put */
	bool broken;		       /* put failed or memory ran out: nothing more */
	bool ended;		       /* route_ndjson_end() has run */
	const struct problem *direct;  /* whose fast reader takes lines here, or NULL */
	struct problem_limits pl;      /* what the stream's lines may read */
	z_stream z;		       /* deflating into held, then inflating out of it */
	bool z_live;		       /* z holds a stream to end */
	char *stage;		       /* answer bytes not yet deflated, NDJSON_STAGE */
	size_t staged;		       /* bytes in stage */
	struct nd_block *held;	       /* the answer, gzip-compressed: the first block */
	struct nd_block *last;	       /* the block being filled */
	struct nd_block *at;	       /* the block being sent, once sending began */
	size_t sent;		       /* of at, bytes given raw or inflated */
	bool raw;		       /* read() gives the gzip bytes as they are */
	bool inflating;		       /* z is an inflater over held */
	struct nd_block *recs;	       /* the held records in order: the first block */
	struct nd_block *recs_last;    /* the block being filled */
	unsigned char *run;	       /* the last record when text, else NULL */
	bool packed;		       /* a packed record is held */
	bool begun;		       /* sending the records has begun */
	struct nd_block *rat;	       /* the record block being sent, NULL at the end */
	size_t roff;		       /* of rat, bytes of records sent */
	size_t text_left;	       /* bytes of the text record left to inflate */
	char pend[NDJSON_LINE_MAX];    /* a line written from a packed record */
	size_t pend_len;	       /* bytes in pend */
	size_t pend_at;		       /* of them, bytes sent */
};

/* Appends an empty block to the list from *first to *last; false when out of memory. */
static bool nd_block_add(struct nd_block **first, struct nd_block **last)
{
	struct nd_block *b = dj_malloc(sizeof *b + NDJSON_BLOCK);
	if (!b)
		return false;
	b->next = NULL;
	b->len = 0;
	if (*last)
		(*last)->next = b;
	else
		*first = b;
	*last = b;
	return true;
}

static void nd_blocks_free(struct nd_block *b)
{
	while (b) {
		struct nd_block *next = b->next;
		dj_free(b);
		b = next;
	}
}

/* Strips the final newlines of s[0..len): the length left. */
static size_t nd_chomp(const char *s, size_t len)
{
	while (len > 0 && s[len - 1] == '\n')
		len--;
	return len;
}

/* Deflates bytes (flush: Z_NO_FLUSH or Z_FINISH) onto the held blocks; -1 when out of memory. */
static int nd_deflate(struct route_ndjson *nd, const char *bytes, size_t len, int flush)
{
	nd->z.next_in = (Bytef *)bytes;
	nd->z.avail_in = (uInt)len;
	for (;;) {
		if ((!nd->last || nd->last->len == NDJSON_BLOCK) &&
		    !nd_block_add(&nd->held, &nd->last))
			return -1;
		struct nd_block *b = nd->last;
		nd->z.next_out = (Bytef *)b->data + b->len;
		nd->z.avail_out = (uInt)(NDJSON_BLOCK - b->len);
		int st = deflate(&nd->z, flush);
		if (st == Z_STREAM_ERROR)
			return -1;
		b->len = NDJSON_BLOCK - nd->z.avail_out;
		if (flush == Z_FINISH ? st == Z_STREAM_END
				      : nd->z.avail_in == 0 && b->len < NDJSON_BLOCK)
			return 0;
	}
}

/* Room for `need` more bytes of held records (the caller counts them in len); NULL on OOM. */
static unsigned char *nd_record_room(struct route_ndjson *nd, size_t need)
{
	if ((!nd->recs_last || NDJSON_BLOCK - nd->recs_last->len < need) &&
	    !nd_block_add(&nd->recs, &nd->recs_last))
		return NULL;
	return (unsigned char *)nd->recs_last->data + nd->recs_last->len;
}

/* Counts len bytes into the last text record, or a new one after a packed or full one; -1: OOM. */
static int nd_text_run(struct route_ndjson *nd, size_t len)
{
	uint32_t n = 0;
	if (nd->run)
		memcpy(&n, nd->run + 1, sizeof n);
	if (!nd->run || len > UINT32_MAX - n) {
		unsigned char *r = nd_record_room(nd, ND_TEXT_RECORD);
		if (!r)
			return -1;
		r[0] = ND_TEXT;
		nd->recs_last->len += ND_TEXT_RECORD;
		nd->run = r;
		n = 0;
	}
	n += (uint32_t)len;
	memcpy(nd->run + 1, &n, sizeof n);
	return 0;
}

/* Adds answer bytes to the held gzip run, deflated a stage at a time; -1 when out of memory. */
static int nd_stage(struct route_ndjson *nd, const char *bytes, size_t len)
{
	int st = 0;
	if (len <= NDJSON_STAGE - nd->staged) {
		memcpy(nd->stage + nd->staged, bytes, len);
		nd->staged += len;
	} else {
		st = nd_deflate(nd, nd->stage, nd->staged, Z_NO_FLUSH);
		nd->staged = 0;
		if (st == 0 && len > NDJSON_STAGE)
			st = nd_deflate(nd, bytes, len, Z_NO_FLUSH);
		else if (st == 0)
			st = nd_stage(nd, bytes, len);
	}
	return st;
}

/* Writes answer bytes to the caller's sink, or to the held answer as text. */
static void nd_write(struct route_ndjson *nd, const char *bytes, size_t len)
{
	if (nd->broken || len == 0)
		return;
	int st = nd->put		     ? nd->put(bytes, len, nd->ctx)
		 : nd_text_run(nd, len) != 0 ? -1
					     : nd_stage(nd, bytes, len);
	if (st != 0)
		nd->broken = true;
}

/* A solved outcome's answer line as route_handle() writes it (outcome_write),
 * newline left out, into buf[NDJSON_LINE_MAX]: its length, 0 when it does not fit. */
static size_t nd_outcome_line(const struct problem *p, const struct problem_outcome *out, char *buf)
{
	int n = p->outcome_write(out, buf, NDJSON_LINE_MAX);
	return n <= 0 || n >= NDJSON_LINE_MAX ? 0 : nd_chomp(buf, (size_t)n);
}

/* Answers a line the fast reader took: its outcome packed when the problem packs, else written. */
static void nd_outcome(struct route_ndjson *nd, const struct problem_outcome *out)
{
	const struct problem *p = nd->direct;
	if (nd->broken)
		return;
	if (!nd->put && p->outcome_pack) {
		unsigned char *r = nd_record_room(nd, 1 + PROBLEM_PACKED_MAX);
		size_t n = r ? p->outcome_pack(out, r + 1) : 0;
		if (!r) {
			nd->broken = true;
			return;
		}
		if (n > 0) {
			r[0] = ND_PACKED;
			nd->recs_last->len += 1 + n;
			nd->run = NULL;
			nd->packed = true;
			return;
		}
	}
	char line[NDJSON_LINE_MAX];
	size_t len = nd_outcome_line(p, out, line);
	if (len == 0) {
		nd->broken = true;
		return;
	}
	nd_write(nd, line, len);
	nd_write(nd, "\n", 1);
}

/* The "id" of a line (a string or an integer) dumped compact into a new string
 * (dj_free), or NULL; *batch: whether the line is a batch {"cases": ...}. */
static char *nd_line_id(const char *line, size_t len, bool *batch)
{
	*batch = false;
	if (!memmem(line, len, "\"id\"", 4) && !memmem(line, len, "\"cases\"", 7))
		return NULL;
	json_error_t jerr;
	json_t *root = json_loadb(line, len, 0, &jerr);
	char *out = NULL;
	if (json_is_object(root)) {
		*batch = route_is_batch(root);
		json_t *id = json_object_get(root, "id");
		if (json_is_string(id) || json_is_integer(id))
			out = json_dumps(id, JSON_COMPACT | JSON_ENCODE_ANY);
	}
	json_decref(root);
	return out;
}

/* Writes the error line of line n: {"line":n,"id":...,"error":problem}. */
static void nd_write_error(struct route_ndjson *nd, const char *id, const char *problem, size_t len)
{
	char head[64];
	int n = snprintf(head, sizeof head, "{\"line\":%lu,", nd->lineno);
	nd_write(nd, head, (size_t)n);
	if (id) {
		nd_write(nd, "\"id\":", 5);
		nd_write(nd, id, strlen(id));
		nd_write(nd, ",", 1);
	}
	nd_write(nd, "\"error\":", 8);
	nd_write(nd, problem, len);
	nd_write(nd, "}\n", 2);
	nd->failed++;
}

/* The error line of a fault found here rather than by the line's request. */
static void nd_fault(struct route_ndjson *nd, const char *id, const struct codec_error *err)
{
	struct route_response r;
	memset(&r, 0, sizeof r);
	route_respond_error(&r, err, NULL);
	nd_write_error(nd, id, r.body, nd_chomp(r.body, r.body_len));
	route_response_free(&r);
}

/* The problem whose fast reader may answer a stream's lines (solve, no parameters), or NULL. */
static const struct problem *nd_direct(const struct route_request *req)
{
	if (!NDJSON_DIRECT || req->nparams != 0)
		return NULL; /* a parameter (trace, links) changes the answer */
	const struct route_entry *e = req->entry;
	if (!e) {
		struct route_match m;
		route_match(req, -1, &m);
		e = m.entry;
	}
	if (!e || route_entry_handler(e) != route_solve)
		return NULL;
	const struct problem *p = route_entry_problem(e);
	return p && p->solve_json_fast && p->outcome_write ? p : NULL;
}

/* Answers one line, CR and LF left out. */
static void nd_line(struct route_ndjson *nd, const char *line, size_t len, bool over)
{
	nd->lineno++;
	route_skip_bom(&line, &len); /* each line a body: as route_handle() skips one */
	size_t i = 0;
	while (!over && i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
		i++;
	if (!over && i == len)
		return; /* blank */
	nd->cases++;
	struct codec_error err;
	codec_error_init(&err);
	if (over) {
		codec_error_set(&err, CODEC_E_TOO_LARGE,
				"line %lu is longer than the limit of %zu bytes of a JSON body "
				"(--max-json-body, --max-body)",
				nd->lineno, nd->line_max);
		nd_fault(nd, NULL, &err);
		return;
	}
	struct problem_outcome out = {.steps = NULL};
	if (nd->direct && nd->direct->solve_json_fast(line, len, &nd->pl, &out)) {
		nd->tally.problem = nd->direct->id; /* as route_solve() counts it */
		nd->tally.solved++;
		nd_outcome(nd, &out);
		return;
	}
	bool batch;
	char *id = nd_line_id(line, len, &batch);
	if (batch) {
		codec_error_at_pointer(&err, CODEC_E_INVALID, "/cases",
				       "a line of a stream holds one case, not a batch; send each "
				       "case on a line of its own");
		nd_fault(nd, id, &err);
		dj_free(id);
		return;
	}
	struct route_response r;
	nd->line_req.body = line;
	nd->line_req.body_len = len;
	route_handle(&nd->line_req, &r);
	if (!route_response_gather(&r)) {
		nd->broken = true;
	} else {
		size_t blen = nd_chomp(r.body, r.body_len);
		if (r.status != 200) {
			nd_write_error(nd, id, r.body, blen);
		} else if (id && blen > 0 && r.body[blen - 1] == '}') {
			nd_write(nd, r.body, blen - 1);
			nd_write(nd, blen > 2 ? ",\"id\":" : "\"id\":", blen > 2 ? 6 : 5);
			nd_write(nd, id, strlen(id));
			nd_write(nd, "}\n", 2);
		} else {
			nd_write(nd, r.body, blen);
			nd_write(nd, "\n", 1);
		}
	}
	route_response_free(&r);
	dj_free(id);
}

/* Frees the room of the line being read. */
static void nd_line_drop(struct route_ndjson *nd)
{
	dj_free(nd->line.data);
	nd->line = (struct route_buf){.data = NULL};
}

/* Adds bytes to the line being read, up to the line limit. */
static void nd_keep(struct route_ndjson *nd, const char *data, size_t len)
{
	if (nd->over)
		return;
	if (len > nd->line_max - nd->line.len) {
		nd->over = true; /* its bytes are dropped until its end */
		nd_line_drop(nd);
	} else if (route_buf_put(data, len, &nd->line) != 0) {
		nd->broken = true;
	}
}

/* Answers the line held, and starts the next one. */
static void nd_line_end(struct route_ndjson *nd)
{
	size_t len = nd->line.len;
	if (len > 0 && nd->line.data[len - 1] == '\r')
		len--;
	nd_line(nd, nd->line.data, len, nd->over);
	nd->line.len = 0;
	nd->over = false;
	if (nd->line.cap > 65536) /* a long line's room is not kept */
		nd_line_drop(nd);
}

struct route_ndjson *route_ndjson_new(const struct route_request *req, route_put_fn *put, void *ctx,
				      bool direct)
{
	struct route_ndjson *nd = dj_calloc(1, sizeof *nd);
	if (!nd)
		return NULL;
	nd->direct = direct ? nd_direct(req) : NULL;
	nd->pl = (struct problem_limits){.max_blocks = req->limits ? req->limits->max_blocks : 0};
	nd->line_req = *req;
	nd->line_req.content_type = "application/json";
	nd->line_req.content_encoding = NULL;
	nd->line_req.accept = "application/json";
	nd->line_req.origin = NULL;
	nd->line_req.request_id = NULL;
	nd->line_req.intake = NULL;
	nd->line_req.auth = ROUTE_AUTH_OK; /* the stream was let in */
	nd->line_req.tally = &nd->tally;   /* body: each line's, set by nd_line() */
	nd->outer = req->tally;
	nd->line_max = route_body_limit(&nd->line_req);
	nd->put = put;
	nd->ctx = ctx;
	if (!put) {
		nd->stage = dj_malloc(NDJSON_STAGE);
		nd->z.zalloc = dj_zalloc;
		nd->z.zfree = dj_zfree;
		nd->z_live =
		    nd->stage && deflateInit2(&nd->z, NDJSON_LEVEL, Z_DEFLATED, NDJSON_GZIP_WINDOW,
					      8, Z_DEFAULT_STRATEGY) == Z_OK;
		if (!nd->z_live) {
			route_ndjson_free(nd);
			return NULL;
		}
	}
	return nd;
}

void route_ndjson_feed(struct route_ndjson *nd, const char *data, size_t len)
{
	if (!nd || nd->ended)
		return;
	while (len > 0 && !nd->broken) {
		const char *lf = memchr(data, '\n', len);
		if (!lf) {
			nd_keep(nd, data, len);
			return;
		}
		size_t n = (size_t)(lf - data);
		if (nd->line.len == 0 && !nd->over) {
			/* A whole line in the chunk: answered where it lies. */
			size_t m = n > 0 && data[n - 1] == '\r' ? n - 1 : n;
			nd_line(nd, data, m, m > nd->line_max);
		} else {
			nd_keep(nd, data, n);
			nd_line_end(nd);
		}
		data += n + 1;
		len -= n + 1;
	}
}

int route_ndjson_end(struct route_ndjson *nd)
{
	if (nd->ended)
		return nd->broken ? -1 : 0;
	if (nd->line.len > 0 || nd->over)
		nd_line_end(nd); /* a last line without its LF */
	nd->ended = true;
	char tail[160];
	int n = snprintf(tail, sizeof tail,
			 "{\"summary\":{\"cases\":%lu,\"answered\":%lu,\"failed\":%lu}}\n",
			 nd->cases, nd->cases - nd->failed, nd->failed);
	nd_write(nd, tail, (size_t)n);
	if (nd->outer) {
		struct route_tally *t = nd->outer;
		if (nd->tally.problem)
			t->problem = nd->tally.problem;
		t->solved += nd->tally.solved;
		t->rejected += nd->tally.rejected;
		for (size_t i = 0; i < ROUTE_VERDICTS; i++)
			t->verdicts[i] += nd->tally.verdicts[i];
	}
	if (!nd->put && !nd->broken && nd_deflate(nd, nd->stage, nd->staged, Z_FINISH) != 0)
		nd->broken = true;
	nd->staged = 0;
	dj_free(nd->stage);
	nd->stage = NULL;
	if (nd->z_live)
		deflateEnd(&nd->z);
	nd->z_live = false;
	nd_line_drop(nd);
	return nd->broken ? -1 : 0;
}

void route_ndjson_free(void *ctx)
{
	struct route_ndjson *nd = ctx;
	if (!nd)
		return;
	if (nd->z_live)
		nd->inflating ? inflateEnd(&nd->z) : deflateEnd(&nd->z);
	dj_free(nd->line.data);
	dj_free(nd->stage);
	nd_blocks_free(nd->held);
	nd_blocks_free(nd->recs);
	dj_free(nd);
}

/* route_stream.gzipped: the held bytes as they are. */
static bool nd_gzipped(void *ctx)
{
	struct route_ndjson *nd = ctx;
	if (nd->inflating || nd->at || nd->packed || nd->begun)
		return false; /* written as it is sent: the HTTP layer compresses it */
	nd->raw = true;
	return true;
}

/* The next held gzip bytes from where sending is, at most max: *n of them, NULL at the end. */
static const char *nd_held_take(struct route_ndjson *nd, size_t max, size_t *n)
{
	while (nd->at && nd->sent == nd->at->len && nd->at->next) {
		nd->at = nd->at->next;
		nd->sent = 0;
	}
	if (!nd->at || nd->sent == nd->at->len)
		return NULL;
	const char *p = nd->at->data + nd->sent;
	*n = nd->at->len - nd->sent < max ? nd->at->len - nd->sent : max;
	nd->sent += *n;
	return p;
}

/* Inflates more of the held gzip run into buf[0..size): its bytes, 0 at its end, -1 if broken. */
static long nd_inflate(struct route_ndjson *nd, char *buf, size_t size)
{
	if (!nd->inflating) {
		memset(&nd->z, 0, sizeof nd->z);
		nd->z.zalloc = dj_zalloc;
		nd->z.zfree = dj_zfree;
		if (inflateInit2(&nd->z, NDJSON_GZIP_WINDOW) != Z_OK)
			return -1;
		nd->inflating = nd->z_live = true;
		nd->at = nd->held;
	}
	if (size > (size_t)UINT32_MAX)
		size = UINT32_MAX;
	nd->z.next_out = (Bytef *)buf;
	nd->z.avail_out = (uInt)size;
	int st = Z_OK;
	while (nd->z.avail_out > 0 && st == Z_OK) {
		if (nd->z.avail_in == 0) {
			size_t n;
			const char *p = nd_held_take(nd, UINT32_MAX, &n);
			if (!p)
				break; /* no more input */
			nd->z.next_in = (Bytef *)p;
			nd->z.avail_in = (uInt)n;
		}
		st = inflate(&nd->z, Z_NO_FLUSH);
	}
	if (st != Z_OK && st != Z_STREAM_END && st != Z_BUF_ERROR)
		return -1;
	return (long)(size - nd->z.avail_out);
}

long route_ndjson_read(void *ctx, char *buf, size_t size)
{
	struct route_ndjson *nd = ctx;
	size_t done = 0;
	if (nd->raw) { /* the held gzip bytes as they are */
		if (!nd->at)
			nd->at = nd->held;
		size_t n;
		const char *p;
		while (done < size && (p = nd_held_take(nd, size - done, &n)) != NULL) {
			memcpy(buf + done, p, n);
			done += n;
		}
		return (long)done;
	}
	if (!nd->begun) {
		nd->begun = true;
		nd->rat = nd->recs;
	}
	while (done < size) {
		if (nd->pend_at < nd->pend_len) {
			size_t n = nd->pend_len - nd->pend_at;
			if (n > size - done)
				n = size - done;
			memcpy(buf + done, nd->pend + nd->pend_at, n);
			nd->pend_at += n;
			done += n;
			continue;
		}
		if (nd->text_left > 0) {
			size_t want = size - done < nd->text_left ? size - done : nd->text_left;
			long n = nd_inflate(nd, buf + done, want);
			if (n <= 0)
				return -1; /* the run is shorter than its records */
			done += (size_t)n;
			nd->text_left -= (size_t)n;
			continue;
		}
		if (!nd->rat)
			break;
		if (nd->roff == nd->rat->len) {
			nd->rat = nd->rat->next;
			nd->roff = 0;
			continue;
		}
		const unsigned char *r = (const unsigned char *)nd->rat->data + nd->roff;
		if (r[0] == ND_TEXT) {
			uint32_t n;
			memcpy(&n, r + 1, sizeof n);
			nd->text_left = n;
			nd->roff += ND_TEXT_RECORD;
			continue;
		}
		struct problem_outcome out;
		memset(&out, 0, sizeof out);
		nd->roff += 1 + nd->direct->outcome_unpack(r + 1, &out);
		nd->pend_len = nd_outcome_line(nd->direct, &out, nd->pend);
		if (nd->pend_len == 0)
			return -1;
		nd->pend[nd->pend_len++] = '\n';
		nd->pend_at = 0;
	}
	return (long)done;
}

enum route_status route_ndjson_respond(const struct route_call *call, struct route_response *resp,
				       struct codec_error *err)
{
	const struct route_request *req = call->req;
	struct route_ndjson *nd = route_intake_ndjson(req->intake);
	if (!nd) { /* the body kept whole (tests, fuzzing): read it now */
		nd = route_ndjson_new(req, NULL, NULL, true);
		route_ndjson_feed(nd, call->bytes, call->nbytes); /* NULL is ignored */
	}
	if (!nd || route_ndjson_end(nd) != 0) {
		route_ndjson_free(nd);
		return route_error_set(err, ROUTE_E_INTERNAL,
				       "out of memory while answering the stream");
	}
	resp->status = 200;
	resp->content_type = "application/x-ndjson";
	resp->stream = (struct route_stream){.read = route_ndjson_read,
					     .free = route_ndjson_free,
					     .gzipped = nd_gzipped,
					     .gzip_level = NDJSON_SEND_LEVEL,
					     .ctx = nd};
	return ROUTE_OK;
}
