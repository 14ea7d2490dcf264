/*
 * What the route layer's files share: handlers, negotiation, query parameters, request bodies,
 * batches and responses. Private to src/route (and the command line's stream of cases).
 */
#ifndef DROPJUDGE_ROUTE_HANDLERS_H
#define DROPJUDGE_ROUTE_HANDLERS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/error.h"
#include "problem/problem.h"
#include "route/route.h"

#define ROUTE_TEXT_MEDIA_TYPE "text/plain; charset=utf-8"

/* Takes the next bytes of an answer; 0, or -1 to stop. */
typedef int route_put_fn(const char *bytes, size_t len, void *ctx);

/* The problem of an entry; NULL for none. */
const struct problem *route_entry_problem(const struct route_entry *e);

/* What a call lets the problem read: --max-blocks. */
static inline struct problem_limits route_problem_limits(const struct route_call *call)
{
	const struct route_limits *l = call->req->limits;
	return (struct problem_limits){.max_blocks = l ? l->max_blocks : 0};
}

/* --- negotiation (negotiate.c) --- */
/* The format of `formats` an Accept header (NULL: any) prefers; NONE when it excludes all. */
enum route_format route_negotiate(const char *accept, unsigned formats);
/* The media type a format is answered with ("text/plain; charset=utf-8"). */
const char *route_format_media(enum route_format format);
/* Writes the media types of `formats`, " or "-separated, into buf. */
void route_format_list(unsigned formats, char *buf, size_t size);
/* The method of a request. */
enum route_verb route_verb_of(const struct route_request *req);

/* --- the handlers, by the number a table row names them (table.c) --- */
enum route_handle {
	ROUTE_HANDLE_SOLVE,
	ROUTE_HANDLE_JUDGE,
	ROUTE_HANDLE_VALIDATE,
	ROUTE_HANDLE_GENERATE,
	ROUTE_HANDLE_LIVEZ,
	ROUTE_HANDLE_READYZ,
	ROUTE_HANDLE_INFO,
	ROUTE_HANDLE_INDEX,
	ROUTE_HANDLE_PROBLEM_TYPES,
	ROUTE_HANDLE_PROBLEM_PAGE,
	ROUTE_HANDLE_METRICS,
	ROUTE_HANDLE_PACKAGE,
	ROUTE_HANDLE_WWW,
	ROUTE_HANDLE_MD_RENDER,
	ROUTE_HANDLE_PUYO_RENDER,
	ROUTE_HANDLE_PUYO_SEARCH,
	ROUTE_HANDLE_PUYO_SEARCH_SVG,
	ROUTE_HANDLES /* the count */
};

/* What those numbers stand for (route_handlers[] in table.c). */
route_handler_fn route_solve, route_judge, route_validate, route_generate, route_health, route_info,
    route_index, route_problem_types, route_problem_page, route_metrics, route_package, route_www,
    route_md_render_call, route_puyo_render_call, route_puyo_search, route_puyo_search_svg;

/* --- pictures and the Puyo search (render.c) --- */
/* Answers solve's one case as SVG: its final state, or each step with a trace; a batch is 406. */
void route_render_body(const struct route_call *call, bool trace, struct route_response *resp);

/* --- responses (respond.c) --- */
/* Sets err to "out of memory" (500): ROUTE_E_INTERNAL. */
enum route_status route_oom(struct codec_error *err);

/* Answers 200 with `body` (taken) as compact JSON and a newline; NULL or OOM: 500, err set. */
enum route_status route_respond_json(struct route_response *resp, json_t *body,
				     struct codec_error *err);
/* Answers 200 with a copy of text[0..len) as `content_type`. */
enum route_status route_respond_text(struct route_response *resp, const char *content_type,
				     const char *text, size_t len, struct codec_error *err);
/* Answers 200 with static text[0..len) as `content_type`, not copied. */
void route_respond_static(struct route_response *resp, const char *content_type, const char *text,
			  size_t len);
/* Answers `status` (204, 308) without a body. */
void route_respond_empty(struct route_response *resp, unsigned status);
/* Answers the problem of a set error, with "request_id" when not NULL. */
void route_respond_error(struct route_response *resp, const struct codec_error *err,
			 const char *request_id);

/* A growing byte buffer; route_buf_put() is its route_put_fn. */
struct route_buf {
	char *data; /* dj_malloc'ed, NULL while empty */
	size_t len; /* bytes in data */
	size_t cap; /* bytes allocated */
};
/* Appends bytes to a struct route_buf; -1 (unchanged) when out of memory. */
int route_buf_put(const char *bytes, size_t len, void *buf);
/* Answers 200 with the JSON object head[0..len) but its final "}", and
 * "steps" holding the trace's text; ROUTE_E_INTERNAL with err set on OOM. */
