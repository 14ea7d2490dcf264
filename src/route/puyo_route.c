/*
 * Puyo behind HTTP: decode a field, run the chain steps (recording each one
 * for a trace), encode the outcome; and the field generator.
 */
#include <stdio.h>
#include <stdlib.h>

#include "codec/puyo_codec.h"
#include "codec/puyo_links.h"
#include "dropjudge/gen.h"
#include "route/handlers.h"

/* Largest Baekjoon text of a field: 13 rows of 6 characters and '\n'. */
#define PUYO_TEXT_MAX (PUYO_ROWS_MAX * (PUYO_COLS + 1) + 1)

/* A trace entry for one chain step: its counts and the field after it. */
static json_t *puyo_step_json(const struct puyo_step *step, const struct puyo_field *field)
{
	return json_pack("{sI sI sI sI sI sI so}", "chain", (json_int_t)step->chain, "popped",
			 (json_int_t)step->popped, "garbage", (json_int_t)step->garbage, "groups",
			 (json_int_t)step->groups, "colors", (json_int_t)step->colors, "score",
			 (json_int_t)step->score, "field", puyo_json_rows(field));
}

/* puyo_step_fn: appends each step to the trace array; false when out of memory. */
static bool puyo_trace_step(void *ctx, const struct puyo_step *step, const struct puyo_field *field)
{
	json_t **steps = ctx;
	if (*steps && json_array_append_new(*steps, puyo_step_json(step, field)) == 0)
		return true;
	json_decref(*steps);
	*steps = NULL;
	return false;
}

/* Runs the chain on out->u.puyo.field (the core's puyo_run_steps()),
 * recording each step when tracing. */
static enum codec_status puyo_solve_field(struct route_outcome *out, bool trace,
					  struct codec_error *err)
{
	out->u.puyo.input = out->u.puyo.field;
	out->steps = trace ? json_array() : NULL;
	puyo_run_steps(&out->u.puyo.field, &out->u.puyo.result, trace ? puyo_trace_step : NULL,
		       &out->steps);
	if (trace && !out->steps) {
		codec_error_set(err, CODEC_E_INTERNAL, "out of memory");
		return CODEC_E_INTERNAL;
	}
	return CODEC_OK;
}

static enum codec_status puyo_solve_json(const json_t *case_obj, const char *pointer,
					 const struct route_limits *limits, bool trace,
					 struct route_outcome *out, struct codec_error *err)
{
	/* The rows, or a puyop.com / Puyo Nexus field string or link. */
	enum codec_status st =
	    puyo_links_read_case_lean(case_obj, pointer, limits->lean, &out->u.puyo.field, err);
	return st != CODEC_OK ? st : puyo_solve_field(out, trace, err);
}

static bool puyo_solve_json_fast(const char *body, size_t len, const struct route_limits *limits,
				 struct route_outcome *out)
{
	(void)limits;
	if (!puyo_json_fast_read(body, len, &out->u.puyo.field))
		return false;
	/* without a trace the chain allocates nothing and cannot fail */
	return puyo_solve_field(out, false, NULL) == CODEC_OK;
}

static enum codec_status puyo_solve_text(const char *text, size_t len,
					 const struct route_limits *limits, bool trace,
					 struct route_outcome *out, struct codec_error *err)
{
	(void)limits;
	enum codec_status st = puyo_text_read(text, len, false, &out->u.puyo.field, err);
	return st != CODEC_OK ? st : puyo_solve_field(out, trace, err);
}

static json_t *puyo_outcome_links(const struct route_outcome *out)
{
	return puyo_links_json(&out->u.puyo.input);
}

static json_t *puyo_outcome_json(struct route_outcome *out)
{
	const struct puyo_result *r = &out->u.puyo.result;
	json_t *steps = out->steps;
	out->steps = NULL;
	json_t *result = json_pack("{sI sI sb so}", "chains", (json_int_t)r->chains, "score",
				   (json_int_t)r->score, "all_clear", r->all_clear, "field",
				   puyo_json_rows(&out->u.puyo.field));
	if (result && steps && json_object_set_new(result, "steps", steps) != 0) {
		json_decref(result);
		return NULL;
	}
	if (!result)
		json_decref(steps);
	return result;
}

