/*
 * Building responses: JSON bodies (jansson, compact, ended by a newline so
 * that curl output reads well), text bodies, problem details, headers, and
 * the helpers that read query parameters and JSON bodies. Every HTTP status
 * set here comes from problem_http_status().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/problem.h"
#include "mem/alloc.h"
#include "route/handlers.h"

/* The answer when even building an error fails. */
static const char oom_body[] =
    "{\"type\":\"https://dropjudge.dev/problems/internal\",\"title\":\"Internal error\","
    "\"status\":500,\"detail\":\"out of memory\"}\n";

const char *route_oom_body(size_t *len)
{
	*len = sizeof oom_body - 1;
	return oom_body;
}

/* Drops the body of resp, whatever owns it. */
static void respond_drop_body(struct route_response *resp)
{
	if (!resp->body_static)
		dj_free(resp->body);
	resp->body = NULL;
	resp->body_len = 0;
	resp->body_static = false;
}

void route_respond_oom(struct route_response *resp)
{
	respond_drop_body(resp);
	resp->status = problem_http_status(CODEC_E_INTERNAL);
	resp->content_type = PROBLEM_MEDIA_TYPE;
	resp->body = (char *)oom_body; /* never written: body_static */
	resp->body_len = sizeof oom_body - 1;
	resp->body_static = true;
	resp->nheaders = 0;
}

/* A growing buffer for json_dump_callback. */
struct dump_buf {
	char *data;
	size_t len;
	size_t cap;
};

static int dump_append(const char *buffer, size_t size, void *data)
{
	struct dump_buf *b = data;
	if (b->len + size + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + size + 1)
			cap *= 2;
		char *p = dj_realloc(b->data, cap);
		if (!p)
			return -1;
		b->data = p;
		b->cap = cap;
	}
	memcpy(b->data + b->len, buffer, size);
	b->len += size;
	return 0;
}

/* Serialises `body` with a final newline into resp; false when out of memory. */
static bool respond_dump(struct route_response *resp, const json_t *body)
{
	struct dump_buf b = {NULL, 0, 0};
	if (json_dump_callback(body, dump_append, &b, JSON_COMPACT) != 0 ||
	    dump_append("\n", 1, &b) != 0) {
		dj_free(b.data);
		return false;
	}
	respond_drop_body(resp);
	resp->body = b.data;
	resp->body_len = b.len;
	return true;
}

void route_respond_json(struct route_response *resp, enum codec_status status, json_t *body)
{
	if (!body || !respond_dump(resp, body)) {
		json_decref(body);
		route_respond_oom(resp);
		return;
	}
	json_decref(body);
	resp->status = problem_http_status(status);
	resp->content_type = "application/json";
}

void route_respond_text(struct route_response *resp, const char *content_type, const char *text,
			size_t len)
{
	char *copy = dj_malloc(len ? len : 1);
	if (!copy) {
		route_respond_oom(resp);
		return;
	}
	memcpy(copy, text, len);
	respond_drop_body(resp);
	resp->body = copy;
	resp->body_len = len;
	resp->status = problem_http_status(CODEC_OK);
	resp->content_type = content_type;
}

void route_respond_error(struct route_response *resp, const struct codec_error *err)
{
	json_t *problem = problem_json(err);
	if (!problem || !respond_dump(resp, problem)) {
		json_decref(problem);
		route_respond_oom(resp);
		return;
	}
	json_decref(problem);
	resp->status = problem_http_status(err->status);
	resp->content_type = PROBLEM_MEDIA_TYPE;
}

void route_add_header(struct route_response *resp, const char *name, const char *value)
{
	if (resp->nheaders >= ROUTE_MAX_HEADERS)
		return;
	struct route_header *h = &resp->headers[resp->nheaders++];
	h->name = name;
	snprintf(h->value, sizeof h->value, "%s", value);
}

void route_response_free(struct route_response *resp)
{
	respond_drop_body(resp);
}

const char *route_param(const struct route_request *req, const char *key)
{
	for (size_t i = 0; i < req->nparams && i < ROUTE_MAX_PARAMS; i++)
		if (strcmp(req->params[i].key, key) == 0)
			return req->params[i].value ? req->params[i].value : "";
	return NULL;
}

bool route_check_params(const struct route_request *req, const char *const *allowed,
			struct codec_error *err)
{
	for (size_t i = 0; i < req->nparams && i < ROUTE_MAX_PARAMS; i++) {
		const char *key = req->params[i].key;
		bool known = false;
		for (const char *const *a = allowed; *a && !known; a++)
			known = strcmp(*a, key) == 0;
		if (!known) {
			codec_error_at_param(err, CODEC_E_SYNTAX, key, "unknown query parameter");
			return false;
		}
		for (size_t j = 0; j < i; j++) {
			if (strcmp(req->params[j].key, key) == 0) {
				codec_error_at_param(err, CODEC_E_SYNTAX, key,
						     "query parameter given twice");
				return false;
			}
		}
	}
	return true;
}

bool route_param_u64(const struct route_request *req, const char *key, uint64_t min, uint64_t max,
		     uint64_t dflt, uint64_t *out, struct codec_error *err)
{
	const char *v = route_param(req, key);
	if (!v) {
		*out = dflt;
		return true;
	}
	if (*v < '0' || *v > '9') {
		codec_error_at_param(err, CODEC_E_SYNTAX, key,
				     "expected an unsigned decimal integer");
		return false;
	}
	errno = 0;
	char *end;
	unsigned long long n = strtoull(v, &end, 10);
	if (*end != '\0') {
		codec_error_at_param(err, CODEC_E_SYNTAX, key,
				     "expected an unsigned decimal integer");
		return false;
	}
	if (errno == ERANGE || n < min || n > max) {
		codec_error_at_param(err, CODEC_E_INVALID, key, "must be %llu..%llu",
				     (unsigned long long)min, (unsigned long long)max);
		return false;
	}
	*out = n;
	return true;
}

bool route_param_bool(const struct route_request *req, const char *key, bool dflt, bool *out,
		      struct codec_error *err)
{
	const char *v = route_param(req, key);
	if (!v) {
		*out = dflt;
		return true;
	}
	if (strcmp(v, "true") == 0 || strcmp(v, "1") == 0 || strcmp(v, "") == 0) {
		*out = true;
		return true;
	}
	if (strcmp(v, "false") == 0 || strcmp(v, "0") == 0) {
		*out = false;
		return true;
	}
	codec_error_at_param(err, CODEC_E_SYNTAX, key, "expected true or false");
	return false;
}

json_t *route_parse_json(const char *body, size_t len, struct codec_error *err)
{
	json_error_t jerr = {.line = 0};
	json_t *root = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
	/* jansson leaves the error empty when its first allocation fails */
	if (!root && (json_error_code(&jerr) == json_error_out_of_memory || !jerr.text[0])) {
		codec_error_set(err, CODEC_E_INTERNAL, "out of memory");
	} else if (!root) {
		unsigned line = jerr.line > 0 ? (unsigned)jerr.line : 1;
		unsigned column = jerr.column > 0 ? (unsigned)jerr.column : 0;
		codec_error_at_line(err, CODEC_E_SYNTAX, line, column, "invalid JSON: %s",
				    jerr.text);
	}
	return root;
}
