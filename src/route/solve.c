/*
 * Solve: one case or a batch, JSON or the Baekjoon text, in JSON or the
 * Baekjoon output, with an optional trace. A case that fails is read again
 * in collect mode so that the answer lists every fault of it (up to
 * CODEC_FAULTS_MAX, then errors_omitted), sorted by position, as validate
 * does; the fast path never pays for that.
 */
#include <stdio.h>
#include <string.h>

#include "mem/alloc.h"
#include "route/handlers.h"

/* Longest JSON result without steps of either problem, with room to spare. */
#define OUTPUT_JSON_MAX 256

/* Whether the answer carries links into the players' simulators. */
static bool wants_links(const struct route_call *call)
{
	const struct route_problem *p = route_entry_problem(call->entry);
	return p->outcome_links && route_arg(call, "links") != 0;
}

/* The result object of a solved case, with its links when asked; takes
 * out->steps. NULL when out of memory. */
static json_t *outcome_object(const struct route_call *call, struct route_outcome *out)
{
	const struct route_problem *p = route_entry_problem(call->entry);
	json_t *links = wants_links(call) ? p->outcome_links(out) : NULL;
	json_t *obj = p->outcome_json(out);
	if (!wants_links(call))
		return obj;
	if (!obj || !links || json_object_set_new(obj, "links", links) != 0) {
		if (!obj || !links)
			json_decref(links);
		json_decref(obj);
		return NULL;
	}
	return obj;
}

/* Answers one solved case in the decided format; releases the outcome. */
static enum codec_status respond_outcome(const struct route_call *call, struct route_outcome *out,
					 enum route_format fmt, struct route_response *resp,
					 struct codec_error *err)
{
	const struct route_problem *p = route_entry_problem(call->entry);
	if (fmt == ROUTE_FORMAT_TEXT) {
		char text[ROUTE_OUTPUT_TEXT_MAX];
		int n = p->outcome_text(out, text, sizeof text);
		route_outcome_release(out);
		if (n < 0 || (size_t)n >= sizeof text) {
			codec_error_set(err, CODEC_E_INTERNAL, "the answer does not fit");
			return CODEC_E_INTERNAL;
		}
		return route_respond_text(resp, ROUTE_TEXT_MEDIA_TYPE, text, (size_t)n, err);
	}
	if (!out->steps && p->outcome_write && !wants_links(call)) {
		/* A fixed-shape answer: no jansson object to build and dump. */
		char json[OUTPUT_JSON_MAX];
		int n = p->outcome_write(out, json, sizeof json);
		if (n >= 0 && (size_t)n < sizeof json)
			return route_respond_text(resp, "application/json", json, (size_t)n, err);
	}
	return route_respond_json(resp, outcome_object(call, out), err);
}

/* Counts one case for the metrics: solved, or refused for its input. */
static void tally_case(const struct route_call *call, bool solved)
{
	struct route_tally *t = call->req->tally;
	if (!t)
		return;
	t->problem = route_entry_problem(call->entry)->id;
	if (solved)
		t->solved++;
	else
		t->rejected++;
}

/* Whether a solve failed on the input (not out of memory, not a limit). */
static bool is_input_fault(enum codec_status st)
{
	return st == CODEC_E_SYNTAX || st == CODEC_E_INVALID;
}

/* Solves one case from a JSON object; a failure lists every fault. */
static enum codec_status solve_object(const struct route_call *call, const json_t *c,
				      const char *ptr, bool trace, struct route_outcome *out,
				      struct codec_error *err)
{
	const struct route_problem *p = route_entry_problem(call->entry);
	const struct route_limits *limits = call->req->limits;
	enum codec_status st = p->solve_json(c, ptr, limits, trace, out, err);
	tally_case(call, st == CODEC_OK);
	if (!is_input_fault(st) || !route_collect(call, err))
		return st;
	struct route_outcome again = {.steps = NULL};
	st = p->solve_json(c, ptr, limits, trace, &again, err);
	route_outcome_release(&again);
	codec_error_sort(err);
	return st != CODEC_OK ? st : err->status;
}

