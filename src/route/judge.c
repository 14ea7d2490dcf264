/*
 * Judge: a contestant's output against a case's expected output, as a judge compares them
 * (accepted, presentation error, wrong answer). The output is any bytes, "output" as a JSON string
 * (NUL included) or "output_base64" for bytes that are not UTF-8, judged and never refused. A bad
 * input is the jury's fault: 422 at /input.
 */
#include <stdio.h>
#include <string.h>

#include "codec/base64.h"
#include "dropjudge/judge.h"
#include "mem/alloc.h"
#include "route/handlers.h"

/* A contestant's output: the bytes of "output", or those "output_base64" holds. */
struct contestant_output {
	const char *bytes;	/* not NUL-terminated; may hold NUL and invalid UTF-8 */
	size_t len;		/* bytes */
	unsigned char *decoded; /* dj_malloc'ed for output_base64, else NULL */
};

/* Reads a judge item's output at `ptr`: CODEC_OK, or the status with err set (422, 500). */
static enum codec_status read_output(const json_t *item, const char *ptr,
				     struct contestant_output *found, struct codec_error *err)
{
	char at[CODEC_POINTER_MAX];
	const json_t *text = json_object_get(item, "output");
	const json_t *b64 = json_object_get(item, "output_base64");
	found->decoded = NULL;
	snprintf(at, sizeof at, "%s/%s", ptr, b64 && !text ? "output_base64" : "output");
	const json_t *v = text ? text : b64;
	const char *why = text && b64 ? "give \"output\" or \"output_base64\", not both"
			  : !v	      ? "required (or \"output_base64\" for bytes that are "
					"not UTF-8)"
			  : !json_is_string(v) ? "must be a string (the contestant's output)"
					       : NULL;
	if (why)
		return codec_error_at_pointer(err, CODEC_E_INVALID, at, "%s", why);
	found->bytes = json_string_value(v);
	found->len = json_string_length(v);
	if (text)
		return CODEC_OK;
	found->decoded = dj_malloc(CODEC_BASE64_DECODED_MAX(found->len) + 1);
	if (!found->decoded)
		return problem_oom(err);
	size_t bad = 0, n = 0;
	if (!codec_base64_decode(found->bytes, found->len, found->decoded, &n, &bad)) {
		unsigned char c = bad < found->len ? (unsigned char)found->bytes[bad] : 0;
		dj_free(found->decoded);
		found->decoded = NULL;
		return codec_error_at_pointer(
		    err, CODEC_E_INVALID, at,
		    "not base64: byte 0x%02X at offset %zu cannot be there", c, bad);
	}
	found->bytes = (const char *)found->decoded;
	found->len = n;
	return CODEC_OK;
}

/* A trace written as text (the problem's trace()), not as the verdict's "steps" tree. */
struct judge_text {
	bool taken;		  /* the trace is in text, not in the verdict */
	struct problem_text text; /* its steps */
	size_t steps;		  /* how many */
};

/* Judges one {"input", "output"} item at `ptr`: its verdict, or NULL with err set (a bad input is
 * CODEC_E_INVALID, the jury's); with `jt`, a trace is text where the problem can (jt->taken). */
static json_t *judge_one(const struct route_call *call, const json_t *item, const char *ptr,
			 bool trace, struct codec_error *err, struct judge_text *jt)
{
	const struct problem *p = route_entry_problem(call->entry);
	struct route_tally *tally = call->req->tally;
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
	struct problem_outcome out = {.steps = NULL};
	const struct problem_limits pl = route_problem_limits(call);
	enum codec_status st = CODEC_OK;
	bool wants = route_case_wants_trace(input, trace);
	int written = 0;
	if (jt && wants && p->trace && (json_is_object(input) || json_is_string(input)))
		written =
		    p->trace(json_is_object(input) ? input : NULL, at, json_string_value(input),
			     json_string_length(input), &pl, &out, &jt->text, &jt->steps);
	if (written < 0) {
		codec_error_set(err, CODEC_E_INTERNAL, "out of memory");
		return NULL;
	}
	if (written == 1) {
		jt->taken = true;
	} else if (json_is_object(input)) {
		st = p->solve_json(input, at, &pl, wants, &out, err);
	} else if (json_is_string(input)) {
		st = p->solve_text(json_string_value(input), json_string_length(input), &pl, trace,
				   &out, err);
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
	struct contestant_output found = {.bytes = NULL};
	if (read_output(item, ptr, &found, err) != CODEC_OK) {
		problem_outcome_release(&out);
		return NULL;
	}
	char expected[ROUTE_OUTPUT_TEXT_MAX];
	int n = p->outcome_text(&out, expected, sizeof expected);
	if (n < 0 || (size_t)n >= sizeof expected) {
		problem_outcome_release(&out);
		codec_error_set(err, CODEC_E_INTERNAL, "expected output does not fit");
		return NULL;
	}
	struct judge_report report;
	judge_compare(expected, (size_t)n, found.bytes, found.len, &report);
	if (tally && (unsigned)report.verdict < ROUTE_VERDICTS) {
		tally->problem = p->id;
		tally->verdicts[report.verdict]++;
	}
	dj_free(found.decoded);
	json_t *verdict =
	    json_pack("{ss ss# ss s:O*}", "verdict", judge_verdict_name(report.verdict), "expected",
		      expected, (size_t)n, "message", report.message, "steps", out.steps);
	problem_outcome_release(&out);
	if (!verdict)
		codec_error_set(err, CODEC_E_INTERNAL, "out of memory");
	return verdict;
}

/* route_case_fn: one case of a judge batch. */
static json_t *judge_case(const struct route_call *call, const json_t *c, const char *ptr,
			  bool trace, struct codec_error *each)
{
	json_t *verdict = judge_one(call, c, ptr, trace, each, NULL);
	return verdict ? verdict : route_error_slot(each);
}

enum route_status route_judge(const struct route_call *call, struct route_response *resp,
			      struct codec_error *err)
{
	const struct route_request *req = call->req;
	bool trace = route_arg(call, "trace") != 0;
	enum route_status st;

	json_t *root = route_parse_json(call->bytes, call->nbytes, err);
	if (!root)
		return err->status;
	if (!route_is_batch(root)) {
		struct judge_text jt = {.taken = false};
		json_t *verdict = judge_one(call, root, "", trace, err, &jt);
		const json_t *input = json_object_get(root, "input");
		const char *at =
		    json_is_true(json_object_get(input, "trace")) ? "/input/trace" : NULL;
		size_t used = 0;
		size_t steps =
		    jt.taken ? jt.steps : json_array_size(json_object_get(verdict, "steps"));
		json_decref(root);
		struct route_buf head = {.data = NULL}; /* a text trace: the verdict but its "}" */
		if (!verdict || !route_trace_within_limit(req->limits, steps, at, &used, err))
			st = err->status;
		else if (!jt.taken)
			st = route_respond_json(resp, json_incref(verdict), err);
		else if (json_dump_callback(verdict, route_buf_put, &head, JSON_COMPACT) == 0 &&
			 head.len > 1)
			st = route_respond_traced(resp, head.data, head.len - 1, &jt.text, err);
		else
			st = route_oom(err);
		dj_free(head.data);
		json_decref(verdict);
		dj_free(jt.text.data);
		return st;
	}
	st = route_respond_batch(call, root, judge_case, resp, err);
	json_decref(root);
	return st;
}
