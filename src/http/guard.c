/* The connection guard of guard.h: an atomic count of open connections, a
 * list of connection records with their deadlines, and the watchdog. */
#include "http/guard.h"
#include "mem/alloc.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <sys/queue.h>
#include <time.h>
#include <unistd.h>

#include "codec/error.h"
#include "http/clock.h"
#include "http/ratelog.h"
#include "http/server.h"

/* How often the watchdog looks at the deadlines, in milliseconds. */
#define GUARD_TICK_MS 100

/* Lingering close: how long, how many bytes, how many sockets at once. */
#define GUARD_LINGER_MS	   2000
#define GUARD_LINGER_BYTES (4u << 20)
#define GUARD_LINGER_MAX   128

/* A closed connection's socket, lingering. */
struct guard_linger {
	int fd;		 /* a duplicate of the socket; -1 once closed */
	long long until; /* http_clock_ms() by which it is closed */
	size_t taken;	 /* bytes read and discarded */
};

/* One open connection. */
struct guard_conn {
	LIST_ENTRY(guard_conn) link; /* in the guard's list, under its lock */
	struct http_guard *guard;    /* owner */
	int fd;			     /* our duplicate of the connection's socket, owned */
	atomic_llong deadline_ms;    /* http_clock_ms() by which the request must be in; 0: none */
	bool cut;		     /* shut down by the watchdog (under the lock) */
	atomic_bool linger;	     /* its socket lingers when it closes */
};

struct http_guard {
	unsigned max_connections;      /* open at once; more are closed at accept */
	unsigned header_timeout;       /* seconds for a request's headers */
	unsigned body_timeout;	       /* seconds for a body after its headers */
	atomic_uint open;	       /* connections between started and closed */
	atomic_bool closing;	       /* new connections are closed at accept (a drain) */
	pthread_mutex_t lock;	       /* guards conns and each record's cut */
	pthread_cond_t wake;	       /* signalled to stop the watchdog */
	LIST_HEAD(, guard_conn) conns; /* open connections */
	bool stopping;		       /* under lock: the watchdog must end */
	struct guard_linger lingering[GUARD_LINGER_MAX]; /* added under lock, watchdog drains */
	unsigned nlinger;				 /* entries in lingering */
	pthread_t watchdog;				 /* running while the guard lives */
};

/* Shuts down every connection past its deadline, lock held; returns how many were cut. */
static unsigned guard_sweep_locked(struct http_guard *g, long long now)
{
	unsigned n = 0;
	struct guard_conn *c;
	LIST_FOREACH(c, &g->conns, link) {
		long long d = atomic_load(&c->deadline_ms);
		if (c->cut || d == 0 || now < d)
			continue;
		shutdown(c->fd, SHUT_RDWR);
		c->cut = true;
		n++;
	}
	return n;
}

/* Reads and discards what has arrived on a lingering socket: true while it should linger on,
 * neither the end of the stream, nor an error, nor too many bytes, nor past its time. */
