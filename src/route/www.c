/*
 * The viewer: GET / answers the page, which loads its style sheet and
 * script from the service itself (assembled into the binary by
 * src/www/www_blob.S). The page makes no request elsewhere, and says so to
 * the browser with its Content-Security-Policy.
 */
#include <string.h>

#include "route/handlers.h"

extern const char www_index_html[], www_index_html_end[];
extern const char www_viewer_css[], www_viewer_css_end[];
extern const char www_viewer_js[], www_viewer_js_end[];

struct www_file {
	const char *path;
	const char *media_type;
	const char *start, *end;
};

static const struct www_file www_files[] = {
    {"/", "text/html; charset=utf-8", www_index_html, www_index_html_end},
    {"/viewer.css", "text/css; charset=utf-8", www_viewer_css, www_viewer_css_end},
    {"/viewer.js", "text/javascript; charset=utf-8", www_viewer_js, www_viewer_js_end},
};

void route_www(const struct route_request *req, struct route_response *resp)
{
	for (size_t i = 0; i < sizeof www_files / sizeof www_files[0]; i++) {
		const struct www_file *f = &www_files[i];
		if (strcmp(req->path, f->path) != 0)
			continue;
		route_respond_text(resp, f->media_type, f->start, (size_t)(f->end - f->start));
		route_add_header(resp, "Content-Security-Policy",
				 "default-src 'self'; img-src 'self' data:");
		route_add_header(resp, "Cache-Control", "no-cache");
		return;
	}
	struct codec_error err;
	codec_error_init(&err, 1);
	codec_error_set(&err, CODEC_E_NOT_FOUND, "no such file of the viewer");
	route_respond_error(resp, &err);
}
