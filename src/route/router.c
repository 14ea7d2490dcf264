/*
 * The checks of route.h in their one order, then the handler: the entry (404, or 308 for a
 * trailing slash), OPTIONS (204, CORS preflights), the method (405), the credentials (401), the
 * body (415), the answer format (406), the query parameters (400/422). Every error is problem+json.
 */
#include <stdio.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "mem/alloc.h"
#include "route/handlers.h"

/* Headers a browser may send cross-origin, and those it may read. */
#define CORS_ALLOW_HEADERS  "Accept, Content-Type, Content-Encoding, Authorization, X-Request-Id"
#define CORS_EXPOSE_HEADERS "Dropjudge-Seed, Dropjudge-Generator, X-Request-Id"
#define CORS_MAX_AGE	    "600"

/* The entry whose path is path[0..len) (no NUL in it), or NULL; a row's bytes [len - 1] and [len]
 * say whether its path is that long, setting most rows aside before any comparison. */
static const struct route_entry *route_find(const char *path, size_t len)
{
	size_t count;
	const struct route_entry *table = route_entries(&count);
	if (len == 0 || len >= ROUTE_PATH_MAX)
		return NULL;
	for (size_t i = 0; i < count; i++) {
		const char *row = table[i].path;
		if (row[len] == '\0' && row[len - 1] != '\0' && memcmp(row, path, len) == 0)
			return &table[i];
	}
	return NULL;
}

/* The entry a path's 308 goes to: one trailing slash less, or an error type's new path; or NULL. */
static const struct route_entry *route_find_slashed(const char *path)
{
	size_t len = path ? strlen(path) : 0;
	if (len >= 2 && path[len - 1] == '/')
		return route_find(path, len - 1);
	/* The error types' old paths: /problems[/<slug>] is /errors[/<slug>] */
	static const char old[] = "/problems";
	char renamed[64];
	size_t n = sizeof old - 1;
	if (len < n || memcmp(path, old, n) != 0 || (path[n] && path[n] != '/'))
		return NULL;
	int m = snprintf(renamed, sizeof renamed, "/errors%s", path + n);
	return (size_t)m < sizeof renamed ? route_find(renamed, (size_t)m) : NULL;
}

/* Whether the entry takes the request's method (HEAD wherever GET; OPTIONS apart). */
static bool method_allowed(const struct route_entry *e, enum route_verb verb)
{
	if ((e->methods & ROUTE_GET) && (verb == ROUTE_VERB_GET || verb == ROUTE_VERB_HEAD))
		return true;
	return (e->methods & ROUTE_POST) && verb == ROUTE_VERB_POST;
}

/* The Allow header of an entry: its methods, HEAD with GET, OPTIONS last. */
static void allow_value(const struct route_entry *e, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%s", e->methods & ROUTE_GET ? "GET, HEAD, " : "",
		 e->methods & ROUTE_POST ? "POST, " : "", "OPTIONS");
}

/* Whether Content-Encoding names none, or one the HTTP layer decodes as the body arrives (gzip). */
static bool encoding_is_taken(const char *encoding)
{
	if (!encoding)
		return true;
	while (*encoding == ' ' || *encoding == '\t')
		encoding++;
	size_t n = strcspn(encoding, " \t");
	return n == 0 || (n == 8 && strncasecmp(encoding, "identity", 8) == 0) ||
	       (n == 4 && strncasecmp(encoding, "gzip", 4) == 0) ||
	       (n == 6 && strncasecmp(encoding, "x-gzip", 6) == 0);
}

/* The 415 message, naming what was received and what is taken. */
static void refuse_media_type(const struct route_entry *e, const struct route_request *req,
			      struct codec_error *err)
{
	char taken[96];
	unsigned formats = (e->bodies & ROUTE_BODY_JSON ? ROUTE_FORMAT_JSON : 0) |
			   (e->bodies & ROUTE_BODY_TEXT ? ROUTE_FORMAT_TEXT : 0) |
			   (e->bodies & ROUTE_BODY_NDJSON ? ROUTE_FORMAT_NDJSON : 0);
	route_format_list(formats, taken, sizeof taken);
	if (!encoding_is_taken(req->content_encoding)) {
		route_error_set(err, ROUTE_E_MEDIA_TYPE,
				"Content-Encoding %s is not supported; send the body as it is or "
				"with Content-Encoding: gzip",
				req->content_encoding);
		return;
	}
	const char *hint = "";
	if (req->content_type &&
	    strncasecmp(req->content_type, "application/x-www-form-urlencoded", 33) == 0)
		hint = " (curl -d sends a form: add -H 'Content-Type: application/json')";
	if (!req->content_type || !req->content_type[0])
		route_error_set(err, ROUTE_E_MEDIA_TYPE,
				"the request has no Content-Type; %s takes %s", e->path, taken);
	else
		route_error_set(err, ROUTE_E_MEDIA_TYPE,
				"Content-Type %s is not taken by %s; send %s%s", req->content_type,
				e->path, taken, hint);
}