/* Solves one case from the Baekjoon text; a failure lists every fault. */
static enum codec_status solve_text(const struct route_call *call, const char *text, size_t len,
				    bool trace, struct route_outcome *out, struct codec_error *err)
{
	const struct route_problem *p = route_entry_problem(call->entry);
	const struct route_limits *limits = call->req->limits;
	enum codec_status st = p->solve_text(text, len, limits, trace, out, err);
	tally_case(call, st == CODEC_OK);
	if (!is_input_fault(st) || !route_collect(call, err))
		return st;
	struct route_outcome again = {.steps = NULL};
	st = p->solve_text(text, len, limits, trace, &again, err);
	route_outcome_release(&again);
	codec_error_sort(err);
	return st != CODEC_OK ? st : err->status;
}

/* route_case_fn: one case of a solve batch. */
static json_t *solve_case(const struct route_call *call, const json_t *c, const char *ptr,
			  bool trace, struct codec_error *each)
{
	struct route_outcome out = {.steps = NULL};
	if (solve_object(call, c, ptr, route_case_wants_trace(c, trace), &out, each) != CODEC_OK)
		return route_error_slot(each);
	return outcome_object(call, &out);
}

/* A canonical case without jansson: its slot put through put() (NULL: only
 * counted), compact, without a newline; *steps its trace steps. Returns 1,
 * 0 (nothing put) when the fast path does not take it, -1 when out of
 * memory or put() failed. */
static int solve_case_fast(const struct route_call *call, const char *json, size_t len, bool trace,
			   route_put_fn *put, void *ctx, size_t *steps)
{
	const struct route_problem *p = route_entry_problem(call->entry);
	char slot[OUTPUT_JSON_MAX];
	*steps = 0;
	if (wants_links(call))
		return 0;
	if (trace) {
		int st = p->solve_traced_write
			     ? p->solve_traced_write(json, len, call->req->limits, put, ctx, steps)
			     : 0;
		if (st == 1)
			tally_case(call, true);
		return st;
	}
	int n;
	if (p->solve_json_fast_write) {
		n = p->solve_json_fast_write(json, len, call->req->limits, slot, sizeof slot);
	} else {
		struct route_outcome out = {.steps = NULL};
		if (!p->solve_json_fast || !p->outcome_write ||
		    !p->solve_json_fast(json, len, call->req->limits, &out))
			return 0;
		n = p->outcome_write(&out, slot, sizeof slot);
	}
	if (n <= 0 || (size_t)n >= sizeof slot || slot[n - 1] != '\n')
		return 0;
	tally_case(call, true);
	return !put || put(slot, (size_t)n - 1, ctx) == 0 ? 1 : -1; /* without the final newline */
}

/* Puts the slot of a case traced by solve_traced_text, but for its final
 * "}": the result's members, then "steps" with the trace's text. */
static int put_traced_slot(const struct route_problem *p, const struct route_outcome *out,
			   const struct route_buf *trace, route_put_fn *put, void *ctx)
{
	char head[OUTPUT_JSON_MAX];
	int n = p->outcome_write(out, head, sizeof head);
	if (n < 3 || (size_t)n >= sizeof head)
		return -1;
	/* without the result's "}\n" */
	return put(head, (size_t)n - 2, ctx) == 0 && put(",\"steps\":[", 10, ctx) == 0 &&
		       (trace->len == 0 || put(trace->data, trace->len, ctx) == 0) &&
		       put("]", 1, ctx) == 0
		   ? 1
		   : -1;
}

/*
 * A case alone (case_obj, or the text[0..len) when NULL) asked with a
 * trace, answered with its steps written as text: the bytes of the tree
 * path, whose limit of --max-trace-steps it applies at `pointer`. False
 * (nothing answered) when solve_traced_text does not take it.
 */
static bool solve_traced_single(const struct route_call *call, const json_t *case_obj,
				const char *text, size_t len, const char *pointer,
				struct route_response *resp, struct codec_error *err,
				enum codec_status *st)
{
	const struct route_problem *p = route_entry_problem(call->entry);
	const struct route_limits *limits = call->req->limits;
	if (!p->solve_traced_text || !p->outcome_write || wants_links(call) || !limits ||
	    limits->tree_only)
		return false;
	struct route_outcome out = {.steps = NULL};
	struct route_buf trace = {.data = NULL}, answer = {.data = NULL};
	size_t steps = 0, used = 0;
	int taken = p->solve_traced_text(case_obj, "", text, len, limits, &out, &trace, &steps);
	if (taken == 0)
		return false;
	if (taken == 1)
		tally_case(call, true);
	if (taken < 0 || put_traced_slot(p, &out, &trace, route_buf_put, &answer) != 1 ||
	    route_buf_put("}\n", 2, &answer) != 0) {
		codec_error_set(err, CODEC_E_INTERNAL, "out of memory");
		*st = CODEC_E_INTERNAL;
	} else if (!route_trace_within_limit(limits, steps, pointer, &used, err)) {
		*st = err->status;
	} else {
		route_respond_buf(resp, "application/json", &answer);
		*st = CODEC_OK;
	}
	dj_free(trace.data);
	dj_free(answer.data);
	return true;
}

