/*
 * GET /: what this service offers, as JSON (links to the API, its
 * description and the problems) or, for a browser, the viewer's page.
 */
#include <stdio.h>

#include "dropjudge/version.h"
#include "route/handlers.h"

/* {"path", "title"} for a problem of the API. */
static json_t *problem_link(const struct problem *p)
{
	char path[64];
	snprintf(path, sizeof path, "/v1/%s", p->id);
	return json_pack("{ss ss sI}", "path", path, "title", p->title, "baekjoon",
			 (json_int_t)p->baekjoon);
}

enum route_status route_index(const struct route_call *call, struct route_response *resp,
			      struct codec_error *err)
{
	if (call->format == ROUTE_FORMAT_HTML)
		return route_www_page(resp, err); /* the viewer (www.c) */
	return route_respond_json(resp,
				  json_pack("{ss ss s{ss ss ss ss ss} so}", "name", "dropjudge",
					    "version", DROPJUDGE_VERSION, "links", "api", "/v1",
					    "openapi", "/openapi.yaml", "docs", "/docs",
					    "error_types", "/errors", "health", "/livez",
					    "problems", route_problem_list(problem_link)),
				  err);
}
