/*
 * JSON read by its shape (codec/json_span.h): the end of a value, a strict
 * recogniser for short values that are certainly JSON, and the elements of
 * an array left in the body.
 */
#include "codec/json_span.h"

#include <string.h>

static bool is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

const char *json_span_ws(const char *p, const char *end)
{
	while (p < end && is_ws(*p))
		p++;
	return p;
}

const char *json_span_value(const char *p, const char *end)
{
	/* 1: ends a string, 2: escapes, 3: opens, 4: closes; 0: any other byte */
	static const unsigned char kind[256] = {
	    ['"'] = 1, ['\\'] = 2, ['{'] = 3, ['['] = 3, ['}'] = 4, [']'] = 4,
	};
	unsigned depth = 0;
	if (p == end)
		return NULL;
	if (*p != '{' && *p != '[' && *p != '"') {
		const char *q = p;
		while (q < end && !is_ws(*q) && *q != ',' && *q != ']' && *q != '}')
			q++;
		return q > p ? q : NULL;
	}
	for (const char *q = p; q < end; q++) {
		switch (kind[(unsigned char)*q]) {
		case 1: /* a string: to its closing quote, escapes skipped */
			for (q++;; q++) {
				while (q < end && kind[(unsigned char)*q] != 1 &&
				       kind[(unsigned char)*q] != 2)
					q++;
				if (q == end)
					return NULL;
				if (*q == '"')
					break;
				if (++q == end) /* the escaped byte */
					return NULL;
			}
			if (depth == 0)
				return q + 1;
			break;
		case 3:
			if (++depth > JSON_SPAN_NEST_MAX)
				return NULL;
			break;
		case 4:
			if (--depth == 0) /* p opened, so depth >= 1 here */
				return q + 1;
			break;
		default:
			break;
		}
	}
	return NULL;
}

/* --- the recogniser --- */

#define SIMPLE_DEPTH 4	/* nesting it follows */
#define SIMPLE_KEYS  8	/* members of one object it compares */
#define SIMPLE_INT   18 /* digits of an integer: below 2^63, never an overflow */
#define SIMPLE_REAL  15 /* characters of a decimal: finite, never an overflow */

struct simple {
	const char *p;
	const char *end;
};

static bool simple_value(struct simple *s, unsigned depth);

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool simple_number(struct simple *s)
{
	const char *start = s->p;
	if (s->p < s->end && *s->p == '-')
		s->p++;
	const char *digits = s->p;
	if (s->p == s->end || !is_digit(*s->p))
		return false;
	if (*s->p == '0')
		s->p++;
	else
		while (s->p < s->end && is_digit(*s->p))
			s->p++;
	if (s->p - digits > SIMPLE_INT)
		return false;
	if (s->p < s->end && *s->p == '.') {
		s->p++;
		const char *frac = s->p;
		while (s->p < s->end && is_digit(*s->p))
			s->p++;
		if (s->p == frac || s->p - start > SIMPLE_REAL)
			return false;
	}
	/* an exponent, or digits after a leading zero: for the parser */
	return s->p == s->end || (!is_digit(*s->p) && *s->p != 'e' && *s->p != 'E' && *s->p != '.');
}

/* A string of printable ASCII without escapes; its body in [*from, *to). */
static bool simple_string(struct simple *s, const char **from, const char **to)
{
	if (s->p == s->end || *s->p != '"')
		return false;
	*from = ++s->p;
	while (s->p < s->end && *s->p != '"') {
		unsigned char c = (unsigned char)*s->p;
		if (c < 0x20 || c > 0x7E || c == '\\')
			return false;
		s->p++;
	}
	if (s->p == s->end)
		return false;
	*to = s->p++;
	return true;
}

static bool simple_literal(struct simple *s, const char *word, size_t n)
{
	if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0)
		return false;
	s->p += n;
	return s->p == s->end || !((*s->p >= 'a' && *s->p <= 'z') || is_digit(*s->p));
}