/* The answer to credentials missing, wrong or malformed (as http/auth.c found them): the problem
 * (401, or 400 for a malformed Authorization header) and its RFC 6750 challenge. */
#define AUTH_REALM "Bearer realm=\"dropjudge\""
static const struct {
	enum route_status status;
	const char *detail;
	const char *challenge; /* WWW-Authenticate */
} auth_answers[] = {
    [ROUTE_AUTH_MISSING] = {ROUTE_E_UNAUTHORIZED,
			    "this resource needs an 'Authorization: Bearer <token>' header",
			    AUTH_REALM},
    [ROUTE_AUTH_WRONG] = {ROUTE_E_UNAUTHORIZED, "the bearer token is not valid",
			  AUTH_REALM ", error=\"invalid_token\""},
    [ROUTE_AUTH_MALFORMED] = {ROUTE_E_SYNTAX,
			      "the Authorization header must be one 'Bearer <token>' (RFC 6750: a "
			      "token of A-Z a-z 0-9 - . _ ~ + / then any '=')",
			      AUTH_REALM ", error=\"invalid_request\""},
};

/* The first check a request's headers fail for entry e (not OPTIONS): the method (405), the
 * credentials where the row asks a token (not GET /metrics under --metrics-open), a POST's body
 * kind (415); else ROUTE_OK. *body: a POST's body kind, or NONE. */
static enum route_status refusal(const struct route_entry *e, const struct route_request *req,
				 enum route_verb verb, enum route_body *body)
{
	*body = ROUTE_BODY_NONE;
	if (!method_allowed(e, verb))
		return ROUTE_E_METHOD;
	if (e->auth && req->auth != ROUTE_AUTH_OK &&
	    !(e->handle == ROUTE_HANDLE_METRICS && req->limits && req->limits->metrics_open))
		return auth_answers[req->auth].status;
	if (verb != ROUTE_VERB_POST)
		return ROUTE_OK;
	enum route_body kind = route_request_body(req);
	if (encoding_is_taken(req->content_encoding) && (e->bodies & kind))
		*body = kind;
	return *body == ROUTE_BODY_NONE ? ROUTE_E_MEDIA_TYPE : ROUTE_OK;
}

/* The formats an entry answers a body of kind `body` in: a stream NDJSON, else its own. */
static unsigned formats_of(const struct route_entry *e, enum route_body body)
{
	return body == ROUTE_BODY_NDJSON ? ROUTE_FORMAT_NDJSON : e->formats;
}

size_t route_body_limit(const struct route_request *req)
{
	const struct route_limits *l = req->limits;
	if (!l)
		return SIZE_MAX;
	enum route_body kind = route_request_body(req);
	if (kind == ROUTE_BODY_NDJSON && l->max_stream_body)
		return l->max_stream_body;
	if (kind == ROUTE_BODY_JSON && l->max_json_body && l->max_json_body < l->max_body)
		return l->max_json_body;
	return l->max_body;
}

void route_match(const struct route_request *req, long long content_length, struct route_match *m)
{
	const char *path = req->path ? req->path : "";
	const struct route_entry *e = route_find(path, strlen(path));
	memset(m, 0, sizeof *m);
	m->entry = e;
	if (!e) { /* a path with a trailing slash is answered 308 whatever the method */
		if (!route_find_slashed(path))
			m->refusal = ROUTE_E_NOT_FOUND;
		return;
	}
	enum route_verb verb = route_verb_of(req);
	enum route_body body;
	if (verb == ROUTE_VERB_OPTIONS)
		return;
	m->refusal = refusal(e, req, verb, &body);
	m->takes_body = body != ROUTE_BODY_NONE || m->refusal == ROUTE_E_MEDIA_TYPE;
	if (body == ROUTE_BODY_NONE)
		return;
	if (route_negotiate(req->accept, formats_of(e, body)) == ROUTE_FORMAT_NONE)
		m->refusal = ROUTE_E_NOT_ACCEPTABLE;
	else if (content_length >= 0 && req->limits &&
		 (unsigned long long)content_length > route_body_limit(req))
		m->refusal = ROUTE_E_TOO_LARGE;
}

void route_error_response_id(const struct codec_error *err, const char *request_id,
			     struct route_response *resp)
{
	memset(resp, 0, sizeof *resp);
	resp->route_name = ROUTE_NAME_UNKNOWN;
	route_respond_error(resp, err, request_id);
}

