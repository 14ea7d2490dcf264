/*
 * Batches, shared by solve, judge and validate: {"cases": [...]} in, one slot per case out, in
 * order (a result, or {"error": problem}), each with the case's own "id", then a summary. A batch
 * is read as one jansson tree, which --max-json-body bounds; more cases go as a stream (ndjson.c).
 */
#include <stdio.h>
#include <string.h>

#include "route/status.h"
#include "route/handlers.h"

bool route_case_wants_trace(const json_t *case_obj, bool query_trace)
{
	const json_t *t = json_is_object(case_obj) ? json_object_get(case_obj, "trace") : NULL;
	return json_is_boolean(t) ? json_is_true(t) : query_trace;
}

/* A batch's "cases" array, or NULL with err set: the root holds it alone, at most max_batch. */
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

bool route_trace_within_limit(const struct route_limits *limits, size_t steps, const char *pointer,
			      size_t *used, struct codec_error *err)
{
	static const char why[] = "the traces of this request pass %lu steps in all "
				  "(--max-request-trace-steps); ask fewer traces";
	*used += steps;
	if (!limits || limits->max_trace_steps == 0 || *used <= limits->max_trace_steps)
		return true;
	const struct codec_where w = {.pointer = pointer, .parameter = pointer ? NULL : "trace"};
	codec_error_add(err, CODEC_E_INVALID, &w, why, limits->max_trace_steps);
	return false;
}

void route_tally_case(const struct route_call *call, const char *problem, bool solved)
{
	struct route_tally *t = call->req->tally;
	if (!t)
		return;
	t->problem = problem;
	t->solved += solved;
	t->rejected += !solved;
}

bool route_is_batch(const json_t *root)
{
	return json_is_object(root) && json_object_get(root, "cases") != NULL;
}

json_t *route_error_slot(struct codec_error *err)
{
	codec_error_sort(err);
	return json_pack("{so}", "error", problem_json(err));
}

enum route_status route_respond_batch(const struct route_call *call, json_t *root,
				      route_case_fn *one, struct route_response *resp,
				      struct codec_error *err)
{
	json_t *cases = batch_cases(root, call->req->limits, err);
	if (!cases)
		return err->status;
	bool trace = route_arg(call, "trace") != 0;
	json_t *results = json_array();
	size_t i, failed = 0, steps = 0;
	json_t *c;
	json_array_foreach(cases, i, c)
	{
		char ptr[CODEC_POINTER_MAX];
		struct codec_error each;
		snprintf(ptr, sizeof ptr, "/cases/%zu", i);
		codec_error_init(&each);
		json_t *slot = one(call, c, ptr, trace, &each);
		const json_t *id = json_is_object(c) ? json_object_get(c, "id") : NULL;
		if (slot && (json_is_string(id) || json_is_integer(id)) &&
		    json_object_set(slot, "id", (json_t *)id) != 0) {
			json_decref(slot);
			slot = NULL;
		}
		size_t traced = json_array_size(json_object_get(slot, "steps"));
		if (!route_trace_within_limit(call->req->limits, traced, ptr, &steps, err)) {
			json_decref(slot);
			json_decref(results);
			return err->status;
		}
		if (slot && json_object_get(slot, "error"))
			failed++;
		if (json_array_append_new(results, slot) != 0)
			break;
	}
	if (json_array_size(results) != json_array_size(cases)) {
		json_decref(results);
		return route_oom(err);
	}
	size_t n = json_array_size(cases);
	return route_respond_json(resp,
				  json_pack("{so s{sI sI sI}}", "results", results, "summary",
					    "cases", (json_int_t)n, "answered",
					    (json_int_t)(n - failed), "failed", (json_int_t)failed),
				  err);
}
