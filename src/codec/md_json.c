/*
 * Monomino-Domino JSON codec: reads a case object, streaming each legal
 * block to a callback (a canonical body by a fast reader that skips
 * jansson), and writes the result object and the boards. Every fault is
 * CODEC_E_INVALID (jansson parsed the JSON) at a pointer below the case's:
 * "/blocks/17/0" (array form) or "/blocks/17/t" (object form).
 */
#include "codec/md_codec.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "codec/decimal.h"
#include "codec/json_scan.h"

/* State of one md_json_read() call. */
struct json_reader {
	const char *pointer;	  /* of the case, not owned */
	struct codec_error *err;  /* not owned, may be NULL */
	enum codec_status status; /* first fault of this read */
	bool stop;		  /* first-wins error recorded: read no further */
};

/* Records a fault at the case's pointer, then "/blocks/<index>" (index not NULL) and `key`,
 * escaped as RFC 6901 says and cut short when too long; returns whether the read stops. */
static bool __attribute__((format(printf, 4, 5)))
json_fault(struct json_reader *jr, const char *index, const char *key, const char *fmt, ...)
{
	char pointer[CODEC_POINTER_MAX];
	const char *tokens[3] = {index ? "blocks" : key, index, index ? key : NULL};
	const struct codec_where where = {.pointer = pointer};
	va_list ap;
	if (jr->stop)
		return true;
	snprintf(pointer, sizeof pointer, "%s", jr->pointer);
	for (size_t i = 0; i < 3 && tokens[i]; i++)
		if (!codec_pointer_append(pointer, sizeof pointer, tokens[i]))
			break;
	va_start(ap, fmt);
	codec_error_vadd(jr->err, CODEC_E_INVALID, &where, fmt, ap);
	va_end(ap);
	jr->status = CODEC_E_INVALID;
	jr->stop = !jr->err || jr->err->max_faults <= 1;
	return jr->stop;
}

const char *md_fault_detail(enum md_fault fault, long long t)
{
	switch (fault) {
	case MD_FAULT_TYPE:
		return "t must be 1, 2 or 3";
	case MD_FAULT_X:
		return t == MD_TYPE_DOMINO_V ? "x must be 0..2 for a vertical domino (t = 3)"
					     : "x must be 0..3";
	case MD_FAULT_Y:
		return t == MD_TYPE_DOMINO_H ? "y must be 0..2 for a horizontal domino (t = 2)"
					     : "y must be 0..3";
	case MD_FAULT_NONE:
		return "no fault";
	}
	return "unknown fault";
}

static const char *const block_names[3] = {"t", "x", "y"};

/* Writes what a value that is not an integer is, for a message: `the string "1"` (its first
 * bytes), `1.5`, `null`, `true`, `an array`, `an object`. */
static void json_kind(const json_t *v, char *out, size_t size)
{
	if (json_is_string(v))
		snprintf(out, size, "the string \"%.16s%s\"", json_string_value(v),
			 json_string_length(v) > 16 ? "..." : "");
	else if (json_is_real(v))
		snprintf(out, size, "%.17g", json_real_value(v));
	else if (json_is_true(v) || json_is_false(v))
		snprintf(out, size, "%s", json_is_true(v) ? "true" : "false");
	else if (json_is_null(v))
		snprintf(out, size, "null");
	else
		snprintf(out, size, "%s", json_is_array(v) ? "an array" : "an object");
}

/* Reads one block, array or object form, at index i. Stores it in *out and returns true when
 * it is legal; otherwise records every fault found (only the first in first-wins mode) and
 * returns false. */
