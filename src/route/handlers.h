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
#include "codec/json_span.h"
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

/* What a call lets the problem read: --max-blocks, and the case read lean. */
static inline struct problem_limits route_problem_limits(const struct route_call *call)
{
	const struct route_limits *l = call->req->limits;
	return (struct problem_limits){.max_blocks = l ? l->max_blocks : 0, .lean = call->lean};
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

/* The body kind of a request's Content-Type (route_body_kind()). */
enum route_body route_request_body(const struct route_request *req);

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
/* Answers solve's single case (the body of `req`) as SVG: the final state,
 * or with a trace (the case's "trace", else `trace`) every step; ?cell=
 * sizes it. A batch is 406. */
void route_render_body(const struct problem *p, const struct route_request *req, bool trace,
		       struct route_response *resp);
/* Fills *resp with the viewer's page (GET / for a browser). */
enum codec_status route_www_page(struct route_response *resp, struct codec_error *err);

/* --- responses (respond.c) --- */

/*
 * Answers 200 with `body` as compact JSON and a final newline; takes the
 * reference, even on failure. Returns CODEC_OK, or CODEC_E_INTERNAL with err
 * set when out of memory (body NULL counts as out of memory).
 */
enum codec_status route_respond_json(struct route_response *resp, json_t *body,
				     struct codec_error *err);
/* Answers 200 with a copy of text[0..len) as `content_type`. */
enum codec_status route_respond_text(struct route_response *resp, const char *content_type,
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
 * *out and CODEC_OK, or the status with every fault of the text in err
 * (sorted; it points into the stream, which outlives the answer), exactly
 * as the solve of the whole body kept would have answered.
 */
enum codec_status route_intake_end(struct route_intake *s, struct problem_outcome *out,
				   struct codec_error *err);

/* Whether a case asks for a trace: its own "trace" member when it is a
 * boolean (the codec rejects other types), else the query's choice. */
bool route_case_wants_trace(const json_t *case_obj, bool query_trace);

/*
 * Adds a trace of `steps` steps to the *used steps of the request. Returns
 * false with err set (422 at `pointer`, or at the query parameter "trace"
 * when pointer is NULL) once the request passes --max-trace-steps: the
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
enum codec_status route_respond_batch(const struct route_call *call, json_t *root,
				      route_case_fn *one, struct route_response *resp,
				      struct codec_error *err);

/*
 * Writes the slot of a case that the problem's fast path reads (the
 * canonical shape, no links; with its trace when `trace`) through put(),
 * compact and without a newline: the bytes route_case_fn's slot would dump
 * to; *steps gets its trace steps. Returns 1; 0 (nothing put) when the
 * case is not for the fast path (it is then parsed and answered through
 * route_case_fn); -1 when out of memory or put() failed. put NULL: the
 * slot is not wanted (only whether the case is taken, and its steps).
 */
typedef int route_case_fast_fn(const struct route_call *call, const char *json, size_t len,
			       bool trace, route_put_fn *put, void *ctx, size_t *steps);

/*
 * Writes the slot of a case parsed through jansson at `ptr` (a large trace
 * as text rather than a tree) through put(), compact, without its final
 * "}" and its "id": the bytes of route_case_fn's slot before them; *steps
 * gets its trace steps. Returns 1; 0 (nothing put) when the case is not
 * taken (route_case_fn then answers it, its faults among it); -1 when out
 * of memory or put() failed. put NULL: the slot is not wanted.
 */
typedef int route_case_write_fn(const struct route_call *call, const json_t *c, const char *ptr,
				bool trace, route_put_fn *put, void *ctx, size_t *steps);

/* --- large cases read lean (lean.c) --- */

struct route_mask; /* body.c, below */

/* Where a case sits in a request, for route_parse_case(). */
enum route_case_at {
	ROUTE_CASE_ROOT,  /* the body is the case (solve, validate) */
	ROUTE_CASE_INPUT, /* the case is the body's "input" (judge) */
};

/* A call on a case read lean: a copy of the call, whose ->lean points at
 * `lean`. */
struct route_lean_call {
	struct route_call call;
	struct json_lean lean;
};

/*
 * Parses the JSON body [body, body + len) as route_parse_json() does, to
 * the same tree or the same fault. When the problem has a lean_member,
 * the limits ask for it (len >= lean_from, not tree_only) and the body is
 * an object whose case (at `at`) holds that member as an array, the
 * array's elements are checked one at a time and left in the body: the
 * tree holds an empty placeholder array, and *used is lc->call, whose
 * limits carry the elements (the decoders read them from there). Large
 * arrays and objects beside it are checked piece by piece and read as
 * empty ones (which no decoder looks into). Otherwise *used is `call`.
 * Memory is the tree of what is left and one element's tree at a time.
 * Returns a new reference or NULL with err set; *used is set either way.
 */
json_t *route_parse_case(const struct route_call *call, const char *body, size_t len,
			 enum route_case_at at, struct route_lean_call *lc,
			 const struct route_call **used, struct codec_error *err);

/* route_parse_case() without a call: the tree, and the lean array in
 * *lean (placeholder NULL when none), for a decoder given lean itself. */
json_t *route_parse_lean(const struct problem *p, const struct route_limits *limits,
			 const char *body, size_t len, enum route_case_at at,
			 struct json_lean *lean, struct codec_error *err);

/*
 * What route_parse_case() would mask of the case that starts at body, a
 * case that may be broken and may be followed by more bytes: regions known
 * to be well-formed, in order, as offsets from body, into *masks (taken by
 * the caller, dj_free; NULL when none). Returns their count. For finding
 * the fault of a broken body without the tree of the good part of it.
 */
size_t route_lean_masks(const struct route_call *call, const char *body, size_t len,
			enum route_case_at at, struct route_mask **masks);

/*
 * The large arrays and objects among the members of an object that follow
 * body[from] (", name: value, ..."), each checked piece by piece, as
 * regions to read as empty (route_mask), into *masks (dj_free) in order;
 * their count. The scan stops at the first member it doubts.
 */
size_t route_lean_members(const char *body, size_t len, size_t from, struct route_mask **masks);

/*
 * Answers a batch read from the body as it lies, one case at a time (a
 * case's own bytes through `fast` when not NULL, else through jansson and
 * `write` when not NULL and taking it, else `one`), never as one tree: the same status and bytes as
 * route_respond_batch() on the parsed body. An answer larger than the
 * request allows to hold is streamed (resp->stream): every case is solved
 * once first, to find any fault of the request (over --max-batch, over
 * --max-trace-steps) before the 200 is sent, then again as it is sent.
 * Returns false, with nothing answered and err untouched, when the body is
 * not a batch {"cases": [...]} alone or is not well-formed JSON: the caller
 * then parses it whole and answers through route_respond_batch(), which
 * tells every such fault as it always has. Else *st is the status. A large
 * case is read lean (route_parse_case(), the case at `at`).
 */
bool route_respond_batch_body(const struct route_call *call, const char *body, size_t len,
			      enum route_case_at at, route_case_fn *one, route_case_fast_fn *fast,
			      route_case_write_fn *write, struct route_response *resp,
			      struct codec_error *err, enum codec_status *st);

/*
 * Puts err in collect mode, its faults in storage the request keeps until
 * its answer is built (router.c; one array a request, reused). Returns
 * false with err set (500) when out of memory.
 */
bool route_collect(const struct route_call *call, struct codec_error *err);

/* --- credentials (auth.c) --- */

/*
 * Credentials (route/auth.c). route_auth_check returns CODEC_OK for
 * ROUTE_AUTH_OK, else records the 401 (400 for a malformed header) in err
 * and returns its status. route_auth_challenge adds the RFC 6750
 * WWW-Authenticate header that goes with such an answer (nothing for
 * ROUTE_AUTH_OK).
 */
enum codec_status route_auth_check(enum route_auth auth, struct codec_error *err);
void route_auth_challenge(enum route_auth auth, struct route_response *resp);

/* --- query parameters (params.c) --- */

/*
 * Reads the request's query against the entry's declared parameters into
 * call->args and call->given: an unknown or repeated parameter, or a value
 * that does not read as its type, is 400; a value out of range is 422.
 * Returns CODEC_OK or the status with err set (first fault wins).
 */
enum codec_status route_read_params(struct route_call *call, struct codec_error *err);

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
/* Skips a byte-order mark at the start of *body, if any. */
void route_skip_bom(const char **body, size_t *len);

/* Parses a JSON body; bad JSON is CODEC_E_SYNTAX located by line/column,
 * in the project's words. Returns a new reference or NULL with err set. */
json_t *route_parse_json(const char *body, size_t len, struct codec_error *err);

/*
 * route_parse_json() of the body with the bytes [from, to) read as the
 * number 0 padded with white space that keeps every line and column: a
 * span already known to be well-formed values (cases of a batch) is not
 * built again, and any fault after it is told exactly as for the whole
 * body. The span must start a value and end where one ends.
 */
json_t *route_parse_json_masked(const char *body, size_t len, size_t from, size_t to,
				struct codec_error *err);

/* Bytes [from, to) of a body that route_parse_json_masks() leaves out. */
struct route_mask {
	size_t from; /* first byte */
	size_t to;   /* past the last byte; from < to */
	bool zero;   /* read as the number 0 (a run of whole values), else as white
			space alone (what lies between the brackets of an array or
			object, which then reads as empty) */
};

/*
 * route_parse_json() of the body with each of masks[0..n) (in order, not
 * overlapping) read as route_mask says, every line and column kept: values
 * already known to be well-formed are not built, and any fault outside
 * them is told exactly as for the whole body.
 */
json_t *route_parse_json_masks(const char *body, size_t len, const struct route_mask *masks,
			       size_t n, struct codec_error *err);

#endif
