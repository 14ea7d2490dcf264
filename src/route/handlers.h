/*
 * What the route layer's files share: the handlers the table names (solve.c,
 * judge.c, validate.c, generate.c, meta.c, index.c, pages.c), negotiation
 * (negotiate.c), query parameters (params.c), request bodies (body.c),
 * batches (batch.c) and responses (respond.c). Private to src/route; the
 * problems' operations are src/problem's.
 */
#ifndef DROPJUDGE_ROUTE_HANDLERS_H
#define DROPJUDGE_ROUTE_HANDLERS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/error.h"
#include "dropjudge/puyo.h"
#include "problem/problem.h"
#include "route/route.h"

#define ROUTE_TEXT_MEDIA_TYPE "text/plain; charset=utf-8"

/* Takes the next bytes of an answer; returns 0, or -1 to stop (out of
 * memory). */
typedef int route_put_fn(const char *bytes, size_t len, void *ctx);

/* The problem of an entry; NULL for none. */
const struct problem *route_entry_problem(const struct route_entry *e);

/* New array of each(p) for every problem, in the table's order; NULL when
 * out of memory. */
json_t *route_problem_list(json_t *(*each)(const struct problem *p));

/* What a call lets the problem read: --max-blocks. */
static inline struct problem_limits route_problem_limits(const struct route_call *call)
{
	const struct route_limits *l = call->req->limits;
	return (struct problem_limits){.max_blocks = l ? l->max_blocks : 0};
}

/* --- negotiation (negotiate.c) --- */

/* The format among `formats` (enum route_format bits) that an Accept header
 * (NULL: anything) prefers; ROUTE_FORMAT_NONE when it excludes them all.
 * Honours q-values and the most specific matching range; a tie goes to the
 * format listed first in negotiate.c (JSON before the others). */
enum route_format route_negotiate(const char *accept, unsigned formats);

/* The media type a format is answered with ("text/plain; charset=utf-8"). */
const char *route_format_media(enum route_format format);

/* Writes the media types of `formats`, ", "-separated, into buf. */
void route_format_list(unsigned formats, char *buf, size_t size);

/* Reads a Content-Type header: application/json or text/plain, with an
 * optional charset that must be utf-8; ROUTE_BODY_NONE for anything else. */
enum route_body route_body_kind(const char *content_type);

/* The method of a request. */
enum route_verb route_verb_of(const struct route_request *req);

/* --- handlers the table names; see route_handler_fn --- */

/* The handlers by number, as a table row names them (struct route_entry's
 * `handle`; table.c maps each to its function). */
