/*
 * Content negotiation: which body format a Content-Type names, and which
 * answer format an Accept header prefers (RFC 9110, section 12.5.1: the most
 * specific matching media range gives a type its quality).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "route/handlers.h"

/* Skips optional white space. */
static const char *skip_ows(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

/* Trims optional white space from the end of [s, end). */
static const char *trim_end(const char *s, const char *end)
{
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	return end;
}

static bool token_is(const char *s, const char *end, const char *word)
{
	size_t n = strlen(word);
	return (size_t)(end - s) == n && strncasecmp(s, word, n) == 0;
}

/*
 * Reads the parameters of one media range or type, [s, end), each
 * ";name=value". Sets *q (1000ths; 1000 when absent) and *charset_ok
 * (false when a charset other than utf-8 is named). Returns false when the
 * parameters cannot be read.
 */
static bool read_params(const char *s, const char *end, int *q, bool *charset_ok)
{
	*q = 1000;
	*charset_ok = true;
	while (s < end) {
		if (*s != ';')
			return false;
		s = skip_ows(s + 1, end);
		const char *semi = memchr(s, ';', (size_t)(end - s));
		const char *pend = semi ? semi : end;
		const char *eq = memchr(s, '=', (size_t)(pend - s));
		if (!eq)
			return false;
		const char *name_end = trim_end(s, eq);
		const char *v = skip_ows(eq + 1, pend);
		const char *vend = trim_end(v, pend);
		if (vend - v >= 2 && *v == '"' && vend[-1] == '"') {
			v++;
			vend--;
		}
		if (token_is(s, name_end, "q")) {
			/* qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ) */
			if (v == vend || (*v != '0' && *v != '1'))
				return false;
			int value = (*v - '0') * 1000;
			const char *d = v + 1;
			if (d < vend) {
				if (*d != '.' || vend - d > 4)
					return false;
				int scale = 100;
				for (d++; d < vend; d++, scale /= 10) {
					if (!isdigit((unsigned char)*d))
						return false;
					value += (*d - '0') * scale;
				}
			}
			if (value > 1000)
				return false;
			*q = value;
		} else if (token_is(s, name_end, "charset")) {
			*charset_ok = token_is(v, vend, "utf-8") || token_is(v, vend, "utf8");
		}
		s = pend;
	}
	return true;
}

enum route_body route_body_kind(const char *content_type)
{
	if (!content_type)
		return ROUTE_BODY_UNSUPPORTED;
	const char *end = content_type + strlen(content_type);
	const char *s = skip_ows(content_type, end);
	const char *semi = memchr(s, ';', (size_t)(end - s));
	const char *type_end = trim_end(s, semi ? semi : end);
	int q;
	bool charset_ok;
	if (!read_params(semi ? semi : end, end, &q, &charset_ok) || !charset_ok)
		return ROUTE_BODY_UNSUPPORTED;
	if (token_is(s, type_end, "application/json"))
		return ROUTE_BODY_JSON;
	if (token_is(s, type_end, "text/plain"))
		return ROUTE_BODY_TEXT;
	return ROUTE_BODY_UNSUPPORTED;
}

/* Best match so far for one offered type. */
struct offer {
	const char *type; /* "application/json" */
	size_t major_len; /* length of "application" */
	int specificity;  /* of the range that set q: -1 none, 0 star, 1 type, 2 exact */
	int q;
};

static void offer_match(struct offer *o, const char *s, const char *type_end, int q)
{
	int spec = -1;
	if (token_is(s, type_end, "*/*"))
		spec = 0;
	else if (token_is(s, type_end, o->type))
		spec = 2;
	else if ((size_t)(type_end - s) == o->major_len + 2 &&
		 strncasecmp(s, o->type, o->major_len + 1) == 0 && type_end[-1] == '*')
		spec = 1;
	if (spec > o->specificity || (spec == o->specificity && spec >= 0 && q > o->q)) {
		o->specificity = spec;
		o->q = q;
	}
}

enum route_format route_negotiate(const char *accept, bool text_ok)
{
	if (!accept)
		return ROUTE_FORMAT_JSON;
	struct offer json = {"application/json", strlen("application"), -1, 0};
	struct offer text = {"text/plain", strlen("text"), -1, 0};
	const char *end = accept + strlen(accept);
	const char *s = accept;
	bool any = false;
	while (s < end) {
		const char *comma = memchr(s, ',', (size_t)(end - s));
		const char *item_end = comma ? comma : end;
		const char *t = skip_ows(s, item_end);
		size_t left = item_end > t ? (size_t)(item_end - t) : 0;
		const char *semi = memchr(t, ';', left);
		const char *type_end = trim_end(t, semi ? semi : item_end);
		int q;
		bool charset_ok;
		if (type_end > t &&
		    read_params(semi ? semi : item_end, trim_end(t, item_end), &q, &charset_ok)) {
			any = true;
			offer_match(&json, t, type_end, q);
			offer_match(&text, t, type_end, q);
		}
		s = comma ? comma + 1 : end;
	}
	if (!any)
		return ROUTE_FORMAT_JSON; /* an empty or unreadable Accept asks for nothing in
					     particular */
	if (!text_ok)
		text.q = 0;
	if (json.q == 0 && text.q == 0)
		return ROUTE_FORMAT_NONE;
	return text.q > json.q ? ROUTE_FORMAT_TEXT : ROUTE_FORMAT_JSON;
}
