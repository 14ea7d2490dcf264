/* Bearer tokens (RFC 6750) read from the token file: one b64token a line (letters, digits,
 * "-._~+/", then any '='), blank and '#' lines ignored, blanks around a token trimmed. Only the
 * SHA-256 digest of each token is kept, and a presented token is compared with every digest in
 * constant time; no message quotes a token. Shared by every request thread; http_auth_reload()
 * (SIGHUP) swaps the set under a lock. Also the HTTPS settings (struct http_tls), checked at
 * start, which auth.c reads too. */
#ifndef DROPJUDGE_HTTP_AUTH_H
#define DROPJUDGE_HTTP_AUTH_H

#include <stddef.h>

#include "route/route.h"

#define HTTP_AUTH_TOKEN_MAX  4096	       /* bytes of one token */
#define HTTP_AUTH_TOKENS_MAX 10000	       /* tokens in one file */
#define HTTP_AUTH_FILE_MAX   ((size_t)4 << 20) /* bytes of the token file */

struct http_auth;

/* Reads the token file at `path` (copied) into a new store, released with http_auth_free();
 * NULL on failure, with the reason (file and line, never a token) in err (errlen bytes). */
struct http_auth *http_auth_new(const char *path, char *err, size_t errlen);

/* Reads the token file again: 0 and the new set in force, or -1, the reason in err, old kept. */
int http_auth_reload(struct http_auth *auth, char *err, size_t errlen);

/* Tokens in force. */
size_t http_auth_count(struct http_auth *auth);

/* Checks a request's Authorization values[0..n): ROUTE_AUTH_OK for one "Bearer <token>" in the
 * set (or NULL auth), ROUTE_AUTH_MISSING for none or another scheme, ROUTE_AUTH_WRONG for a
 * token not in the set, ROUTE_AUTH_MALFORMED for several values or not "Bearer" 1*SP b64token. */
enum route_auth http_auth_check(struct http_auth *auth, const char *const *values, size_t n);

/* Releases the store (the digests are wiped first). NULL is ignored. */
void http_auth_free(struct http_auth *auth);

/* --- HTTPS --- */

#define HTTP_TLS_FILE_MAX ((size_t)1 << 20) /* bytes of a PEM file */

/* What libmicrohttpd needs to serve HTTPS; every text NUL-terminated. */
struct http_tls {
	char *cert;	  /* PEM certificate chain, dj_malloc'ed */
	size_t cert_len;  /* bytes of cert, without the NUL */
	char *key;	  /* PEM private key, dj_malloc'ed, wiped when freed */
	size_t key_len;	  /* bytes of key, without the NUL */
	char *priorities; /* GnuTLS priority string, dj_malloc'ed */
};

/* Fills *tls from the files and the priority string (copied), checking that libmicrohttpd has
 * TLS, the string is valid and the key belongs to the certificate: 0, or -1 with the reason
 * (never the key) in err and *tls empty. Released with http_tls_free(). */
int http_tls_load(struct http_tls *tls, const char *cert_file, const char *key_file,
		  const char *priorities, char *err, size_t errlen);

/* Releases what http_tls_load() filled; safe on a zeroed struct. */
void http_tls_free(struct http_tls *tls);

#endif