enum route_status route_respond_traced(struct route_response *resp, const char *head, size_t len,
				       const struct problem_text *trace, struct codec_error *err);

/* --- batches and outcomes (batch.c) --- */
/* Longest Baekjoon output of either problem, with room to spare. */
#define ROUTE_OUTPUT_TEXT_MAX 64
/* Ends a text body read as it arrived: *out, or the status, err's faults held by the intake. */
enum route_status route_intake_end(struct route_intake *s, struct problem_outcome *out,
				   struct codec_error *err);
/* Whether a case wants a trace: its "trace" if boolean (others are refused), else the query's. */
bool route_case_wants_trace(const json_t *case_obj, bool query_trace);
/* Adds `steps` to the request's *used trace steps; false with err set (422
 * at `pointer`, else at "trace") past --max-request-trace-steps. */
bool route_trace_within_limit(const struct route_limits *limits, size_t steps, const char *pointer,
			      size_t *used, struct codec_error *err);
/* Counts one case of `problem` for the metrics: solved, or refused. */
void route_tally_case(const struct route_call *call, const char *problem, bool solved);
/* Whether a parsed body is a batch {"cases": ...}. */
bool route_is_batch(const json_t *root);
/* One case of a batch at `ptr`: its result, route_error_slot() for a case
 * that failed, or NULL when out of memory. `each` is fresh. */
typedef json_t *route_case_fn(const struct route_call *call, const json_t *c, const char *ptr,
			      bool trace, struct codec_error *each);
/* The slot of a failed case, {"error": problem}, its faults sorted. */
json_t *route_error_slot(struct codec_error *err);
/* Answers a batch: {"results": [...], "summary": {...}}, one slot per case
 * with its "id"; batch-level faults go into err. */
enum route_status route_respond_batch(const struct route_call *call, json_t *root,
				      route_case_fn *one, struct route_response *resp,
				      struct codec_error *err);
/* Puts err in collect mode over storage the request keeps (router.c); false (500 set) on OOM. */
bool route_collect(const struct route_call *call, struct codec_error *err);

/* --- streams of cases (ndjson.c) --- */
struct route_ndjson;
/* A reader of a stream of cases for `req` (strings borrowed): each line answered as if sent alone,
 * through put(ctx) or held (put NULL); direct false sends every line through route_handle(), the
 * reference the fast lines must equal byte for byte (its tests). NULL when out of memory. */
struct route_ndjson *route_ndjson_new(const struct route_request *req, route_put_fn *put, void *ctx,
				      bool direct);
/* Takes the next bytes of the stream, answering each line as it ends. */
void route_ndjson_feed(struct route_ndjson *nd, const char *data, size_t len);
/* Answers a last line without its LF, writes the summary and counts the
 * lines in req's tally; -1 when put() or memory failed (answer cut short). */
int route_ndjson_end(struct route_ndjson *nd);
/* Frees a reader (also its route_stream.free); NULL is ignored. */
void route_ndjson_free(void *nd);
/* route_stream.read of a held route_ndjson answer: written from its records, or its gzip (raw). */
long route_ndjson_read(void *ctx, char *buf, size_t size);
/* Takes the stream reader out of an intake (NULL when it holds none). */
struct route_ndjson *route_intake_ndjson(struct route_intake *s);
/* Whether a text body read as it arrived opens a JSON object or array. */
bool route_intake_looks_json(const struct route_intake *s);
/* Answers a stream of cases, from its intake or the body kept. */
route_handler_fn route_ndjson_respond;

/* --- query parameters (params.c) --- */
/* Reads the query into call->args: unknown, repeated or unreadable is 400, out of range 422. */
enum route_status route_read_params(struct route_call *call, struct codec_error *err);
/* Whether a json_only parameter reads as true (the answer must then be JSON), named in *name. */
bool route_wants_json_only(const struct route_request *req, const struct route_entry *e,
			   const char **name);
/* The value of a declared parameter (its default when absent). */
uint64_t route_arg(const struct route_call *call, const char *name);

/* --- request bodies (body.c) --- */
/* Whether a body starts with the UTF-8 byte-order mark EF BB BF. */
bool route_has_bom(const char *body, size_t len);
/* Skips a byte-order mark at the start of *body, if any. */
void route_skip_bom(const char **body, size_t *len);
/* Whether the first byte past JSON white space opens an object or array. */
bool route_opens_container(const char *body, size_t len);
/* Parses a JSON body: a new reference, or NULL with err set in the
 * project's words (a number too large is CODEC_E_INVALID at its pointer). */
json_t *route_parse_json(const char *body, size_t len, struct codec_error *err);
/* Adds to err's summary the hint for JSON sent as text/plain (router.c). */
void route_hint_json_as_text(struct codec_error *err);

#endif
