/* The JSON form of a Puyo search: the request read into the core's struct (the field by the Puyo
 * case reader), the answer written as JSON. */
#include "codec/puyo_codec.h"

#include <stdio.h>
#include <string.h>

static const char search_colors[] = "RGBPY";

/* The colour (1..5) of a letter of "RGBPY", 0 for anything else. */
static unsigned color_of(char c)
{
	const char *p = c ? strchr(search_colors, c) : NULL;
	return p ? (unsigned)(p - search_colors) + 1 : 0;
}

/* Reads the integer member at `pointer` ("/add": key "add") in [min, max], dflt when absent.
 * Each reader below returns CODEC_OK or its fault's status. */
static enum codec_status read_int(const json_t *obj, const char *pointer, unsigned min,
				  unsigned max, unsigned dflt, unsigned *out,
				  struct codec_error *err)
{
	const json_t *v = json_object_get(obj, pointer + 1);
	*out = dflt;
	if (!v)
		return CODEC_OK;
	if (!json_is_integer(v) || json_integer_value(v) < (json_int_t)min ||
	    json_integer_value(v) > (json_int_t)max)
		return codec_error_at_pointer(err, CODEC_E_INVALID, pointer,
					      "must be an integer from %u to %u", min, max);
	*out = (unsigned)json_integer_value(v);
	return CODEC_OK;
}

/* Reads "pairs": at most three pairs of two colour letters. */
static enum codec_status read_pairs(const json_t *pairs, struct puyo_search_request *req,
				    struct codec_error *err)
{
	if (!pairs)
		return CODEC_OK;
	if (!json_is_array(pairs))
		return codec_error_at_pointer(err, CODEC_E_INVALID, "/pairs",
					      "must be an array of pairs, as [[\"R\", \"G\"]]");
	size_t n = json_array_size(pairs);
	if (n > PUYO_SEARCH_MAX_PAIRS)
		return codec_error_at_pointer(err, CODEC_E_INVALID, "/pairs",
					      "too many pairs: %zu; a search places at most %u", n,
					      PUYO_SEARCH_MAX_PAIRS);
	for (size_t i = 0; i < n; i++) {
		const json_t *pair = json_array_get(pairs, i);
		char pointer[32];
		snprintf(pointer, sizeof pointer, "/pairs/%zu", i);
		if (!json_is_array(pair) || json_array_size(pair) != 2)
			return codec_error_at_pointer(
			    err, CODEC_E_INVALID, pointer,
			    "must be a pair of two colours, as [\"R\", \"G\"]");
		for (size_t j = 0; j < 2; j++) {
			const json_t *c = json_array_get(pair, j);
			unsigned v = json_is_string(c) && json_string_length(c) == 1
					 ? color_of(json_string_value(c)[0])
					 : 0;
			if (!v) {
				snprintf(pointer, sizeof pointer, "/pairs/%zu/%zu", i, j);
				return codec_error_at_pointer(
				    err, CODEC_E_INVALID, pointer,
				    "must be a colour: \"R\", \"G\", \"B\", \"P\" or \"Y\"");
			}
			req->pair[i][j] = (uint8_t)v;
		}
	}
	req->pairs = (unsigned)n;
	return CODEC_OK;
}

/* Reads "colors": distinct letters of RGBPY, at least one. */
static enum codec_status read_colors(const json_t *colors, struct puyo_search_request *req,
				     struct codec_error *err)
{
	req->colors = PUYO_SEARCH_ALL_COLORS;
	if (!colors)
		return CODEC_OK;
	if (!json_is_string(colors) || json_string_length(colors) == 0)
		return codec_error_at_pointer(err, CODEC_E_INVALID, "/colors",
					      "must be a string of colours, as \"RGBPY\"");
	const char *s = json_string_value(colors);
	size_t len = json_string_length(colors);
	req->colors = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned v = color_of(s[i]);
		if (!v)
			return codec_error_at_pointer(
			    err, CODEC_E_INVALID, "/colors",
			    "character %zu is not a colour: colours are R, G, B, P and Y", i + 1);
		if (req->colors >> (v - 1) & 1)
			return codec_error_at_pointer(err, CODEC_E_INVALID, "/colors",
						      "colour %c is given twice", s[i]);
		req->colors |= 1u << (v - 1);
	}
	return CODEC_OK;
}

