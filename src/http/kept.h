/*
 * Responses kept for static answers: a constant body (route_respond_static)
 * with the same content type and headers is sent, on each thread, from one
 * libmicrohttpd response made the first time, whose X-Request-Id alone is
 * replaced for each request. That saves making and freeing a response and
 * its headers for every probe of /livez.
 *
 * This is sound because libmicrohttpd (0.9.75 and later) writes a
 * response's header lines into the connection's own buffer as soon as the
 * final call of the access handler returns, on the thread that serves the
 * connection, before it serves any other; and each thread keeps its own
 * responses. It is used only for answers queued by that final call.
 */
#ifndef DROPJUDGE_HTTP_KEPT_H
#define DROPJUDGE_HTTP_KEPT_H

#include <stdbool.h>

#include "route/route.h"

struct MHD_Response;

/* Whether `resp` can be sent from a kept response: a static body, no stream. */
bool http_kept_fits(const struct route_response *resp);

/*
 * This thread's kept response for `resp` (http_kept_fits()), carrying
 * `request_id` as its X-Request-Id, made when there is none yet. It stays
 * the thread's: queue it, never destroy it. NULL when out of memory; the
 * caller then makes a response of its own.
 */
struct MHD_Response *http_kept_response(const struct route_response *resp, const char *request_id);

#endif
