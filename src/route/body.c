/*
 * Request bodies: the JSON parse, with every fault told in the project's
 * own words (jansson's messages never reach a client), and the UTF-8
 * byte-order mark some editors put first.
 */
#include <stdio.h>
#include <string.h>

#include "codec/utf8.h"
#include "route/handlers.h"

/* Nesting jansson refuses past (JSON_PARSER_MAX_DEPTH in its sources). */
#define JSON_DEPTH_MAX 2048
/* Bytes of an input token quoted in a message. */
#define TOKEN_SHOWN 24

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

/*
 * The input text jansson stopped at, quoted: jansson ends its message with
 * "near 'TOKEN'" (the bytes of the request) or "near end of file". Writes
 * "'TOKEN'" or "the end of the input".
 */
static void near_token(const char *text, char *out, size_t size)
{
	const char *near = strstr(text, "near '");
	size_t len = near ? strlen(near + 6) : 0;
	if (!near || len == 0 || near[6 + len - 1] != '\'') {
		snprintf(out, size, "the end of the input");
		return;
	}
	len--;
	snprintf(out, size, "'%.*s%s'", (int)(len > TOKEN_SHOWN ? TOKEN_SHOWN : len), near + 6,
		 len > TOKEN_SHOWN ? "..." : "");
}

/* Whether the first byte that is not white space opens an object or array. */
static bool opens_container(const char *body, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char c = body[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
			continue;
		return c == '{' || c == '[';
	}
	return false;
}

/* Whether the body holds nothing but JSON white space. */
static bool is_blank(const char *body, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (body[i] != ' ' && body[i] != '\t' && body[i] != '\n' && body[i] != '\r')
			return false;
	return true;
}

/* The detail of a parse fault, by jansson's error code. */
static enum codec_status parse_fault(const char *body, size_t len, const json_error_t *jerr,
				     char *detail, size_t size)
{
	char near[TOKEN_SHOWN + 8];
	near_token(jerr->text, near, sizeof near);
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
	case json_error_duplicate_key:
		snprintf(detail, size, "member %s appears twice in one object", near);
		return CODEC_E_SYNTAX;
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
	if (!opens_container(body, len))
		snprintf(detail, size, "expected a JSON object, found %s", near);
	else
		snprintf(detail, size, "invalid JSON: unexpected %s", near);
	return CODEC_E_SYNTAX;
}

/* Records the fault of a parse of `body` that jansson refused. */
static void parse_failed(const char *body, size_t len, const json_error_t *jerr,
			 struct codec_error *err)
{
	/* jansson leaves the error empty when its first allocation fails */
	if (json_error_code(jerr) == json_error_out_of_memory || !jerr->text[0]) {
		codec_error_set(err, CODEC_E_INTERNAL, "out of memory");
		return;
	}
	char detail[CODEC_DETAIL_MAX];
	enum codec_status st = parse_fault(body, len, jerr, detail, sizeof detail);
	unsigned line = jerr->line > 0 ? (unsigned)jerr->line : 1;
	unsigned column = jerr->column > 0 ? (unsigned)jerr->column : 0;
	codec_error_at_line(err, st, line, column, "%s", detail);
}

json_t *route_parse_json(const char *body, size_t len, struct codec_error *err)
{
	json_error_t jerr = {.line = 0};
	if (!body || is_blank(body, len)) {
		codec_error_at_line(err, CODEC_E_SYNTAX, 1, 0,
				    "the body is empty; expected a JSON object");
		return NULL;
	}
	json_t *root = json_loadb(body, len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &jerr);
	if (!root)
		parse_failed(body, len, &jerr, err);
	return root;
}
