/* Credentials read from files: the bearer token store (SHA-256 digests under a read-write lock)
 * and the HTTPS settings of auth.h. Every buffer that held part of a file is wiped when freed. */
#include "http/auth.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <microhttpd.h>

#include "codec/error.h"
#include "mem/alloc.h"

#define AUTH_DIGEST 32 /* bytes of a SHA-256 digest */

/* One set of tokens, as read from the file once, in one allocation. */
struct auth_set {
	size_t count;		       /* digests in use, >= 1 */
	uint8_t digest[][AUTH_DIGEST]; /* room for a digest a line of the file */
};

struct http_auth {
	pthread_rwlock_t lock; /* guards set */
	struct auth_set *set;  /* in force, never NULL */
	char path[];	       /* the token file */
};

/* Whether s[0..n) (a NUL-terminated string's start) is an RFC 6750
 * b64token: 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=" */
static bool auth_is_token(const char *s, size_t n)
{
	static const char chars[] =
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~+/";
	size_t i = strspn(s, chars);
	i = i < n ? i : n;
	if (i == 0)
		return false;
	while (i < n && s[i] == '=')
		i++;
	return i == n;
}

static bool auth_is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Wipes the digests in use and frees the set; NULL is ignored. */
static void auth_set_free(struct auth_set *set)
{
	if (set)
		dj_free_secret(set, sizeof *set + set->count * sizeof set->digest[0]);
}

/* Reads a small file whole: at most `max` bytes of `path` into a new NUL-terminated buffer
 * released with dj_free_secret(buf, *len + 1), *len its length. NULL on failure, with the reason
 * ("cannot open the <what> PATH: ...", never the contents) in err. One read of up to max + 1
 * bytes into one buffer: a byte past max tells a file too large. */
static char *auth_read_file(const char *path, const char *what, size_t max, size_t *len, char *err,
			    size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		codec_format(err, errlen, "cannot open the %s %s: %s", what, path, strerror(errno));
		return NULL;
	}
	char *buf = dj_malloc(max + 2); /* and the final NUL */
	size_t n = buf ? fread(buf, 1, max + 1, f) : 0;
	bool ok = buf && n <= max && !ferror(f);
	if (!buf)
		codec_format(err, errlen, "out of memory reading the %s %s", what, path);
	else if (n > max)
		codec_format(err, errlen, "the %s %s is larger than %zu bytes", what, path, max);
	else if (!ok)
		codec_format(err, errlen, "cannot read the %s %s: %s", what, path, strerror(errno));
	fclose(f);
	if (!ok) {
		dj_free_secret(buf, n);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* Reads and parses the token file into a new set; NULL with err set. */
static struct auth_set *auth_load(const char *path, char *err, size_t errlen)
{
	size_t len = 0;
	char *text = auth_read_file(path, "token file", HTTP_AUTH_FILE_MAX, &len, err, errlen);
	if (!text)
		return NULL;
	size_t lines = 1;
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	if (lines > HTTP_AUTH_TOKENS_MAX)
		lines = HTTP_AUTH_TOKENS_MAX;

	struct auth_set *set = dj_calloc(1, sizeof *set + lines * sizeof set->digest[0]);
	if (!set)
		goto out_oom;

	unsigned line = 0;
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t a = at + strspn(text + at, " \t"), b = nl ? (size_t)(nl - text) : len;
		line++;
		at = b + 1;
		while (b > a && (auth_is_blank(text[b - 1]) || text[b - 1] == '\r'))
			b--;
		if (a == b || text[a] == '#')
			continue;
		if (b - a > HTTP_AUTH_TOKEN_MAX || !auth_is_token(text + a, b - a)) {
			codec_format(err, errlen,
				     "%s:%u: not a bearer token (one token a line, at most %d "
				     "characters from A-Z a-z 0-9 - . _ ~ + / then any '=')",
				     path, line, HTTP_AUTH_TOKEN_MAX);
			goto out_set;
		}
		if (set->count >= HTTP_AUTH_TOKENS_MAX) {
			codec_format(err, errlen, "%s: more than %d tokens", path,
				     HTTP_AUTH_TOKENS_MAX);
			goto out_set;
		}
		if (gnutls_hash_fast(GNUTLS_DIG_SHA256, text + a, b - a, set->digest[set->count]) !=
		    0) {
			codec_format(err, errlen, "%s:%u: cannot hash the token", path, line);
			goto out_set;
		}
		set->count++;
	}
	if (set->count == 0) {
		codec_format(err, errlen, "the token file %s holds no token", path);
		goto out_set;
	}
	dj_free_secret(text, len + 1);
	return set;
out_oom:
	codec_format(err, errlen, "out of memory reading the token file %s", path);
out_set:
	auth_set_free(set);
	dj_free_secret(text, len + 1);
	return NULL;
}

struct http_auth *http_auth_new(const char *path, char *err, size_t errlen)
{
	size_t len = strlen(path) + 1;
	struct http_auth *auth = dj_calloc(1, sizeof *auth + len);
	if (!auth) {
		codec_format(err, errlen, "out of memory");
		return NULL;
	}
	memcpy(auth->path, path, len);
	auth->set = auth_load(path, err, errlen);
	if (!auth->set)
		goto out_path;
	if (pthread_rwlock_init(&auth->lock, NULL) != 0) {
		codec_format(err, errlen, "cannot create a lock");
		goto out_set;
	}
	return auth;
out_set:
	auth_set_free(auth->set);
out_path:
	dj_free(auth);
	return NULL;
}

