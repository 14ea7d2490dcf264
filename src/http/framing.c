/* Request framing checks (framing.h): one pass over the parsed header fields, in arrival order. */
#include "http/framing.h"

#include "codec/text.h"

#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

/* What one pass over the header fields found. */
struct framing_scan {
	unsigned hosts;		    /* Host fields */
	unsigned lengths;	    /* Content-Length fields */
	const char *length;	    /* value of the first Content-Length */
	size_t length_len;	    /* bytes of that value without trailing blanks */
	bool lengths_differ;	    /* a later Content-Length says something else */
	unsigned encodings;	    /* Transfer-Encoding fields */
	bool chunked;		    /* the first Transfer-Encoding is exactly "chunked" */
	enum route_status status;   /* first fault found, ROUTE_OK while none */
	struct codec_error *err;    /* where that fault is described */
	struct http_fields *fields; /* the values read by the server */
};

/* Where struct http_fields keeps the first value of a field, or that it
 * keeps none (the field is counted or gathered below). */
#define FRAMING_AT(member) offsetof(struct http_fields, member)
#define FRAMING_NOT_KEPT   SIZE_MAX

/* The fields the server reads, first those it counts or gathers (by index). */
enum { FRAMING_HOST, FRAMING_LENGTH, FRAMING_ENCODING, FRAMING_AUTHORIZATION };
#define FRAMING_FIELD(name, at)                                                                    \
	{                                                                                          \
		name, sizeof name - 1, at                                                          \
	}
static const struct {
	const char *name;
	size_t len;
	size_t at;
} framing_fields[] = {
    [FRAMING_HOST] = FRAMING_FIELD(MHD_HTTP_HEADER_HOST, FRAMING_NOT_KEPT),
    [FRAMING_LENGTH] = FRAMING_FIELD(MHD_HTTP_HEADER_CONTENT_LENGTH, FRAMING_AT(content_length)),
    [FRAMING_ENCODING] =
	FRAMING_FIELD(MHD_HTTP_HEADER_TRANSFER_ENCODING, FRAMING_AT(transfer_encoding)),
    [FRAMING_AUTHORIZATION] = FRAMING_FIELD(MHD_HTTP_HEADER_AUTHORIZATION, FRAMING_NOT_KEPT),
    FRAMING_FIELD(MHD_HTTP_HEADER_ACCEPT, FRAMING_AT(accept)),
    FRAMING_FIELD("Origin", FRAMING_AT(origin)),
    FRAMING_FIELD(MHD_HTTP_HEADER_USER_AGENT, FRAMING_AT(user_agent)),
    FRAMING_FIELD(MHD_HTTP_HEADER_CONTENT_TYPE, FRAMING_AT(content_type)),
    FRAMING_FIELD("X-Request-Id", FRAMING_AT(request_id)),
    FRAMING_FIELD(MHD_HTTP_HEADER_ACCEPT_ENCODING, FRAMING_AT(accept_encoding)),
    FRAMING_FIELD(MHD_HTTP_HEADER_CONTENT_ENCODING, FRAMING_AT(content_encoding)),
};
#define FRAMING_NAMES (sizeof framing_fields / sizeof framing_fields[0])

void http_target_note(struct http_target *t, const char *raw)
{
	memset(t, 0, sizeof *t);
	if (!raw)
		return;
	bool in_path = true;
	/* Most targets hold none of the three bytes looked at: found at once. */
	const char *p = raw + strcspn(raw, "? %");
	for (; *p; p++) {
		if (*p == '?')
			in_path = false;
		else if (*p == ' ')
			t->space = true;
		else if (*p == '%' && p[1] == '0' && p[2] == '0')
			t->encoded_nul = true;
		else if (in_path && *p == '%' && p[1] == '2' && (p[2] == 'F' || p[2] == 'f'))
			t->encoded_slash = true;
	}
}

/* Records the first fault of a scan. */
static void __attribute__((format(printf, 3, 4)))
framing_fault(struct framing_scan *s, enum route_status status, const char *fmt, ...)
{
	if (s->status != ROUTE_OK)
		return;
	va_list ap;
	va_start(ap, fmt);
	codec_error_vadd(s->err, (unsigned)status, NULL, fmt, ap);
	va_end(ap);
	s->status = status;
}

/* Whether key[0..n) is an RFC 9110 token (section 5.6.2), as a field name must be. Letters and
 * digits first: every header of every request passes here. */
static bool framing_is_token(const char *key, size_t n)
{
	static const char tchar[] = "!#$%&'*+-.^_`|~";
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)key[i];
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c != '\0' && strchr(tchar, c))))
			return false;
	}
	return true;
}

