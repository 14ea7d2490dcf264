/*
 * Solve: one case or a batch, JSON or the Baekjoon text, in JSON or the Baekjoon output, with an
 * optional trace. A case that fails is read again in collect mode so that the answer lists every
 * fault of it, sorted by position, as validate does.
 */
#include <stdio.h>

#include "route/handlers.h"

#define OUTPUT_JSON_MAX 256 /* longest JSON result without steps, with room to spare */

/* One case solved, before it is encoded. */
struct solved {
	struct problem_outcome out; /* the final state; ->steps: its trace as a tree */
	struct problem_text trace;  /* or its trace as text (the problem's trace()) */
	size_t steps;		    /* steps in trace, when text */
	bool traced_text;	    /* the trace is in `trace`, not in out.steps */
	const char *trace_at;	    /* where the trace was asked: "/trace", NULL: ?trace */
};

/* Whether the answer carries links into the players' simulators. */
static bool wants_links(const struct route_call *call)
{
	const struct problem *p = route_entry_problem(call->entry);
	return p->outcome_links && route_arg(call, "links") != 0;
}

/* A solved case's result object, with links when asked, taking out->steps; NULL on OOM. */
static json_t *outcome_object(const struct route_call *call, struct problem_outcome *out)
{
	const struct problem *p = route_entry_problem(call->entry);
	bool with_links = wants_links(call);
	json_t *links = with_links ? p->outcome_links(out) : NULL;
	json_t *obj = p->outcome_json(out);
	/* json_object_set_new() releases links when it fails, obj NULL too */
	if (with_links && json_object_set_new(obj, "links", links) != 0) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

/* Answers one solved case in the decided format. */
static enum route_status respond_outcome(const struct route_call *call, struct solved *s,
					 struct route_response *resp, struct codec_error *err)
{
	const struct problem *p = route_entry_problem(call->entry);
	if (call->format == ROUTE_FORMAT_TEXT) {
		char text[ROUTE_OUTPUT_TEXT_MAX];
		int n = p->outcome_text(&s->out, text, sizeof text);
		if (n < 0 || (size_t)n >= sizeof text)
			return route_error_set(err, ROUTE_E_INTERNAL, "the answer does not fit");
		return route_respond_text(resp, ROUTE_TEXT_MEDIA_TYPE, text, (size_t)n, err);
	}
	char json[OUTPUT_JSON_MAX];
	if (s->traced_text) { /* the result without its "}\n", then the trace */
		int n = p->outcome_write(&s->out, json, sizeof json);
		if (n >= 3 && (size_t)n < sizeof json)
			return route_respond_traced(resp, json, (size_t)n - 2, &s->trace, err);
		return route_oom(err);
	}
	if (!s->out.steps && p->outcome_write && !wants_links(call)) {
		/* A fixed-shape answer: no jansson object to build and dump. */
		int n = p->outcome_write(&s->out, json, sizeof json);
		if (n >= 0 && (size_t)n < sizeof json)
			return route_respond_text(resp, "application/json", json, (size_t)n, err);
	}
	return route_respond_json(resp, outcome_object(call, &s->out), err);
}

/* Solves one case, the JSON object c or (c NULL) the Baekjoon text; a failure lists every fault. */
static enum route_status solve_read(const struct route_call *call, const json_t *c, const char *ptr,
				    const char *text, size_t len, bool trace,
				    struct problem_outcome *out, struct codec_error *err)
{
	const struct problem *p = route_entry_problem(call->entry);
	const struct problem_limits pl = route_problem_limits(call);
	enum codec_status st = c ? p->solve_json(c, ptr, &pl, trace, out, err)
				 : p->solve_text(text, len, &pl, trace, out, err);
	route_tally_case(call, p->id, st == CODEC_OK);
	if ((st != CODEC_E_SYNTAX && st != CODEC_E_INVALID) || !route_collect(call, err))
		return route_status_of(st);
	struct problem_outcome again = {.steps = NULL};
	st = c ? p->solve_json(c, ptr, &pl, trace, &again, err)
	       : p->solve_text(text, len, &pl, trace, &again, err);
	problem_outcome_release(&again);
	codec_error_sort(err);
	return route_status_of(st != CODEC_OK ? st : err->status);
}

/* route_case_fn: one case of a solve batch. */
static json_t *solve_case(const struct route_call *call, const json_t *c, const char *ptr,
			  bool trace, struct codec_error *each)
{
	struct problem_outcome out = {.steps = NULL};
	if (solve_read(call, c, ptr, NULL, 0, route_case_wants_trace(c, trace), &out, each) !=
	    ROUTE_OK)
		return route_error_slot(each);
	return outcome_object(call, &out);
}

/* Solves a case alone (c, or text[0..len) when c is NULL) into *s; a trace through the problem's
 * trace() when it takes the case, else built as a tree by the reader and the core. */
static enum route_status solve_alone(const struct route_call *call, const json_t *c,
				     const char *text, size_t len, bool trace, struct solved *s,
				     struct codec_error *err)
{
	const struct problem *p = route_entry_problem(call->entry);
	const struct problem_limits pl = route_problem_limits(call);
	int taken = 0;
	if (trace && p->trace && !wants_links(call))
		taken = p->trace(c, "", text, len, &pl, &s->out, &s->trace, &s->steps);
	if (taken < 0)
		return route_oom(err);
	s->traced_text = taken == 1;
	if (s->traced_text) {
		route_tally_case(call, p->id, true);
		return ROUTE_OK;
	}
	enum route_status st = solve_read(call, c, "", text, len, trace, &s->out, err);
	s->steps = json_array_size(s->out.steps);
	return st;
}

/* A JSON body: the fast reader's canonical case, else the tree of a case
 * (solved into *s) or of a batch (answered here, *answered set). */
static enum route_status solve_json_body(const struct route_call *call, const char *body,
					 size_t len, bool trace, struct solved *s,
					 struct route_response *resp, struct codec_error *err,
					 bool *answered)
{
	const struct problem *p = route_entry_problem(call->entry);
	const struct problem_limits pl = route_problem_limits(call);
	enum route_status st;
	if (!trace && p->solve_json_fast && p->solve_json_fast(body, len, &pl, &s->out)) {
		route_tally_case(call, p->id, true);
		return ROUTE_OK;
	}
	json_t *root = route_parse_json(body, len, err);
	if (!root)
		return err->status;
	bool case_trace = route_case_wants_trace(root, trace);
	*answered = route_is_batch(root);
	if (*answered && call->format != ROUTE_FORMAT_JSON) {
		st = route_error_set(err, ROUTE_E_NOT_ACCEPTABLE,
				     "a batch is answered in application/json only; ask with "
				     "Accept: application/json");
	} else if (*answered) {
		st = route_respond_batch(call, root, solve_case, resp, err);
	} else if (case_trace && call->format != ROUTE_FORMAT_JSON) {
		st = route_error_add(err, ROUTE_E_NOT_ACCEPTABLE,
				     &(struct codec_where){.pointer = "/trace"},
				     "a trace is answered in application/json only, and Accept "
				     "asks for text; ask with Accept: application/json, or "
				     "without trace");
	} else {
		s->trace_at = json_is_true(json_object_get(root, "trace")) ? "/trace" : NULL;
		st = solve_alone(call, root, NULL, 0, case_trace, s, err);
	}
	json_decref(root);
	return st;
}

enum route_status route_solve(const struct route_call *call, struct route_response *resp,
			      struct codec_error *err)
{
	const struct problem *p = route_entry_problem(call->entry);
	const struct route_request *req = call->req;
	bool trace = route_arg(call, "trace") != 0; /* the table made it JSON-only */
	struct solved s = {.out = {.steps = NULL}};
	bool answered = false;
	enum route_status st;

	if (call->format == ROUTE_FORMAT_SVG) {
		route_render_body(call, trace, resp);
		return ROUTE_OK;
	}
	if (req->intake) { /* a text body read as it arrived */
		st = route_intake_end(req->intake, &s.out, err);
		route_tally_case(call, p->id, st == ROUTE_OK);
	} else {
		st = call->body == ROUTE_BODY_TEXT
			 ? solve_alone(call, NULL, call->bytes, call->nbytes, trace, &s, err)
			 : solve_json_body(call, call->bytes, call->nbytes, trace, &s, resp, err,
					   &answered);
	}
	size_t used = 0;
	if (st == ROUTE_OK && !answered)
		st = route_trace_within_limit(req->limits, s.steps, s.trace_at, &used, err)
			 ? respond_outcome(call, &s, resp, err)
			 : err->status;
	problem_outcome_release(&s.out);
	problem_text_free(&s.trace);
	return st;
}
