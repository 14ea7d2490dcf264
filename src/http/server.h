/* The HTTP server: libmicrohttpd's lifecycle around route_handle(). A pool of threads (epoll)
 * reads requests, hands each to the route layer and sends back its answer; a body is taken only
 * when the route accepts the headers, never beyond its limit (413). Shutdown in three steps,
 * driven by main: begin_drain, then http_server_is_idle() polled until the requests in flight
 * are done or a deadline passes, then stop. */
#ifndef DROPJUDGE_HTTP_SERVER_H
#define DROPJUDGE_HTTP_SERVER_H

#include <stdbool.h>
#include <stddef.h>

#include "http/accesslog.h"
#include "http/metrics.h"
#include "route/route.h"

struct http_auth;

/* Each connection's memory (libmicrohttpd's pool, zeroed for every
 * request by 0.9.75): the request line and headers must fit in it. */
#define HTTP_CONNECTION_MEMORY_DEFAULT ((size_t)32768)
#define HTTP_CONNECTION_MEMORY_MIN     ((size_t)4096)
/* Bytes of answers built and not yet sent held at once (cache.h). */
#define HTTP_ANSWER_MEMORY_DEFAULT ((size_t)64 << 20)
struct http_tls;

/* What the server needs to start. */
struct http_config {
	const char *host;	       /* IPv4 or IPv6 address literal; copied */
	unsigned port;		       /* 0..65535; 0: any free port */
	int listen_fd;		       /* > 0: a listening TCP socket to serve on (socket
					  activation), the server's from the call on, closed
					  even on failure; 0: bind host and port */
	unsigned threads;	       /* worker threads, >= 1, <= max_connections */
	unsigned timeout;	       /* idle connection timeout, seconds, >= 1 */
	unsigned max_connections;      /* open connections at once, >= 1; more are closed */
	unsigned max_per_ip;	       /* open connections from one address; 0: no limit */
	unsigned header_timeout;       /* seconds for a request's headers, >= 1 */
	size_t connection_memory;      /* bytes of each connection's pool; 0: the default */
	unsigned body_timeout;	       /* seconds for a request's body after its headers, >= 1 */
	unsigned max_heavy;	       /* heavy requests queued or running at once, >= 1 */
	unsigned max_heavy_per_client; /* of them from one address, >= 1 */
	size_t answer_memory;	       /* bytes of answers held (cache.h); 0: the default */
	size_t package_cache;	       /* bytes of packages kept (cache.h); 0: none */
	struct route_limits limits;    /* copied; passed to every request */
	struct http_auth *auth;	       /* bearer tokens, NULL: none; borrowed, outlives srv */
	const struct http_tls *tls;    /* HTTPS, NULL: plain HTTP; borrowed, outlives srv */
	struct http_metrics *metrics;  /* NULL: none; not owned; read by http_server_is_idle() */
	struct http_accesslog *log;    /* one line per request; NULL: none; not owned */
};

struct http_server;

/* Binds and listens (or takes cfg->listen_fd) and starts the threads: a server released with
 * http_server_stop(), or NULL with the reason in err (errlen bytes, may be 0). The threads
 * inherit the caller's signal mask. */
struct http_server *http_server_start(const struct http_config *cfg, char *err, size_t errlen);

/* The port the server listens on (the real one when 0 was asked). */
unsigned http_server_port(const struct http_server *srv);

/* Begins shutdown: new connections are closed, /readyz answers 503 and
 * every answer closes its connection; open ones are still served. */
void http_server_begin_drain(struct http_server *srv);

/* Whether no request is in flight (headers read, not yet completed: the count of cfg->metrics,
 * so never without them), or no connection is open at all. */
bool http_server_is_idle(struct http_server *srv);

/* Closes every connection, joins the threads and frees the server; NULL is ignored. */
void http_server_stop(struct http_server *srv);

#endif
