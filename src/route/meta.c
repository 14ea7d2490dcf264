/*
 * The service's own resources: GET / (what it offers, in JSON, or the viewer's page), liveness,
 * readiness, metrics, the description of the API version, and the files assembled into the binary:
 * the viewer's page, style sheet, script and icon (src/www/www_blob.S), GET /docs (the reference
 * scripts/api-docs.mjs writes from openapi.yaml) with its style sheet, and GET /openapi.yaml
 * (openapi_blob.S). No page asks anything elsewhere, as its Content-Security-Policy says.
 */
#include <stdio.h>
#include <string.h>

#include "dropjudge/version.h"
#include "mem/alloc.h"
#include "route/handlers.h"

/* GET /livez, /healthz and /readyz: static answers; /readyz is 503 once shutdown has begun. */
enum route_status route_health(const struct route_call *call, struct route_response *resp,
			       struct codec_error *err)
{
	static const char live[] = "{\"status\":\"ok\"}\n", ready[] = "{\"status\":\"ready\"}\n";
	bool readyz = call->entry->handle == ROUTE_HANDLE_READYZ;
	if (readyz && call->req->draining)
		return route_error_set(
		    err, ROUTE_E_UNAVAILABLE,
		    "shutdown has begun: requests in flight complete, new ones go elsewhere");
	route_respond_static(resp, "application/json", readyz ? ready : live,
			     readyz ? sizeof ready - 1 : sizeof live - 1);
	return ROUTE_OK;
}

enum route_status route_metrics(const struct route_call *call, struct route_response *resp,
				struct codec_error *err)
{
	const struct route_request *req = call->req;
	if (!req->metrics)
		return route_error_set(err, ROUTE_E_NOT_FOUND, "this server keeps no metrics");
	size_t len = 0;
	char *text = req->metrics(req->metrics_ctx, &len);
	if (!text)
		return route_oom(err);
	enum route_status st =
	    route_respond_text(resp, "text/plain; version=0.0.4; charset=utf-8", text, len, err);
	dj_free(text);
	return st;
}

/* New array of every problem: {"id", "title", "baekjoon", "path"} for GET
 * /v1 (with_id), else {"path", "title", "baekjoon"}; NULL when out of memory. */
static json_t *problem_list(bool with_id)
{
	size_t n;
	const struct problem *const *all = problem_all(&n);
	json_t *list = json_array();
	for (size_t i = 0; list && i < n; i++) {
		const struct problem *p = all[i];
		char path[64];
		snprintf(path, sizeof path, "/v1/%s", p->id);
		json_t *item = with_id
				   ? json_pack("{ss ss sI ss}", "id", p->id, "title", p->title,
					       "baekjoon", (json_int_t)p->baekjoon, "path", path)
				   : json_pack("{ss ss sI}", "path", path, "title", p->title,
					       "baekjoon", (json_int_t)p->baekjoon);
		if (json_array_append_new(list, item) != 0) {
			json_decref(list);
			list = NULL;
		}
	}
	return list;
}

enum route_status route_info(const struct route_call *call, struct route_response *resp,
			     struct codec_error *err)
{
	const struct route_limits *l = call->req->limits;
	return route_respond_json(
	    resp,
	    /* max_trace_steps: the old name of max_case_trace_steps, kept */
	    json_pack("{ss ss so s{sI sI sI sI sI sI}}", "name", "dropjudge", "version",
		      DROPJUDGE_VERSION, "problems", problem_list(true), "limits", "max_body",
		      (json_int_t)l->max_body, "max_blocks", (json_int_t)l->max_blocks, "max_batch",
		      (json_int_t)l->max_batch, "max_case_trace_steps",
		      (json_int_t)PROBLEM_MAX_TRACE_STEPS, "max_request_trace_steps",
		      (json_int_t)l->max_trace_steps, "max_trace_steps",
		      (json_int_t)PROBLEM_MAX_TRACE_STEPS),
	    err);
}

enum route_status route_index(const struct route_call *call, struct route_response *resp,
			      struct codec_error *err)
{
	if (call->format == ROUTE_FORMAT_HTML)
		return route_www(call, resp, err); /* the viewer's page (below) */
	return route_respond_json(resp,
				  json_pack("{ss ss s{ss ss ss ss ss} so}", "name", "dropjudge",
					    "version", DROPJUDGE_VERSION, "links", "api", "/v1",
					    "openapi", "/openapi.yaml", "docs", "/docs",
					    "error_types", "/errors", "health", "/livez",
					    "problems", problem_list(false)),
				  err);
}

extern const char www_index_html[], www_index_html_end[];
extern const char www_viewer_css[], www_viewer_css_end[];
extern const char www_viewer_js[], www_viewer_js_end[];
extern const char www_favicon_svg[], www_favicon_svg_end[];
extern const char www_docs_html[], www_docs_html_end[];
extern const char www_docs_css[], www_docs_css_end[];
extern const char route_openapi_yaml[], route_openapi_yaml_end[];

struct www_file {
	const char *path;
	const char *start, *end;
	bool page; /* the viewer's or the reference's: sent with their two headers */
};

static const struct www_file www_files[] = {
    {"/", www_index_html, www_index_html_end, true},
    {"/viewer.css", www_viewer_css, www_viewer_css_end, true},
    {"/viewer.js", www_viewer_js, www_viewer_js_end, true},
    {"/favicon.svg", www_favicon_svg, www_favicon_svg_end, true},
    {"/favicon.ico", www_favicon_svg, www_favicon_svg_end, true}, /* what browsers ask */
    {"/docs", www_docs_html, www_docs_html_end, true},
    {"/docs.css", www_docs_css, www_docs_css_end, true},
    {"/openapi.yaml", route_openapi_yaml, route_openapi_yaml_end, false},
};

/* route_handler_fn: the file at the entry's path (the table names only these; GET / in HTML comes
 * from route_index()), in its row's one format, a page with its two headers. */
enum route_status route_www(const struct route_call *call, struct route_response *resp,
			    struct codec_error *err)
{
	for (size_t i = 0; i < sizeof www_files / sizeof www_files[0]; i++) {
		const struct www_file *f = &www_files[i];
		if (strcmp(call->entry->path, f->path) != 0)
			continue;
		route_respond_static(resp, route_format_media(call->format), f->start,
				     (size_t)(f->end - f->start));
		if (f->page) {
			route_add_header(
			    resp, "Content-Security-Policy",
			    "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'");
			route_add_header(resp, "Cache-Control", "no-cache");
		}
		return ROUTE_OK;
	}
	return route_error_set(err, ROUTE_E_INTERNAL, "no file of the viewer at %s",
			       call->entry->path);
}
