/*
 * The routing table and the entry points of route.h: find the resource,
 * check the method, hand the request to its handler. Errors found here
 * (404, 405, 413, 415) are problem+json answers like every other.
 */
#include <string.h>

#include "route/handlers.h"

struct route_entry {
	const char *path;
	const char *name; /* for logs and metrics */
	bool post;	  /* POST with a body; otherwise GET (and HEAD) */
	bool judge;	  /* takes application/json only */
	void (*handle)(const struct route_request *req, struct route_response *resp);
	void (*handle_problem)(const struct route_problem *p, const struct route_request *req,
			       struct route_response *resp);
	const struct route_problem *problem;
	bool auth;  /* needs a bearer token when a token file is in force */
	bool heavy; /* its work may take long whatever the body: run off the event loops */
};

/* The five resources of a problem. */
/* clang-format off */
#define PROBLEM_ROUTES(prefix, id, p)                                                      \
	{prefix, id "_solve", true, false, NULL, route_solve, p, true, false},                 \
	{prefix "/judge", id "_judge", true, true, NULL, route_judge, p, true, false},         \
	{prefix "/validate", id "_validate", true, false, NULL, route_validate, p, true, false}, \
	{prefix "/generate", id "_generate", false, false, NULL, route_generate, p, true, true}, \
	{prefix "/package", id "_package", false, false, NULL, route_package, p, true, true}
/* clang-format on */

static const struct route_entry route_table[] = {
    {"/livez", "livez", false, false, route_livez, NULL, NULL, false, false},
    {"/healthz", "healthz", false, false, route_livez, NULL, NULL, false, false},
    {"/readyz", "readyz", false, false, route_readyz, NULL, NULL, false, false},
    {"/metrics", "metrics", false, false, route_metrics, NULL, NULL, false, false},
    {"/v1", "v1", false, false, route_info, NULL, NULL, true, false},
    {"/openapi.yaml", "openapi", false, false, route_openapi, NULL, NULL, false, false},
    {"/", "index", false, false, route_www, NULL, NULL, false, false},
    {"/viewer.css", "viewer_css", false, false, route_www, NULL, NULL, false, false},
    {"/viewer.js", "viewer_js", false, false, route_www, NULL, NULL, false, false},
    {"/v1/monomino-domino/render.svg", "monomino_domino_render", false, false, route_md_render,
     NULL, NULL, true, false},
    {"/v1/puyo/render.svg", "puyo_render", false, false, route_puyo_render, NULL, NULL, true,
     false},
    PROBLEM_ROUTES("/v1/monomino-domino", "monomino_domino", &route_md),
    PROBLEM_ROUTES("/v1/puyo", "puyo", &route_puyo),
};

static const struct route_entry *route_find(const char *path)
{
	if (!path)
		return NULL;
	for (size_t i = 0; i < sizeof route_table / sizeof route_table[0]; i++)
		if (strcmp(route_table[i].path, path) == 0)
			return &route_table[i];
	return NULL;
}

static bool method_allowed(const struct route_entry *e, const char *method)
{
	if (!method)
		return false;
	if (e->post)
		return strcmp(method, "POST") == 0;
	return strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
}

static const char *allow_value(const struct route_entry *e)
{
	return e->post ? "POST" : "GET, HEAD";
}

/* Checks path, method and Content-Type: CODEC_OK or the error to answer. */
static enum codec_status route_check(const struct route_request *req,
				     const struct route_entry **entry, struct codec_error *err)
{
	const struct route_entry *e = route_find(req->path);
	*entry = e;
	if (!e) {
		codec_error_set(err, CODEC_E_NOT_FOUND,
				"no resource at this path; GET /v1 lists the problems, "
				"GET /openapi.yaml describes the API");
		return CODEC_E_NOT_FOUND;
	}
	if (!method_allowed(e, req->method)) {
		codec_error_set(err, CODEC_E_METHOD, "%s takes %s only", e->path, allow_value(e));
		return CODEC_E_METHOD;
	}
	/* After the method: what a path takes is public (GET /openapi.yaml). */
	if (e->auth && route_auth_check(req->auth, err) != CODEC_OK)
		return err->status;
	if (e->post) {
		enum route_body kind = route_body_kind(req->content_type);
		if (kind == ROUTE_BODY_UNSUPPORTED || (e->judge && kind != ROUTE_BODY_JSON)) {
			codec_error_set(err, CODEC_E_MEDIA_TYPE, "%s takes %s", e->path,
					e->judge
					    ? "application/json"
					    : "application/json or text/plain (charset utf-8)");
			return CODEC_E_MEDIA_TYPE;
		}
	}
	return CODEC_OK;
}

bool route_is_heavy(const struct route_request *req)
{
	const struct route_entry *e = route_find(req->path);
	return e && e->heavy;
}

enum codec_status route_precheck(const struct route_request *req, long long content_length)
{
	const struct route_entry *e;
	struct codec_error err;
	codec_error_init(&err, 1);
	enum codec_status st = route_check(req, &e, &err);
	if (st != CODEC_OK)
		return st;
	if (content_length >= 0 && req->limits &&
	    (unsigned long long)content_length > req->limits->max_body)
		return CODEC_E_TOO_LARGE;
	return CODEC_OK;
}

void route_error_response(const struct codec_error *err, struct route_response *resp)
{
	memset(resp, 0, sizeof *resp);
	route_respond_error(resp, err);
}

void route_handle(const struct route_request *req, struct route_response *resp)
{
	memset(resp, 0, sizeof *resp);
	struct codec_error err;
	codec_error_init(&err, 1);
	const struct route_entry *e;
	enum codec_status st = route_check(req, &e, &err);
	resp->route_name = e ? e->name : ROUTE_NAME_UNKNOWN;
	if (st != CODEC_OK) {
		route_respond_error(resp, &err);
		if (err.status == CODEC_E_METHOD)
			route_add_header(resp, "Allow", allow_value(e));
		/* route_check's only 401 and 400 are the credentials' */
		if (err.status == CODEC_E_UNAUTHORIZED || err.status == CODEC_E_SYNTAX)
			route_auth_challenge(req->auth, resp);
		return;
	}
	if (e->handle)
		e->handle(req, resp);
	else
		e->handle_problem(e->problem, req, resp);
}
