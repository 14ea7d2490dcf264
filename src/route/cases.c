/*
 * The handlers every problem shares, built on its struct route_problem:
 * solve (one case or a batch, JSON or Baekjoon text, optional trace), judge
 * (the checker) and validate (the strict Baekjoon constraints).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/problem.h"
#include "dropjudge/judge.h"
#include "mem/alloc.h"
#include "route/handlers.h"

#define TEXT_MEDIA_TYPE "text/plain; charset=utf-8"
/* Longest Baekjoon output of either problem, with room to spare. */
#define OUTPUT_TEXT_MAX 64
/* Longest JSON result without steps of either problem, with room to spare. */
#define OUTPUT_JSON_MAX 256

/* Frees what an outcome owns. */
static void outcome_release(struct route_outcome *out)
{
	json_decref(out->steps);
	out->steps = NULL;
}

/* Answers one solved case in the negotiated format; releases the outcome. */
static void respond_outcome(const struct route_problem *p, struct route_outcome *out,
			    enum route_format fmt, struct route_response *resp)
{
	if (fmt == ROUTE_FORMAT_TEXT) {
		char text[OUTPUT_TEXT_MAX];
		int n = p->outcome_text(out, text, sizeof text);
		outcome_release(out);
		if (n < 0 || (size_t)n >= sizeof text) {
			route_respond_oom(resp);
			return;
		}
		route_respond_text(resp, TEXT_MEDIA_TYPE, text, (size_t)n);
		return;
	}
	if (!out->steps && p->outcome_write) {
		/* A fixed-shape answer: no jansson object to build and dump. */
		char json[OUTPUT_JSON_MAX];
		int n = p->outcome_write(out, json, sizeof json);
		if (n >= 0 && (size_t)n < sizeof json) {
			route_respond_text(resp, "application/json", json, (size_t)n);
			return;
		}
	}
	route_respond_json(resp, CODEC_OK, p->outcome_json(out));
}

/*
 * Whether a case asks for a trace: its own "trace" member when it is a
 * boolean (the codec rejects other types), else the query's choice.
 */
/* Counts one case of `p` for the metrics: solved, or refused for its input. */
static void tally_case(const struct route_problem *p, const struct route_request *req, bool solved)
{
	if (!req->tally)
		return;
	req->tally->problem = p->id;
	if (solved)
		req->tally->solved++;
	else
		req->tally->rejected++;
}

static bool case_wants_trace(const json_t *case_obj, bool query_trace)
{
	const json_t *t = json_is_object(case_obj) ? json_object_get(case_obj, "trace") : NULL;
	return json_is_boolean(t) ? json_is_true(t) : query_trace;
}

/*
 * The "cases" array of a batch request, or NULL with err set: the root may
 * hold nothing but "cases", and at most max_batch of them.
 */
static json_t *batch_cases(json_t *root, const struct route_limits *limits, struct codec_error *err)
{
	const char *key;
	json_t *value;
	json_object_foreach(root, key, value)
	{
		if (strcmp(key, "cases") != 0) {
			char ptr[CODEC_POINTER_MAX] = "";
			codec_pointer_append(ptr, sizeof ptr, key);
			codec_error_at_pointer(err, CODEC_E_INVALID, ptr,
					       "unknown member (a batch holds only \"cases\")");
			return NULL;
		}
	}
	json_t *cases = json_object_get(root, "cases");
	if (!json_is_array(cases)) {
		codec_error_at_pointer(err, CODEC_E_INVALID, "/cases", "must be an array of cases");
		return NULL;
	}
	if (json_array_size(cases) > limits->max_batch) {
		codec_error_at_pointer(err, CODEC_E_TOO_LARGE, "/cases",
				       "%zu cases is over the limit of %lu in one batch",
				       json_array_size(cases), limits->max_batch);
		return NULL;
	}
	return cases;
}

static bool is_batch(const json_t *root)
{
	return json_is_object(root) && json_object_get(root, "cases") != NULL;
}

/* The slot of a failed case in a batch: {"error": problem}. */
static json_t *error_slot(const struct codec_error *err)
{
	return json_pack("{so}", "error", problem_json(err));
}