static bool simple_take(struct simple *s, char c)
{
	s->p = json_span_ws(s->p, s->end);
	if (s->p == s->end || *s->p != c)
		return false;
	s->p++;
	return true;
}

static bool simple_peek(struct simple *s, char c)
{
	s->p = json_span_ws(s->p, s->end);
	return s->p < s->end && *s->p == c;
}

static bool simple_array(struct simple *s, unsigned depth)
{
	s->p++; /* '[' */
	if (simple_peek(s, ']')) {
		s->p++;
		return true;
	}
	do {
		if (!simple_value(s, depth + 1))
			return false;
	} while (simple_take(s, ','));
	return simple_take(s, ']');
}

static bool simple_object(struct simple *s, unsigned depth)
{
	const char *key[SIMPLE_KEYS], *key_end[SIMPLE_KEYS];
	size_t n = 0;
	s->p++; /* '{' */
	if (simple_peek(s, '}')) {
		s->p++;
		return true;
	}
	do {
		const char *from, *to;
		s->p = json_span_ws(s->p, s->end);
		if (n == SIMPLE_KEYS || !simple_string(s, &from, &to))
			return false;
		for (size_t i = 0; i < n; i++)
			if (key_end[i] - key[i] == to - from &&
			    memcmp(key[i], from, (size_t)(to - from)) == 0)
				return false; /* a duplicate: the parser's fault to tell */
		key[n] = from;
		key_end[n++] = to;
		if (!simple_take(s, ':') || !simple_value(s, depth + 1))
			return false;
	} while (simple_take(s, ','));
	return simple_take(s, '}');
}

static bool simple_value(struct simple *s, unsigned depth)
{
	const char *from, *to;
	s->p = json_span_ws(s->p, s->end);
	if (s->p == s->end)
		return false;
	switch (*s->p) {
	case '[':
		return depth < SIMPLE_DEPTH && simple_array(s, depth);
	case '{':
		return depth < SIMPLE_DEPTH && simple_object(s, depth);
	case '"':
		return simple_string(s, &from, &to);
	case 't':
		return simple_literal(s, "true", 4);
	case 'f':
		return simple_literal(s, "false", 5);
	case 'n':
		return simple_literal(s, "null", 4);
	default:
		return simple_number(s);
	}
}

bool json_span_simple(const char *p, const char *end)
{
	struct simple s = {p, end};
	return simple_value(&s, 0) && json_span_ws(s.p, end) == end;
}

bool json_span_valid(const char *p, const char *end)
{
	if (json_span_simple(p, end))
		return true;
	json_error_t jerr;
	json_t *v = json_loadb(p, (size_t)(end - p), JSON_DECODE_ANY | JSON_SPAN_FLAGS, &jerr);
	json_decref(v);
	return v != NULL;
}

bool json_span_key_is(const char *k, const char *ke, const char *name)
{
	size_t n = strlen(name);
	if (ke - k < 2 || *k != '"' || ke[-1] != '"')
		return false;
	if (!memchr(k, '\\', (size_t)(ke - k)))
		return (size_t)(ke - k) == n + 2 && memcmp(k + 1, name, n) == 0;
	json_error_t jerr;
	json_t *v = json_loadb(k, (size_t)(ke - k), JSON_DECODE_ANY | JSON_SPAN_FLAGS, &jerr);
	bool same = json_is_string(v) && json_string_length(v) == n &&
		    memcmp(json_string_value(v), name, n) == 0;
	json_decref(v);
	return same;
}

/* --- the elements of a lean array --- */

void json_lean_cursor_init(struct json_lean_cursor *c, const struct json_lean *lean)
{
	c->p = lean->text;
	c->end = lean->text + lean->len;
}

bool json_lean_next(struct json_lean_cursor *c, const char **from, const char **to)
{
	const char *p = json_span_ws(c->p, c->end);
	if (p < c->end && *p == ',')
		p = json_span_ws(p + 1, c->end);
	const char *e = p < c->end ? json_span_value(p, c->end) : NULL;
	if (!e)
		return false;
	*from = p;
	*to = c->p = e;
	return true;
}
