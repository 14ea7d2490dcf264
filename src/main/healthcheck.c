/*
 * `dropjudge healthcheck`: GET /livez over a raw socket (no HTTP library), in
 * TLS when asked, every step bounded by one deadline; only the status is read.
 */
#include "main/commands.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gnutls/gnutls.h>

#include "http/clock.h"

#define HEALTHCHECK_TIMEOUT_MS 2000 /* of the whole exchange */

/* One connection to the server, plain or TLS. */
struct hc_conn {
	int fd;				       /* connected non-blocking socket */
	gnutls_session_t tls;		       /* TLS session, NULL for plain HTTP */
	gnutls_certificate_credentials_t cred; /* trusted certificates, with tls */
	long long deadline;		       /* monotonic milliseconds */
};

/* Waits until c->fd is ready for `events` (0: the direction GnuTLS was blocked
 * on): 0, or -1 on timeout (ETIMEDOUT) or error (errno set). */
static int healthcheck_wait(const struct hc_conn *c, short events)
{
	if (!events)
		events = gnutls_record_get_direction(c->tls) ? POLLOUT : POLLIN;
	for (;;) {
		long long left = c->deadline - http_clock_ms();
		if (left <= 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		struct pollfd p = {.fd = c->fd, .events = events, .revents = 0};
		int rc = poll(&p, 1, (int)left);
		if (rc > 0)
			return 0;
		if (rc < 0 && errno != EINTR)
			return -1;
	}
}

/* The status code of status line[0..len) "HTTP/1.x SSS ..." (NUL-terminated), or -1. */
static int healthcheck_status(const char *line, size_t len)
{
	if (len < 12 || memcmp(line, "HTTP/1.", 7) != 0 || line[8] != ' ' ||
	    strspn(line + 9, "0123456789") < 3)
		return -1;
	return (line[9] - '0') * 100 + (line[10] - '0') * 10 + (line[11] - '0');
}

/* Opens c->fd and connects it to host:port (a name: its first address). 0, or -1 with err set. */
static int healthcheck_connect(struct hc_conn *c, const char *host, unsigned port, char *err,
			       size_t errlen)
{
	struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *ai = NULL;
	char service[8];
	snprintf(service, sizeof service, "%u", port);
	int rc = getaddrinfo(host, service, &hints, &ai);
	if (rc != 0 || !ai) {
		codec_format(err, errlen, "cannot resolve %s: %s", host, gai_strerror(rc));
		return -1;
	}
	c->fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->fd < 0) {
		codec_format(err, errlen, "socket: %s", strerror(errno));
		freeaddrinfo(ai);
		return -1;
	}
	rc = connect(c->fd, ai->ai_addr, ai->ai_addrlen);
	freeaddrinfo(ai);
	int soerr = 0;
	socklen_t solen = sizeof soerr;
	if (rc != 0 &&
	    (errno != EINPROGRESS || healthcheck_wait(c, POLLOUT) != 0 ||
	     getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &soerr, &solen) != 0 || soerr != 0)) {
		if (soerr)
			errno = soerr;
		codec_format(err, errlen, "cannot connect to %s port %u: %s", host, port,
			     strerror(errno));
		return -1;
	}
	return 0;
}

/* Shakes hands in TLS; the server's certificate must verify against `cert_file`'s
 * (chain and dates, no name check). Returns 0, or -1 with err set. */
static int healthcheck_tls_start(struct hc_conn *c, const char *cert_file, char *err, size_t errlen)
{
	int rc = gnutls_certificate_allocate_credentials(&c->cred);
	if (rc >= 0 && (rc = gnutls_certificate_set_x509_trust_file(c->cred, cert_file,
								    GNUTLS_X509_FMT_PEM)) <= 0) {
		codec_format(err, errlen, "--tls-cert %s: no certificate to trust (%s)", cert_file,
			     rc < 0 ? gnutls_strerror(rc) : "the file holds none");
		return -1;
	}
	if (rc >= 0)
		rc = gnutls_init(&c->tls, GNUTLS_CLIENT | GNUTLS_NONBLOCK);
	if (rc >= 0)
		rc = gnutls_set_default_priority(c->tls);
	if (rc >= 0)
		rc = gnutls_credentials_set(c->tls, GNUTLS_CRD_CERTIFICATE, c->cred);
	if (rc < 0) {
		codec_format(err, errlen, "TLS: %s", gnutls_strerror(rc));
		return -1;
	}
	gnutls_session_set_verify_cert(c->tls, NULL, 0);
	gnutls_transport_set_int(c->tls, c->fd);
	while ((rc = gnutls_handshake(c->tls)) != GNUTLS_E_SUCCESS && !gnutls_error_is_fatal(rc)) {
		if ((rc == GNUTLS_E_AGAIN || rc == GNUTLS_E_INTERRUPTED) &&
		    healthcheck_wait(c, 0) != 0) {
			codec_format(err, errlen, "TLS handshake: %s", strerror(errno));
			return -1;
		}
	}
	if (rc == GNUTLS_E_SUCCESS)
		return 0;
	if (rc == GNUTLS_E_CERTIFICATE_VERIFICATION_ERROR) {
		gnutls_datum_t why = {NULL, 0};
		unsigned status = gnutls_session_get_verify_cert_status(c->tls);
		gnutls_certificate_type_t type = gnutls_certificate_type_get(c->tls);
		if (gnutls_certificate_verification_status_print(status, type, &why, 0) == 0) {
			codec_format(err, errlen,
				     "TLS: the server's certificate is not trusted: %s",
				     (const char *)why.data);
			gnutls_free(why.data);
			return -1;
		}
	}
	codec_format(err, errlen, "TLS handshake: %s", gnutls_strerror(rc));
	return -1;
}

