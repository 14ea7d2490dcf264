/*
 * GnuTLS, opened by the subcommands that use TLS or hash tokens (serve,
 * healthcheck with --tls-cert).
 * Include this header instead of the library's own: it includes them,
 * then maps each name the program calls onto the table of
 * gnutls_dl.c (see mem/dl.h), which is filled by dlopen() on first use or
 * by gnutls_dl_load().
 */
#ifndef DROPJUDGE_HTTP_GNUTLS_DL_H
#define DROPJUDGE_HTTP_GNUTLS_DL_H

#include <gnutls/gnutls.h>
#include <gnutls/crypto.h>

#include "mem/dl.h"

/* Every function of the library that the program calls, once. */
#define GNUTLS_DL_SYMS(X)                                                                          \
	X(gnutls_certificate_allocate_credentials)                                                 \
	X(gnutls_certificate_free_credentials)                                                     \
	X(gnutls_certificate_set_x509_key_mem)                                                     \
	X(gnutls_certificate_set_x509_trust_file)                                                  \
	X(gnutls_certificate_type_get)                                                             \
	X(gnutls_certificate_verification_status_print)                                            \
	X(gnutls_credentials_set)                                                                  \
	X(gnutls_deinit)                                                                           \
	X(gnutls_error_is_fatal)                                                                   \
	X(gnutls_handshake)                                                                        \
	X(gnutls_hash_fast)                                                                        \
	X(gnutls_init)                                                                             \
	X(gnutls_priority_deinit)                                                                  \
	X(gnutls_priority_init)                                                                    \
	X(gnutls_record_get_direction)                                                             \
	X(gnutls_record_recv)                                                                      \
	X(gnutls_record_send)                                                                      \
	X(gnutls_session_get_verify_cert_status)                                                   \
	X(gnutls_session_set_verify_cert)                                                          \
	X(gnutls_set_default_priority)                                                             \
	X(gnutls_strerror)                                                                         \
	X(gnutls_transport_set_int2)

#define GNUTLS_DL_FIELD(name) __typeof__(name) *name;
/* A pointer per symbol, typed as the library declares it. */
struct gnutls_dl {
	GNUTLS_DL_SYMS(GNUTLS_DL_FIELD)
	__typeof__(gnutls_free) *gnutls_free_var; /* a variable: the library's free */
};
#undef GNUTLS_DL_FIELD

DL_LIBRARY_ACCESSORS(gnutls_dl)

#ifndef GNUTLS_DL_TABLE_ITSELF
#undef gnutls_free
#define gnutls_certificate_allocate_credentials                                                    \
	(gnutls_dl()->gnutls_certificate_allocate_credentials)
#define gnutls_certificate_free_credentials    (gnutls_dl()->gnutls_certificate_free_credentials)
#define gnutls_certificate_set_x509_key_mem    (gnutls_dl()->gnutls_certificate_set_x509_key_mem)
#define gnutls_certificate_set_x509_trust_file (gnutls_dl()->gnutls_certificate_set_x509_trust_file)
#define gnutls_certificate_type_get	       (gnutls_dl()->gnutls_certificate_type_get)
#define gnutls_certificate_verification_status_print                                               \
	(gnutls_dl()->gnutls_certificate_verification_status_print)
#define gnutls_credentials_set		      (gnutls_dl()->gnutls_credentials_set)
#define gnutls_deinit			      (gnutls_dl()->gnutls_deinit)
#define gnutls_error_is_fatal		      (gnutls_dl()->gnutls_error_is_fatal)
#define gnutls_handshake		      (gnutls_dl()->gnutls_handshake)
#define gnutls_hash_fast		      (gnutls_dl()->gnutls_hash_fast)
#define gnutls_init			      (gnutls_dl()->gnutls_init)
#define gnutls_priority_deinit		      (gnutls_dl()->gnutls_priority_deinit)
#define gnutls_priority_init		      (gnutls_dl()->gnutls_priority_init)
#define gnutls_record_get_direction	      (gnutls_dl()->gnutls_record_get_direction)
#define gnutls_record_recv		      (gnutls_dl()->gnutls_record_recv)
#define gnutls_record_send		      (gnutls_dl()->gnutls_record_send)
#define gnutls_session_get_verify_cert_status (gnutls_dl()->gnutls_session_get_verify_cert_status)
#define gnutls_session_set_verify_cert	      (gnutls_dl()->gnutls_session_set_verify_cert)
#define gnutls_set_default_priority	      (gnutls_dl()->gnutls_set_default_priority)
#define gnutls_strerror			      (gnutls_dl()->gnutls_strerror)
#define gnutls_transport_set_int2	      (gnutls_dl()->gnutls_transport_set_int2)
/* gnutls_free is the library's variable (gnutls.h: free, then NULL the pointer) */
#define gnutls_free(a) ((*gnutls_dl()->gnutls_free_var)((void *)(a)), (a) = NULL)
#endif

#endif
