/*
 * The connection guard: who may hold a connection, and for how long before its request has
 * arrived (limits in docs/OPERATING.md).
 *
 * - Admission: past max_connections, a new connection is closed at once by the accept-policy
 *   callback, never left in the kernel's backlog.
 * - Deadlines: the headers within header_timeout seconds of the connection opening (or of the
 *   previous answer), the body within body_timeout of the headers, however slowly the bytes
 *   drip (libmicrohttpd 0.9.75 has only an idle timeout). A watchdog thread shuts down the
 *   socket of each connection past its deadline, through a duplicate of its descriptor made
 *   when it opened, so that it never touches a reused number.
 * - Lingering close (RFC 9112, 9.6): when a request answered before its body was read closes,
 *   the duplicate shuts down the sending side and the watchdog drops what still arrives until
 *   the client closes, GUARD_LINGER_MS pass or GUARD_LINGER_BYTES have come, so that a reset
 *   does not destroy the answer in the client's buffers.
 */
#ifndef DROPJUDGE_HTTP_GUARD_H
#define DROPJUDGE_HTTP_GUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include <microhttpd.h>

struct http_guard;
struct http_config;

/* Starts a guard of cfg's max_connections, header_timeout and body_timeout and its watchdog;
 * NULL with the reason in err (errlen bytes) on failure. Freed after its daemon has stopped. */
struct http_guard *http_guard_new(const struct http_config *cfg, char *err, size_t errlen);

/* Stops the watchdog and frees the guard; NULL is ignored. */
void http_guard_free(struct http_guard *g);

/* Whether the client of conn (a struct MHD_Connection; void for route_request.gone) has closed
 * its side or the connection failed (a peek at the guard's duplicate). False when unknown. */
bool http_guard_client_gone(void *conn);

/* From now on every new connection is closed at accept (a drain). */
void http_guard_close_new(struct http_guard *g);

/* MHD_AcceptPolicyCallback (cls: the guard): MHD_NO past max_connections. */
enum MHD_Result http_guard_accept(void *cls, const struct sockaddr *addr, socklen_t addrlen);

/* MHD_NotifyConnectionCallback (cls: the guard): records and forgets connections. */
void http_guard_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
		       enum MHD_ConnectionNotificationCode code);

/* Its headers arrived at `now_ms` (http_clock_ms()): the body deadline starts, a linger ends. */
void http_guard_headers_in(struct MHD_Connection *conn, long long now_ms);

/* The whole request has arrived: no deadline while it is answered. */
void http_guard_request_in(struct MHD_Connection *conn);

/* The request is over at `now_ms`: the next request's header deadline starts. */
void http_guard_request_done(struct MHD_Connection *conn, long long now_ms);

/* Answered whole before its body was read: its socket lingers when the connection closes. */
void http_guard_linger(struct MHD_Connection *conn);

#endif
