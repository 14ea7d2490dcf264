/*
 * The connection guard: who may hold a connection and for how long before
 * its request has arrived, so that no client can lock others out.
 *
 * - Admission: past max_connections open connections, a new one is closed
 *   at once by libmicrohttpd's accept-policy callback (never left waiting
 *   in the kernel's backlog). The per-address limit is libmicrohttpd's own
 *   (MHD_OPTION_PER_IP_CONNECTION_LIMIT), which closes at accept as well.
 * - Deadlines: a request's headers must be complete within header_timeout
 *   seconds of the connection opening (or of the previous answer on a
 *   kept-alive connection), and its body within body_timeout seconds of
 *   its headers, however slowly the bytes drip. libmicrohttpd 0.9.75 has
 *   only an idle timeout, which each byte resets; so every connection is
 *   recorded when it opens (MHD_OPTION_NOTIFY_CONNECTION) and a watchdog
 *   thread shuts down the socket of each one past its deadline. The
 *   library then sees the socket end and closes the connection in its own
 *   thread as for any client that hung up. Each record holds a duplicate
 *   of the connection's descriptor, made at the "started" notification and
 *   closed at the "closed" one, so the watchdog never depends on when the
 *   library closes its own descriptor, and never touches a number that
 *   has been reused.
 * - Lingering close (RFC 9112, section 9.6): a request answered before
 *   its body was read (413 by Content-Length, a refused framing) ends
 *   with libmicrohttpd closing the connection while the client may still
 *   be sending. Closing a socket with unread bytes makes the kernel send
 *   a reset, and a reset can destroy the answer in the client's buffers
 *   before it has read it. So at the "closed" notification of such a
 *   connection (its answer sent) the record's duplicate shuts down the
 *   sending side and is kept: the library's close() then leaves the
 *   socket open, and the watchdog reads and discards what still arrives
 *   until the client
 *   closes (end of stream), GUARD_LINGER_MS pass or GUARD_LINGER_BYTES
 *   have come, whichever is first. At most GUARD_LINGER_MAX sockets
 *   linger at once; past that one is closed at once, as before.
 */
#ifndef DROPJUDGE_HTTP_GUARD_H
#define DROPJUDGE_HTTP_GUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include <microhttpd.h>

struct http_guard_config {
	unsigned max_connections; /* open at once, >= 1; more are closed at accept */
	unsigned header_timeout;  /* seconds for a request's headers, >= 1 */
	unsigned body_timeout;	  /* seconds for a body after its headers, >= 1 */
};

struct http_guard;

/*
 * Starts a guard and its watchdog thread. Returns NULL with the reason in
 * err (errlen bytes) when out of memory or threads. Released with
 * http_guard_free() after the daemon that uses it has stopped.
 */
struct http_guard *http_guard_new(const struct http_guard_config *cfg, char *err, size_t errlen);

/* Stops the watchdog and frees the guard; NULL is ignored. */
void http_guard_free(struct http_guard *g);

/* MHD_AcceptPolicyCallback (cls: the guard): MHD_NO past max_connections. */
/*
 * Whether conn's client has gone: it closed its side of the connection, or
 * the connection failed (read from the guard's own duplicate of the
 * socket, without taking anything from it). False when unknown. Any
 * thread, while conn is open.
 */
bool http_guard_client_gone(struct MHD_Connection *conn);

/* From now on every new connection is closed at accept (a drain). Any
 * thread. */
void http_guard_close_new(struct http_guard *g);

enum MHD_Result http_guard_accept(void *cls, const struct sockaddr *addr, socklen_t addrlen);

/* MHD_NotifyConnectionCallback (cls: the guard): records and forgets
 * connections. */
void http_guard_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
		       enum MHD_ConnectionNotificationCode code);

/* The request's headers have arrived at `now_ms` (http_clock_ms()): its
 * body deadline starts. */
void http_guard_headers_in(struct MHD_Connection *conn, long long now_ms);

/* The whole request has arrived: no deadline while it is answered. */
void http_guard_request_in(struct MHD_Connection *conn);

/* The request is over (answered or aborted) at `now_ms` (http_clock_ms()):
 * the next request's header deadline starts. */
void http_guard_request_done(struct MHD_Connection *conn, long long now_ms);

/* The request was answered before its body was read, and the answer
 * is complete (MHD_REQUEST_TERMINATED_COMPLETED_OK): when the connection
 * closes, its socket lingers. A new request on it clears the mark. */
void http_guard_linger(struct MHD_Connection *conn);

/* Connections cut by a deadline since the start. */
unsigned long long http_guard_cut_total(struct http_guard *g);

/* Connections refused for max_connections since the start. */
unsigned long long http_guard_refused_total(struct http_guard *g);

#endif
