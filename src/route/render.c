/*
 * GET /v1/{problem}/render.svg: a case given in the query, drawn by src/render. Monomino-Domino
 * takes blocks=txy,txy,... (three digits a placement, the Baekjoon line "t x y" without spaces);
 * Puyo field=ROW,ROW,... (12 or 13 rows, top first), or puyop= / puyo_nexus= (a field string or
 * link, codec/puyo_links.h). Both take cell= (pixels a cell), step=k (one step), strip=true (every
 * step, then the final state) or animate=true (the strip's frames shown in turn, looping).
 *
 * The Puyo search (dropjudge/puyo_search.h): POST /v1/puyo/search, one request in JSON answered in
 * JSON or as its picture; GET /v1/puyo/search.svg, the request in the query (field=ROW,ROW,...,
 * pairs=RB,GG, add=, limit=, colors=) for an <img>.
 */
#include <stdio.h>
#include <string.h>

#include "codec/decimal.h"
#include "codec/md_codec.h"
#include "codec/puyo_codec.h"
#include "codec/puyo_links.h"
#include "mem/alloc.h"
#include "render/render.h"
#include "route/handlers.h"

#define SVG_MEDIA_TYPE "image/svg+xml"
#define STEP_SHOWN     40 /* bytes of a parameter's value quoted in a message */

/* The picture's options: cell, strip and animate as the table read them, and step within the
 * case's 1..`steps` (the same words for 0, too many or too large); CODEC_OK, or err's status. */
static enum codec_status read_view(const struct route_call *call, unsigned long steps,
				   struct render_options *opt, struct codec_error *err)
{
	uint64_t step = 0;
	bool strip = route_arg(call, "strip") != 0, animate = route_arg(call, "animate") != 0;
	const char *sv = route_param(call->req, "step");
	if (sv) {
		unsigned long long n = 0;
		enum codec_decimal rd = codec_decimal_read_str(sv, &n);
		if (rd == CODEC_DECIMAL_NOT_A_NUMBER)
			return codec_error_at_param(
			    err, CODEC_E_SYNTAX, "step",
			    "must be an unsigned decimal integer, got '%.*s'", STEP_SHOWN, sv);
		if (steps == 0)
			return codec_error_at_param(err, CODEC_E_INVALID, "step",
						    "this case has no steps to show");
		if (rd == CODEC_DECIMAL_OVERFLOW || n == 0 || n > steps)
			return codec_error_at_param(
			    err, CODEC_E_INVALID, "step",
			    "must be 1..%lu (the steps of this case), got %.*s", steps, STEP_SHOWN,
			    sv);
		step = n;
		if (strip || animate)
			return codec_error_at_param(
			    err, CODEC_E_SYNTAX, strip ? "strip" : "animate",
			    "give step=k for one step or %s=true for all, not both",
			    strip ? "strip" : "animate");
	}
	strip = strip || animate; /* an animation plays the strip's frames */
	if (strip && steps > RENDER_STRIP_MAX)
		return codec_error_at_param(
		    err, CODEC_E_INVALID, animate ? "animate" : "strip",
		    "a strip draws at most %d steps and this case has %lu; ask "
		    "for them one by one with step=k",
		    RENDER_STRIP_MAX, steps);
	opt->cell = (unsigned)route_arg(call, "cell");
	opt->view = step ? RENDER_STEP : strip ? RENDER_STRIP : RENDER_FINAL;
	opt->step = (unsigned long)step;
	opt->animate = animate;
	return CODEC_OK;
}

/* Draws into buf[0..size); the length as snprintf returns it, -1: cannot. */
typedef int (*draw_fn)(const void *ctx, const struct render_options *opt, char *buf, size_t size);

/* Answers 200 with the picture `draw` makes (HEAD: its length only); over
 * --max-svg-bytes is 422 at "cell". Returns the status with err set. */