/* Checks Accept for an endpoint that answers JSON only. */
static bool require_json_answer(const struct route_request *req, struct codec_error *err)
{
	if (route_negotiate(req->accept, false) == ROUTE_FORMAT_JSON)
		return true;
	codec_error_set(err, CODEC_E_NOT_ACCEPTABLE, "this resource answers application/json");
	return false;
}

/*
 * Adds the steps of a result's trace (its "steps" member, when it has one)
 * to *used. Returns false with err set (422 at `pointer`, or at the trace
 * parameter for "") once the steps of the whole request pass
 * max_trace_steps: traces, not cases, are what cost memory and time.
 */
static bool trace_within_limit(const struct route_limits *limits, const json_t *result,
			       const char *pointer, size_t *used, struct codec_error *err)
{
	const json_t *steps = json_is_object(result) ? json_object_get(result, "steps") : NULL;
	*used += json_array_size(steps);
	if (!limits || limits->max_trace_steps == 0 || *used <= limits->max_trace_steps)
		return true;
	if (pointer[0])
		codec_error_at_pointer(err, CODEC_E_INVALID, pointer,
				       "the traces of this request pass %lu steps in all "
				       "(--max-trace-steps); ask fewer traces",
				       limits->max_trace_steps);
	else
		codec_error_at_param(err, CODEC_E_INVALID, "trace",
				     "the traces of this request pass %lu steps in all "
				     "(--max-trace-steps); ask fewer traces",
				     limits->max_trace_steps);
	return false;
}

/*
 * Answers one case of a batch at `ptr`: the slot for the results array (a
 * result, or {"error": problem} for a case that failed), or NULL when out of
 * memory. `err` is initialised for the case by the caller.
 */
typedef json_t *(*batch_case_fn)(const struct route_problem *p, const struct route_request *req,
				 const json_t *c, const char *ptr, bool trace,
				 struct codec_error *err);

/*
 * Answers a batch request: {"results": [...]}, one slot per case in order.
 * `max_faults` sets how each case's error collects (1: first wins).
 */
static void respond_batch(const struct route_problem *p, const struct route_request *req,
			  json_t *root, bool trace, unsigned max_faults, batch_case_fn one,
			  struct route_response *resp, struct codec_error *err)
{
	json_t *cases = batch_cases(root, req->limits, err);
	if (!cases) {
		route_respond_error(resp, err);
		return;
	}
	json_t *results = json_array();
	size_t i;
	size_t steps = 0;
	json_t *c;
	json_array_foreach(cases, i, c)
	{
		char ptr[CODEC_POINTER_MAX];
		snprintf(ptr, sizeof ptr, "/cases/%zu", i);
		codec_error_init(err, max_faults);
		json_t *slot = one(p, req, c, ptr, trace, err);
		if (!trace_within_limit(req->limits, slot, ptr, &steps, err)) {
			json_decref(slot);
			json_decref(results);
			route_respond_error(resp, err);
			return;
		}
		if (json_array_append_new(results, slot) != 0)
			break;
	}
	if (json_array_size(results) != json_array_size(cases)) {
		json_decref(results);
		route_respond_oom(resp);
		return;
	}
	route_respond_json(resp, CODEC_OK, json_pack("{so}", "results", results));
}

static json_t *solve_case(const struct route_problem *p, const struct route_request *req,
			  const json_t *c, const char *ptr, bool trace, struct codec_error *err)
{
	struct route_outcome out = {.steps = NULL};
	bool solved =
	    p->solve_json(c, ptr, req->limits, case_wants_trace(c, trace), &out, err) == CODEC_OK;
	tally_case(p, req, solved);
	return solved ? p->outcome_json(&out) : error_slot(err);
}

