/*
 * Admission of heavy work: how many requests may wait for or run on the
 * worker pool at once, in all and from one client address. Past either
 * limit a heavy request is answered 503 with Retry-After at once, instead
 * of queueing work that no bound would stop (a client can ask for a
 * 500-test package in 80 bytes). Requests whose client has gone count for
 * nothing: before refusing, each admitted request's connection is asked
 * whether its peer is still there, and a queued job is dropped, not run,
 * when its client has gone.
 */
#ifndef DROPJUDGE_HTTP_HEAVY_H
#define DROPJUDGE_HTTP_HEAVY_H

#include <stdbool.h>
#include <stddef.h>

#include <microhttpd.h>

struct http_heavy;

/*
 * The admission table for at most `total` heavy requests at once, at most
 * `per_client` of them from one address (both >= 1). NULL when out of
 * memory.
 */
struct http_heavy *http_heavy_new(unsigned total, unsigned per_client);

/* Frees h; NULL is ignored. No request may hold a place any more. */
void http_heavy_free(struct http_heavy *h);

/*
 * Takes a place for the heavy request of conn, whose client is at `addr`:
 * true, or false when the total or its address's share is full once the
 * places of clients that have gone are left out. A place is held until
 * http_heavy_release().
 */
bool http_heavy_admit(struct http_heavy *h, struct MHD_Connection *conn);

/* Gives back conn's place; nothing when it holds none. */
void http_heavy_release(struct http_heavy *h, struct MHD_Connection *conn);

/* The limits, for the answer's words. */
unsigned http_heavy_total(const struct http_heavy *h);
unsigned http_heavy_per_client(const struct http_heavy *h);

#endif
