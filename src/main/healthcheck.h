/*
 * `dropjudge healthcheck`: asks a server on this machine whether it lives,
 * with a plain socket (no HTTP library), for container health checks in an
 * image that has no curl. Against an HTTPS server it speaks TLS through
 * GnuTLS and trusts exactly the certificates of the server's own PEM file
 * (the one TLS_CERT names), not the system's authorities: the server is
 * reached at 127.0.0.1, so a name check would prove nothing and the
 * certificate itself is pinned instead.
 */
#ifndef DROPJUDGE_MAIN_HEALTHCHECK_H
#define DROPJUDGE_MAIN_HEALTHCHECK_H

#include <stddef.h>

/* Whole-exchange timeout used by `dropjudge healthcheck`. */
#define HEALTHCHECK_TIMEOUT_MS 2000u

/*
 * Sends "GET /livez" to host:port (an address or a name) and reads the status line, all
 * within timeout_ms; over TLS when tls_cert (a PEM file of the
 * certificates to trust) is not NULL, and then the server's certificate
 * must verify against them. Returns 0 when the status is 200; otherwise 1
 * with the reason (refused, timed out, untrusted certificate, status 503,
 * ...) written to err (errlen bytes, may be 0).
 */
int healthcheck_run(const char *host, unsigned port, const char *tls_cert, unsigned timeout_ms,
		    char *err, size_t errlen);

#endif
