/*
 * Request bodies: the JSON parse, every fault told in the project's own words (jansson's messages
 * never reach a client), and the UTF-8 byte-order mark some editors put first.
 */
#include <stdio.h>
#include <string.h>

#include "codec/utf8.h"
#include "route/handlers.h"

#define JSON_DEPTH_MAX 2048 /* nesting jansson refuses past (its JSON_PARSER_MAX_DEPTH) */
#define TOKEN_SHOWN    24   /* bytes of an input token quoted in a message */

bool route_has_bom(const char *body, size_t len)
{
	return len >= 3 && memcmp(body, "\xEF\xBB\xBF", 3) == 0;
}

void route_skip_bom(const char **body, size_t *len)
{
	if (route_has_bom(*body, *len)) {
		*body += 3;
		*len -= 3;
	}
}

/* The token jansson's message quotes ("near 'TOKEN'"), its bytes in *len; NULL for none. */
static const char *near_of(const char *text, size_t *len)
{
	const char *near = strstr(text, "near '");
	size_t n = near ? strlen(near + 6) : 0;
	if (!near || n == 0 || near[6 + n - 1] != '\'')
		return NULL;
	*len = n - 1;
	return near + 6;
}

/* The offset of the first byte of body[0..len) past JSON white space. */
static size_t skip_ws(const char *body, size_t len)
{
	size_t i = 0;
	while (i < len && (body[i] == ' ' || body[i] == '\t' || body[i] == '\n' || body[i] == '\r'))
		i++;
	return i;
}

bool route_opens_container(const char *body, size_t len)
{
	size_t i = skip_ws(body, len);
	return i < len && (body[i] == '{' || body[i] == '[');
}

/* Nesting levels a number's pointer can name (a deeper one overflows CODEC_POINTER_MAX). */
#define LOCATE_DEPTH 48

/* Where the number jansson could not hold is: its pointer, line, column. */
struct number_place {
	char pointer[CODEC_POINTER_MAX]; /* RFC 6901, "" for the root */
	unsigned line;			 /* 1-based */
	unsigned column;		 /* 1-based, in characters as jansson counts */
	size_t start;			 /* byte offset of its first byte */
	size_t len;			 /* its bytes */
};

/* Reads the JSON string (jansson accepted it) opening at body[*pos], leaving *pos past its end;
 * writes its text, unescaped by jansson, into out[0..size) unless out is NULL. */
