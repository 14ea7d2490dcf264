/*
 * GET /v1/{problem}/package: the problem package of `dropjudge package`,
 * built in memory by package_build_memory() and answered as a zip
 * (application/zip, the default) or a tar.gz (application/gzip) as Accept
 * asks, with the seed echoed in Dropjudge-Seed and a file name in
 * Content-Disposition. Parameters: format (required), tests, seed (default
 * 1, as the command line), and min_chains for Puyo.
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

/*
 * The archive Accept asks for: zip unless application/gzip (or
 * application/x-gzip) is named; PACKAGE_DIRECTORY when it names neither,
 * nor a wildcard range. q-values are not weighed.
 */
static enum package_sink package_sink_of(const char *accept)
{
	if (!accept || !*accept)
		return PACKAGE_ZIP;
	bool zip = false, gzip = false, any = false;
	for (const char *s = accept; *s;) {
		size_t n = strcspn(s, ",");
		const char *t = s;
		while (t < s + n && (*t == ' ' || *t == '\t'))
			t++;
		size_t m = strcspn(t, ";, \t");
		if ((m == 15 && strncasecmp(t, "application/zip", m) == 0))
			zip = true;
		else if ((m == 16 && strncasecmp(t, "application/gzip", m) == 0) ||
			 (m == 18 && strncasecmp(t, "application/x-gzip", m) == 0))
			gzip = true;
		else if ((m == 3 && strncmp(t, "*/*", 3) == 0) ||
			 (m == 13 && strncasecmp(t, "application/*", m) == 0))
			any = true;
		s += n + (s[n] == ',');
	}
	return gzip && !zip ? PACKAGE_TAR_GZ : zip || any ? PACKAGE_ZIP : PACKAGE_DIRECTORY;
}

void route_package(const struct route_problem *p, const struct route_request *req,
		   struct route_response *resp)
{
	static const char *const md_params[] = {"format", "tests", "seed", NULL};
	static const char *const puyo_params[] = {"format", "tests", "seed", "min_chains", NULL};
	struct package_request pkg = {.problem = p->id};
	struct codec_error *err = dj_malloc(sizeof *err);
	uint64_t tests, seed, min_chains;
	if (!err) {
		route_respond_oom(resp);
		return;
	}
	codec_error_init(err, 1);
	if (!route_check_params(req, p == &route_puyo ? puyo_params : md_params, err) ||
	    !route_param_u64(req, "tests", 1, PACKAGE_MAX_TESTS, PACKAGE_DEFAULT_TESTS, &tests,
			     err) ||
	    !route_param_u64(req, "seed", 0, UINT64_MAX, 1, &seed, err) ||
	    !route_param_u64(req, "min_chains", 1, GEN_PUYO_MAX_CHAINS, PACKAGE_DEFAULT_MIN_CHAINS,
			     &min_chains, err))
		goto out_error;
	const char *format = route_param(req, "format");
	if (!package_format_from_name(format, &pkg.format)) {
		codec_error_at_param(err, CODEC_E_INVALID, "format",
				     format ? "must be kattis, polygon or domjudge"
					    : "required: kattis, polygon or domjudge");
		goto out_error;
	}
	enum package_sink sink = package_sink_of(req->accept);
	if (sink == PACKAGE_DIRECTORY) {
		codec_error_set(err, CODEC_E_NOT_ACCEPTABLE,
				"this resource answers application/zip or application/gzip");
		goto out_error;
	}
	pkg.tests = (unsigned)tests;
	pkg.seed = seed;
	pkg.min_chains = (unsigned)min_chains;
	char *data;
	size_t len;
	if (package_build_memory(&pkg, sink, &data, &len, err) != CODEC_OK)
		goto out_error;
	dj_free(resp->body);
	resp->body = data;
	resp->body_len = len;
	resp->status = 200;
	resp->content_type = sink == PACKAGE_ZIP ? "application/zip" : "application/gzip";
	char value[64], name[40];
	package_file_name(&pkg, sink, name, sizeof name);
	snprintf(value, sizeof value, "attachment; filename=\"%s\"", name);
	route_add_header(resp, "Content-Disposition", value);
	snprintf(value, sizeof value, "%" PRIu64, seed);
	route_add_header(resp, "Dropjudge-Seed", value);
	snprintf(value, sizeof value, "%d", GEN_VERSION);
	route_add_header(resp, "Dropjudge-Generator", value);
	dj_free(err);
	return;
out_error:
	route_respond_error(resp, err);
	dj_free(err);
}
