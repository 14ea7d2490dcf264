/* Request ids: taken from X-Request-Id when sane, generated otherwise, and
 * echoed in the answer's header, the access log and every problem body. */
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
 * Writes a new id, 128 bits as 32 lowercase hex digits and a NUL, to out: a
 * thread never repeats one, and ids of different threads and processes
 * meet no more often than random ones. Not a secret. Never fails.
 */
void http_request_id_generate(char out[HTTP_REQUEST_ID_GENERATED + 1]);

/* Writes the id of a request whose X-Request-Id is `header` (NULL: absent)
 * to out: a copy when sane, else a generated one. */
void http_request_id_take(const char *header, char out[HTTP_REQUEST_ID_MAX + 1]);

#endif