static void string_read(const char *body, size_t len, size_t *pos, char *out, size_t size)
{
	size_t start = *pos, end = start + 1;
	while (end < len && body[end] != '"')
		end += body[end] == '\\' ? 2 : 1;
	*pos = end < len ? end + 1 : len;
	if (!out)
		return;
	json_t *s = json_loadb(body + start, *pos - start, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
	snprintf(out, size, "%s", s ? json_string_value(s) : "");
	json_decref(s);
}

/* Writes the place of the last number starting before byte `end` of a text jansson read well up
 * to there (too large to hold); false when there is none, or it is deeper than LOCATE_DEPTH. */
static bool number_locate(const char *body, size_t len, size_t end, struct number_place *place)
{
	size_t base[LOCATE_DEPTH];	 /* each open container's pointer length */
	bool array[LOCATE_DEPTH];	 /* whether it is an array */
	unsigned long idx[LOCATE_DEPTH]; /* an array's index of the next value */
	bool want_key[LOCATE_DEPTH];	 /* an object's next string is a member name */
	char pointer[CODEC_POINTER_MAX] = "";
	char token[CODEC_POINTER_MAX];
	size_t depth = 0;
	bool found = false;

	if (end > len)
		end = len;
	for (size_t i = 0; i < end;) {
		char c = body[i];
		size_t from = i;
		/* a value: its container's next member, its pointer the container's and a token */
		bool value = c == '{' || c == '[' || c == '"' || c == '-' ||
			     (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n';
		if (value && depth > 0 && array[depth - 1]) {
			snprintf(token, sizeof token, "%lu", idx[depth - 1]);
			pointer[base[depth - 1]] = '\0';
			codec_pointer_append(pointer, sizeof pointer, token);
		}
		if (c == '{' || c == '[') {
			if (depth == LOCATE_DEPTH)
				return false;
			base[depth] = strlen(pointer);
			array[depth] = c == '[';
			idx[depth] = 0;
			want_key[depth] = c == '{';
			depth++;
			i++;
		} else if (c == '}' || c == ']') {
			depth -= depth > 0;
			i++;
		} else if (c == ',') {
			if (depth > 0 && array[depth - 1])
				idx[depth - 1]++;
			else if (depth > 0)
				want_key[depth - 1] = true;
			i++;
		} else if (c == '"' && depth > 0 && !array[depth - 1] && want_key[depth - 1]) {
			string_read(body, len, &i, token, sizeof token);
			pointer[base[depth - 1]] = '\0';
			codec_pointer_append(pointer, sizeof pointer, token);
			want_key[depth - 1] = false;
		} else if (c == '"') {
			string_read(body, len, &i, NULL, 0);
		} else if (c == '-' || (c >= '0' && c <= '9')) {
			while (i < len && strchr("+-.0123456789eE", body[i]) && body[i])
				i++;
			found = true;
			memcpy(place->pointer, pointer, sizeof place->pointer);
			place->start = from;
			place->len = i - from;
		} else {
			i++;
		}
	}
	/* its line and column, characters counted as jansson does */
	place->line = place->column = 1;
	for (size_t k = 0; found && k < place->start; k++) {
		if (body[k] == '\n') {
			place->line++;
			place->column = 1;
		} else if (((unsigned char)body[k] & 0xC0) != 0x80) {
			place->column++;
		}
	}
	return found;
}

/* The detail of a parse fault, by jansson's error code. */
static enum codec_status parse_fault(const char *body, size_t len, const json_error_t *jerr,
				     char *detail, size_t size)
{
	char near[TOKEN_SHOWN + 8]; /* the token jansson stopped at, quoted */
	size_t shown;
	const char *token = near_of(jerr->text, &shown);
	if (!token)
		snprintf(near, sizeof near, "the end of the input");
	else
		snprintf(near, sizeof near, "'%.*s%s'",
			 (int)(shown > TOKEN_SHOWN ? TOKEN_SHOWN : shown), token,
			 shown > TOKEN_SHOWN ? "..." : "");
	switch (json_error_code(jerr)) {
	case json_error_premature_end_of_input:
		snprintf(detail, size,
			 "the JSON text ends before it is complete (a string, array or object "
			 "is not closed)");
		return CODEC_E_SYNTAX;
	case json_error_end_of_input_expected:
		snprintf(detail, size, "unexpected %s after the end of the JSON value", near);
		return CODEC_E_SYNTAX;
	case json_error_invalid_utf8: {
		size_t at = codec_utf8_invalid_at(body, len);
		snprintf(detail, size, "byte 0x%02X is not valid UTF-8; JSON text must be UTF-8",
			 at < len ? (unsigned char)body[at] : 0u);
		return CODEC_E_SYNTAX;
	}
	case json_error_duplicate_key: {
		/* the token is the member's name in its quotes: shown as it is */
		size_t n = strlen(near);
		if (n >= 4 && near[0] == '\'' && near[1] == '"' && near[n - 1] == '\'')
			snprintf(detail, size, "member %.*s appears twice in one object",
				 (int)(n - 2), near + 1);
		else
			snprintf(detail, size, "a member appears twice in one object");
		return CODEC_E_SYNTAX;
	}
	case json_error_numeric_overflow:
		snprintf(detail, size, "the number %s is too large to read", near);
		return CODEC_E_INVALID;
	case json_error_stack_overflow:
		snprintf(detail, size, "arrays and objects nest deeper than %d levels",
			 JSON_DEPTH_MAX);
		return CODEC_E_SYNTAX;
	case json_error_null_byte_in_key:
		snprintf(detail, size, "a member name holds \\u0000, which cannot be read");
		return CODEC_E_SYNTAX;
	default:
		break;
	}
	if (!route_opens_container(body, len))
		snprintf(detail, size, "expected a JSON object, found %s", near);
	else
		snprintf(detail, size, "invalid JSON: unexpected %s", near);
	return CODEC_E_SYNTAX;
}

json_t *route_parse_json(const char *body, size_t len, struct codec_error *err)
{
	json_error_t jerr = {.line = 0};
	if (!body || skip_ws(body, len) == len) {
		codec_error_at_line(err, CODEC_E_SYNTAX, 1, 0,
				    "the body is empty; expected a JSON object");
		return NULL;
	}
	json_t *root = json_loadb(body, len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &jerr);
	if (root)
		return root;
	/* jansson leaves the error empty when its first allocation fails */
	if (json_error_code(&jerr) == json_error_out_of_memory || !jerr.text[0]) {
		codec_error_set(err, CODEC_E_INTERNAL, "out of memory");
		return NULL;
	}
	char detail[CODEC_DETAIL_MAX];
	struct number_place num;
	if (json_error_code(&jerr) == json_error_numeric_overflow && jerr.position > 0 &&
	    number_locate(body, len, (size_t)jerr.position, &num)) {
		const struct codec_where w = {
		    .pointer = num.pointer, .line = num.line, .column = num.column};
		codec_error_add(err, CODEC_E_INVALID, &w, "the number %.*s%s is too large to read",
				(int)(num.len > TOKEN_SHOWN ? TOKEN_SHOWN : num.len),
				body + num.start, num.len > TOKEN_SHOWN ? "..." : "");
		return NULL;
	}
	enum codec_status st = parse_fault(body, len, &jerr, detail, sizeof detail);
	unsigned line = jerr.line > 0 ? (unsigned)jerr.line : 1;
	unsigned column = jerr.column > 0 ? (unsigned)jerr.column : 0;
	/* jansson's column is the named token's last character: the first one is given */
	size_t n, chars = 0;
	const char *token = near_of(jerr.text, &n);
	for (size_t i = 0; token && i < n; i++)
		chars += ((unsigned char)token[i] & 0xC0) != 0x80;
	if (column > chars && chars > 0)
		column -= (unsigned)(chars - 1);
	codec_error_at_line(err, st, line, column, "%s", detail);
	return NULL;
}