static bool guard_linger_drain(struct guard_linger *l, long long now)
{
	char sink[16384];
	for (;;) {
		ssize_t n = recv(l->fd, sink, sizeof sink, MSG_DONTWAIT);
		if (n > 0) {
			l->taken += (size_t)n;
			if (l->taken >= GUARD_LINGER_BYTES)
				return false;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return now < l->until;
		return false; /* the client closed, or the connection failed */
	}
}

/* One pass over the lingering sockets: each drained, and closed when it has lingered enough. */
static void guard_linger_sweep(struct http_guard *g, long long now)
{
	pthread_mutex_lock(&g->lock);
	unsigned n = g->nlinger; /* entries from n on may be appended meanwhile */
	pthread_mutex_unlock(&g->lock);
	if (n == 0)
		return;
	for (unsigned i = 0; i < n; i++) {
		struct guard_linger *l = &g->lingering[i];
		if (!guard_linger_drain(l, now)) {
			close(l->fd);
			l->fd = -1;
		}
	}
	pthread_mutex_lock(&g->lock);
	unsigned kept = 0;
	for (unsigned i = 0; i < g->nlinger; i++)
		if (g->lingering[i].fd >= 0)
			g->lingering[kept++] = g->lingering[i];
	g->nlinger = kept;
	pthread_mutex_unlock(&g->lock);
}

static void *guard_watchdog(void *arg)
{
	struct http_guard *g = arg;
	for (;;) {
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += GUARD_TICK_MS * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_mutex_lock(&g->lock);
		if (!g->stopping)
			pthread_cond_timedwait(&g->wake, &g->lock, &until);
		bool stop = g->stopping;
		unsigned n = stop ? 0 : guard_sweep_locked(g, http_clock_ms());
		pthread_mutex_unlock(&g->lock);
		if (stop)
			return NULL;
		guard_linger_sweep(g, http_clock_ms());
		if (n > 0)
			http_ratelog_event(
			    "connections",
			    "closed %u connection(s) whose request did not arrive in time", n);
		http_ratelog_tick();
	}
}

struct http_guard *http_guard_new(const struct http_config *cfg, char *err, size_t errlen)
{
	struct http_guard *g = dj_calloc(1, sizeof *g);
	if (!g) {
		codec_format(err, errlen, "out of memory");
		return NULL;
	}
	g->max_connections = cfg->max_connections;
	g->header_timeout = cfg->header_timeout;
	g->body_timeout = cfg->body_timeout;
	atomic_init(&g->open, 0u);
	atomic_init(&g->closing, false);
	if (pthread_mutex_init(&g->lock, NULL) != 0)
		goto out_guard;
	if (pthread_cond_init(&g->wake, NULL) != 0)
		goto out_lock;
	int rc = pthread_create(&g->watchdog, NULL, guard_watchdog, g);
	if (rc == 0)
		return g;
	codec_format(err, errlen, "cannot start the connection watchdog: %s", strerror(rc));
	pthread_cond_destroy(&g->wake);
out_lock:
	pthread_mutex_destroy(&g->lock);
out_guard:
	dj_free(g);
	if (err && errlen && !err[0])
		codec_format(err, errlen, "cannot set up the connection guard");
	return NULL;
}

void http_guard_free(struct http_guard *g)
{
	if (!g)
		return;
	pthread_mutex_lock(&g->lock);
	g->stopping = true;
	pthread_cond_signal(&g->wake);
	pthread_mutex_unlock(&g->lock);
	pthread_join(g->watchdog, NULL);
	/* The daemon has stopped: every connection has been notified closed. */
	for (unsigned i = 0; i < g->nlinger; i++)
		close(g->lingering[i].fd);
	pthread_cond_destroy(&g->wake);
	pthread_mutex_destroy(&g->lock);
	dj_free(g);
}

void http_guard_close_new(struct http_guard *g)
{
	atomic_store(&g->closing, true);
}

enum MHD_Result http_guard_accept(void *cls, const struct sockaddr *addr, socklen_t addrlen)
{
	struct http_guard *g = cls;
	(void)addr;
	(void)addrlen;
	/* Threads accepting at once may each take the last place: the daemon's limit has room. */
	if (atomic_load(&g->closing))
		return MHD_NO;
	if (atomic_load(&g->open) < g->max_connections)
		return MHD_YES;
	http_ratelog_event("connections",
			   "refused a connection: %u connections are open (--max-connections)",
			   g->max_connections);
	return MHD_NO;
}

/* The record of a connection, or NULL when it has none. */
static struct guard_conn *guard_conn_of(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *info =
	    MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return info ? info->socket_context : NULL;
}

bool http_guard_client_gone(void *conn)
{
	struct guard_conn *c = guard_conn_of(conn);
	if (!c)
		return false;
	char byte;
	ssize_t n = recv(c->fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
	if (n == 0)
		return true; /* the client closed its side */
	return n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR;
}

void http_guard_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
		       enum MHD_ConnectionNotificationCode code)
{
	struct http_guard *g = cls;
	struct guard_conn *c;

	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		atomic_fetch_add(&g->open, 1u);
		const union MHD_ConnectionInfo *info =
		    MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
		c = info ? dj_calloc(1, sizeof *c) : NULL;
		int fd = c ? fcntl(info->connect_fd, F_DUPFD_CLOEXEC, 0) : -1;
		if (fd < 0) {
			dj_free(c);
			c = NULL;
		}
		*socket_context = c;
		if (!c) /* no deadline for this one; the idle timeout still holds */
			return;
		c->guard = g;
		c->fd = fd;
		atomic_init(&c->linger, false);
		atomic_init(&c->deadline_ms, http_clock_ms() + (long long)g->header_timeout * 1000);
		pthread_mutex_lock(&g->lock);
		LIST_INSERT_HEAD(&g->conns, c, link);
		pthread_mutex_unlock(&g->lock);
		return;
	}
	/* MHD_CONNECTION_NOTIFY_CLOSED, the other code */
	atomic_fetch_sub(&g->open, 1u);
	c = *socket_context;
	*socket_context = NULL;
	if (!c)
		return;
	pthread_mutex_lock(&g->lock);
	LIST_REMOVE(c, link);
	if (atomic_load(&c->linger) && !c->cut && !g->stopping && g->nlinger < GUARD_LINGER_MAX) {
		shutdown(c->fd, SHUT_WR);
		g->lingering[g->nlinger++] = (struct guard_linger){
		    .fd = c->fd, .until = http_clock_ms() + GUARD_LINGER_MS, .taken = 0};
		c->fd = -1;
	}
	pthread_mutex_unlock(&g->lock);
	if (c->fd >= 0)
		close(c->fd);
	dj_free(c);
}

/* Deadlines are stored relaxed: the watchdog needs only to see them soon. */
void http_guard_headers_in(struct MHD_Connection *conn, long long now_ms)
{
	struct guard_conn *c = guard_conn_of(conn);
	if (!c)
		return;
	atomic_store_explicit(&c->deadline_ms, now_ms + (long long)c->guard->body_timeout * 1000,
			      memory_order_relaxed);
	atomic_store_explicit(&c->linger, false, memory_order_relaxed);
}

void http_guard_linger(struct MHD_Connection *conn)
{
	struct guard_conn *c = guard_conn_of(conn);
	if (c)
		atomic_store(&c->linger, true);
}

void http_guard_request_in(struct MHD_Connection *conn)
{
	struct guard_conn *c = guard_conn_of(conn);
	if (c)
		atomic_store_explicit(&c->deadline_ms, 0, memory_order_relaxed);
}

void http_guard_request_done(struct MHD_Connection *conn, long long now_ms)
{
	struct guard_conn *c = guard_conn_of(conn);
	if (c)
		atomic_store_explicit(&c->deadline_ms,
				      now_ms + (long long)c->guard->header_timeout * 1000,
				      memory_order_relaxed);
}
