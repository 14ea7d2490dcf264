/*
 * Building responses: JSON bodies (jansson, compact, ended by a newline so that curl output reads
 * well), text bodies, empty answers, problem details and headers. Every HTTP status of an error
 * comes from problem_http_status().
 */
#include <stdio.h>
#include <string.h>

#include "route/status.h"
#include "mem/alloc.h"
#include "route/handlers.h"

/* The answer when even building an error fails. */
static const char oom_body[] = "{\"type\":\"/errors/internal\",\"title\":\"Internal error\","
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

/* Makes body[0..len) the body of resp, in place of any it had. */
static void respond_set(struct route_response *resp, unsigned status, const char *content_type,
			const char *body, size_t len, bool is_static)
{
	respond_drop_body(resp);
	resp->status = status;
	resp->content_type = content_type;
	resp->body = (char *)body; /* never written when static */
	resp->body_len = len;
	resp->body_static = is_static;
}

enum route_status route_oom(struct codec_error *err)
{
	return route_error_set(err, ROUTE_E_INTERNAL, "out of memory");
}

int route_buf_put(const char *bytes, size_t len, void *buf)
{
	struct route_buf *b = buf;
	if (b->len + len > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + len)
			cap *= 2;
		char *p = dj_realloc(b->data, cap);
		if (!p)
			return -1;
		b->data = p;
		b->cap = cap;
	}
	memcpy(b->data + b->len, bytes, len);
	b->len += len;
	return 0;
}

enum route_status route_respond_traced(struct route_response *resp, const char *head, size_t len,
				       const struct problem_text *trace, struct codec_error *err)
{
	struct route_buf b = {.data = NULL};
	if (route_buf_put(head, len, &b) != 0 || route_buf_put(",\"steps\":[", 10, &b) != 0 ||
	    (trace->len && route_buf_put(trace->data, trace->len, &b) != 0) ||
	    route_buf_put("]}\n", 3, &b) != 0) {
		dj_free(b.data);
		return route_oom(err);
	}
	respond_set(resp, 200, "application/json", b.data, b.len, false);
	return ROUTE_OK;
}

/* Answers `status` with `body` dumped compact, a newline after, as `content_type`; false on OOM. */
static bool respond_dump(struct route_response *resp, unsigned status, const char *content_type,
			 const json_t *body)
{
	struct route_buf b = {.data = NULL};
	if (!body || json_dump_callback(body, route_buf_put, &b, JSON_COMPACT) != 0 ||
	    route_buf_put("\n", 1, &b) != 0) {
		dj_free(b.data);
		return false;
	}
	respond_set(resp, status, content_type, b.data, b.len, false);
	return true;
}

enum route_status route_respond_json(struct route_response *resp, json_t *body,
				     struct codec_error *err)
{
	bool ok = respond_dump(resp, 200, "application/json", body);
	json_decref(body);
	return ok ? ROUTE_OK : route_oom(err);
}

enum route_status route_respond_text(struct route_response *resp, const char *content_type,
				     const char *text, size_t len, struct codec_error *err)
{
	char *copy = dj_malloc(len ? len : 1);
	if (!copy)
		return route_oom(err);
	memcpy(copy, text, len);
	respond_set(resp, 200, content_type, copy, len, false);
	return ROUTE_OK;
}

void route_respond_static(struct route_response *resp, const char *content_type, const char *text,
			  size_t len)
{
	respond_set(resp, 200, content_type, text, len, true);
}

void route_respond_empty(struct route_response *resp, unsigned status)
{
	respond_set(resp, status, NULL, NULL, 0, false);
}

void route_respond_error(struct route_response *resp, const struct codec_error *err,
			 const char *request_id)
{
	json_t *problem = problem_json(err);
	bool ok = problem && (!request_id || json_object_set_new(problem, "request_id",
								 json_string(request_id)) == 0);
	ok =
	    ok && respond_dump(resp, problem_http_status(err->status), PROBLEM_MEDIA_TYPE, problem);
	json_decref(problem);
	if (!ok) { /* the fixed 500, when even an error cannot be built */
		respond_set(resp, problem_http_status(CODEC_E_INTERNAL), PROBLEM_MEDIA_TYPE,
			    oom_body, sizeof oom_body - 1, true);
		resp->nheaders = 0;
		return;
	}
	/* A 503 (draining, or too much heavy work) says when to come back. */
	if (resp->status == 503)
		route_add_header(resp, "Retry-After", "1");
}

void route_add_header(struct route_response *resp, const char *name, const char *value)
{
	if (resp->nheaders >= ROUTE_MAX_HEADERS)
		return;
	struct route_header *h = &resp->headers[resp->nheaders++];
	h->name = name;
	size_t len = strlen(value);
	if (len >= sizeof h->value)
		len = sizeof h->value - 1; /* cut to fit, as documented */
	memcpy(h->value, value, len);
	h->value[len] = '\0';
}

void route_add_vary(struct route_response *resp, const char *token)
{
	for (size_t i = 0; i < resp->nheaders; i++) {
		struct route_header *h = &resp->headers[i];
		if (strcmp(h->name, "Vary") != 0)
			continue;
		size_t len = strlen(h->value);
		snprintf(h->value + len, sizeof h->value - len, ", %s", token);
		return;
	}
	route_add_header(resp, "Vary", token);
}

void route_response_free(struct route_response *resp)
{
	respond_drop_body(resp);
	if (resp->stream.free)
		resp->stream.free(resp->stream.ctx);
	resp->stream = (struct route_stream){.read = NULL};
}

bool route_response_gather(struct route_response *resp)
{
	struct route_stream s = resp->stream;
	if (!s.read)
		return true;
	resp->stream = (struct route_stream){.read = NULL};
	struct route_buf b = {.data = NULL};
	long n = 0;
	char chunk[16384];
	while ((n = s.read(s.ctx, chunk, sizeof chunk)) > 0 &&
	       route_buf_put(chunk, (size_t)n, &b) == 0)
		;
	if (s.free)
		s.free(s.ctx);
	if (n != 0) {
		dj_free(b.data);
		return false;
	}
	respond_set(resp, resp->status, resp->content_type, b.data, b.len, false);
	return true;
}