enum route_handle {
	ROUTE_HANDLE_SOLVE,
	ROUTE_HANDLE_JUDGE,
	ROUTE_HANDLE_VALIDATE,
	ROUTE_HANDLE_GENERATE,
	ROUTE_HANDLE_LIVEZ,
	ROUTE_HANDLE_READYZ,
	ROUTE_HANDLE_INFO,
	ROUTE_HANDLE_OPENAPI,
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

route_handler_fn route_solve;
route_handler_fn route_judge;
route_handler_fn route_validate;
route_handler_fn route_generate;
route_handler_fn route_livez;
route_handler_fn route_readyz;
route_handler_fn route_info;
route_handler_fn route_openapi;
route_handler_fn route_index;
route_handler_fn route_problem_types;
route_handler_fn route_problem_page;

/* The viewer's page and files (www.c), GET .../render.svg (render.c):
 * handlers that answer in full, their own faults included. */
route_handler_fn route_metrics;
route_handler_fn route_package;
route_handler_fn route_www;
route_handler_fn route_md_render_call;
route_handler_fn route_puyo_render_call;
/* POST /v1/puyo/search, GET /v1/puyo/search.svg (search.c). */
route_handler_fn route_puyo_search;
route_handler_fn route_puyo_search_svg;
/* --- pictures (render.c) --- */
struct render_options;
/* Draws into buf[0..size) and returns the length as snprintf does (-1: cannot). */
typedef int (*route_draw_fn)(const void *ctx, const struct render_options *opt, char *buf,
			     size_t size);
/*
 * Draws with `draw` into a buffer of the right size and answers 200 with it
 * as image/svg+xml (HEAD: its length only). A picture over --max-svg-bytes
 * is 422 at the parameter "cell"; a drawing that fails is 500. Returns the
 * status with err set on failure.
 */
enum route_status route_draw_svg(const struct route_request *req, struct route_response *resp,
				 route_draw_fn draw, const void *ctx,
				 const struct render_options *opt, struct codec_error *err);
/* Reads field=ROW,ROW,... (12 or 13 rows, top first) into *field; a fault
 * is recorded at the query parameter "field". Returns false on a fault. */
bool route_puyo_rows_param(const char *v, struct puyo_field *field, struct codec_error *err);
/* Answers solve's single case (the body of `req`) as SVG: the final state,
 * or with a trace (the case's "trace", else `trace`) every step; ?cell=
 * sizes it. A batch is 406. */
void route_render_body(const struct problem *p, const struct route_request *req, bool trace,
		       struct route_response *resp);
/* Fills *resp with the viewer's page (GET / for a browser). */
enum route_status route_www_page(struct route_response *resp, struct codec_error *err);

/* --- responses (respond.c) --- */

/*
 * Answers 200 with `body` as compact JSON and a final newline; takes the
 * reference, even on failure. Returns ROUTE_OK, or ROUTE_E_INTERNAL with err
 * set when out of memory (body NULL counts as out of memory).
 */
enum route_status route_respond_json(struct route_response *resp, json_t *body,
				     struct codec_error *err);
/* Answers 200 with a copy of text[0..len) as `content_type`. */
enum route_status route_respond_text(struct route_response *resp, const char *content_type,
				     const char *text, size_t len, struct codec_error *err);
/* Answers 200 with text[0..len), static data that lives as long as the
 * program (a constant answer, a file assembled into the binary), as
 * `content_type`: nothing is copied, and the server may send it from a
 * response it keeps (server.c). */
void route_respond_static(struct route_response *resp, const char *content_type, const char *text,
			  size_t len);
/* A growing byte buffer; route_buf_put() is its route_put_fn. */
struct route_buf {
	char *data; /* dj_malloc'ed, NULL while empty */
	size_t len; /* bytes in data */
	size_t cap; /* bytes allocated */
};

/* Appends bytes to a struct route_buf; -1 (the buffer as it was) when out
 * of memory. */
int route_buf_put(const char *bytes, size_t len, void *buf);

/* Makes room for `cap` bytes in all, as a hint: nothing is lost when it
 * fails (route_buf_put() then grows the buffer as it goes). */
void route_buf_reserve(struct route_buf *buf, size_t cap);

/* Answers 200 with the bytes of `buf` as `content_type`, taking them
 * (*buf is left empty). */
void route_respond_buf(struct route_response *resp, const char *content_type,
		       struct route_buf *buf);

/* Answers the problem of a set error, with "request_id" when not NULL. */
void route_respond_error(struct route_response *resp, const struct codec_error *err,
			 const char *request_id);
/* The fixed 500 answer, when even an error cannot be built. */
void route_respond_oom(struct route_response *resp);
/* Answers `status` (204, 308) without a body. */
void route_respond_empty(struct route_response *resp, unsigned status);

/* --- batches and outcomes (batch.c) --- */

/* Longest Baekjoon output of either problem, with room to spare. */
#define ROUTE_OUTPUT_TEXT_MAX 64

/*
 * The end of a streamed body (route_intake_new()): the case's outcome in
 * *out and ROUTE_OK, or the status with every fault of the text in err
 * (sorted; it points into the stream, which outlives the answer), exactly
 * as the solve of the whole body kept would have answered.
 */
enum route_status route_intake_end(struct route_intake *s, struct problem_outcome *out,
				   struct codec_error *err);

/* Whether a case asks for a trace: its own "trace" member when it is a
 * boolean (the codec rejects other types), else the query's choice. */
bool route_case_wants_trace(const json_t *case_obj, bool query_trace);

/*
 * Adds a trace of `steps` steps to the *used steps of the request. Returns
 * false with err set (422 at `pointer`, or at the query parameter "trace"
 * when pointer is NULL) once the request passes --max-request-trace-steps: the
 * limit counts every trace of a request, one case's or a whole batch's.
 */
bool route_trace_within_limit(const struct route_limits *limits, size_t steps, const char *pointer,
			      size_t *used, struct codec_error *err);

/* Whether a parsed body is a batch {"cases": ...}. */
bool route_is_batch(const json_t *root);

/*
 * Answers one case of a batch at `ptr`: the slot for the results array (a
 * result, or route_error_slot() for a case that failed), or NULL when out
 * of memory. `each` is a fresh first-wins error for this case.
 */
typedef json_t *route_case_fn(const struct route_call *call, const json_t *c, const char *ptr,
			      bool trace, struct codec_error *each);

/* The slot of a failed case, {"error": problem}, its faults sorted. */
json_t *route_error_slot(struct codec_error *err);

/*
 * Answers a batch: {"results": [...], "summary": {...}}, one slot per case
 * in order, each with its case's "id". Batch-level faults (not an array,
 * over --max-batch) go into err.
 */
enum route_status route_respond_batch(const struct route_call *call, json_t *root,
				      route_case_fn *one, struct route_response *resp,
				      struct codec_error *err);

/*
 * Puts err in collect mode, its faults in storage the request keeps until
 * its answer is built (router.c; one array a request, reused). Returns
 * false with err set (500) when out of memory.
 */
bool route_collect(const struct route_call *call, struct codec_error *err);

/* --- streams of cases (ndjson.c) --- */

struct route_ndjson;

/*
 * A reader of a stream of cases for `req` (an NDJSON POST to solve, judge
 * or validate; copied, its strings borrowed for the reader's life): each
 * line is answered as req's resource answers that line sent alone in JSON,
 * through put(ctx) when put is not NULL, else held (packed outcomes and
 * gzip-compressed text, ndjson.c) for route_ndjson_respond(). NULL when out
 * of memory.
 */
struct route_ndjson *route_ndjson_new(const struct route_request *req, route_put_fn *put,
				      void *ctx);
/* Takes the next bytes of the stream, answering each line as it ends. */
void route_ndjson_feed(struct route_ndjson *nd, const char *data, size_t len);
/* Answers a last line without its LF, then writes the summary line and adds
 * the lines' counts to req's tally. Returns 0, or -1 when put() failed or
 * memory ran out (the answer is then cut short). */
int route_ndjson_end(struct route_ndjson *nd);
/* Frees a reader; NULL is ignored. */
void route_ndjson_free(struct route_ndjson *nd);
/* Takes the stream reader out of an intake (NULL when it holds none). */
struct route_ndjson *route_intake_ndjson(struct route_intake *s);

/* Whether the first byte of a text body read as it arrived, past white
 * space, opens a JSON object or array (its error then gets the hint of
 * route_hint_json_as_text()); false for NULL. */
bool route_intake_looks_json(const struct route_intake *s);
/* Answers a stream (call->body ROUTE_BODY_NDJSON): from the reader that
 * took the body as it arrived, else from the body kept. */
route_handler_fn route_ndjson_respond;

/* --- credentials (auth.c) --- */

/*
 * Credentials (route/auth.c). route_auth_check returns ROUTE_OK for
 * ROUTE_AUTH_OK, else records the 401 (400 for a malformed header) in err
 * and returns its status. route_auth_challenge adds the RFC 6750
 * WWW-Authenticate header that goes with such an answer (nothing for
 * ROUTE_AUTH_OK).
 */
enum route_status route_auth_check(enum route_auth auth, struct codec_error *err);
void route_auth_challenge(enum route_auth auth, struct route_response *resp);

/* --- query parameters (params.c) --- */

/*
 * Reads the request's query against the entry's declared parameters into
 * call->args and call->given: an unknown or repeated parameter, or a value
 * that does not read as its type, is 400; a value out of range is 422.
 * Returns ROUTE_OK or the status with err set (first fault wins).
 */
enum route_status route_read_params(struct route_call *call, struct codec_error *err);

/* Whether a json_only parameter of the request reads as true (the answer
 * must then be JSON); *name receives its name. */
bool route_wants_json_only(const struct route_request *req, const struct route_entry *e,
			   const char **name);

/*
 * Reads a parameter whose range depends on the request's data (a step of
 * the case sent), for the few handlers that need one: an unsigned decimal
 * in [min, max] (absent: dflt; not a number 400, out of range 422), or a
 * boolean. Return false with err set. The table still decides which
 * parameters a path takes.
 */
bool route_param_u64(const struct route_request *req, const char *key, uint64_t min, uint64_t max,
		     uint64_t dflt, uint64_t *out, struct codec_error *err);
bool route_param_bool(const struct route_request *req, const char *key, bool dflt, bool *out,
		      struct codec_error *err);

/* The value of a declared parameter (its default when absent). */
uint64_t route_arg(const struct route_call *call, const char *name);
/* Whether a declared parameter was in the query. */
bool route_arg_given(const struct route_call *call, const char *name);

/* --- request bodies (body.c) --- */

/* Whether a body starts with the UTF-8 byte-order mark EF BB BF. */
bool route_has_bom(const char *body, size_t len);
/* Adds to the summary of a fault of a text body that holds JSON (a body
 * sent as text/plain whose first byte is '{' or '[') the hint the 415
 * gives: the Content-Type to send it with. The summary is cut to fit. */
void route_hint_json_as_text(struct codec_error *err);

/* Skips a byte-order mark at the start of *body, if any. */
void route_skip_bom(const char **body, size_t *len);

/* Parses a JSON body; bad JSON is CODEC_E_SYNTAX located by line/column,
 * in the project's words; a number too large to hold is CODEC_E_INVALID
 * located by its JSON pointer (and line/column), as any value out of range.
 * Returns a new reference or NULL with err set. */
json_t *route_parse_json(const char *body, size_t len, struct codec_error *err);

#endif
