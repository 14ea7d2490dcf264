/*
 * Bearer tokens (RFC 6750): the set of tokens read from the token file and
 * the check of a request's Authorization header against it.
 *
 * The file holds one token a line; blank lines and lines starting with '#'
 * are ignored, spaces and tabs around a token are trimmed, and a token is
 * an RFC 6750 b64token (letters, digits, "-._~+/", then any '='), at most
 * HTTP_AUTH_TOKEN_MAX bytes. Only the SHA-256 digest of each token is
 * kept; a presented token is hashed and compared with every digest in
 * constant time, so the time taken says nothing about the tokens. No
 * message of this module quotes a token or a line of the file.
 *
 * A store is shared by every request thread; http_auth_reload() may run
 * at any time from another thread (SIGHUP) and swaps the set atomically
 * with respect to the checks.
 */
#ifndef DROPJUDGE_HTTP_AUTH_H
#define DROPJUDGE_HTTP_AUTH_H

#include <stddef.h>

#include "route/route.h"

#define HTTP_AUTH_TOKEN_MAX  4096	       /* bytes of one token */
#define HTTP_AUTH_TOKENS_MAX 10000	       /* tokens in one file */
#define HTTP_AUTH_FILE_MAX   ((size_t)4 << 20) /* bytes of the token file */

struct http_auth;

/*
 * Reads the token file at `path` (the path is copied) into a new store,
 * released with http_auth_free(). On failure (unreadable, too large, a line
 * that is not a token, no token at all) returns NULL and writes the reason,
 * naming the file and line but never a token, to err (errlen bytes).
 */
struct http_auth *http_auth_new(const char *path, char *err, size_t errlen);

/*
 * Reads the token file again. On success the new set replaces the old one
 * and 0 is returned; on failure the old set stays in force, -1 is returned
 * and the reason is written to err as for http_auth_new().
 */
int http_auth_reload(struct http_auth *auth, char *err, size_t errlen);

/* Tokens in force. */
size_t http_auth_count(struct http_auth *auth);

/*
 * Checks the Authorization header values of a request: `values[0..n)`
 * (n = 0: no header). NULL auth (no token file) lets everything in.
 * Returns ROUTE_AUTH_OK for one "Bearer <token>" with a token in the set,
 * ROUTE_AUTH_MISSING for no header or another scheme, ROUTE_AUTH_WRONG for
 * a well-formed token that is not in the set, ROUTE_AUTH_MALFORMED for
 * several headers or a Bearer credential that is not "Bearer" 1*SP
 * b64token.
 */
enum route_auth http_auth_check(struct http_auth *auth, const char *const *values, size_t n);

struct MHD_Connection;

/* http_auth_check() on the Authorization headers of a connection's request. */
enum route_auth http_auth_request(struct http_auth *auth, struct MHD_Connection *conn);

/* Releases the store (the digests are wiped first). NULL is ignored. */
void http_auth_free(struct http_auth *auth);

#endif