static enum route_status draw_svg(const struct route_request *req, struct route_response *resp,
				  draw_fn draw, const void *ctx, const struct render_options *opt,
				  struct codec_error *err)
{
	int n = draw(ctx, opt, NULL, 0);
	if (n < 0)
		return route_error_set(err, ROUTE_E_INTERNAL, "the picture could not be drawn");
	size_t max = req->limits ? req->limits->max_svg_bytes : 0;
	if (max && (size_t)n > max)
		return route_status_of(codec_error_at_param(
		    err, CODEC_E_INVALID, "cell",
		    "the picture asked for is %d bytes, over the limit of %zu "
		    "bytes (--max-svg-bytes): ask for a smaller cell, one step "
		    "or fewer steps",
		    n, max));
	route_respond_empty(resp, 200);
	resp->content_type = SVG_MEDIA_TYPE;
	if (req->headers_only) { /* HEAD: its length is all it needs */
		resp->head_only = true;
		resp->head_length = (size_t)n;
		return ROUTE_OK;
	}
	char *buf = dj_malloc((size_t)n + 1);
	if (!buf || draw(ctx, opt, buf, (size_t)n + 1) != n) {
		dj_free(buf);
		return route_oom(err);
	}
	resp->body = buf;
	resp->body_len = (size_t)n;
	return ROUTE_OK;
}

/* ---- Monomino-Domino ------------------------------------------------- */

struct md_case {
	const struct md_block *blocks;
	size_t n;
};

static int draw_md(const void *ctx, const struct render_options *opt, char *buf, size_t size)
{
	const struct md_case *c = ctx;
	return render_md_svg(c->blocks, c->n, opt, buf, size);
}

/* Reads blocks=txy,txy,... into a new array *out (the caller's to free, whatever
 * the outcome) of *n placements: CODEC_OK, or the status with err set. */
static enum codec_status read_blocks(const char *v, unsigned long max, struct md_block **out,
				     size_t *n, struct codec_error *err)
{
	size_t len = strlen(v), count = len ? 1 : 0;
	for (size_t i = 0; i < len; i++)
		count += v[i] == ',';
	if (max && count > max)
		return codec_error_at_param(err, CODEC_E_TOO_LARGE, "blocks",
					    "%zu placements, more than the limit of %lu", count,
					    max);
	struct md_block *blocks = *out = dj_malloc((count ? count : 1) * sizeof *blocks);
	if (!blocks)
		return problem_oom(err);
	const char *p = v;
	for (size_t i = 0; i < count; i++) {
		const char *end = strchr(p, ',');
		size_t k = end ? (size_t)(end - p) : strlen(p);
		bool digits = k == 3;
		for (size_t j = 0; j < k && digits; j++)
			digits = p[j] >= '0' && p[j] <= '9';
		if (!digits)
			return codec_error_at_param(
			    err, CODEC_E_SYNTAX, "blocks",
			    "placement %zu must be three digits t, x, y (as "
			    "230 for \"2 3 0\")",
			    i + 1);
		int t = p[0] - '0', x = p[1] - '0', y = p[2] - '0';
		enum md_fault fault = md_check(t, x, y);
		if (fault != MD_FAULT_NONE)
			return codec_error_at_param(err, CODEC_E_INVALID, "blocks",
						    "placement %zu (%.3s): %s", i + 1, p,
						    md_fault_detail(fault, t));
		blocks[i] = (struct md_block){(uint8_t)t, (uint8_t)x, (uint8_t)y};
		p += k + 1;
	}
	*n = count;
	return CODEC_OK;
}

enum route_status route_md_render_call(const struct route_call *call, struct route_response *resp,
				       struct codec_error *err)
{
	struct md_block *blocks = NULL;
	size_t n = 0;
	struct render_options opt;
	enum route_status st;
	const char *v = route_param(call->req, "blocks");
	if (!v)
		return route_status_of(codec_error_at_param(
		    err, CODEC_E_SYNTAX, "blocks", "required: the placements as txy,txy,..."));
	if (read_blocks(v, route_problem_limits(call).max_blocks, &blocks, &n, err) != CODEC_OK ||
	    read_view(call, (unsigned long)n, &opt, err) != CODEC_OK)
		st = err->status;
	else
		st = draw_svg(call->req, resp, draw_md, &(struct md_case){blocks, n}, &opt, err);
	dj_free(blocks);
	return st;
}

