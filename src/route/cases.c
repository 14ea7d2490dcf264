/*
 * The handlers every problem shares, built on its struct route_problem:
 * solve (one case or a batch, JSON or Baekjoon text, optional trace), judge
 * (the checker) and validate (the strict Baekjoon constraints).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/base64.h"
#include "codec/problem.h"
#include "dropjudge/judge.h"
#include "mem/alloc.h"
#include "route/handlers.h"

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

/* Answers one solved case in the decided format; releases the outcome. */
static enum codec_status respond_outcome(const struct route_problem *p, struct route_outcome *out,
					 enum route_format fmt, struct route_response *resp,
					 struct codec_error *err)
{
	if (fmt == ROUTE_FORMAT_TEXT) {
		char text[OUTPUT_TEXT_MAX];
		int n = p->outcome_text(out, text, sizeof text);
		outcome_release(out);
		if (n < 0 || (size_t)n >= sizeof text) {
			codec_error_set(err, CODEC_E_INTERNAL, "the answer does not fit");
			return CODEC_E_INTERNAL;
		}
		return route_respond_text(resp, ROUTE_TEXT_MEDIA_TYPE, text, (size_t)n, err);
	}
	if (!out->steps && p->outcome_write) {
		/* A fixed-shape answer: no jansson object to build and dump. */
		char json[OUTPUT_JSON_MAX];
		int n = p->outcome_write(out, json, sizeof json);
		if (n >= 0 && (size_t)n < sizeof json)
			return route_respond_text(resp, "application/json", json, (size_t)n, err);
	}
	return route_respond_json(resp, p->outcome_json(out), err);
}

/*
 * Whether a case asks for a trace: its own "trace" member when it is a
 * boolean (the codec rejects other types), else the query's choice.
 */
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
static enum codec_status respond_batch(const struct route_problem *p,
				       const struct route_request *req, json_t *root, bool trace,
				       unsigned max_faults, batch_case_fn one,
				       struct route_response *resp, struct codec_error *err)
{
	json_t *cases = batch_cases(root, req->limits, err);
	if (!cases)
		return err->status;
	json_t *results = json_array();
	size_t i, failed = 0;
	json_t *c;
	json_array_foreach(cases, i, c)
	{
		char ptr[CODEC_POINTER_MAX];
		snprintf(ptr, sizeof ptr, "/cases/%zu", i);
		codec_error_init(err, max_faults);
		json_t *slot = one(p, req, c, ptr, trace, err);
		const json_t *id = json_is_object(c) ? json_object_get(c, "id") : NULL;
		if (slot && (json_is_string(id) || json_is_integer(id)) &&
		    json_object_set(slot, "id", (json_t *)id) != 0) {
			json_decref(slot);
			slot = NULL;
		}
		if (slot && json_object_get(slot, "error"))
			failed++;
		if (json_array_append_new(results, slot) != 0)
			break;
	}
	codec_error_init(err, 1);
	if (json_array_size(results) != json_array_size(cases)) {
		json_decref(results);
		codec_error_set(err, CODEC_E_INTERNAL, "out of memory");
		return CODEC_E_INTERNAL;
	}
	size_t n = json_array_size(cases);
	return route_respond_json(resp,
				  json_pack("{so s{sI sI sI}}", "results", results, "summary",
					    "cases", (json_int_t)n, "answered",
					    (json_int_t)(n - failed), "failed", (json_int_t)failed),
				  err);
}

static json_t *solve_case(const struct route_problem *p, const struct route_request *req,
			  const json_t *c, const char *ptr, bool trace, struct codec_error *err)
{
	struct route_outcome out = {.steps = NULL};
	if (p->solve_json(c, ptr, req->limits, case_wants_trace(c, trace), &out, err) != CODEC_OK)
		return error_slot(err);
	return p->outcome_json(&out);
}

enum codec_status route_solve(const struct route_call *call, struct route_response *resp,
			      struct codec_error *err)
{
	const struct route_problem *p = call->entry->data;
	const struct route_request *req = call->req;
	enum route_format fmt = call->format;
	bool trace = route_arg(call, "trace") != 0;
	struct route_outcome out = {.steps = NULL};
	const char *body = req->body;
	size_t len = req->body_len;
	enum codec_status st;