int http_auth_reload(struct http_auth *auth, char *err, size_t errlen)
{
	struct auth_set *set = auth_load(auth->path, err, errlen);
	if (!set)
		return -1;
	pthread_rwlock_wrlock(&auth->lock);
	struct auth_set *old = auth->set;
	auth->set = set;
	pthread_rwlock_unlock(&auth->lock);
	auth_set_free(old);
	return 0;
}

size_t http_auth_count(struct http_auth *auth)
{
	pthread_rwlock_rdlock(&auth->lock);
	size_t n = auth->set->count;
	pthread_rwlock_unlock(&auth->lock);
	return n;
}

/* Whether `digest` is the set's, reading every byte of every digest: time depends on count only. */
static bool auth_set_has(const struct auth_set *set, const uint8_t digest[AUTH_DIGEST])
{
	unsigned found = 0;
	for (size_t i = 0; i < set->count; i++) {
		unsigned diff = 0;
		for (size_t k = 0; k < AUTH_DIGEST; k++)
			diff |= (unsigned)(set->digest[i][k] ^ digest[k]);
		/* 1 when diff is 0, else 0, without a branch */
		found |= 1u & ((diff - 1u) >> 8);
	}
	return found != 0;
}

enum route_auth http_auth_check(struct http_auth *auth, const char *const *values, size_t n)
{
	static const char scheme[] = "Bearer";
	const size_t slen = sizeof scheme - 1;
	uint8_t digest[AUTH_DIGEST];

	if (!auth)
		return ROUTE_AUTH_OK;
	if (n == 0)
		return ROUTE_AUTH_MISSING;
	if (n > 1)
		return ROUTE_AUTH_MALFORMED;
	const char *v = values[0] + strspn(values[0], " \t");
	size_t name = strcspn(v, " \t");
	if (name != slen || strncasecmp(v, scheme, slen) != 0)
		return ROUTE_AUTH_MISSING; /* no credentials of our scheme */
	const char *tok = v + slen;
	if (*tok != ' ')
		return ROUTE_AUTH_MALFORMED;
	tok += strspn(tok, " ");
	size_t len = strlen(tok);
	while (len > 0 && auth_is_blank(tok[len - 1]))
		len--;
	if (len > HTTP_AUTH_TOKEN_MAX || !auth_is_token(tok, len))
		return ROUTE_AUTH_MALFORMED;
	if (gnutls_hash_fast(GNUTLS_DIG_SHA256, tok, len, digest) != 0)
		return ROUTE_AUTH_WRONG;
	pthread_rwlock_rdlock(&auth->lock);
	bool ok = auth_set_has(auth->set, digest);
	pthread_rwlock_unlock(&auth->lock);
	return ok ? ROUTE_AUTH_OK : ROUTE_AUTH_WRONG;
}

void http_auth_free(struct http_auth *auth)
{
	if (!auth)
		return;
	pthread_rwlock_destroy(&auth->lock);
	auth_set_free(auth->set);
	dj_free(auth);
}

int http_tls_load(struct http_tls *tls, const char *cert_file, const char *key_file,
		  const char *priorities, char *err, size_t errlen)
{
	gnutls_priority_t prio;
	gnutls_certificate_credentials_t cred;
	const char *at = NULL;

	memset(tls, 0, sizeof *tls);
	if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
		codec_format(err, errlen, "this libmicrohttpd is built without TLS support");
		return -1;
	}
	int rc = gnutls_priority_init(&prio, priorities, &at);
	if (rc != GNUTLS_E_SUCCESS) {
		codec_format(err, errlen,
			     "--tls-priorities: '%s' is not a GnuTLS priority string (%s at "
			     "offset %ld)",
			     priorities, gnutls_strerror(rc), at ? (long)(at - priorities) : 0L);
		return -1;
	}
	gnutls_priority_deinit(prio);
	tls->cert = auth_read_file(cert_file, "TLS certificate", HTTP_TLS_FILE_MAX, &tls->cert_len,
				   err, errlen);
	if (!tls->cert)
		goto out_free;
	tls->key =
	    auth_read_file(key_file, "TLS key", HTTP_TLS_FILE_MAX, &tls->key_len, err, errlen);
	if (!tls->key)
		goto out_free;
	tls->priorities = dj_strdup(priorities);
	if (!tls->priorities) {
		codec_format(err, errlen, "out of memory");
		goto out_free;
	}
	/* The key and the certificate must make one credential. */
	if (gnutls_certificate_allocate_credentials(&cred) != GNUTLS_E_SUCCESS) {
		codec_format(err, errlen, "out of memory checking the TLS certificate");
		goto out_free;
	}
	const gnutls_datum_t cert = {(unsigned char *)tls->cert, (unsigned)tls->cert_len};
	const gnutls_datum_t key = {(unsigned char *)tls->key, (unsigned)tls->key_len};
	rc = gnutls_certificate_set_x509_key_mem(cred, &cert, &key, GNUTLS_X509_FMT_PEM);
	gnutls_certificate_free_credentials(cred);
	if (rc < 0) {
		codec_format(err, errlen, "--tls-cert %s with --tls-key %s: %s", cert_file,
			     key_file, gnutls_strerror(rc));
		goto out_free;
	}
	return 0;
out_free:
	http_tls_free(tls);
	return -1;
}

void http_tls_free(struct http_tls *tls)
{
	dj_free(tls->cert);
	dj_free_secret(tls->key, tls->key_len + 1);
	dj_free(tls->priorities);
	memset(tls, 0, sizeof *tls);
}