/* ---- Puyo ------------------------------------------------------------- */

static int draw_puyo(const void *ctx, const struct render_options *opt, char *buf, size_t size)
{
	return render_puyo_svg(ctx, opt, buf, size);
}

/* Records the first fault of `from` at query parameter `param`, prefixed; returns its status. */
static enum codec_status fault_at_param(const struct codec_error *from, const char *param,
					const char *prefix, struct codec_error *err)
{
	const struct codec_fault *f = &from->faults[0];
	if (from->nfaults && f->line)
		return codec_error_at_param(err, from->status, param, "%s%u: %s", prefix, f->line,
					    f->detail);
	return codec_error_at_param(err, from->status, param, "%s",
				    from->nfaults ? f->detail : from->detail);
}

/* Reads field=ROW,ROW,... into *field: CODEC_OK, or the status with err set at "field". */
static enum codec_status puyo_rows_param(const char *v, struct puyo_field *field,
					 struct codec_error *err)
{
	char text[PUYO_ROWS_MAX * (PUYO_COLS + 1) + 1];
	size_t len = strlen(v);
	if (len >= sizeof text)
		return codec_error_at_param(err, CODEC_E_INVALID, "field",
					    "12 or 13 rows of 6 cells, separated by commas");
	for (size_t i = 0; i < len; i++)
		text[i] = v[i] == ',' ? '\n' : v[i];
	struct codec_error rows;
	codec_error_init(&rows);
	if (puyo_text_read(text, len, false, field, &rows) == CODEC_OK)
		return CODEC_OK;
	return fault_at_param(&rows, "field", "row ", err);
}

enum route_status route_puyo_render_call(const struct route_call *call, struct route_response *resp,
					 struct codec_error *err)
{
	const struct route_request *req = call->req;
	struct puyo_field field;
	struct render_options opt;
	const char *rows = route_param(req, "field"), *puyop = route_param(req, "puyop"),
		   *nexus = route_param(req, "puyo_nexus");
	if ((rows != NULL) + (puyop != NULL) + (nexus != NULL) != 1)
		return route_status_of(
		    codec_error_at_param(err, CODEC_E_SYNTAX,
					 nexus && (rows || puyop) ? "puyo_nexus"
					 : puyop && rows	  ? "puyop"
								  : "field",
					 "give the field one way: field=ROW,ROW,..., puyop= or "
					 "puyo_nexus="));
	if (rows && puyo_rows_param(rows, &field, err) != CODEC_OK)
		return err->status;
	struct codec_error link;
	codec_error_init(&link);
	enum codec_status st =
	    puyop   ? puyo_links_read_puyop(puyop, strlen(puyop), NULL, &field, &link)
	    : nexus ? puyo_links_read_nexus(nexus, strlen(nexus), NULL, &field, &link)
		    : CODEC_OK;
	if (st != CODEC_OK)
		return route_status_of(
		    fault_at_param(&link, puyop ? "puyop" : "puyo_nexus", "", err));
	struct puyo_field run = field;
	struct puyo_result result;
	puyo_run(&run, &result);
	if (read_view(call, result.chains, &opt, err) != CODEC_OK)
		return err->status;
	return draw_svg(call->req, resp, draw_puyo, &field, &opt, err);
}

/* ---- solve answered as SVG -------------------------------------------- */

/* The blocks a decoder reads, collected in order. */
struct block_list {
	struct route_buf buf; /* the struct md_block of each, owned */
	bool out_of_memory;
};

static int collect_block(void *ctx, struct md_block block, unsigned long index)
{
	struct block_list *l = ctx;
	(void)index;
	l->out_of_memory = route_buf_put((const char *)&block, sizeof block, &l->buf) != 0;
	return l->out_of_memory;
}

