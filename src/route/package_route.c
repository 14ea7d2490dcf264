/*
 * GET /v1/{problem}/package: the problem package of `dropjudge package`,
 * built in memory by package_build_memory() and answered as a zip
 * (application/zip, the default) or a tar.gz (application/gzip) as Accept
 * asks (the table negotiates), with the seed echoed in Dropjudge-Seed and a
 * file name in Content-Disposition. Parameters (declared in the table):
 * format (required), tests, seed (default 1, as the command line), and
 * min_chains for Puyo.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dropjudge/gen.h"
#include "package/package.h"
#include "route/handlers.h"
#include "mem/alloc.h"

enum codec_status route_package(const struct route_call *call, struct route_response *resp,
				struct codec_error *err)
{
	const struct problem *p = route_entry_problem(call->entry);
	struct package_request pkg = {.problem = p->id};
	const char *format = route_param(call->req, "format");
	if (!package_format_from_name(format, &pkg.format)) {
		codec_error_at_param(err, CODEC_E_INVALID, "format",
				     format
					 ? "must be kattis, polygon, domjudge or cms, got '%.40s'"
					 : "required: kattis, polygon, domjudge or cms%.0s",
				     format ? format : "");
		return CODEC_E_INVALID;
	}
	enum package_sink sink = call->format == ROUTE_FORMAT_TAR_GZ ? PACKAGE_TAR_GZ : PACKAGE_ZIP;
	uint64_t seed = route_arg(call, "seed");
	pkg.tests = (unsigned)route_arg(call, "tests");
	pkg.seed = seed;
	pkg.min_chains =
	    p->has_chains ? (unsigned)route_arg(call, "min_chains") : PACKAGE_DEFAULT_MIN_CHAINS;
	char *data;
	size_t len;
	if (package_build_memory(&pkg, sink, &data, &len, err) != CODEC_OK)
		return err->status;
	route_response_free(resp);
	resp->body = data;
	resp->body_len = len;
	resp->status = 200;
	resp->content_type = route_format_media(call->format);
	char value[64], name[40];
	package_file_name(&pkg, sink, name, sizeof name);
	snprintf(value, sizeof value, "attachment; filename=\"%s\"", name);
	route_add_header(resp, "Content-Disposition", value);
	snprintf(value, sizeof value, "%" PRIu64, seed);
	route_add_header(resp, "Dropjudge-Seed", value);
	snprintf(value, sizeof value, "%d", GEN_VERSION);
	route_add_header(resp, "Dropjudge-Generator", value);
	return CODEC_OK;
}
