/*
 * The Puyo search (dropjudge/puyo_search.h): POST /v1/puyo/search takes one
 * request in JSON and answers in JSON or as its picture; GET
 * /v1/puyo/search.svg takes the request in the query (field=ROW,ROW,...,
 * pairs=RB,GG, add=, limit=, colors=) for an <img>.
 */
#include <stdio.h>
#include <string.h>

#include "codec/puyo_codec.h"
#include "mem/alloc.h"
#include "render/render.h"
#include "route/handlers.h"

/* A search and its answer, for drawing. */
struct searched {
	struct puyo_search_request req;
	struct puyo_search_answer ans;
};

static int draw_search(const void *ctx, const struct render_options *opt, char *buf, size_t size)
{
	const struct searched *s = ctx;
	return render_puyo_search_svg(&s->req, &s->ans, opt->cell, buf, size);
}

/* Searches s->req (read) and answers in the call's format. */
static enum route_status answer(const struct route_call *call, struct searched *s,
				struct route_response *resp, struct codec_error *err)
{
	if (puyo_search(&s->req, &s->ans) != 0)
		return route_error_set(err, ROUTE_E_INTERNAL, "the search was refused");
	if (call->format == ROUTE_FORMAT_SVG) {
		struct render_options opt = {.cell = (unsigned)route_arg(call, "cell")};
		return route_draw_svg(call->req, resp, draw_search, s, &opt, err);
	}
	return route_respond_json(resp, puyo_search_json_answer(&s->req, &s->ans), err);
}

enum route_status route_puyo_search(const struct route_call *call, struct route_response *resp,
				    struct codec_error *err)
{
	/* About 12 KB: on the heap, not on a worker's stack. */
	struct searched *s = dj_malloc(sizeof *s);
	if (!s)
		return route_oom(err);
	json_t *root = route_parse_json(call->bytes, call->nbytes, err);
	enum route_status st = err->status;
	if (root) {
		st = route_status_of(puyo_search_json_read(root, &s->req, err));
		route_tally_case(call, "puyo", st == ROUTE_OK);
	}
	json_decref(root);
	if (st == ROUTE_OK)
		st = answer(call, s, resp, err);
	dj_free(s);
	return st;
}

/* The query's pairs=RB,GG as the JSON array of pairs; NULL with err set,
 * or not set when out of memory. */
static json_t *pairs_param(const char *v, struct codec_error *err)
{
	json_t *pairs = json_array();
	for (const char *p = v; pairs && *p;) {
		size_t n = strcspn(p, ",");
		char a[2] = {p[0], '\0'}, b[2] = {n == 2 ? p[1] : '\0', '\0'};
		if (n != 2) {
			codec_error_at_param(err, CODEC_E_INVALID, "pairs",
					     "each pair is two colour letters, the axis first, "
					     "as pairs=RB,GG");
			json_decref(pairs);
			return NULL;
		}
		if (json_array_append_new(pairs, json_pack("[ss]", a, b)) != 0)
			break;
		p += n + (p[n] == ',');
	}
	return pairs;
}

enum route_status route_puyo_search_svg(const struct route_call *call, struct route_response *resp,
					struct codec_error *err)
{
	const struct route_request *req = call->req;
	const char *rows = route_param(req, "field"), *pairs = route_param(req, "pairs"),
		   *colors = route_param(req, "colors");
	struct puyo_field field;
	if (!rows)
		return route_status_of(
		    codec_error_at_param(err, CODEC_E_SYNTAX, "field",
					 "required: the field as field=ROW,ROW,... (12 or 13 rows, "
					 "top first)"));
	if (!route_puyo_rows_param(rows, &field, err))
		return err->status;
	/* The request as the JSON the route takes, read by the same reader. */
	json_t *obj = json_pack("{so sI sI so s:s*}", "field", puyo_json_rows(&field), "add",
				(json_int_t)route_arg(call, "add"), "limit",
				(json_int_t)route_arg(call, "limit"), "pairs",
				pairs ? pairs_param(pairs, err) : json_array(), "colors", colors);
	if (!obj)
		return codec_error_is_set(err) ? err->status : route_oom(err);
	struct searched *s = dj_malloc(sizeof *s);
	struct codec_error json_err;
	codec_error_init(&json_err);
	enum route_status st =
	    route_status_of(s ? puyo_search_json_read(obj, &s->req, &json_err) : CODEC_E_INTERNAL);
	json_decref(obj);
	if (!s) {
		codec_error_set(err, CODEC_E_INTERNAL, "out of memory");
	} else if (st != ROUTE_OK) {
		/* the fault's member is the query parameter of that name */
		const struct codec_fault *f = &json_err.faults[0];
		char name[16] = "";
		if (json_err.nfaults)
			snprintf(name, sizeof name, "%.*s", (int)strcspn(f->pointer + 1, "/"),
				 f->pointer + 1);
		route_error_add(err, st,
				&(struct codec_where){.parameter = name[0] ? name : "field"}, "%s",
				json_err.nfaults ? json_err.detail : "invalid");
	} else {
		route_tally_case(call, "puyo", true);
		st = answer(call, s, resp, err);
	}
	dj_free(s);
	return st;
}
