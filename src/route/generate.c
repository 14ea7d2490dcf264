/*
 * GET /v1/{problem}/generate and /package: a generated case (its seed given or drawn at random),
 * or the package of `dropjudge package` built in memory (zip or tar.gz as Accept asks, named in
 * Content-Disposition), with the headers that make either reproducible. The table has read every
 * parameter; HEAD answers the headers without searching for a case or building.
 */
#include <inttypes.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/types.h>

#include "dropjudge/gen.h"
#include "package/package.h"
#include "route/handlers.h"

/* A seed drawn at random (getrandom(), or a stack slot's address should the kernel refuse). */
static uint64_t fresh_seed(void)
{
	uint64_t z = 0;
	if (getrandom(&z, sizeof z, GRND_NONBLOCK) != (ssize_t)sizeof z)
		z ^= (uint64_t)(uintptr_t)&z;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* Adds Dropjudge-Seed and Dropjudge-Generator, which make a generated answer reproducible. */
static void add_seed_headers(struct route_response *resp, uint64_t seed)
{
	char value[32];
	snprintf(value, sizeof value, "%" PRIu64, seed);
	route_add_header(resp, "Dropjudge-Seed", value);
	snprintf(value, sizeof value, "%d", GEN_VERSION);
	route_add_header(resp, "Dropjudge-Generator", value);
}

enum route_status route_generate(const struct route_call *call, struct route_response *resp,
				 struct codec_error *err)
{
	const struct problem *p = route_entry_problem(call->entry);
	uint64_t seed = route_param(call->req, "seed") ? route_arg(call, "seed") : fresh_seed();
	if (call->req->headers_only) { /* HEAD: the case is not searched for */
		route_respond_empty(resp, 200);
		resp->content_type = route_format_media(call->format);
		resp->head_only = true;
	} else {
		struct problem_gen g = {.seed = seed,
					.n = route_arg(call, "n"),
					.colors = route_arg(call, "colors"),
					.min_chains = route_arg(call, "min_chains"),
					.with_answer = route_arg(call, "with_answer") != 0,
					.text = call->format == ROUTE_FORMAT_TEXT};
		struct problem_text text;
		json_t *obj = NULL;
		problem_text_init(&text);
		enum route_status st = route_status_of(p->generate(&g, &text, &obj, err));
		if (st == ROUTE_OK && g.text)
			st = route_respond_text(resp, ROUTE_TEXT_MEDIA_TYPE, text.data, text.len,
						err);
		else if (st == ROUTE_OK)
			st = route_respond_json(resp, obj, err);
		problem_text_free(&text);
		if (st != ROUTE_OK)
			return st;
	}
	add_seed_headers(resp, seed);
	return ROUTE_OK;
}

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
	/* HEAD: the headers need no build */
	if ((call->req->headers_only
		 ? package_check(&pkg, err)
		 : package_build_memory(&pkg, sink, &data, &len, err)) != CODEC_OK)
		return err->status;
	route_respond_empty(resp, 200);
	resp->body = data;
	resp->body_len = len;
	resp->head_only = call->req->headers_only;
	resp->content_type = route_format_media(call->format);
	char value[64], name[40];
	package_file_name(&pkg, sink, name, sizeof name);
	snprintf(value, sizeof value, "attachment; filename=\"%s\"", name);
	route_add_header(resp, "Content-Disposition", value);
	add_seed_headers(resp, pkg.seed);
	return ROUTE_OK;
}
