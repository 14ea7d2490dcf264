/*
 * Request ids: every request carries one, taken from its X-Request-Id
 * header when that is a sane token, generated otherwise. The id is echoed
 * in the X-Request-Id response header, in the access log line and in
 * every problem+json body, so that one request can be followed from the
 * load balancer to the judge and back.
 */
#ifndef DROPJUDGE_HTTP_REQUEST_ID_H
#define DROPJUDGE_HTTP_REQUEST_ID_H

#include <stdbool.h>

/* Longest id taken from a request, in characters. */
#define HTTP_REQUEST_ID_MAX 128
/* Characters of a generated id: 128 bits in lowercase hex. */
#define HTTP_REQUEST_ID_GENERATED 32

/* Whether `s` is a sane id: 1..HTTP_REQUEST_ID_MAX characters of
 * [A-Za-z0-9._:-]. NULL is not. */
bool http_request_id_is_sane(const char *s);

/*
 * Writes a new id, 128 bits as 32 lowercase hex digits and a NUL, to out.
 * Each thread draws a key and a starting point from the kernel's random
 * generator once, then numbers its ids through a keyed permutation of 128
 * bits: a thread never repeats an id, and the ids of different threads
 * and processes meet no more often than 128 random bits do. An id tells
 * requests apart; it is not a secret. Never fails: should the kernel
 * refuse (it does not once booted), the draw comes from the clock and a
 * counter, still unique within the process.
 */
void http_request_id_generate(char out[HTTP_REQUEST_ID_GENERATED + 1]);

/*
 * The id of a request whose X-Request-Id header is `header` (NULL when
 * absent): a copy of it when sane, a generated one otherwise, written with
 * its NUL to out.
 */
void http_request_id_take(const char *header, char out[HTTP_REQUEST_ID_MAX + 1]);

#endif