static bool json_read_block(struct json_reader *jr, const json_t *item, size_t i,
			    struct md_block *out)
{
	char index[24];
	const json_t *value[3] = {NULL, NULL, NULL};
	const char *key[3] = {"0", "1", "2"}; /* pointer token of each value */
	snprintf(index, sizeof index, "%zu", i);
	if (json_is_array(item)) {
		size_t n = json_array_size(item);
		if (n != 3) {
			json_fault(jr, index, NULL,
				   "expected 3 integers [t, x, y], found %zu value%s", n,
				   n == 1 ? "" : "s");
			return false;
		}
		for (size_t k = 0; k < 3; k++)
			value[k] = json_array_get(item, k);
	} else if (json_is_object(item)) {
		const char *name;
		json_t *member;
		json_object_foreach((json_t *)item, name, member)
		{
			size_t k = 0;
			while (k < 3 && strcmp(name, block_names[k]) != 0)
				k++;
			if (k < 3)
				value[k] = member;
			else if (json_fault(jr, index, name,
					    "unknown member; a block holds \"t\", \"x\" and \"y\""))
				return false;
		}
		for (size_t k = 0; k < 3; k++) {
			key[k] = block_names[k];
			if (!value[k] && json_fault(jr, index, key[k], "required"))
				return false;
		}
	} else {
		json_fault(jr, index, NULL, "expected [t, x, y] or {\"t\": t, \"x\": x, \"y\": y}");
		return false;
	}

	long long v[3];
	for (size_t k = 0; k < 3; k++) {
		v[k] = json_integer_value(value[k]); /* 0 when absent or not an integer */
		if (value[k] && !json_is_integer(value[k])) {
			char got[48];
			json_kind(value[k], got, sizeof got);
			if (json_fault(jr, index, key[k], "%s must be an integer, got %s",
				       block_names[k], got))
				return false;
			value[k] = NULL;
		}
	}

	/* Range, one value at a time, so that validation names each wrong
	 * value: x and y are judged with the block's t when t is legal. */
	bool t_ok = value[0] && md_check(v[0], 0, 0) == MD_FAULT_NONE;
	long long t = t_ok ? v[0] : MD_TYPE_MONO;
	enum md_fault fault[3] = {
	    value[0] && !t_ok ? MD_FAULT_TYPE : MD_FAULT_NONE,
	    value[1] ? md_check(t, v[1], 0) : MD_FAULT_NONE,
	    value[2] ? md_check(t, 0, v[2]) : MD_FAULT_NONE,
	};
	for (size_t k = 0; k < 3; k++)
		if (fault[k] != MD_FAULT_NONE && json_fault(jr, index, key[k], "%s, got %lld",
							    md_fault_detail(fault[k], v[0]), v[k]))
			return false;
	if (jr->status != CODEC_OK || !value[0] || !value[1] || !value[2])
		return false;
	*out = (struct md_block){(uint8_t)v[0], (uint8_t)v[1], (uint8_t)v[2]};
	return true;
}

enum codec_status md_json_read(const json_t *case_obj, const char *pointer,
			       const struct md_read_options *opt, struct codec_error *err,
			       md_block_fn fn, void *ctx)
{
	const struct md_read_options o = opt ? *opt : (struct md_read_options){0};
	struct json_reader jr = {pointer ? pointer : "", err, CODEC_OK, false};
	if (!json_is_object(case_obj)) {
		json_fault(&jr, NULL, NULL, "expected an object {\"blocks\": [...]}");
		return jr.status;
	}

	const char *name;
	json_t *member;
	json_object_foreach((json_t *)case_obj, name, member)
	{
		if (strcmp(name, "blocks") == 0 || strcmp(name, "trace") == 0 ||
		    (strcmp(name, "id") == 0 &&
		     (json_is_string(member) || json_is_integer(member))))
			continue;
		if (json_fault(&jr, NULL, name,
			       strcmp(name, "id") == 0 ? "id must be a string or an integer"
						       : "unknown member; a case holds \"blocks\", "
							 "\"trace\" and \"id\""))
			return jr.status;
	}

	const json_t *trace = json_object_get(case_obj, "trace");
	if (trace && !json_is_boolean(trace) &&
	    json_fault(&jr, NULL, "trace", "trace must be true or false"))
		return jr.status;

	const json_t *blocks = json_object_get(case_obj, "blocks");
	if (!json_is_array(blocks)) {
		json_fault(&jr, NULL, "blocks", blocks ? "must be an array" : "required");
		return jr.status;
	}
	size_t n = json_array_size(blocks);
	if (o.max_blocks && n > o.max_blocks)
		json_fault(&jr, NULL, "blocks", "too many blocks: more than the limit of %lu",
			   o.max_blocks);
	else if (o.strict && (n < MD_BAEKJOON_MIN_N || n > MD_BAEKJOON_MAX_N))
		json_fault(&jr, NULL, "blocks", "expected %d..%d blocks, found %zu",
			   MD_BAEKJOON_MIN_N, MD_BAEKJOON_MAX_N, n);
	if (jr.stop)
		return jr.status;

	for (size_t i = 0; i < n; i++) {
		struct md_block block;
		bool ok = json_read_block(&jr, json_array_get(blocks, i), i, &block);
		if (jr.stop)
			return jr.status;
		if (ok && fn && fn(ctx, block, (unsigned long)i) != 0)
			return CODEC_OK;
	}
	return jr.status;
}

