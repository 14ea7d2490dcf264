/*
 * The pages of the error types (RFC 9457's "problem types", named apart
 * from the two puzzles): GET /errors lists them, GET /errors/{slug} says
 * what one means and how to fix the request, as JSON or HTML. The words
 * come from status.c, the one status table. The old /problems paths
 * answer 308 to these (router.c).
 */
#include <stdio.h>
#include <string.h>

#include "route/status.h"
#include "route/handlers.h"

/* {"type", "title", "status", "meaning", "fix"} of one page. */
static json_t *page_json(const struct problem_page *page)
{
	return json_pack("{ss ss sI ss ss}", "type", page->type, "title", page->title, "status",
			 (json_int_t)page->status, "meaning", page->meaning, "fix", page->fix);
}

/* Answers an HTML page of n bytes written into html[0..size); 500 when it
 * did not fit. */
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
	struct problem_page page;
	if (call->format != ROUTE_FORMAT_HTML) {
		json_t *list = json_array();
		for (size_t i = 0; list && problem_page_at(i, &page); i++) {
			if (json_array_append_new(list, page_json(&page)) != 0) {
				json_decref(list);
				list = NULL;
			}
		}
		return route_respond_json(resp, json_pack("{so}", "types", list), err);
	}
	char html[4096];
	size_t len =
	    (size_t)snprintf(html, sizeof html,
			     "<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta "
			     "charset=\"utf-8\"><title>dropjudge problem "
			     "types</title></head>\n<body>\n<h1>Problem types</h1>\n<ul>\n");
	for (size_t i = 0; len < sizeof html && problem_page_at(i, &page); i++)
		len += (size_t)snprintf(html + len, sizeof html - len,
					"<li><a href=\"%s\">%u %s</a></li>\n", page.type,
					page.status, page.title);
	if (len < sizeof html)
		len += (size_t)snprintf(html + len, sizeof html - len, "</ul>\n</body>\n</html>\n");
	return respond_page(resp, html, len, sizeof html, err);
}

enum route_status route_problem_page(const struct route_call *call, struct route_response *resp,
				     struct codec_error *err)
{
	/* the page's path is its type URI: /errors/<slug> */
	struct problem_page page;
	bool found = false;
	for (size_t i = 0; !found && problem_page_at(i, &page); i++)
		found = strcmp(page.type, call->entry->path) == 0;
	if (!found)
		return route_error_set(err, ROUTE_E_INTERNAL, "no page for %s", call->entry->path);
	if (call->format != ROUTE_FORMAT_HTML)
		return route_respond_json(resp, page_json(&page), err);
	char html[2048];
	int n = snprintf(html, sizeof html,
			 "<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\">"
			 "<title>%u %s</title></head>\n<body>\n<h1>%u %s</h1>\n"
			 "<p>%s</p>\n<h2>How to fix it</h2>\n<p>%s</p>\n"
			 "<p><a href=\"/errors\">All error types</a></p>\n</body>\n</html>\n",
			 page.status, page.title, page.status, page.title, page.meaning, page.fix);
	return respond_page(resp, html, n < 0 ? sizeof html : (size_t)n, sizeof html, err);
}
