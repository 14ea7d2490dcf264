/*
 * Responses kept for small answers: an answer with the same content type,
 * headers and body length as one sent before on the same thread goes from
 * the libmicrohttpd response made for that one, whose X-Request-Id alone is
 * replaced, and whose body is replaced too unless it is static data
 * (route_respond_static). That saves making and freeing a response and its
 * headers for every request, which is most of what libmicrohttpd costs
 * beyond the sockets for a small answer.
 *
 * This is sound because of two things libmicrohttpd (0.9.75 and later)
 * does: it writes a response's header lines into the connection's own
 * buffer as soon as the final call of the access handler returns, on the
 * thread that serves the connection, before it serves any other; and it
 * reads a response's body only between the queueing and the end of the
 * request (the request-completed callback). So each thread keeps its own
 * responses, only answers queued by that final call use them, and a kept
 * response whose body is not static serves one request at a time: it is
 * held from http_kept_response() to http_kept_release(), which the
 * request-completed callback calls. A third thing makes replacing the id
 * cheap: libmicrohttpd copies a header's value into each answer by the
 * length it recorded when the header was added, so an id of the same
 * length (every generated id has the same) is written over its copy of the
 * value (MHD_get_response_header() gives it) instead of replacing the
 * header, which would allocate and free.
 */
#ifndef DROPJUDGE_HTTP_KEPT_H
#define DROPJUDGE_HTTP_KEPT_H

#include <stdbool.h>

#include "route/route.h"

struct MHD_Response;

/* Bytes of the largest body that is copied into a kept response. */
#define HTTP_KEPT_BODY_MAX 4096

/* A kept response a request holds until it ends; zero: none. */
struct http_kept_hold {
	void *slot;
};

/* Whether `resp` can be sent from a kept response: a body, static or of
 * at most HTTP_KEPT_BODY_MAX bytes, and no stream. */
bool http_kept_fits(const struct route_response *resp);

/*
 * This thread's kept response for `resp` (http_kept_fits()), carrying
 * `request_id` as its X-Request-Id and resp's body, made when there is
 * none yet. It stays the thread's: queue it, never destroy it. When its
 * body is not static it is held by *hold until http_kept_release(hold).
 * NULL when out of memory, or when every kept response that could serve is
 * held; the caller then makes a response of its own.
 */
struct MHD_Response *http_kept_response(const struct route_response *resp, const char *request_id,
					struct http_kept_hold *hold);

/* The request that held a kept response has ended (on the thread that
 * served it): the response may serve another. Nothing when none is held. */
void http_kept_release(struct http_kept_hold *hold);

#endif