/* --max-trace-steps for a case alone: CODEC_OK, or 422 at `pointer` (NULL:
 * ?trace) with the outcome released. */
static enum codec_status single_trace_within_limit(const struct route_call *call,
						   struct route_outcome *out, const char *pointer,
						   struct codec_error *err)
{
	size_t used = 0;
	if (route_trace_within_limit(call->req->limits, json_array_size(out->steps), pointer, &used,
				     err))
		return CODEC_OK;
	route_outcome_release(out);
	return err->status;
}

/*
 * A canonical case asked with ?trace, its steps written as text as they are
 * read rather than built as a tree: the bytes of the jansson path. False
 * (nothing answered) for any other body; else *st is the status.
 */
static bool solve_traced_fast(const struct route_call *call, const char *body, size_t len,
			      struct route_response *resp, struct codec_error *err,
			      enum codec_status *st)
{
	struct route_buf out = {.data = NULL};
	size_t steps = 0, used = 0;
	int taken = solve_case_fast(call, body, len, true, route_buf_put, &out, &steps);
	if (taken == 0)
		return false;
	if (taken < 0 || route_buf_put("\n", 1, &out) != 0) {
		codec_error_set(err, CODEC_E_INTERNAL, "out of memory");
		*st = CODEC_E_INTERNAL;
	} else if (!route_trace_within_limit(call->req->limits, steps, NULL, &used, err)) {
		*st = err->status;
	} else {
		route_respond_buf(resp, "application/json", &out);
		*st = CODEC_OK;
	}
	dj_free(out.data);
	return true;
}

/* 406 for a trace asked in the body while the answer is text. */
static enum codec_status refuse_text_trace(struct codec_error *err)
{
	codec_error_at_pointer(err, CODEC_E_NOT_ACCEPTABLE, "/trace",
			       "a trace is answered in application/json only, and Accept asks "
			       "for text; ask with Accept: application/json, or without trace");
	return CODEC_E_NOT_ACCEPTABLE;
}

/* A canonical text case without a trace, asked in JSON without links or in
 * text, answered straight from solve_text_fast_write(); false (nothing
 * done) when it does not take the body. */
static bool solve_text_fast(const struct route_call *call, const char *text, size_t len,
			    struct route_response *resp, struct codec_error *err,
			    enum codec_status *st)
{
	const struct route_problem *p = route_entry_problem(call->entry);
	bool json = call->format == ROUTE_FORMAT_JSON;
	if (!p->solve_text_fast_write || (!json && call->format != ROUTE_FORMAT_TEXT) ||
	    (json && wants_links(call)))
		return false;
	char out[OUTPUT_JSON_MAX];
	int n = p->solve_text_fast_write(text, len, call->req->limits, json, out, sizeof out);
	if (n <= 0 || (size_t)n >= sizeof out)
		return false;
	tally_case(call, true);
	*st = route_respond_text(resp, json ? "application/json" : ROUTE_TEXT_MEDIA_TYPE, out,
				 (size_t)n, err);
	return true;
}

/* A canonical case asked in JSON without links, answered straight from
 * solve_json_fast_write(); false (nothing done) when it does not take the
 * body. */
static bool solve_single_fast_write(const struct route_call *call, const char *body, size_t len,
				    struct route_response *resp, struct codec_error *err,
				    enum codec_status *st)
{
	const struct route_problem *p = route_entry_problem(call->entry);
	if (call->format != ROUTE_FORMAT_JSON || !p->solve_json_fast_write || wants_links(call))
		return false;
	char json[OUTPUT_JSON_MAX];
	int n = p->solve_json_fast_write(body, len, call->req->limits, json, sizeof json);
	if (n <= 0 || (size_t)n >= sizeof json)
		return false;
	tally_case(call, true);
	*st = route_respond_text(resp, "application/json", json, (size_t)n, err);
	return true;
}