	route_skip_bom(&body, &len);
	if (call->body == ROUTE_BODY_TEXT) {
		st = p->solve_text(body, len, req->limits, trace, &out, err);
		return st != CODEC_OK ? st : respond_outcome(p, &out, fmt, resp, err);
	}
	json_t *root = route_parse_json(body, len, err);
	if (!root)
		return err->status;
	if (is_batch(root)) {
		if (fmt != ROUTE_FORMAT_JSON) {
			codec_error_set(err, CODEC_E_NOT_ACCEPTABLE,
					"a batch is answered in application/json only");
			st = CODEC_E_NOT_ACCEPTABLE;
		} else {
			st = respond_batch(p, req, root, trace, 1, solve_case, resp, err);
		}
		json_decref(root);
		return st;
	}
	bool case_trace = case_wants_trace(root, trace) && fmt == ROUTE_FORMAT_JSON;
	st = p->solve_json(root, "", req->limits, case_trace, &out, err);
	json_decref(root);
	return st != CODEC_OK ? st : respond_outcome(p, &out, fmt, resp, err);
}

/* A contestant's output: the bytes of "output", or those "output_base64" holds. */
struct contestant_output {
	const char *bytes;	/* not NUL-terminated; may hold NUL and invalid UTF-8 */
	size_t len;		/* bytes */
	unsigned char *decoded; /* dj_malloc'ed for output_base64, else NULL */
};

/* Reads the output of a judge item at `ptr`; false with err set (422). */
static bool read_output(const json_t *item, const char *ptr, struct contestant_output *found,
			struct codec_error *err)
{
	char at[CODEC_POINTER_MAX];
	const json_t *text = json_object_get(item, "output");
	const json_t *b64 = json_object_get(item, "output_base64");
	found->decoded = NULL;
	snprintf(at, sizeof at, "%s/%s", ptr, b64 && !text ? "output_base64" : "output");
	if (text && b64) {
		codec_error_at_pointer(err, CODEC_E_INVALID, at,
				       "give \"output\" or \"output_base64\", not both");
		return false;
	}
	if (!text && !b64) {
		codec_error_at_pointer(err, CODEC_E_INVALID, at,
				       "required (or \"output_base64\" for bytes that are not "
				       "UTF-8)");
		return false;
	}
	const json_t *v = text ? text : b64;
	if (!json_is_string(v)) {
		codec_error_at_pointer(err, CODEC_E_INVALID, at,
				       "must be a string (the contestant's output)");
		return false;
	}
	found->bytes = json_string_value(v);
	found->len = json_string_length(v);
	if (text)
		return true;
	found->decoded = dj_malloc(CODEC_BASE64_DECODED_MAX(found->len) + 1);
	if (!found->decoded) {
		codec_error_set(err, CODEC_E_INTERNAL, "out of memory");
		return false;
	}
	size_t bad = 0, n = 0;
	if (!codec_base64_decode(found->bytes, found->len, found->decoded, &n, &bad)) {
		unsigned char c = bad < found->len ? (unsigned char)found->bytes[bad] : 0;
		codec_error_at_pointer(err, CODEC_E_INVALID, at,
				       "not base64: byte 0x%02X at offset %zu cannot be there", c,
				       bad);
		dj_free(found->decoded);
		found->decoded = NULL;
		return false;
	}
	found->bytes = (const char *)found->decoded;
	found->len = n;
	return true;
}

/*
 * Judges one {"input", "output"} item at `ptr`. Returns the verdict object,
 * or NULL with err set: a bad input is the jury's fault, so every input
 * fault is reported as CODEC_E_INVALID.
 */
