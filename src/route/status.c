/*
 * Problem details (RFC 9457) and the status table: problem_table, one row per enum route_status,
 * gives every HTTP status dropjudge sends for an error. The rows are also the pages of the error
 * types: GET /errors lists them, GET /errors/{slug} says what one means and how to fix the request,
 * as JSON or HTML (the old /problems paths answer 308 to these: router.c).
 */
#include "route/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "route/handlers.h"

struct status_kind {
	enum route_status status; /* the kind */
	unsigned http;		  /* HTTP status */
	const char *slug;	  /* last segment of the type URI, NULL for CODEC_OK */
	const char *title;	  /* short, the same for every occurrence */
	const char *meaning;	  /* what the error means, for its page */
	const char *fix;	  /* how to fix the request, for its page */
};

/* Type URIs are relative (RFC 9457, 3.1.1): the service that answered serves each type's page. */
#define PROBLEM_TYPE_BASE "/errors/"

/* In the order GET /errors lists the types; every route status has its row. */
static const struct status_kind problem_table[] = {
    {ROUTE_OK, 200, NULL, "OK", "", ""},
    {ROUTE_E_SYNTAX, 400, "malformed-input", "The input cannot be parsed",
     "The body is not valid JSON, not the Baekjoon text format, or a query "
     "parameter cannot be read or a required one is missing.",
     "Look at the line and column (or parameter) the errors name; check the "
     "Content-Type matches what the body holds."},
    {ROUTE_E_INVALID, 422, "invalid-input", "The input breaks the problem's rules",
     "The request reads fine but asks for something impossible: a value out "
     "of range, a field of the wrong size, an unknown member.",
     "Each entry of errors names the JSON pointer, line or parameter at "
     "fault and what is allowed there."},
    {ROUTE_E_TOO_LARGE, 413, "too-large", "The request is over a limit",
     "The body, once inflated, is larger than --max-body, or a batch holds "
     "more cases than --max-batch.",
     "Send less at once: split the batch, or ask the operator for higher "
     "limits (GET /v1 shows the limits in force)."},
    {ROUTE_E_MEDIA_TYPE, 415, "unsupported-media-type", "Unsupported media type",
     "The body's Content-Type or Content-Encoding is not one this "
     "resource takes.",
     "Send application/json or text/plain (charset utf-8), as the "
     "resource says; with curl -d add -H 'Content-Type: application/json'. "
     "Only gzip is taken as Content-Encoding."},
    {ROUTE_E_NOT_ACCEPTABLE, 406, "not-acceptable", "No acceptable representation",
     "The Accept header excludes every format this resource can send, "
     "or asks for text where only JSON can hold the answer (a trace, a "
     "batch).",
     "Accept application/json (or leave Accept out); text/plain is for "
     "the Baekjoon output of one case."},
    {ROUTE_E_NOT_FOUND, 404, "not-found", "No such resource", "Nothing is served at this path.",
     "GET / lists the resources; GET /openapi.yaml describes them all."},
    {ROUTE_E_METHOD, 405, "method-not-allowed", "Method not allowed",
     "The resource exists but does not take this method.",
     "Use a method from the Allow header of the answer."},
    {ROUTE_E_UNAVAILABLE, 503, "unavailable", "The service is shutting down",
     "The server has begun to drain: requests in flight complete, new "
     "ones should go elsewhere.",
     "Retry against another instance, or after the restart."},
    {ROUTE_E_UNAUTHORIZED, 401, "unauthorized", "Authentication required",
     "The resource needs a bearer token (the server runs with "
     "--auth-token-file) and the request has none, or one that is not "
     "valid.",
     "Send 'Authorization: Bearer <token>' with a token the operator gave "
     "you; the WWW-Authenticate header says what was wrong."},
    {ROUTE_E_INTERNAL, 500, "internal", "Internal error",
     "The server ran out of memory or met a bug; the request was not at "
     "fault.",
     "Retry later; if it persists, report it with the request."},
    {ROUTE_E_BAD_REQUEST, 400, "malformed-request", "The HTTP request is malformed",
     "The HTTP message itself is malformed or ambiguous (RFC 9112 framing: "
     "conflicting lengths, bad header syntax).",
     "Send one well-formed Content-Length or chunked body; a usual HTTP "
     "client does."},
    {ROUTE_E_NOT_IMPLEMENTED, 501, "not-implemented", "Not implemented",
     "The request uses an HTTP feature dropjudge does not support, "
     "such as a transfer coding other than chunked.",
     "Send the body plainly or chunked."},
    {ROUTE_E_BUSY, 503, "busy", "Too much heavy work queued",
     "The service already holds as many heavy requests (packages, traces, "
     "large bodies, pictures, generator searches) as --max-heavy-queue allows "
     "in all, or --max-heavy-per-client from this address.",
     "Retry after the seconds that Retry-After says, with fewer heavy requests "
     "at once."},
};

#define PROBLEM_KINDS (sizeof problem_table / sizeof problem_table[0])

/* The row of a status; one without a row reads as ROUTE_E_INTERNAL. */
static const struct status_kind *problem_kind_of(unsigned status)
{
	for (size_t i = 0; i < PROBLEM_KINDS; i++)
		if (problem_table[i].status == status)
			return &problem_table[i];
	return problem_kind_of(ROUTE_E_INTERNAL);
}

unsigned problem_http_status(unsigned status)
{
	return problem_kind_of(status)->http;
}

/* The type URI of a kind: PROBLEM_TYPE_BASE and its slug, or about:blank. */
static void kind_type(const struct status_kind *kind, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s", kind->slug ? PROBLEM_TYPE_BASE : "about:blank",
		 kind->slug ? kind->slug : "");
}

