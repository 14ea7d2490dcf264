/*
 * The files assembled into the binary: GET / answers the viewer's page,
 * which loads its style sheet, script and icon from the service itself
 * (src/www/www_blob.S); GET /docs the API reference written from
 * openapi.yaml (scripts/api-docs.mjs), with its style sheet; GET
 * /openapi.yaml that description itself (openapi_blob.S). No page makes a
 * request elsewhere, and each says so to the browser with its
 * Content-Security-Policy.
 */
#include <string.h>

#include "route/handlers.h"

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

/* route_handler_fn: a file, in the one format its row names, a page with
 * its headers (the table names each file, so the path is always one of
 * them; GET / in HTML comes here from meta.c). */
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