/* One send (`out`) or receive of up to n bytes on c, waiting as needed: the
 * bytes moved, 0 at the end of the stream, or -1 with *why (static) set. */
static ssize_t healthcheck_io(struct hc_conn *c, char *buf, size_t n, bool out, const char **why)
{
	for (;;) {
		ssize_t r = c->tls ? out ? gnutls_record_send(c->tls, buf, n)
					 : gnutls_record_recv(c->tls, buf, n)
			    : out ? send(c->fd, buf, n, MSG_NOSIGNAL)
				   : recv(c->fd, buf, n, 0);
		if (r > 0 || (!out && (r == 0 || (c->tls && r == GNUTLS_E_PREMATURE_TERMINATION))))
			return r > 0 ? r : 0;
		bool again = c->tls ? r == GNUTLS_E_AGAIN || r == GNUTLS_E_INTERRUPTED
				    : r < 0 && (errno == EAGAIN || errno == EINTR);
		if (again && healthcheck_wait(c, c->tls ? 0 : out ? POLLOUT : POLLIN) == 0)
			continue;
		*why = c->tls && r < 0 && r != GNUTLS_E_AGAIN ? gnutls_strerror((int)r)
							      : strerror(errno);
		return -1;
	}
}

int healthcheck_run(const char *host, unsigned port, const char *tls_cert, char *err, size_t errlen)
{
	struct hc_conn c = {.fd = -1, .deadline = http_clock_ms() + HEALTHCHECK_TIMEOUT_MS};
	char request[128], reply[256];
	int ret = 1;

	if (healthcheck_connect(&c, host, port, err, errlen) != 0)
		goto out_conn;
	if (tls_cert && healthcheck_tls_start(&c, tls_cert, err, errlen) != 0)
		goto out_conn;

	int n = snprintf(request, sizeof request,
			 "GET /livez HTTP/1.1\r\nHost: %s%s%s:%u\r\nConnection: close\r\n\r\n",
			 strchr(host, ':') ? "[" : "", host, strchr(host, ':') ? "]" : "", port);
	const char *why = NULL;
	for (size_t sent = 0; sent < (size_t)n;) {
		ssize_t w = healthcheck_io(&c, request + sent, (size_t)n - sent, true, &why);
		if (w < 0) {
			codec_format(err, errlen, "cannot send the request: %s", why);
			goto out_conn;
		}
		sent += (size_t)w;
	}
	/* The status line: until a newline, the end of the stream or a full buffer. */
	size_t got = 0;
	while (got < sizeof reply - 1 && !memchr(reply, '\n', got)) {
		ssize_t r = healthcheck_io(&c, reply + got, sizeof reply - 1 - got, false, &why);
		if (r < 0) {
			codec_format(err, errlen, "no answer: %s", why);
			goto out_conn;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	reply[got] = '\0';
	int status = healthcheck_status(reply, got);
	if (status < 0 && tls_cert)
		codec_format(err, errlen, "not an HTTPS answer from %s port %u", host, port);
	else if (status < 0)
		codec_format(err, errlen,
			     "not an HTTP answer from %s port %u (if it serves HTTPS, give "
			     "--tls-cert or TLS_CERT)",
			     host, port);
	else if (status != 200)
		codec_format(err, errlen, "GET /livez answered %d", status);
	else
		ret = 0;
out_conn:
	if (c.tls)
		gnutls_deinit(c.tls);
	if (c.cred)
		gnutls_certificate_free_credentials(c.cred);
	close(c.fd);
	return ret;
}
