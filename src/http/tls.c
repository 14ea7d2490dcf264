/* HTTPS settings (tls.h): the PEM files read whole, the priority string
 * parsed and the pair loaded as one credential by GnuTLS. */
#include "http/tls.h"

#include <string.h>

#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <microhttpd.h>

#include "codec/error.h"
#include "http/auth.h"
#include "mem/alloc.h"

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
	tls->cert = http_read_file(cert_file, "TLS certificate", HTTP_TLS_FILE_MAX, &tls->cert_len,
				   err, errlen);
	if (!tls->cert)
		goto out_free;
	tls->key =
	    http_read_file(key_file, "TLS key", HTTP_TLS_FILE_MAX, &tls->key_len, err, errlen);
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

unsigned http_tls_options(const struct http_tls *tls, struct MHD_OptionItem *opts)
{
	size_t n = 0;
	if (tls) {
		opts[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_CERT, 0, tls->cert};
		opts[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_KEY, 0, tls->key};
		opts[n++] =
		    (struct MHD_OptionItem){MHD_OPTION_HTTPS_PRIORITIES, 0, tls->priorities};
	}
	opts[n] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
	return tls ? (unsigned)MHD_USE_TLS : 0u;
}

void http_tls_free(struct http_tls *tls)
{
	dj_free(tls->cert);
	if (tls->key)
		dj_free_secret(tls->key, tls->key_len + 1);
	dj_free(tls->priorities);
	memset(tls, 0, sizeof *tls);
}
