/*
 * Request framing checks (RFC 9112 sections 3, 5, 6): whatever a proxy in
 * front could read differently from libmicrohttpd is refused before the
 * request reaches the route layer, so that the bytes of one request are
 * never taken for another (request smuggling).
 *
 * libmicrohttpd 0.9.75 parses each request line and header line in place:
 * it replaces the line ends, the colon and the spaces around the request
 * target with NUL bytes and hands out pointers into that buffer. A NUL
 * byte sent by the client is therefore invisible in the strings it hands
 * out (they stop early); it is found here from the layout instead: two
 * consecutive fields must be separated by nothing but the one or two NUL
 * bytes of a line end. The raw request target is seen in the URI log
 * callback, before libmicrohttpd decodes it.
 */
#ifndef DROPJUDGE_HTTP_FRAMING_H
#define DROPJUDGE_HTTP_FRAMING_H

#include <stdbool.h>
#include <stdint.h>

#include "http/mhd_dl.h"

#include "codec/error.h"

/* What the raw request target showed, before libmicrohttpd decoded it. */
struct http_target {
	bool seen;	    /* the URI log callback ran for this request */
	uintptr_t raw_end;  /* address of the first NUL at or after the target's start */
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

/* Records what `raw` (the undecoded target, NUL-terminated; NULL when the
 * request line had none) shows. Called from the URI log callback. */
void http_target_note(struct http_target *t, const char *raw);

/*
 * Checks the framing of a request whose headers have all arrived:
 * `version` is the version string libmicrohttpd passed to the access
 * handler, `t` what http_target_note() saw. Returns CODEC_OK, or the
 * status to answer with err set to the reason (naming the header at
 * fault). The answer is given with the headers, before any body is read,
 * so the connection is closed after it: libmicrohttpd reads nothing more
 * from a connection answered that early, and the answer says
 * "Connection: close". Whatever the verdict, *fields (NULL: not wanted)
 * is filled from every header field.
 */
enum codec_status http_framing_check(struct MHD_Connection *conn, const char *version,
				     const struct http_target *t, struct http_fields *fields,
				     struct codec_error *err);

#endif
