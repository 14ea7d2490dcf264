/* Request framing checks (RFC 9112 sections 3, 5, 6): whatever a proxy in front could read
 * differently from libmicrohttpd is refused before the route layer sees the request (request
 * smuggling). Only what libmicrohttpd documents is read: the header fields in arrival order
 * (MHD_get_connection_values_n()), the raw target of the URI log callback and the version; what
 * those cannot show is left to the library's own strictness (its client discipline, set in
 * server.c). docs/OPERATING.md says, rule by rule, who enforces what on each version. */
#ifndef DROPJUDGE_HTTP_FRAMING_H
#define DROPJUDGE_HTTP_FRAMING_H

#include <stdbool.h>

#include <microhttpd.h>

#include "codec/error.h"
#include "route/route.h"

/* What the raw request target showed, before libmicrohttpd decoded it. */
struct http_target {
	bool encoded_nul;   /* "%00" anywhere in the target */
	bool encoded_slash; /* "%2F" or "%2f" in the path (before '?') */
	bool space;	    /* a space inside the target */
};

/* The header fields the server reads, found in the same pass: the value of the first field of
 * each name, NULL when none; libmicrohttpd's strings, valid until the request completes. */
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
	const char *authorization[2]; /* the first two Authorization values */
	size_t authorizations;	      /* of them found: two make a request malformed */
};

/* Records what `raw` (the undecoded target; NULL: none) shows. From the URI log callback. */
void http_target_note(struct http_target *t, const char *raw);

/* Checks the framing of a request whose headers have all arrived (`version` as the access
 * handler got it, `t` from http_target_note()): ROUTE_OK, or the status to answer, before any
 * body and closing the connection, with err set to the reason. *fields is filled either way. */
enum route_status http_framing_check(struct MHD_Connection *conn, const char *version,
				     const struct http_target *t, struct http_fields *fields,
				     struct codec_error *err);

#endif
