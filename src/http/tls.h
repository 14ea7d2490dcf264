/* HTTPS settings: certificate chain, private key and GnuTLS priorities,
 * checked at start (a bad one reported by name before the server listens)
 * and turned into libmicrohttpd's TLS options. Made in auth.c, which reads
 * the credential files. */
#ifndef DROPJUDGE_HTTP_TLS_H
#define DROPJUDGE_HTTP_TLS_H

#include <stddef.h>

#define HTTP_TLS_FILE_MAX ((size_t)1 << 20) /* bytes of a PEM file */

/* What libmicrohttpd needs to serve HTTPS; every text NUL-terminated. */
struct http_tls {
	char *cert;	  /* PEM certificate chain, dj_malloc'ed */
	size_t cert_len;  /* bytes of cert, without the NUL */
	char *key;	  /* PEM private key, dj_malloc'ed, wiped when freed */
	size_t key_len;	  /* bytes of key, without the NUL */
	char *priorities; /* GnuTLS priority string, dj_malloc'ed */
};

/* Fills *tls from the files and the priority string (copied), checking
 * that libmicrohttpd has TLS, the string is valid and the key belongs to
 * the certificate: 0, or -1 with the reason (never the key) in err and *tls
 * empty. Released with http_tls_free(). */
int http_tls_load(struct http_tls *tls, const char *cert_file, const char *key_file,
		  const char *priorities, char *err, size_t errlen);

#define HTTP_TLS_OPTIONS 4 /* items http_tls_options() fills, MHD_OPTION_END included */

struct MHD_OptionItem;

/* Fills opts[0..HTTP_TLS_OPTIONS) for MHD_OPTION_ARRAY (pointing into
 * *tls, which outlives the daemon): the flags to add (MHD_USE_TLS); NULL
 * tls: an empty array and none. */
unsigned http_tls_options(const struct http_tls *tls, struct MHD_OptionItem *opts);

/* Releases what http_tls_load() filled; safe on a zeroed struct. */
void http_tls_free(struct http_tls *tls);

#endif
