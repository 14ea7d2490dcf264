/* gzip on the wire (zlib): request bodies with Content-Encoding: gzip inflated as they arrive,
 * into a sink that applies the body limit to the inflated bytes (a compression bomb stops
 * there); answers over HTTP_GZIP_MIN bytes compressed when Accept-Encoding allows gzip. */
#ifndef DROPJUDGE_HTTP_GZIP_H
#define DROPJUDGE_HTTP_GZIP_H

#include <stdbool.h>
#include <stddef.h>

#include "route/route.h"

/* Answers at most this large are sent as they are. */
#define HTTP_GZIP_MIN 1024

/* Takes inflated bytes; returns false to stop (over the limit, no memory). */
typedef bool http_gunzip_sink(void *ctx, const char *data, size_t size);

struct http_gunzip;

/* Whether a Content-Encoding header names gzip (or x-gzip). */
bool http_gzip_named(const char *content_encoding);

/* A new inflater for one request body; NULL when out of memory. */
struct http_gunzip *http_gunzip_new(void);

/* Inflates the next chunk of a body into `sink`: false when the data is
 * not gzip (corrupt, or more after the end) or the sink refused. */
bool http_gunzip_feed(struct http_gunzip *z, const char *data, size_t size, http_gunzip_sink *sink,
		      void *ctx);

/* Whether the stream was found corrupt (not a sink refusal). */
bool http_gunzip_failed(const struct http_gunzip *z);

/* Whether the whole gzip stream has arrived (its trailer read). */
bool http_gunzip_done(const struct http_gunzip *z);

/* Frees an inflater; NULL is ignored. */
void http_gunzip_free(struct http_gunzip *z);

/* Compresses resp's body (or stream) in place when it is over HTTP_GZIP_MIN bytes and
 * `accept_encoding` (NULL: none) allows gzip; any such body gets "Vary: Accept-Encoding". Left as
 * it was when compression fails or does not pay. */
void http_gzip_response(struct route_response *resp, const char *accept_encoding);

#endif
