/*
 * JSON read by its shape, without a tree: where a value ends (strings and
 * their escapes skipped, brackets counted), and whether a short value is
 * certainly one that jansson reads without a fault. What lets a large body
 * be read a piece at a time while jansson still decides every fault.
 */
#ifndef DROPJUDGE_CODEC_JSON_SPAN_H
#define DROPJUDGE_CODEC_JSON_SPAN_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Nesting a value may have inside the array or object that holds it:
 * jansson's limit (2048) less the levels around it, with room to spare. */
#define JSON_SPAN_NEST_MAX 2040

/* Flags of every jansson parse of a request's bytes. */
#define JSON_SPAN_FLAGS (JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL)

/* p moved past JSON white space, at most to end. */
const char *json_span_ws(const char *p, const char *end);

/*
 * The end of the JSON value that starts at p, found by its shape alone,
 * or NULL when it has none (empty, not closed, nested deeper than
 * JSON_SPAN_NEST_MAX). A scalar ends before white space, ',', ']' or '}'.
 * Whether the bytes are JSON is for a parser to say.
 */
const char *json_span_value(const char *p, const char *end);

/*
 * Whether [p, end) is certainly one JSON value jansson reads without a
 * fault (with JSON_SPAN_FLAGS): arrays and objects nested at most 4 deep
 * of integers of at most 18 digits, decimals of at most 15 characters
 * without an exponent, true, false, null, and strings of printable ASCII
 * without escapes, object keys not repeated. False says nothing: the value
 * may still be JSON, and a parser decides.
 */
bool json_span_simple(const char *p, const char *end);

/*
 * Whether [p, end) is one JSON value that jansson reads (JSON_DECODE_ANY),
 * json_span_simple() first, else a parse thrown away.
 */
bool json_span_valid(const char *p, const char *end);

/*
 * Whether the string [k, ke) (its quotes included) is the member name
 * `name` as jansson decodes it: compared as it lies when it holds no
 * escape, else decoded first ("bl\u006fcks" is "blocks"). False for a
 * string that is not well-formed.
 */
bool json_span_key_is(const char *k, const char *ke, const char *name);

/*
 * An array of a case read lean: the tree of the case holds `placeholder`,
 * an empty array, where the array was; its elements are the bytes
 * text[0..len) of the body (between its brackets), `count` of them, each
 * known to be well-formed. Borrowed: the body and the tree outlive it.
 */
struct json_lean {
	const json_t *placeholder; /* in the case's tree, compared by address */
	const char *text;	   /* the elements and the commas between them */
	size_t len;		   /* bytes of text */
	size_t count;		   /* elements */
};

/* A cursor over the elements of a json_lean, in order. */
struct json_lean_cursor {
	const char *p;	 /* next byte */
	const char *end; /* end of the text */
};

void json_lean_cursor_init(struct json_lean_cursor *c, const struct json_lean *lean);

/* The next element's bytes [*from, *to); false after the last. */
bool json_lean_next(struct json_lean_cursor *c, const char **from, const char **to);

#endif
