/*
 * Admission of heavy work: how many requests may wait for or run on the
 * worker pool at once, in all and from one client address; past either a
 * heavy request is answered 503 at once. Requests whose client has gone
 * count for nothing.
 */
#ifndef DROPJUDGE_HTTP_HEAVY_H
#define DROPJUDGE_HTTP_HEAVY_H

#include <stdbool.h>
#include <stddef.h>

#include <microhttpd.h>

struct http_heavy;

/* At most `total` heavy requests at once, `per_client` of them from one
 * address (both >= 1). NULL when out of memory. */
struct http_heavy *http_heavy_new(unsigned total, unsigned per_client);

/* Frees h; NULL is ignored. No request may hold a place any more. */
void http_heavy_free(struct http_heavy *h);

/* Takes a place for the heavy request of conn until http_heavy_release():
 * false when the total or its address's share is full. */
bool http_heavy_admit(struct http_heavy *h, struct MHD_Connection *conn);

/* Gives back conn's place; nothing when it holds none. */
void http_heavy_release(struct http_heavy *h, struct MHD_Connection *conn);

/* The client's address bytes into addr; their count (4, 16), 0 when unknown. */
unsigned char http_client_address(struct MHD_Connection *conn, unsigned char addr[16]);

/* The limits, for the answer's words. */
unsigned http_heavy_total(const struct http_heavy *h);
unsigned http_heavy_per_client(const struct http_heavy *h);

#endif
