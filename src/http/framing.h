/*
 * Request framing checks (RFC 9112 sections 3, 5, 6): whatever a proxy in
 * front could read differently from libmicrohttpd is refused before the
 * request reaches the route layer, so that the bytes of one request are
 * never taken for another (request smuggling).
 *
 * Only what libmicrohttpd documents is used: the header fields as
 * MHD_get_connection_values_n() reports them (name and value with their
 * lengths, in arrival order), the raw target given to the URI log
 * callback, and the version given to the access handler. What those
 * cannot show (a NUL byte that libmicrohttpd 0.9.75 stops a string at, a
 * header folded over lines whose continuation is a plain token) is left
 * to the library's own strictness, which http_framing_options() sets:
 * libmicrohttpd 1.0 refuses those itself. docs and README say, rule by
 * rule, who enforces what on each version.
 */
#ifndef DROPJUDGE_HTTP_FRAMING_H
#define DROPJUDGE_HTTP_FRAMING_H

#include <stdbool.h>

#include <microhttpd.h>

#include "codec/error.h"
#include "route/route.h"

/* What the raw request target showed, before libmicrohttpd decoded it. */
struct http_target {
	bool seen;	    /* the URI log callback ran for this request */
	bool encoded_nul;   /* "%00" anywhere in the target */
	bool encoded_slash; /* "%2F" or "%2f" in the path (before '?') */
	bool space;	    /* a space inside the target */
};

/*
 * The header fields the server reads, found in the same pass as the
 * checks: the value of the first field of each name (as
 * MHD_lookup_connection_value() gives it), NULL when there is none. The
 * strings are libmicrohttpd's, valid until the request completes.
 */
struct http_fields {
	const char *content_type;
	const char *content_length;
	const char *transfer_encoding;
	const char *content_encoding;
	const char *accept;
	const char *accept_encoding;
	const char *origin;
	const char *request_id; /* X-Request-Id */
	const char *user_agent;
};

#define HTTP_FRAMING_OPTIONS 2 /* items http_framing_options() fills, END included */

/*
 * Fills opts[0..HTTP_FRAMING_OPTIONS) for MHD_OPTION_ARRAY with the
 * library's strictness for client requests: where libmicrohttpd has
 * MHD_OPTION_CLIENT_DISCIPLINE_LVL (0.9.77 and later: 1.0 on Debian 13)
 * level 1, at which it refuses a NUL byte, a bare CR, a folded line and
 * whitespace before a colon in a header, a bare LF line end, and a NUL
 * byte in the request line; on older versions nothing (0.9.75's
 * MHD_OPTION_STRICT_FOR_CLIENT would answer a missing Host itself, in
 * HTML, instead of this module's problem+json).
 */
void http_framing_options(struct MHD_OptionItem *opts);

/* Records what `raw` (the undecoded target, NUL-terminated; NULL when the
 * request line had none) shows. Called from the URI log callback. */
void http_target_note(struct http_target *t, const char *raw);

/*
 * Checks the framing of a request whose headers have all arrived:
 * `version` is the version string libmicrohttpd passed to the access
 * handler, `t` what http_target_note() saw. Returns ROUTE_OK, or the
 * status to answer with err set to the reason (naming the header at
 * fault). The answer is given with the headers, before any body is read,
 * so the connection is closed after it and the answer says
 * "Connection: close". Whatever the verdict, *fields (NULL: not wanted)
 * is filled from every header field.
 */
enum route_status http_framing_check(struct MHD_Connection *conn, const char *version,
				     const struct http_target *t, struct http_fields *fields,
				     struct codec_error *err);

#endif