static json_t *judge_one(const struct route_problem *p, const json_t *item, const char *ptr,
			 const struct route_limits *limits, bool trace, struct codec_error *err)
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
		if (strcmp(key, "input") != 0 && strcmp(key, "output") != 0 &&
		    strcmp(key, "output_base64") != 0 && strcmp(key, "id") != 0) {
			snprintf(at, sizeof at, "%s", ptr);
			codec_pointer_append(at, sizeof at, key);
			codec_error_at_pointer(err, CODEC_E_INVALID, at,
					       "unknown member; a judge case holds \"input\", "
					       "\"output\" or \"output_base64\", and \"id\"");
			return NULL;
		}
	}
	const json_t *input = json_object_get(item, "input");
	snprintf(at, sizeof at, "%s/input", ptr);
	struct route_outcome out = {.steps = NULL};
	enum codec_status st;
	if (json_is_object(input)) {
		st = p->solve_json(input, at, limits, case_wants_trace(input, trace), &out, err);
	} else if (json_is_string(input)) {
		st = p->solve_text(json_string_value(input), json_string_length(input), limits,
				   trace, &out, err);
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
	struct contestant_output found;
	if (!read_output(item, ptr, &found, err)) {
		outcome_release(&out);
		return NULL;
	}
	char expected[OUTPUT_TEXT_MAX];
	int n = p->outcome_text(&out, expected, sizeof expected);
	if (n < 0 || (size_t)n >= sizeof expected) {
		outcome_release(&out);
		codec_error_set(err, CODEC_E_INTERNAL, "expected output does not fit");
		return NULL;
	}
	struct judge_report report;
	judge_compare(expected, (size_t)n, found.bytes, found.len, &report);
	dj_free(found.decoded);
	json_t *verdict = json_pack("{ss ss# ss}", "verdict", judge_verdict_name(report.verdict),
				    "expected", expected, (size_t)n, "message", report.message);
	if (verdict && out.steps && json_object_set(verdict, "steps", out.steps) != 0) {
		json_decref(verdict);
		verdict = NULL;
	}
	outcome_release(&out);
	if (!verdict)
		codec_error_set(err, CODEC_E_INTERNAL, "out of memory");
	return verdict;
}

static json_t *judge_case(const struct route_problem *p, const struct route_request *req,
			  const json_t *c, const char *ptr, bool trace, struct codec_error *err)
{
	json_t *verdict = judge_one(p, c, ptr, req->limits, trace, err);
	return verdict ? verdict : error_slot(err);
}

enum codec_status route_judge(const struct route_call *call, struct route_response *resp,
			      struct codec_error *err)
{
	const struct route_problem *p = call->entry->data;
	const struct route_request *req = call->req;
	const char *body = req->body;
	size_t len = req->body_len;
	bool trace = route_arg(call, "trace") != 0;
	enum codec_status st;

	route_skip_bom(&body, &len);
	json_t *root = route_parse_json(body, len, err);
	if (!root)
		return err->status;
	if (!is_batch(root)) {
		json_t *verdict = judge_one(p, root, "", req->limits, trace, err);
		json_decref(root);
		return verdict ? route_respond_json(resp, verdict, err) : err->status;
	}
	st = respond_batch(p, req, root, trace, 1, judge_case, resp, err);
	json_decref(root);
	return st;
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

enum codec_status route_validate(const struct route_call *call, struct route_response *resp,
				 struct codec_error *err)
{
	const struct route_problem *p = call->entry->data;
	const struct route_request *req = call->req;
	enum codec_status st;
	/* Collect mode: room for every fault, off the stack. */
	struct codec_error *all = dj_malloc(sizeof *all);
	if (!all) {
		codec_error_set(err, CODEC_E_INTERNAL, "out of memory");
		return CODEC_E_INTERNAL;
	}
	codec_error_init(all, CODEC_FAULTS_MAX);
	if (call->body == ROUTE_BODY_TEXT) {
		p->validate_text(req->body, req->body_len, all);
		st = route_respond_json(resp, validity_json(all), err);
		goto out_free;
	}
	json_t *root = route_parse_json(req->body, req->body_len, err);
	if (!root) {
		st = err->status;
		goto out_free;
	}
	if (!is_batch(root)) {
		p->validate_json(root, "", all);
		json_decref(root);
		st = route_respond_json(resp, validity_json(all), err);
		goto out_free;
	}
	st = respond_batch(p, req, root, false, CODEC_FAULTS_MAX, validate_case, resp, all);
	json_decref(root);
	if (st != CODEC_OK)
		*err = *all;
out_free:
	dj_free(all);
	return st;
}