/* ---- the fast reader of the canonical case (md_codec.h) ---- */

/* Skips whitespace, then takes one digit 0..max that is a whole number. */
static bool take_digit(struct codec_scan *s, unsigned max, unsigned *out)
{
	codec_scan_ws(s);
	if (s->p == s->end || *s->p < '0' || *s->p > '0' + max)
		return false;
	*out = (unsigned)(*s->p++ - '0');
	/* "1.5", "1e3" or "12" are numbers too, but not this path's */
	return s->p == s->end || *s->p == ',' || *s->p == ']' || codec_scan_is_ws(*s->p);
}

/* One block; false when it is not a legal one of single digits. */
static bool take_block(struct codec_scan *s, struct md_block *b)
{
	unsigned t, x, y;
	if (!codec_scan_take(s, '[') || !take_digit(s, 3, &t) || !codec_scan_take(s, ',') ||
	    !take_digit(s, 3, &x) || !codec_scan_take(s, ',') || !take_digit(s, 3, &y) ||
	    !codec_scan_take(s, ']') || md_check(t, x, y) != MD_FAULT_NONE)
		return false;
	*b = (struct md_block){(uint8_t)t, (uint8_t)x, (uint8_t)y};
	return true;
}

/* The legal blocks (t, x, y) of single digits 0..3, as bit (t << 4 | x << 2 | y): t 1..3, a
 * vertical domino (3) with x <= 2, a horizontal one (2) with y <= 2. md_check() says the
 * same; test_md_codec.c compares them. */
#define MD_LEGAL_DIGITS ((0xFFFFull << 16) | (0x7777ull << 32) | (0x0FFFull << 48))

uint64_t md_json_fast_legal(void)
{
	return MD_LEGAL_DIGITS;
}

/* Takes compact legal blocks "[t,x,y]," from s->p into out[0..cap), 8 bytes at once; stops
 * before any other bytes (the list's last block among them: take_block() reads those).
 * Returns the blocks taken. */
static size_t take_compact_run(struct codec_scan *s, struct md_block *out, size_t cap)
{
	size_t n = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* '[' ',' ',' ']' ',' at bytes 0, 2, 4, 6 and 7; digits '0'..'3' at 1, 3, 5 */
	const uint64_t frame = 0xFFFF00FF00FF00FFull, framed = 0x2C5D002C002C005Bull;
	const uint64_t digit = 0x0000FC00FC00FC00ull, digits = 0x0000300030003000ull;
	const unsigned char *p = s->p;
	while (n < cap && s->end - p >= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		if ((w & frame) != framed || (w & digit) != digits)
			break;
		unsigned t = (unsigned)(w >> 8) & 3, x = (unsigned)(w >> 24) & 3,
			 y = (unsigned)(w >> 40) & 3;
		if (!((MD_LEGAL_DIGITS >> (t << 4 | x << 2 | y)) & 1))
			break;
		out[n++] = (struct md_block){(uint8_t)t, (uint8_t)x, (uint8_t)y};
		p += 8;
	}
	s->p = p;
#else
	(void)s;
	(void)out;
	(void)cap;
#endif
	return n;
}

bool md_json_fast_runs(const char *body, size_t len, unsigned long max_blocks, struct md_block *buf,
		       size_t cap, md_run_fn play, void *ctx)
{
	struct codec_scan s = {(const unsigned char *)body, (const unsigned char *)body + len};
	unsigned long n = 0; /* blocks read */
	size_t held = 0;     /* of them, in buf[0..held) */
	bool end = false;
	if (cap == 0 || !codec_scan_head(&s, "\"blocks\""))
		return false;
	/* an empty list is left to the full path */
	for (;;) {
		if (held == cap) {
			if (play(ctx, buf, held) != 0)
				return false;
			held = 0;
		}
		size_t run = take_compact_run(&s, buf + held, cap - held);
		held += run;
		n += run;
		if (max_blocks && n > max_blocks)
			return false;
		if (run > 0)
			continue; /* each took its ",": at the next block, or buf is full */
		codec_scan_ws(&s);
		if (!take_block(&s, &buf[held]))
			return false;
		held++;
		n++;
		if (max_blocks && n > max_blocks)
			return false;
		if (!codec_scan_next(&s, &end))
			break;
	}
	if (!end || !codec_scan_tail(&s))
		return false;
	return held == 0 || play(ctx, buf, held) == 0;
}