static int puyo_outcome_write(const struct route_outcome *out, char *buf, size_t size)
{
	return puyo_json_write_result(&out->u.puyo.field, &out->u.puyo.result, buf, size);
}

static int puyo_outcome_text(const struct route_outcome *out, char *buf, size_t size)
{
	return puyo_text_result(&out->u.puyo.result, buf, size);
}

static void puyo_validate_json(const json_t *case_obj, const char *pointer,
			       const struct route_limits *limits, struct codec_error *err)
{
	struct puyo_field field;
	puyo_json_read_lean(case_obj, pointer, true, limits ? limits->lean : NULL, &field, err);
}

static void puyo_validate_text(const char *text, size_t len, struct codec_error *err)
{
	struct puyo_field field;
	puyo_text_read(text, len, true, &field, err);
}

/*
 * Answers GET .../generate: a field from `seed` with the asked colours and
 * at least min_chains chains, as JSON or the Baekjoon input text;
 * with_answer adds the solve result and the Baekjoon output.
 */
static enum codec_status puyo_generate(const struct route_call *call, uint64_t seed,
				       bool with_answer, struct route_response *resp,
				       struct codec_error *err)
{
	uint64_t colors = route_arg(call, "colors");
	uint64_t min_chains = route_arg(call, "min_chains");
	struct puyo_field field;
	if (!gen_puyo_field(seed, (unsigned)colors, (unsigned)min_chains, &field)) {
		if (colors == 1 && min_chains > 1)
			codec_error_at_param(err, CODEC_E_INVALID, "min_chains",
					     "a field of one colour pops everything in its first "
					     "chain: ask for at most 1 chain, or more colours");
		else
			codec_error_at_param(
			    err, CODEC_E_INVALID, "min_chains",
			    "no field of %llu colours with at least %llu chains was "
			    "found within the search bound for this seed; try "
			    "another seed or more colours",
			    (unsigned long long)colors, (unsigned long long)min_chains);
		return CODEC_E_INVALID;
	}
	if (call->format == ROUTE_FORMAT_TEXT) {
		char buf[PUYO_TEXT_MAX];
		int n = puyo_text_field(&field, buf, sizeof buf);
		if (n < 0 || (size_t)n >= sizeof buf) {
			codec_error_set(err, CODEC_E_INTERNAL, "the field does not fit");
			return CODEC_E_INTERNAL;
		}
		return route_respond_text(resp, ROUTE_TEXT_MEDIA_TYPE, buf, (size_t)n, err);
	}
	json_t *obj = json_pack("{so}", "field", puyo_json_rows(&field));
	if (obj && with_answer) {
		struct route_outcome out = {.steps = NULL};
		out.u.puyo.field = field;
		puyo_run(&out.u.puyo.field, &out.u.puyo.result);
		char text[32];
		int len = puyo_text_result(&out.u.puyo.result, text, sizeof text);
		if (json_object_set_new(obj, "answer", puyo_outcome_json(&out)) != 0 ||
		    json_object_set_new(obj, "expected", json_stringn(text, (size_t)len)) != 0) {
			json_decref(obj);
			obj = NULL;
		}
	}
	return route_respond_json(resp, obj, err);
}

const struct route_problem route_puyo = {
    .id = "puyo",
    .title = "Puyo Puyo",
    .baekjoon = 11559,
    .solve_json = puyo_solve_json,
    .solve_json_fast = puyo_solve_json_fast,
    .outcome_links = puyo_outcome_links,
    .solve_text = puyo_solve_text,
    .outcome_json = puyo_outcome_json,
    .outcome_write = puyo_outcome_write,
    .outcome_text = puyo_outcome_text,
    .validate_json = puyo_validate_json,
    .validate_text = puyo_validate_text,
    .case_members = "\"field\", \"trace\"",
    .lean_member = "field",
    .generate = puyo_generate,
};