/* MHD_KeyValueIteratorN over the header fields, in arrival order. */
static enum MHD_Result framing_field(void *cls, enum MHD_ValueKind kind, const char *key,
				     size_t key_size, const char *value, size_t value_size)
{
	struct framing_scan *s = cls;
	(void)kind;

	if (!key || !value)
		return MHD_YES;
	size_t i = 0; /* the field's entry in framing_fields, FRAMING_NAMES: none */
	while (i < FRAMING_NAMES && (key_size != framing_fields[i].len ||
				     !codec_text_name_is(key, framing_fields[i].name, key_size)))
		i++;
	if (i < FRAMING_NAMES && framing_fields[i].at != FRAMING_NOT_KEPT) {
		const char **slot = (const char **)((char *)s->fields + framing_fields[i].at);
		if (!*slot)
			*slot = value;
	}
	if (key_size == 0)
		framing_fault(s, ROUTE_E_BAD_REQUEST, "a header field has an empty name");
	else if (codec_text_has_blank(key, key_size))
		framing_fault(s, ROUTE_E_BAD_REQUEST,
			      "header '%.40s': whitespace between a field name and its colon", key);
	else if (!framing_is_token(key, key_size))
		framing_fault(s, ROUTE_E_BAD_REQUEST,
			      "header '%.40s': a field name holds a character other than letters, "
			      "digits and !#$%%&'*+-.^_`|~ (RFC 9110 section 5.6.2)",
			      key);
	if (memchr(value, '\0', value_size))
		framing_fault(s, ROUTE_E_BAD_REQUEST, "header '%.40s': its value holds a NUL byte",
			      key);
	if (memchr(value, '\r', value_size))
		framing_fault(s, ROUTE_E_BAD_REQUEST,
			      "header '%.40s': its value holds a bare CR (RFC 9112 section 2.2)",
			      key);
	if (i == FRAMING_HOST) {
		s->hosts++;
	} else if (i == FRAMING_LENGTH) {
		size_t n = value_size; /* without trailing blanks */
		while (n > 0 && (value[n - 1] == ' ' || value[n - 1] == '\t'))
			n--;
		if (s->lengths++ == 0) {
			s->length = value;
			s->length_len = n;
		} else if (n != s->length_len || memcmp(value, s->length, n) != 0) {
			s->lengths_differ = true;
		}
	} else if (i == FRAMING_ENCODING) {
		/* the same test libmicrohttpd makes to read a chunked body */
		if (s->encodings++ == 0)
			s->chunked = strcasecmp(value, "chunked") == 0;
	} else if (i == FRAMING_AUTHORIZATION && s->fields->authorizations < 2) {
		s->fields->authorization[s->fields->authorizations++] = value;
	}
	return MHD_YES;
}

enum route_status http_framing_check(struct MHD_Connection *conn, const char *version,
				     const struct http_target *t, struct http_fields *fields,
				     struct codec_error *err)
{
	struct framing_scan s = {.err = err, .fields = fields};
	memset(fields, 0, sizeof *fields);

	if (t->encoded_nul)
		framing_fault(&s, ROUTE_E_BAD_REQUEST,
			      "the request target holds an encoded NUL byte (%%00)");
	if (t->space)
		framing_fault(&s, ROUTE_E_BAD_REQUEST, "the request target holds a space");
	MHD_get_connection_values_n(conn, MHD_HEADER_KIND, framing_field, &s);

	if (s.lengths > 0 && s.encodings > 0)
		framing_fault(&s, ROUTE_E_BAD_REQUEST,
			      "both Content-Length and Transfer-Encoding are present");
	if (s.lengths_differ)
		framing_fault(&s, ROUTE_E_BAD_REQUEST, "several Content-Length values differ");
	if (s.encodings > 1 || (s.encodings == 1 && !s.chunked))
		framing_fault(&s, ROUTE_E_NOT_IMPLEMENTED,
			      "Transfer-Encoding: only a single \"chunked\" coding is supported");
	if (s.hosts > 1)
		framing_fault(&s, ROUTE_E_BAD_REQUEST, "several Host header fields");
	if (s.hosts == 0 && (!version || strcmp(version, MHD_HTTP_VERSION_1_0) != 0))
		framing_fault(&s, ROUTE_E_BAD_REQUEST, "an HTTP/1.1 request without a Host header");
	if (t->encoded_slash)
		framing_fault(&s, ROUTE_E_NOT_FOUND,
			      "no resource at this path: an encoded slash (%%2F) is not a "
			      "path separator");
	return s.status;
}