const char *problem_slug(unsigned status)
{
	return problem_kind_of(status)->slug;
}

enum route_status route_error_add(struct codec_error *err, enum route_status status,
				  const struct codec_where *where, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	codec_error_vadd(err, (unsigned)status, where, fmt, ap);
	va_end(ap);
	return status;
}

json_t *problem_add_faults(json_t *obj, const struct codec_error *err, bool always)
{
	bool listed = err->nfaults || always;
	json_t *list = listed ? json_array() : NULL;
	for (unsigned i = 0; list && i < err->nfaults; i++) {
		const struct codec_fault *f = &err->faults[i];
		bool at_pointer = f->pointer[0] || (!f->line && !f->parameter[0]);
		json_t *item = json_pack("{s:s* s:s*}", "pointer", at_pointer ? f->pointer : NULL,
					 "parameter", f->parameter[0] ? f->parameter : NULL);
		int rc = 0;
		if (f->line)
			rc |= json_object_set_new(item, "line", json_integer((json_int_t)f->line));
		if (f->column)
			rc |= json_object_set_new(item, "column",
						  json_integer((json_int_t)f->column));
		rc |= json_object_set_new(item, "detail", json_string(f->detail));
		rc |= json_array_append(list, item);
		json_decref(item);
		if (rc != 0) {
			json_decref(list);
			list = NULL;
		}
	}
	if ((listed && json_object_set_new(obj, "errors", list) != 0) ||
	    (err->dropped && json_object_set_new(obj, "errors_omitted",
						 json_integer((json_int_t)err->dropped)) != 0)) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

json_t *problem_json(const struct codec_error *err)
{
	const struct status_kind *kind = problem_kind_of(err->status);
	char type[64];
	kind_type(kind, type, sizeof type);
	return problem_add_faults(json_pack("{ss ss sI ss}", "type", type, "title", kind->title,
					    "status", (json_int_t)kind->http, "detail",
					    err->detail[0] ? err->detail : kind->title),
				  err, false);
}

/* {"type", "title", "status", "meaning", "fix"}: the page of a kind. */
static json_t *page_json(const struct status_kind *kind, const char *type)
{
	return json_pack("{ss ss sI ss ss}", "type", type, "title", kind->title, "status",
			 (json_int_t)kind->http, "meaning", kind->meaning, "fix", kind->fix);
}

/* Answers an HTML page of n bytes written into html[0..size); 500 when it did not fit. */
static enum route_status respond_page(struct route_response *resp, const char *html, size_t n,
				      size_t size, struct codec_error *err)
{
	if (n >= size)
		return route_error_set(err, ROUTE_E_INTERNAL, "the page does not fit");
	return route_respond_text(resp, route_format_media(ROUTE_FORMAT_HTML), html, n, err);
}

enum route_status route_problem_types(const struct route_call *call, struct route_response *resp,
				      struct codec_error *err)
{
	char type[64], html[4096];
	bool page = call->format == ROUTE_FORMAT_HTML;
	json_t *list = page ? NULL : json_array();
	size_t len = 0;
	if (page)
		len = (size_t)snprintf(
		    html, sizeof html,
		    "<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta "
		    "charset=\"utf-8\"><title>dropjudge problem "
		    "types</title></head>\n<body>\n<h1>Problem types</h1>\n<ul>\n");
	for (size_t i = 0; i < PROBLEM_KINDS; i++) {
		const struct status_kind *kind = &problem_table[i];
		if (!kind->slug)
			continue; /* OK has no page */
		kind_type(kind, type, sizeof type);
		if (!page && json_array_append_new(list, page_json(kind, type)) != 0) {
			json_decref(list);
			return route_oom(err);
		}
		if (page && len < sizeof html)
			len += (size_t)snprintf(html + len, sizeof html - len,
						"<li><a href=\"%s\">%u %s</a></li>\n", type,
						kind->http, kind->title);
	}
	if (!page)
		return route_respond_json(resp, json_pack("{so}", "types", list), err);
	if (len < sizeof html)
		len += (size_t)snprintf(html + len, sizeof html - len, "</ul>\n</body>\n</html>\n");
	return respond_page(resp, html, len, sizeof html, err);
}

enum route_status route_problem_page(const struct route_call *call, struct route_response *resp,
				     struct codec_error *err)
{
	/* the page's path is its type URI: /errors/<slug> */
	const struct status_kind *kind = NULL;
	char type[64], html[2048];
	for (size_t i = 0; !kind && i < PROBLEM_KINDS; i++) {
		kind_type(&problem_table[i], type, sizeof type);
		kind = strcmp(type, call->entry->path) == 0 ? &problem_table[i] : NULL;
	}
	if (!kind)
		return route_error_set(err, ROUTE_E_INTERNAL, "no page for %s", call->entry->path);
	if (call->format != ROUTE_FORMAT_HTML)
		return route_respond_json(resp, page_json(kind, type), err);
	int n =
	    snprintf(html, sizeof html,
		     "<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\">"
		     "<title>%u %s</title></head>\n<body>\n<h1>%u %s</h1>\n"
		     "<p>%s</p>\n<h2>How to fix it</h2>\n<p>%s</p>\n"
		     "<p><a href=\"/errors\">All error types</a></p>\n</body>\n</html>\n",
		     kind->http, kind->title, kind->http, kind->title, kind->meaning, kind->fix);
	return respond_page(resp, html, n < 0 ? sizeof html : (size_t)n, sizeof html, err);
}