bool md_json_fast_read(const char *body, size_t len, unsigned long max_blocks, md_block_fn fn,
		       void *ctx)
{
	struct codec_scan s = {(const unsigned char *)body, (const unsigned char *)body + len};
	unsigned long n = 0;
	bool end = false;
	if (!codec_scan_head(&s, "\"blocks\""))
		return false;
	do {
		struct md_block b;
		codec_scan_ws(&s);
		if (!take_block(&s, &b) || (max_blocks && n >= max_blocks) ||
		    (fn && fn(ctx, b, n) != 0))
			return false;
		n++;
	} while (codec_scan_next(&s, &end));
	return end && codec_scan_tail(&s);
}

/* Writes the `cols` cells of a board row held as bits: '#' a tile, '.' empty. */
static void board_row(char *text, unsigned bits, unsigned cols)
{
	for (unsigned c = 0; c < cols; c++)
		text[c] = (bits >> c) & 1 ? '#' : '.';
}

/* New array of a board's `rows` strings of `cols` characters. */
static json_t *json_board(const struct md_game *game, unsigned rows, unsigned cols,
			  unsigned (*row)(const struct md_game *, unsigned))
{
	json_t *list = json_array();
	for (unsigned r = 0; list && r < rows; r++) {
		char text[MD_LINES];
		board_row(text, row(game, r), cols);
		if (json_array_append_new(list, json_stringn(text, cols)) != 0) {
			json_decref(list);
			list = NULL;
		}
	}
	return list;
}

int md_json_add_boards(json_t *obj, const struct md_game *game)
{
	if (json_object_set_new(obj, "green",
				json_board(game, MD_GREEN_ROWS, MD_GREEN_COLS, md_green_row)) != 0)
		return -1;
	return json_object_set_new(obj, "blue",
				   json_board(game, MD_BLUE_ROWS, MD_BLUE_COLS, md_blue_row));
}

json_t *md_json_result(const struct md_game *game)
{
	json_t *obj = json_pack("{sI sI}", "score", (json_int_t)game->score, "tiles",
				(json_int_t)md_tiles(game));
	if (obj && md_json_add_boards(obj, game) != 0) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

/* Appends a board's rows as quoted strings, comma-separated, at text + n; returns the length. */
static size_t write_board(char *text, size_t n, const struct md_game *game, unsigned rows,
			  unsigned cols, unsigned (*row)(const struct md_game *, unsigned))
{
	for (unsigned r = 0; r < rows; r++) {
		if (r > 0)
			text[n++] = ',';
		text[n++] = '"';
		board_row(text + n, row(game, r), cols);
		n += cols;
		text[n++] = '"';
	}
	return n;
}

/* Longest result: two 20-digit numbers, the keys and both boards. */
#define MD_RESULT_MAX 192

int md_json_write_result(const struct md_game *game, char *buf, size_t size)
{
	char text[MD_RESULT_MAX];
	/* The same integers as md_json_result(), printed as jansson does: as
	 * json_int_t. */
	size_t n = codec_text_put(text, 0, "{\"score\":");
	n += codec_json_int_write(game->score, text + n);
	n = codec_text_put(text, n, ",\"tiles\":");
	n += codec_decimal_write(md_tiles(game), text + n);
	n = codec_text_put(text, n, ",\"green\":[");
	n = write_board(text, n, game, MD_GREEN_ROWS, MD_GREEN_COLS, md_green_row);
	n = codec_text_put(text, n, "],\"blue\":[");
	n = write_board(text, n, game, MD_BLUE_ROWS, MD_BLUE_COLS, md_blue_row);
	n = codec_text_put(text, n, "]}\n");
	return codec_text_copy(buf, size, text, n);
}