void route_solve(const struct route_problem *p, const struct route_request *req,
		 struct route_response *resp)
{
	static const char *const params[] = {"trace", NULL};
	struct codec_error err;
	codec_error_init(&err, 1);
	bool trace;
	if (!route_check_params(req, params, &err) ||
	    !route_param_bool(req, "trace", false, &trace, &err))
		goto out_error;
	enum route_format fmt = route_negotiate(req->accept, true);
	if (fmt == ROUTE_FORMAT_NONE) {
		codec_error_set(&err, CODEC_E_NOT_ACCEPTABLE,
				"this resource answers application/json or text/plain");
		goto out_error;
	}
	struct route_outcome out = {.steps = NULL};
	switch (route_body_kind(req->content_type)) {
	case ROUTE_BODY_TEXT:
		if (p->solve_text(req->body, req->body_len, req->limits,
				  trace && fmt == ROUTE_FORMAT_JSON, &out, &err) != CODEC_OK)
			goto out_rejected;
		tally_case(p, req, true);
		respond_outcome(p, &out, fmt, resp);
		return;
	case ROUTE_BODY_JSON: {
		if (!trace && p->solve_json_fast &&
		    p->solve_json_fast(req->body, req->body_len, req->limits, &out)) {
			tally_case(p, req, true);
			respond_outcome(p, &out, fmt, resp);
			return;
		}
		json_t *root = route_parse_json(req->body, req->body_len, &err);
		if (!root)
			goto out_rejected;
		if (is_batch(root)) {
			if (fmt != ROUTE_FORMAT_JSON) {
				json_decref(root);
				codec_error_set(&err, CODEC_E_NOT_ACCEPTABLE,
						"a batch is answered in application/json only");
				goto out_error;
			}
			respond_batch(p, req, root, trace, 1, solve_case, resp, &err);
			json_decref(root);
			return;
		}
		bool case_trace = case_wants_trace(root, trace) && fmt == ROUTE_FORMAT_JSON;
		enum codec_status st = p->solve_json(root, "", req->limits, case_trace, &out, &err);
		json_decref(root);
		if (st != CODEC_OK)
			goto out_rejected;
		tally_case(p, req, true);
		respond_outcome(p, &out, fmt, resp);
		return;
	}
	case ROUTE_BODY_UNSUPPORTED:
		break;
	}
	codec_error_set(&err, CODEC_E_MEDIA_TYPE,
			"send application/json or text/plain (charset utf-8)");
	goto out_error;
out_rejected:
	tally_case(p, req, false);
out_error:
	route_respond_error(resp, &err);
}

/*
 * Judges one {"input", "output"} item at `ptr`. Returns the verdict object,
 * or NULL with err set: a bad input is the jury's fault, so every input
 * fault is reported as CODEC_E_INVALID.
 */
static json_t *judge_one(const struct route_problem *p, const json_t *item, const char *ptr,
			 const struct route_limits *limits, struct route_tally *tally,
			 struct codec_error *err)
{
	char at[CODEC_POINTER_MAX];
	if (!json_is_object(item)) {
		codec_error_at_pointer(err, CODEC_E_INVALID, ptr,
				       "expected an object {\"input\": ..., \"output\": ...}");
		return NULL;
	}
	const char *key;
	json_t *value;
	json_object_foreach((json_t *)item, key, value)
	{
		if (strcmp(key, "input") != 0 && strcmp(key, "output") != 0) {
			snprintf(at, sizeof at, "%s", ptr);
			codec_pointer_append(at, sizeof at, key);
			codec_error_at_pointer(err, CODEC_E_INVALID, at, "unknown member");
			return NULL;
		}
	}
	const json_t *input = json_object_get(item, "input");
	const json_t *output = json_object_get(item, "output");
	snprintf(at, sizeof at, "%s/input", ptr);
	struct route_outcome out = {.steps = NULL};
	enum codec_status st;
	if (json_is_object(input)) {
		st = p->solve_json(input, at, limits, false, &out, err);
	} else if (json_is_string(input)) {
		st = p->solve_text(json_string_value(input), json_string_length(input), limits,
				   false, &out, err);
		codec_error_locate(err, 0, at);
	} else {
		codec_error_at_pointer(err, CODEC_E_INVALID, at,
				       input ? "must be a case object or the Baekjoon input text"
					     : "required");
		return NULL;
	}
	if (st != CODEC_OK) {
		err->status = CODEC_E_INVALID;
		return NULL;
	}
	if (!json_is_string(output)) {
		snprintf(at, sizeof at, "%s/output", ptr);
		codec_error_at_pointer(err, CODEC_E_INVALID, at,
				       output ? "must be a string (the contestant's output)"
					      : "required");
		return NULL;
	}
	char expected[OUTPUT_TEXT_MAX];
	int n = p->outcome_text(&out, expected, sizeof expected);
	if (n < 0 || (size_t)n >= sizeof expected) {
		codec_error_set(err, CODEC_E_INTERNAL, "expected output does not fit");
		return NULL;
	}
	struct judge_report report;
	judge_compare(expected, (size_t)n, json_string_value(output), json_string_length(output),
		      &report);
	if (tally && (unsigned)report.verdict < ROUTE_VERDICTS) {
		tally->problem = p->id;
		tally->verdicts[report.verdict]++;
	}
	json_t *verdict = json_pack("{ss ss# ss}", "verdict", judge_verdict_name(report.verdict),
				    "expected", expected, (size_t)n, "message", report.message);
	if (!verdict)
		codec_error_set(err, CODEC_E_INTERNAL, "out of memory");
	return verdict;
}

