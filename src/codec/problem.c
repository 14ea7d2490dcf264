/*
 * Problem details (RFC 9457) and the status table. Every HTTP status that
 * dropjudge sends for an error is read from problem_table below.
 */
#include "codec/problem.h"

struct problem_kind {
	unsigned http;	   /* HTTP status */
	const char *type;  /* problem type URI */
	const char *title; /* short, the same for every occurrence */
};

#define PROBLEM_TYPE_BASE "https://dropjudge.dev/problems/"

static const struct problem_kind problem_table[CODEC_STATUS_COUNT] = {
    [CODEC_OK] = {200, "about:blank", "OK"},
    [CODEC_E_SYNTAX] = {400, PROBLEM_TYPE_BASE "malformed-input", "The input cannot be parsed"},
    [CODEC_E_INVALID] = {422, PROBLEM_TYPE_BASE "invalid-input",
			 "The input breaks the problem's rules"},
    [CODEC_E_TOO_LARGE] = {413, PROBLEM_TYPE_BASE "too-large", "The request is over a limit"},
    [CODEC_E_MEDIA_TYPE] = {415, PROBLEM_TYPE_BASE "unsupported-media-type",
			    "Unsupported Content-Type"},
    [CODEC_E_NOT_ACCEPTABLE] = {406, PROBLEM_TYPE_BASE "not-acceptable",
				"No acceptable representation"},
    [CODEC_E_NOT_FOUND] = {404, PROBLEM_TYPE_BASE "not-found", "No such resource"},
    [CODEC_E_METHOD] = {405, PROBLEM_TYPE_BASE "method-not-allowed", "Method not allowed"},
    [CODEC_E_UNAVAILABLE] = {503, PROBLEM_TYPE_BASE "unavailable", "The service is shutting down"},
    [CODEC_E_UNAUTHORIZED] = {401, PROBLEM_TYPE_BASE "unauthorized", "Authentication required"},
    [CODEC_E_INTERNAL] = {500, PROBLEM_TYPE_BASE "internal", "Internal error"},
    [CODEC_E_BAD_REQUEST] = {400, PROBLEM_TYPE_BASE "malformed-request",
			     "The HTTP request is malformed"},
    [CODEC_E_NOT_IMPLEMENTED] = {501, PROBLEM_TYPE_BASE "not-implemented", "Not implemented"},
};

static const struct problem_kind *problem_kind_of(enum codec_status status)
{
	if ((unsigned)status >= CODEC_STATUS_COUNT)
		status = CODEC_E_INTERNAL;
	return &problem_table[status];
}

unsigned problem_http_status(enum codec_status status)
{
	return problem_kind_of(status)->http;
}

const char *problem_type(enum codec_status status)
{
	return problem_kind_of(status)->type;
}

json_t *problem_faults_json(const struct codec_error *err)
{
	json_t *list = json_array();
	if (!list)
		return NULL;
	for (unsigned i = 0; i < err->nfaults; i++) {
		const struct codec_fault *f = &err->faults[i];
		json_t *item = json_object();
		int rc = item ? 0 : -1;
		if (f->pointer[0] || (!f->line && !f->parameter[0]))
			rc |= json_object_set_new(item, "pointer", json_string(f->pointer));
		if (f->parameter[0])
			rc |= json_object_set_new(item, "parameter", json_string(f->parameter));
		if (f->line)
			rc |= json_object_set_new(item, "line", json_integer((json_int_t)f->line));
		if (f->column)
			rc |= json_object_set_new(item, "column",
						  json_integer((json_int_t)f->column));
		rc |= json_object_set_new(item, "detail", json_string(f->detail));
		if (rc != 0) {
			json_decref(item);
			json_decref(list);
			return NULL;
		}
		if (json_array_append_new(list, item) != 0) {
			json_decref(list);
			return NULL;
		}
	}
	return list;
}

json_t *problem_json(const struct codec_error *err)
{
	const struct problem_kind *kind = problem_kind_of(err->status);
	json_t *obj =
	    json_pack("{ss ss sI ss}", "type", kind->type, "title", kind->title, "status",
		      (json_int_t)kind->http, "detail", err->detail[0] ? err->detail : kind->title);
	if (!obj)
		return NULL;
	if (err->nfaults) {
		if (json_object_set_new(obj, "errors", problem_faults_json(err)) != 0)
			goto out_free;
	}
	if (err->dropped &&
	    json_object_set_new(obj, "errors_omitted", json_integer((json_int_t)err->dropped)) != 0)
		goto out_free;
	return obj;
out_free:
	json_decref(obj);
	return NULL;
}