/* The view of a solve answer: every step with a trace (at most a strip's worth,
 * else 422 at `where`), the final state without; CODEC_OK, or the status with err set. */
static enum codec_status solve_view(bool trace, unsigned long steps, const char *trace_pointer,
				    const struct route_call *call, struct render_options *opt,
				    struct codec_error *err)
{
	if (trace && steps > RENDER_STRIP_MAX) {
		const struct codec_where w = {.pointer = trace_pointer,
					      .parameter = trace_pointer ? NULL : "trace"};
		return codec_error_add(
		    err, CODEC_E_INVALID, &w,
		    "a picture of the trace draws at most %d steps and this case has "
		    "%lu; ask without trace, or for steps with GET .../render.svg?step=k",
		    RENDER_STRIP_MAX, steps);
	}
	*opt = (struct render_options){.cell = (unsigned)route_arg(call, "cell"),
				       .view = trace ? RENDER_STRIP : RENDER_FINAL};
	return CODEC_OK;
}

void route_render_body(const struct route_call *call, bool trace, struct route_response *resp)
{
	const struct problem *p = route_entry_problem(call->entry);
	const struct route_request *req = call->req;
	struct codec_error err;
	codec_error_init(&err);
	struct block_list list = {.out_of_memory = false};
	struct render_options opt;
	json_t *root = NULL;
	bool json = route_request_body(req) == ROUTE_BODY_JSON;
	const char *trace_pointer = NULL;
	if (json) {
		root = route_parse_json(call->bytes, call->nbytes, &err);
		if (!root)
			goto out;
		if (route_is_batch(root)) {
			route_error_set(&err, ROUTE_E_NOT_ACCEPTABLE,
					"a batch is answered in application/json only");
			goto out;
		}
		if (json_is_true(json_object_get(root, "trace")))
			trace_pointer = "/trace";
		trace = route_case_wants_trace(root, trace);
	}
	if (p == &problem_md) {
		struct md_read_options ro = {.max_blocks = route_problem_limits(call).max_blocks};
		enum codec_status st;
		if (json) {
			st = md_json_read(root, "", &ro, &err, collect_block, &list);
		} else {
			struct md_text_reader *reader = md_text_new(&ro, &err);
			if (!reader) {
				route_oom(&err);
				goto out;
			}
			st = md_text_feed(reader, call->bytes, call->nbytes, collect_block, &list);
			if (st == CODEC_OK && !list.out_of_memory)
				st = md_text_finish(reader, collect_block, &list);
			md_text_free(reader);
		}
		if (st == CODEC_OK && list.out_of_memory)
			route_oom(&err);
		struct md_case c = {(const struct md_block *)list.buf.data,
				    list.buf.len / sizeof(struct md_block)};
		if (!codec_error_is_set(&err) &&
		    solve_view(trace, (unsigned long)c.n, trace_pointer, call, &opt, &err) ==
			CODEC_OK)
			draw_svg(req, resp, draw_md, &c, &opt, &err);
	} else {
		struct puyo_field field;
		enum codec_status st =
		    json ? puyo_links_read_case(root, "", &field, &err)
			 : puyo_text_read(call->bytes, call->nbytes, false, &field, &err);
		if (st != CODEC_OK)
			goto out;
		struct puyo_field run = field;
		struct puyo_result result;
		puyo_run(&run, &result);
		if (solve_view(trace, result.chains, trace_pointer, call, &opt, &err) == CODEC_OK)
			draw_svg(req, resp, draw_puyo, &field, &opt, &err);
	}
out:
	if (codec_error_is_set(&err))
		route_respond_error(resp, &err, req->request_id);
	json_decref(root);
	dj_free(list.buf.data);
}

/* ---- the Puyo search ------------------------------------------------- */

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
		return draw_svg(call->req, resp, draw_search, s, &opt, err);
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

/* The query's pairs=RB,GG as a JSON array of pairs; NULL with err set, or unset on OOM. */
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
	if (puyo_rows_param(rows, &field, err) != CODEC_OK)
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
