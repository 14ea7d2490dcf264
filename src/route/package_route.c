/*
 * GET /v1/{problem}/package: the problem package of `dropjudge package`,
 * built in memory and answered as a zip or a tar.gz as Accept asks, with
 * the seed in Dropjudge-Seed and a file name in Content-Disposition. HEAD
 * checks the request and answers the headers without building.
 */
#include <stdio.h>

#include "package/package.h"
#include "route/handlers.h"

/* package_request.stop: a build whose client has gone stops (503). */
static bool package_client_gone(void *ctx, struct codec_error *err)
{
	const struct route_request *req = ctx;
	if (!req->gone(req->gone_ctx))
		return false;
	route_error_set(err, ROUTE_E_BUSY, "the build stopped: the client has gone");
	return true;
}

enum route_status route_package(const struct route_call *call, struct route_response *resp,
				struct codec_error *err)
{
	const struct problem *p = route_entry_problem(call->entry);
	struct package_request pkg = {.problem = p->id};
	const char *format = route_param(call->req, "format");
	if (!format) /* a required parameter missing: 400, as on every path */
		return route_status_of(codec_error_at_param(
		    err, CODEC_E_SYNTAX, "format", "required: kattis, polygon, domjudge or cms"));
	if (!package_format_from_name(format, &pkg.format))
		return route_status_of(codec_error_at_param(
		    err, CODEC_E_INVALID, "format",
		    "must be kattis, polygon, domjudge or cms, got '%.40s'", format));
	enum package_sink sink = call->format == ROUTE_FORMAT_TAR_GZ ? PACKAGE_TAR_GZ : PACKAGE_ZIP;
	pkg.tests = (unsigned)route_arg(call, "tests");
	pkg.seed = route_arg(call, "seed");
	pkg.min_chains =
	    p->has_chains ? (unsigned)route_arg(call, "min_chains") : PACKAGE_DEFAULT_MIN_CHAINS;
	pkg.stop = call->req->gone ? package_client_gone : NULL;
	pkg.stop_ctx = (void *)call->req;
	char *data = NULL;
	size_t len = 0;
	if (call->req->headers_only) { /* HEAD: the headers need no build */
		if (package_check(&pkg, err) != CODEC_OK)
			return err->status;
	} else if (package_build_memory(&pkg, sink, &data, &len, err) != CODEC_OK) {
		return err->status;
	}
	route_respond_empty(resp, 200);
	resp->body = data;
	resp->body_len = len;
	resp->head_only = call->req->headers_only;
	resp->content_type = route_format_media(call->format);
	char value[64], name[40];
	package_file_name(&pkg, sink, name, sizeof name);
	snprintf(value, sizeof value, "attachment; filename=\"%s\"", name);
	route_add_header(resp, "Content-Disposition", value);
	route_add_seed_headers(resp, pkg.seed);
	return ROUTE_OK;
}