enum codec_status puyo_search_json_read(const json_t *obj, struct puyo_search_request *req,
					struct codec_error *err)
{
	static const char *const members[] = {"field", "add", "pairs", "limit", "colors", "id"};
	const char *key;
	json_t *value;
	memset(req, 0, sizeof *req);
	puyo_field_init(&req->field, PUYO_ROWS);
	if (!json_is_object(obj))
		return codec_error_at_pointer(err, CODEC_E_INVALID, "", "expected an object");
	json_object_foreach((json_t *)obj, key, value)
	{
		bool known = false;
		for (size_t i = 0; i < sizeof members / sizeof members[0]; i++)
			known |= strcmp(key, members[i]) == 0;
		if (known)
			continue;
		char where[CODEC_POINTER_MAX] = "";
		codec_pointer_append(where, sizeof where, key);
		return codec_error_at_pointer(
		    err, CODEC_E_INVALID, where,
		    "unknown member; a search holds \"field\", \"add\", \"pairs\", \"limit\", "
		    "\"colors\" and \"id\"");
	}
	value = json_object_get(obj, "id");
	if (value && !json_is_string(value) && !json_is_integer(value))
		return codec_error_at_pointer(err, CODEC_E_INVALID, "/id",
					      "id must be a string or an integer");
	/* The field as a case holding it alone: the same reader, the same words. */
	json_t *field_case = json_pack("{sO*}", "field", json_object_get(obj, "field"));
	if (!field_case)
		return codec_error_set(err, CODEC_E_INTERNAL, "out of memory");
	enum codec_status st = puyo_json_read(field_case, "", false, &req->field, err);
	json_decref(field_case);
	if (st == CODEC_OK)
		st = read_int(obj, "/add", 1, PUYO_SEARCH_MAX_ADD, PUYO_SEARCH_DEFAULT_ADD,
			      &req->add, err);
	if (st == CODEC_OK)
		st = read_pairs(json_object_get(obj, "pairs"), req, err);
	if (st == CODEC_OK)
		st = read_int(obj, "/limit", 1, PUYO_SEARCH_MAX_LIMIT, PUYO_SEARCH_DEFAULT_LIMIT,
			      &req->limit, err);
	return st == CODEC_OK ? read_colors(json_object_get(obj, "colors"), req, err) : st;
}

static json_t *trigger_json(const struct puyo_trigger *t)
{
	char color[2] = {puyo_cell_to_char(t->color), '\0'};
	return json_pack("{sI ss sI sI sI}", "column", (json_int_t)t->column, "color", color,
			 "puyos", (json_int_t)t->puyos, "chains", (json_int_t)t->chains, "score",
			 (json_int_t)t->score);
}

static json_t *run_json(const struct puyo_result *r)
{
	return json_pack("{sI sI}", "chains", (json_int_t)r->chains, "score", (json_int_t)r->score);
}

static json_t *sequence_json(const struct puyo_search_request *req, const struct puyo_sequence *s)
{
	json_t *placements = json_array(), *fired = json_array();
	for (unsigned i = 0; placements && fired && i < req->pairs; i++) {
		json_array_append_new(
		    placements, json_pack("{sI sI}", "column", (json_int_t)s->placement[i].column,
					  "rotation", (json_int_t)s->placement[i].rotation));
		json_array_append_new(fired, run_json(&s->fired[i]));
	}
	if (!placements || !fired || json_array_size(placements) != req->pairs ||
	    json_array_size(fired) != req->pairs) {
		json_decref(placements);
		json_decref(fired);
		return NULL; /* out of memory: an element is missing */
	}
	return json_pack("{so so so}", "placements", placements, "fired", fired, "trigger",
			 s->has_trigger ? trigger_json(&s->trigger) : json_null());
}

json_t *puyo_search_json_answer(const struct puyo_search_request *req,
				const struct puyo_search_answer *ans)
{
	json_t *triggers = json_array(), *sequences = json_array();
	for (unsigned i = 0; triggers && i < ans->triggers; i++)
		json_array_append_new(triggers, trigger_json(&ans->trigger[i]));
	for (unsigned i = 0; sequences && i < ans->sequences; i++)
		json_array_append_new(sequences, sequence_json(req, &ans->sequence[i]));
	json_t *obj =
	    json_pack("{so so sI so}", "fires_now",
		      ans->fires_now.chains ? run_json(&ans->fires_now) : json_null(), "triggers",
		      triggers, "examined", (json_int_t)ans->examined, "sequences", sequences);
	/* An element that failed to append is missing: count them. */
	if (obj && (json_array_size(triggers) != ans->triggers ||
		    json_array_size(sequences) != ans->sequences)) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}
