/*
 * Bodies read as they arrive (route.h, route_intake_new()): a Baekjoon text case to solve goes
 * through the problem's push parser chunk by chunk, in constant memory, a stream of cases through
 * its reader (ndjson.c). The answer is the one the body kept whole would get: the parser collects
 * faults from the first byte (as a kept body's second pass does); a BOM is dropped even when split.
 */
#include "mem/alloc.h"
#include "route/handlers.h"

#define STREAM_BOM "\xEF\xBB\xBF"

struct route_intake {
	struct route_ndjson *ndjson; /* a stream's reader, or NULL: a text case */
	const struct problem *problem;
	struct problem_text_stream *text; /* the problem's parser and game */
	struct codec_error err;		  /* collect mode over faults[] */
	struct codec_fault *faults;	  /* CODEC_FAULTS_MAX, dj_malloc'ed */
	size_t head_len;		  /* bytes of a byte-order mark taken so far */
	bool head_done;			  /* the BOM is decided: bytes go straight on */
	char first;			  /* first byte past white space, '\0' while none */
	bool ended;			  /* route_intake_end() has run */
};

struct route_intake *route_intake_new(const struct route_request *req)
{
	const struct route_entry *e = req->entry;
	if (!e || route_verb_of(req) != ROUTE_VERB_POST)
		return NULL;
	bool stream =
	    (e->bodies & ROUTE_BODY_NDJSON) && route_request_body(req) == ROUTE_BODY_NDJSON;
	const struct problem *p = route_entry_problem(e);
	/* Else a text case to solve: not another kind, nor a picture (which
	 * reads the body whole), nor a refused one (the handler sees none). */
	if (!stream &&
	    (e->handle != ROUTE_HANDLE_SOLVE || req->nparams != 0 || !p || !p->text_stream_new ||
	     !req->limits || !(e->bodies & ROUTE_BODY_TEXT) ||
	     route_request_body(req) != ROUTE_BODY_TEXT ||
	     !(route_negotiate(req->accept, e->formats) & (ROUTE_FORMAT_JSON | ROUTE_FORMAT_TEXT))))
		return NULL;
	struct route_intake *s = dj_calloc(1, sizeof *s);
	if (s && stream) {
		s->ndjson = route_ndjson_new(req, NULL, NULL, true);
	} else if (s) {
		s->problem = p;
		s->faults = dj_malloc(CODEC_FAULTS_MAX * sizeof *s->faults);
		codec_error_collect(&s->err, s->faults, CODEC_FAULTS_MAX);
		const struct problem_limits pl = {.max_blocks = req->limits->max_blocks};
		s->text = s->faults ? p->text_stream_new(&pl, &s->err) : NULL;
	}
	if (s && !s->ndjson && !s->text) {
		route_intake_free(s);
		return NULL;
	}
	return s;
}

/* Hands bytes to the problem's parser, noting the first not white space (for the JSON hint). */
static void stream_feed(struct route_intake *s, const char *bytes, size_t len)
{
	for (size_t i = 0; !s->first && i < len; i++)
		if (bytes[i] != ' ' && bytes[i] != '\t' && bytes[i] != '\r' && bytes[i] != '\n')
			s->first = bytes[i] ? bytes[i] : '?';
	s->problem->text_stream_feed(s->text, bytes, len);
}

/* Decides the byte-order mark: the first bytes of one, broken off, are the body's own. */
static void stream_head_end(struct route_intake *s)
{
	s->head_done = true;
	if (s->head_len > 0 && s->head_len < sizeof STREAM_BOM - 1)
		stream_feed(s, STREAM_BOM, s->head_len);
}

void route_intake_feed(struct route_intake *s, const char *data, size_t len)
{
	if (s && s->ndjson) {
		route_ndjson_feed(s->ndjson, data, len);
		return;
	}
	if (!s || s->ended)
		return;
	for (; !s->head_done && len > 0 && *data == STREAM_BOM[s->head_len]; data++, len--)
		s->head_done = ++s->head_len == sizeof STREAM_BOM - 1;
	if (!s->head_done && len > 0)
		stream_head_end(s);
	if (len > 0)
		stream_feed(s, data, len);
}

enum route_status route_intake_end(struct route_intake *s, struct problem_outcome *out,
				   struct codec_error *err)
{
	if (!s->head_done)
		stream_head_end(s); /* a body of fewer bytes than a BOM */
	s->ended = true;
	enum codec_status st = s->problem->text_stream_end(s->text, out, &s->err);
	if (st == CODEC_OK)
		return ROUTE_OK;
	codec_error_sort(&s->err);
	codec_error_copy(err, &s->err); /* points at s->faults */
	return route_status_of(st);
}

bool route_intake_looks_json(const struct route_intake *s)
{
	return s && (s->first == '{' || s->first == '[');
}

struct route_ndjson *route_intake_ndjson(struct route_intake *s)
{
	struct route_ndjson *nd = s ? s->ndjson : NULL;
	if (s)
		s->ndjson = NULL;
	return nd;
}

void route_intake_free(struct route_intake *s)
{
	if (!s)
		return;
	route_ndjson_free(s->ndjson);
	if (s->text)
		s->problem->text_stream_free(s->text);
	dj_free(s->faults);
	dj_free(s);
}