static json_t *judge_case(const struct route_problem *p, const struct route_request *req,
			  const json_t *c, const char *ptr, bool trace, struct codec_error *err)
{
	(void)trace;
	json_t *verdict = judge_one(p, c, ptr, req->limits, req->tally, err);
	return verdict ? verdict : error_slot(err);
}

void route_judge(const struct route_problem *p, const struct route_request *req,
		 struct route_response *resp)
{
	static const char *const params[] = {NULL};
	struct codec_error err;
	codec_error_init(&err, 1);
	if (!route_check_params(req, params, &err) || !require_json_answer(req, &err))
		goto out_error;
	if (route_body_kind(req->content_type) != ROUTE_BODY_JSON) {
		codec_error_set(&err, CODEC_E_MEDIA_TYPE,
				"send application/json: {\"input\": ..., \"output\": \"...\"}");
		goto out_error;
	}
	json_t *root = route_parse_json(req->body, req->body_len, &err);
	if (!root)
		goto out_error;
	if (!is_batch(root)) {
		json_t *verdict = judge_one(p, root, "", req->limits, req->tally, &err);
		json_decref(root);
		if (!verdict)
			goto out_error;
		route_respond_json(resp, CODEC_OK, verdict);
		return;
	}
	respond_batch(p, req, root, false, 1, judge_case, resp, &err);
	json_decref(root);
	return;
out_error:
	route_respond_error(resp, &err);
}

/* {"valid": true} or {"valid": false, "errors": [...], "errors_omitted"?}. */
static json_t *validity_json(const struct codec_error *err)
{
	if (!codec_error_is_set(err))
		return json_pack("{sb}", "valid", 1);
	json_t *obj = json_pack("{sb so}", "valid", 0, "errors", problem_faults_json(err));
	if (obj && err->dropped &&
	    json_object_set_new(obj, "errors_omitted", json_integer((json_int_t)err->dropped))) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

static json_t *validate_case(const struct route_problem *p, const struct route_request *req,
			     const json_t *c, const char *ptr, bool trace, struct codec_error *err)
{
	(void)req;
	(void)trace;
	p->validate_json(c, ptr, err);
	return validity_json(err);
}

void route_validate(const struct route_problem *p, const struct route_request *req,
		    struct route_response *resp)
{
	static const char *const params[] = {NULL};
	struct codec_error *err = dj_malloc(sizeof *err);
	if (!err) {
		route_respond_oom(resp);
		return;
	}
	codec_error_init(err, 1);
	if (!route_check_params(req, params, err) || !require_json_answer(req, err))
		goto out_error;
	switch (route_body_kind(req->content_type)) {
	case ROUTE_BODY_TEXT:
		codec_error_init(err, CODEC_FAULTS_MAX);
		p->validate_text(req->body, req->body_len, err);
		route_respond_json(resp, CODEC_OK, validity_json(err));
		goto out_free;
	case ROUTE_BODY_JSON: {
		json_t *root = route_parse_json(req->body, req->body_len, err);
		if (!root)
			goto out_error;
		if (!is_batch(root)) {
			codec_error_init(err, CODEC_FAULTS_MAX);
			p->validate_json(root, "", err);
			json_decref(root);
			route_respond_json(resp, CODEC_OK, validity_json(err));
			goto out_free;
		}
		respond_batch(p, req, root, false, CODEC_FAULTS_MAX, validate_case, resp, err);
		json_decref(root);
		goto out_free;
	}
	case ROUTE_BODY_UNSUPPORTED:
		break;
	}
	codec_error_set(err, CODEC_E_MEDIA_TYPE,
			"send application/json or text/plain (charset utf-8)");
out_error:
	route_respond_error(resp, err);
out_free:
	dj_free(err);
}