/* Appends s percent-encoded (RFC 3986 unreserved characters as they are). */
static size_t url_encode(char *buf, size_t size, size_t len, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	for (const unsigned char *p = (const unsigned char *)s; *p && len < size; p++) {
		bool plain = (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
			     (*p >= '0' && *p <= '9') || strchr("-._~", *p);
		if (plain) {
			buf[len++] = (char)*p;
		} else if (len + 3 <= size) {
			buf[len++] = '%';
			buf[len++] = hex[*p >> 4];
			buf[len++] = hex[*p & 15];
		} else {
			len = size;
		}
	}
	return len;
}

/* Answers 308 to the path of `to` (without a trailing slash, or an error type's new
 * path), query kept; false when the Location would not fit a header (then 404). */
static bool redirect_slash(const struct route_request *req, const struct route_entry *to,
			   struct route_response *resp)
{
	char location[ROUTE_HEADER_MAX];
	size_t size = sizeof location - 1;
	size_t len = strlen(to->path);
	memcpy(location, to->path, len);
	for (size_t i = 0; i < req->nparams && i < ROUTE_MAX_PARAMS && len < size; i++) {
		location[len++] = i == 0 ? '?' : '&';
		len = url_encode(location, size, len, req->params[i].key);
		if (req->params[i].value && req->params[i].value[0] && len < size) {
			location[len++] = '=';
			len = url_encode(location, size, len, req->params[i].value);
		}
	}
	if (len >= size)
		return false;
	location[len] = '\0';
	route_respond_empty(resp, 308);
	route_add_header(resp, "Location", location);
	return true;
}

/* The CORS headers of an answer: the origin allowed, "*" or the request's when --cors-origins
 * lists it; a preflight (of entry `preflight`, else NULL) also learns what it may send. */
static void cors_headers(const struct route_request *req, const struct route_entry *preflight,
			 struct route_response *resp)
{
	const char *list = req->limits ? req->limits->cors_origins : NULL;
	if (!list || !list[0])
		return;
	const char *origin = strcmp(list, "*") == 0 ? "*" : NULL;
	if (!origin)
		route_add_vary(resp, "Origin"); /* the answer depends on the origin */
	size_t olen = req->origin ? strlen(req->origin) : 0;
	for (const char *s = list; !origin && req->origin && *s;) {
		while (*s == ' ' || *s == ',')
			s++;
		size_t n = strcspn(s, ",");
		size_t m = n;
		while (m > 0 && s[m - 1] == ' ')
			m--;
		if (m > 0 && m == olen && strncasecmp(s, req->origin, m) == 0)
			origin = req->origin;
		s += n;
	}
	if (!origin || !req->origin)
		return;
	route_add_header(resp, "Access-Control-Allow-Origin", origin);
	if (!preflight) {
		route_add_header(resp, "Access-Control-Expose-Headers", CORS_EXPOSE_HEADERS);
		return;
	}
	char allow[64];
	allow_value(preflight, allow, sizeof allow);
	route_add_header(resp, "Access-Control-Allow-Methods", allow);
	route_add_header(resp, "Access-Control-Allow-Headers", CORS_ALLOW_HEADERS);
	route_add_header(resp, "Access-Control-Max-Age", CORS_MAX_AGE);
}

/* Decides the answer format: Accept against the entry's, then JSON if ?trace=true or such asks. */
static enum route_status decide_format(struct route_call *call, struct codec_error *err)
{
	const struct route_entry *e = call->entry;
	const struct route_request *req = call->req;
	const char *name;
	char formats[96];
	call->format = route_negotiate(req->accept, formats_of(e, call->body));
	if (call->format == ROUTE_FORMAT_NONE) {
		route_format_list(formats_of(e, call->body), formats, sizeof formats);
		return route_error_set(err, ROUTE_E_NOT_ACCEPTABLE,
				       "Accept: %s excludes everything %s answers (%s)",
				       req->accept, e->path, formats);
	}
	/* Only text cannot show a trace: a picture draws its frames, a stream's lines are JSON. */
	if (call->format == ROUTE_FORMAT_JSON || call->format == ROUTE_FORMAT_SVG ||
	    call->format == ROUTE_FORMAT_NDJSON || !route_wants_json_only(req, e, &name))
		return ROUTE_OK;
	call->format = route_negotiate(req->accept, ROUTE_FORMAT_JSON);
	if (call->format == ROUTE_FORMAT_NONE)
		route_error_add(err, ROUTE_E_NOT_ACCEPTABLE,
				&(struct codec_where){.parameter = name},
				"%s=true is answered in application/json only, which "
				"Accept: %s excludes; ask with Accept: application/json, or "
				"without %s",
				name, req->accept, name);
	return err->status;
}

bool route_collect(const struct route_call *call, struct codec_error *err)
{
	if (!*call->faults)
		*call->faults = dj_malloc(CODEC_FAULTS_MAX * sizeof **call->faults);
	if (!*call->faults) {
		codec_error_init(err);
		route_oom(err);
		return false;
	}
	codec_error_collect(err, *call->faults, CODEC_FAULTS_MAX);
	return true;
}

void route_hint_json_as_text(struct codec_error *err)
{
	static const char hint[] = " (the body looks like JSON but was sent as text/plain: add "
				   "-H 'Content-Type: application/json')";
	size_t room = sizeof err->detail - sizeof hint;
	size_t n = strlen(err->detail); /* the summary is always NUL-terminated */
	if (n > room) {			/* cut at a character, not inside one */
		n = room;
		while (n > 0 && ((unsigned char)err->detail[n] & 0xC0) == 0x80)
			n--;
	}
	memcpy(err->detail + n, hint, sizeof hint);
}

void route_handle(const struct route_request *req, struct route_response *resp)
{
	struct codec_error err;
	struct codec_fault *faults = NULL; /* route_collect() */
	struct route_call call = {.req = req,
				  .bytes = req->body ? req->body : "",
				  .nbytes = req->body ? req->body_len : 0,
				  .faults = &faults};
	const char *path = req->path ? req->path : "";
	char allow[64] = "";
	const struct route_entry *preflight = NULL; /* e, for OPTIONS */
	enum route_status st;

	/* All but the headers: none is read past nheaders, and they are 2 KB to clear. */
	memset(resp, 0, offsetof(struct route_response, headers));
	codec_error_init(&err);
	const struct route_entry *e = req->entry ? req->entry : route_find(path, strlen(path));
	resp->route_name = e ? e->name : ROUTE_NAME_UNKNOWN;
	if (!e) {
		const struct route_entry *to = route_find_slashed(path);
		resp->route_name = to ? to->name : ROUTE_NAME_UNKNOWN;
		if (to && redirect_slash(req, to, resp))
			goto out_cors;
		route_error_set(&err, ROUTE_E_NOT_FOUND, "no resource at %s; %s%s", path,
				to ? "the resource is " : "GET / lists what this service offers",
				to ? to->path : "");
		goto out_error;
	}
	enum route_verb verb = route_verb_of(req);
	if (verb == ROUTE_VERB_OPTIONS) {
		allow_value(e, allow, sizeof allow);
		route_respond_empty(resp, 204);
		route_add_header(resp, "Allow", allow);
		preflight = e;
		goto out_cors;
	}
	st = refusal(e, req, verb, &call.body);
	if (st == ROUTE_E_METHOD) {
		allow_value(e, allow, sizeof allow);
		route_error_set(&err, st, "%s answers %s, not %s", e->path, allow,
				req->method ? req->method : "this method");
		goto out_error;
	}
	if (st == ROUTE_E_MEDIA_TYPE) {
		refuse_media_type(e, req, &err);
		goto out_error;
	}
	/* After the method: what a path takes is public (OPTIONS, 405). */
	if (st != ROUTE_OK) {
		route_error_set(&err, st, "%s", auth_answers[req->auth].detail);
		route_respond_error(resp, &err, req->request_id);
		route_add_header(resp, "WWW-Authenticate", auth_answers[req->auth].challenge);
		goto out_cors;
	}
	/* A kept body's byte-order mark is skipped once here; validate names it from req->body. */
	if (call.body != ROUTE_BODY_NONE)
		route_skip_bom(&call.bytes, &call.nbytes);
	call.entry = e; /* from here on the answer depends on Accept */
	if (decide_format(&call, &err) != ROUTE_OK || route_read_params(&call, &err) != ROUTE_OK)
		goto out_error;
	st = call.body == ROUTE_BODY_NDJSON ? route_ndjson_respond(&call, resp, &err)
					    : route_entry_handler(e)(&call, resp, &err);
	if (st == ROUTE_OK)
		goto out_vary;
	if (!codec_error_is_set(&err))
		route_error_set(&err, st, "%s", "the request could not be answered");
	route_response_free(resp);
	resp->nheaders = 0;
out_error:
	codec_error_sort(&err);
	/* a text body, kept or read as it arrived, that opens a JSON object or array */
	if (call.body == ROUTE_BODY_TEXT &&
	    (err.status == CODEC_E_SYNTAX || err.status == CODEC_E_INVALID) &&
	    (req->intake ? route_intake_looks_json(req->intake)
			 : route_opens_container(call.bytes, call.nbytes)))
		route_hint_json_as_text(&err);
	route_respond_error(resp, &err, req->request_id);
	if (err.status == ROUTE_E_METHOD) /* only the check above refuses a method */
		route_add_header(resp, "Allow", allow);
out_vary:
	if (call.entry)
		route_add_vary(resp, "Accept");
out_cors:
	cors_headers(req, preflight, resp);
	dj_free(faults);
}
