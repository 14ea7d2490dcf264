/*
 * Content negotiation: the body kind a Content-Type names, and the entry's format an Accept header
 * prefers (RFC 9110, 12.5.1: the most specific matching range gives a type its quality). An absent,
 * empty or unreadable Accept takes the entry's first format; one giving each quality 0 is a 406.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "codec/text.h"
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

/* Reads the ";name=value" parameters of a media range or type [s, end): *q in 1000ths (1000 when
 * absent), *charset_ok false for a charset but utf-8. False when they cannot be read. */
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

enum route_body route_request_body(const struct route_request *req)
{
	const char *content_type = req->content_type;
	if (!content_type)
		return ROUTE_BODY_NONE;
	/* The two types clients write most, bare: what the reading below makes of them, at once. */
	if (strcmp(content_type, "application/json") == 0)
		return ROUTE_BODY_JSON;
	if (strcmp(content_type, "text/plain") == 0)
		return ROUTE_BODY_TEXT;
	const char *end = content_type + strlen(content_type);
	const char *s = skip_ows(content_type, end);
	const char *semi = memchr(s, ';', (size_t)(end - s));
	const char *type_end = trim_end(s, semi ? semi : end);
	int q;
	bool charset_ok;
	if (!read_params(semi ? semi : end, end, &q, &charset_ok) || !charset_ok)
		return ROUTE_BODY_NONE;
	if (token_is(s, type_end, "application/json"))
		return ROUTE_BODY_JSON;
	if (token_is(s, type_end, "text/plain"))
		return ROUTE_BODY_TEXT;
	if (token_is(s, type_end, "application/x-ndjson") ||
	    token_is(s, type_end, "application/jsonl"))
		return ROUTE_BODY_NDJSON;
	return ROUTE_BODY_NONE;
}

enum route_verb route_verb_of(const struct route_request *req)
{
	static const char *const names[] = {[ROUTE_VERB_GET] = "GET",
					    [ROUTE_VERB_HEAD] = "HEAD",
					    [ROUTE_VERB_POST] = "POST",
					    [ROUTE_VERB_OPTIONS] = "OPTIONS"};
	for (enum route_verb v = ROUTE_VERB_GET; req->method && v <= ROUTE_VERB_OPTIONS; v++)
		if (codec_text_is(req->method, names[v]))
			return v;
	return ROUTE_VERB_OTHER;
}

/* The formats, in the order that breaks ties. */
static const struct format_kind {
	enum route_format format;
	const char *type;   /* media type matched against Accept */
	const char *answer; /* Content-Type of the answer */
	size_t major_len;   /* length of "application" in type */
} format_table[] = {
    {ROUTE_FORMAT_JSON, "application/json", "application/json", 11},
    {ROUTE_FORMAT_TEXT, "text/plain", ROUTE_TEXT_MEDIA_TYPE, 4},
    {ROUTE_FORMAT_HTML, "text/html", "text/html; charset=utf-8", 4},
    {ROUTE_FORMAT_YAML, "application/yaml", "application/yaml", 11},
    {ROUTE_FORMAT_SVG, "image/svg+xml", "image/svg+xml", 5},
    {ROUTE_FORMAT_CSS, "text/css", "text/css; charset=utf-8", 4},
    {ROUTE_FORMAT_JS, "text/javascript", "text/javascript; charset=utf-8", 4},
    {ROUTE_FORMAT_ZIP, "application/zip", "application/zip", 11},
    {ROUTE_FORMAT_TAR_GZ, "application/gzip", "application/gzip", 11},
    {ROUTE_FORMAT_METRICS, "text/plain", "text/plain; version=0.0.4; charset=utf-8", 4},
    {ROUTE_FORMAT_NDJSON, "application/x-ndjson", "application/x-ndjson", 11},
    {ROUTE_FORMAT_NDJSON, "application/jsonl", "application/x-ndjson", 11},
};

#define FORMAT_COUNT (sizeof format_table / sizeof format_table[0])

const char *route_format_media(enum route_format format)
{
	for (size_t i = 0; i < FORMAT_COUNT; i++)
		if (format_table[i].format == format)
			return format_table[i].answer;
	return "application/octet-stream";
}

void route_format_list(unsigned formats, char *buf, size_t size)
{
	size_t len = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < FORMAT_COUNT; i++) {
		if (!(formats & format_table[i].format) || len >= size)
			continue;
		int n = snprintf(buf + len, size - len, "%s%s", len ? " or " : "",
				 format_table[i].type);
		len += n > 0 ? (size_t)n : 0;
	}
}

/* Best match so far for one offered format. */
struct offer {
	const struct format_kind *kind;
	int specificity; /* of the range that set q: -1 none, 0 star, 1 type, 2 exact */
	int q;
};

static void offer_match(struct offer *o, const char *s, const char *type_end, int q)
{
	const char *type = o->kind->type;
	size_t major = o->kind->major_len;
	int spec = -1;
	if (token_is(s, type_end, "*/*"))
		spec = 0;
	else if (token_is(s, type_end, type))
		spec = 2;
	else if ((size_t)(type_end - s) == major + 2 && strncasecmp(s, type, major + 1) == 0 &&
		 type_end[-1] == '*')
		spec = 1;
	if (spec > o->specificity || (spec == o->specificity && spec >= 0 && q > o->q)) {
		o->specificity = spec;
		o->q = q;
	}
}

enum route_format route_negotiate(const char *accept, unsigned formats)
{
	struct offer offers[FORMAT_COUNT];
	size_t n = 0;
	for (size_t i = 0; i < FORMAT_COUNT; i++)
		if (formats & format_table[i].format)
			offers[n++] = (struct offer){&format_table[i], -1, 0};
	if (n == 0)
		return ROUTE_FORMAT_NONE;
	/* Any type, or one exactly as the table writes it: what the weighing below gives (the first
	 * offer, or the first of that type, at q=1), at once. */
	if (!accept || strcmp(accept, "*/*") == 0)
		return offers[0].kind->format;
	for (size_t i = 0; i < n; i++)
		if (strcmp(accept, offers[i].kind->type) == 0)
			return offers[i].kind->format;
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
			for (size_t i = 0; i < n; i++)
				offer_match(&offers[i], t, type_end, q);
		}
		s = comma ? comma + 1 : end;
	}
	if (!any) /* an empty or unreadable Accept asks for nothing in particular */
		return offers[0].kind->format;
	size_t best = 0;
	for (size_t i = 1; i < n; i++)
		if (offers[i].q > offers[best].q)
			best = i;
	return offers[best].q > 0 ? offers[best].kind->format : ROUTE_FORMAT_NONE;
}