enum codec_status route_solve(const struct route_call *call, struct route_response *resp,
			      struct codec_error *err)
{
	const struct route_problem *p = route_entry_problem(call->entry);
	const struct route_request *req = call->req;
	enum route_format fmt = call->format;
	bool trace = route_arg(call, "trace") != 0; /* the table made it JSON-only */
	struct route_outcome out = {.steps = NULL};
	const char *body = req->body;
	size_t len = req->body_len;
	enum codec_status st;

	if (req->fast_only) {
		/* The canonical case only, as below; anything else is deferred. */
		route_skip_bom(&body, &len);
		if (fmt != ROUTE_FORMAT_SVG && call->body == ROUTE_BODY_JSON && !trace &&
		    solve_single_fast_write(call, body, len, resp, err, &st))
			return st;
		if (fmt != ROUTE_FORMAT_SVG && call->body == ROUTE_BODY_JSON && !trace &&
		    p->solve_json_fast && p->solve_json_fast(body, len, req->limits, &out)) {
			tally_case(call, true);
			return respond_outcome(call, &out, fmt, resp, err);
		}
		resp->deferred = true;
		return CODEC_OK;
	}
	if (fmt == ROUTE_FORMAT_SVG) {
		/* The case drawn: its final state, or every step with a trace. */
		route_render_body(p, req, trace, resp);
		return CODEC_OK;
	}
	if (call->body == ROUTE_BODY_TEXT && req->intake) {
		/* Read as it arrived: the same answer as below, from the stream. */
		st = route_intake_end(req->intake, &out, err);
		tally_case(call, st == CODEC_OK);
		return st != CODEC_OK ? st : respond_outcome(call, &out, fmt, resp, err);
	}
	route_skip_bom(&body, &len); /* as Notepad writes it */
	if (call->body == ROUTE_BODY_TEXT) {
		if (trace && fmt == ROUTE_FORMAT_JSON &&
		    solve_traced_single(call, NULL, body, len, NULL, resp, err, &st))
			return st;
		if (!trace && solve_text_fast(call, body, len, resp, err, &st))
			return st;
		st = solve_text(call, body, len, trace, &out, err);
		if (st == CODEC_OK)
			st = single_trace_within_limit(call, &out, NULL, err);
		return st != CODEC_OK ? st : respond_outcome(call, &out, fmt, resp, err);
	}
	/* The canonical shapes, read without jansson; anything else (every
	 * error among it) takes the jansson path below. */
	if (!trace && solve_single_fast_write(call, body, len, resp, err, &st))
		return st;
	if (!trace && p->solve_json_fast && p->solve_json_fast(body, len, req->limits, &out)) {
		tally_case(call, true);
		return respond_outcome(call, &out, fmt, resp, err);
	}
	if (trace && fmt == ROUTE_FORMAT_JSON && !req->limits->tree_only &&
	    solve_traced_fast(call, body, len, resp, err, &st))
		return st;
	json_t *root = route_parse_json(body, len, err);
	if (!root)
		return err->status;
	if (route_is_batch(root)) {
		if (fmt != ROUTE_FORMAT_JSON) {
			codec_error_set(err, CODEC_E_NOT_ACCEPTABLE,
					"a batch is answered in application/json only; ask with "
					"Accept: application/json");
			st = CODEC_E_NOT_ACCEPTABLE;
		} else {
			st = route_respond_batch(call, root, solve_case, resp, err);
		}
		json_decref(root);
		return st;
	}
	bool case_trace = route_case_wants_trace(root, trace);
	if (case_trace && fmt != ROUTE_FORMAT_JSON) {
		json_decref(root);
		return refuse_text_trace(err);
	}
	const char *trace_at = json_is_true(json_object_get(root, "trace")) ? "/trace" : NULL;
	if (case_trace && solve_traced_single(call, root, NULL, 0, trace_at, resp, err, &st)) {
		json_decref(root);
		return st;
	}
	st = solve_object(call, root, "", case_trace, &out, err);
	if (st == CODEC_OK)
		st = single_trace_within_limit(call, &out, trace_at, err);
	json_decref(root);
	return st != CODEC_OK ? st : respond_outcome(call, &out, fmt, resp, err);
}
