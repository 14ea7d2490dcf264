/*
 * The baseline for scripts/bench-http.sh: a bare libmicrohttpd server that
 * does what dropjudge's src/http/server.c does around the route layer and
 * nothing else. Same daemon flags (internal polling thread, epoll, ITC,
 * error log), same thread pool, connection timeout and connection limit,
 * same request lifecycle (libmicrohttpd's doc/examples/simplepost.c):
 * per-request state allocated on the first call, every body chunk copied
 * into a growing buffer, the answer queued on the last call, the state
 * freed by the request-completed callback. The answer is a fixed 200 whose
 * body has the size and content type dropjudge answers on the benchmarked
 * path, so that the difference between the two servers is the routing,
 * the codecs, the cores and dropjudge's other header fields.
 *
 *   bare_server [--host ADDR] [--port N] [--threads N] [--connection-memory BYTES] [--headers]
 *
 * --headers adds those four header fields, sent with every answer besides
 * its Content-Type (a request id of the same length, nosniff, DENY, Vary),
 * so that the bytes on the wire match and the difference leaves their cost
 * out.
 *
 * Prints "bare_server listening on http://HOST:PORT" (the real port when
 * 0 was asked) and serves until SIGINT or SIGTERM.
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

/* The defaults of dropjudge serve (src/main/config.c). */
#define BARE_CONNECTION_MEMORY 32768 /* HTTP_CONNECTION_MEMORY_DEFAULT, src/http/server.h */
#define BARE_TIMEOUT	       10
#define BARE_MAX_CONNECTIONS   1024
#define BARE_MAX_BODY	       ((size_t)1 << 20)

/* --headers: every answer carries dropjudge's other header fields too. */
static bool bare_headers;
/* First allocation for a body, as HTTP_BODY_START in src/http/server.c. */
#define BARE_BODY_START 16384

/* A fixed answer: the same size and type as dropjudge's on that path. */
struct bare_answer {
	const char *path;	  /* request path, or NULL for any other */
	const char *accept;	  /* Accept header it is for, NULL for any */
	const char *content_type; /* static string */
	const char *body;	  /* static string */
};

static const struct bare_answer bare_answers[] = {
    {"/livez", NULL, "application/json", "{\"status\":\"ok\"}\n"},
    /* Accept: application/json answer to the public Puyo example (161 bytes). */
    {"/v1/puyo", "application/json", "application/json",
     "{\"chains\":3,\"score\":1000,\"all_clear\":true,\"field\":[\"......\",\"......\","
     "\"......\",\"......\",\"......\",\"......\",\"......\",\"......\",\"......\",\"......\","
     "\"......\",\"......\"]}\n"},
    /* Accept: text/plain answer to the public Puyo example: "3\n". */
    {"/v1/puyo", NULL, "text/plain; charset=utf-8", "3\n"},
    /* 120 bytes with its newline, the JSON answer to the 8-block Monomino-Domino example. */
    {NULL, NULL, "application/json",
     "{\"score\":2,\"tiles\":15,\"green\":[\"....\",\"....\",\"....\",\"#...\",\"#.##\","
     "\".###\"],\"blue\":[\"......\",\"..#.#.\",\"..####\",\"...#.#\"]}\n"},
};

/* What one request accumulates between the calls of the access handler. */
struct bare_request {
	char *body;	/* body kept so far, malloc'ed, NULL while empty */
	size_t len;	/* bytes in body */
	size_t cap;	/* bytes allocated for body */
	size_t limit;	/* most bytes allocated while the body keeps to it: the
			   declared length when known, else BARE_MAX_BODY */
	bool too_large; /* the body passed BARE_MAX_BODY: nothing more kept */
	bool no_memory; /* growing the body failed: nothing more kept */
};

static const struct bare_answer *bare_answer_for(const char *url, const char *accept)
{
	size_t n = sizeof bare_answers / sizeof bare_answers[0];
	for (size_t i = 0; i + 1 < n; i++)
		if (strcmp(bare_answers[i].path, url) == 0 &&
		    (!bare_answers[i].accept ||
		     (accept && strcmp(bare_answers[i].accept, accept) == 0)))
			return &bare_answers[i];
	return &bare_answers[n - 1];
}

/* Copies a body chunk into rq, doubling the buffer as needed. */
static void bare_take_body(struct bare_request *rq, const char *data, size_t size)
{
	if (rq->too_large || rq->no_memory)
		return;
	if (size > BARE_MAX_BODY - rq->len) {
		rq->too_large = true;
		return;
	}
	if (size > rq->cap - rq->len) {
		size_t cap = rq->cap ? rq->cap : BARE_BODY_START;
		while (cap - rq->len < size)
			cap *= 2;
		/* Never less than what this chunk needs, even past the length announced. */
		if (cap > rq->limit && rq->limit >= rq->len && rq->limit - rq->len >= size)
			cap = rq->limit;
		char *p = realloc(rq->body, cap);
		if (!p) {
			rq->no_memory = true;
			return;
		}
		rq->body = p;
		rq->cap = cap;
	}
	memcpy(rq->body + rq->len, data, size);
	rq->len += size;
}

/* MHD_AccessHandlerCallback: headers, then body chunks, then the end. */
static enum MHD_Result bare_access(void *cls, struct MHD_Connection *conn, const char *url,
				   const char *method, const char *version, const char *upload_data,
				   size_t *upload_data_size, void **con_cls)
{
	struct bare_request *rq = *con_cls;
	(void)cls;
	(void)method;
	(void)version;

	if (!rq) {
		rq = calloc(1, sizeof *rq);
		if (!rq)
			return MHD_NO;
		*con_cls = rq;
		/* As dropjudge: memory follows the declared length, when there is one. */
		const char *length = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
								 MHD_HTTP_HEADER_CONTENT_LENGTH);
		unsigned long long n = length ? strtoull(length, NULL, 10) : BARE_MAX_BODY;
		rq->limit = n < BARE_MAX_BODY ? (size_t)n : BARE_MAX_BODY;
		return MHD_YES;
	}
	if (*upload_data_size > 0) {
		bare_take_body(rq, upload_data, *upload_data_size);
		*upload_data_size = 0;
		return MHD_YES;
	}
	const struct bare_answer *a = bare_answer_for(
	    url, MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT));
	unsigned status = rq->too_large	  ? MHD_HTTP_CONTENT_TOO_LARGE
			  : rq->no_memory ? MHD_HTTP_INTERNAL_SERVER_ERROR
					  : MHD_HTTP_OK;
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(a->body), (void *)a->body,
								 MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	enum MHD_Result ret = MHD_NO;
	bool ok = !bare_headers ||
		  (MHD_add_response_header(r, "X-Request-Id", "00000000000000000000000000000000") ==
		       MHD_YES &&
		   MHD_add_response_header(r, "X-Content-Type-Options", "nosniff") == MHD_YES &&
		   MHD_add_response_header(r, "X-Frame-Options", "DENY") == MHD_YES);
	if (ok &&
	    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, a->content_type) == MHD_YES &&
	    (!bare_headers || MHD_add_response_header(r, "Vary", "Accept") == MHD_YES))
		ret = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* MHD_RequestCompletedCallback: the one place per-request state is freed. */
static void bare_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
			   enum MHD_RequestTerminationCode toe)
{
	struct bare_request *rq = *con_cls;
	(void)cls;
	(void)conn;
	(void)toe;

	if (!rq)
		return;
	free(rq->body);
	free(rq);
	*con_cls = NULL;
}

/* CPUs this process may run on, at least 1: dropjudge's default --threads. */
static unsigned bare_cpu_count(void)
{
	cpu_set_t set;
	int n = 0;
	if (sched_getaffinity(0, sizeof set, &set) == 0)
		n = CPU_COUNT(&set);
	return n > 0 ? (unsigned)n : 1u;
}

/* Reads "--name N" or "--name=N" at argv[*i]; returns the value or NULL. */
static const char *bare_flag(int argc, char *const argv[], int *i, const char *name)
{
	size_t n = strlen(name);
	if (strncmp(argv[*i], name, n) != 0)
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] == '\0' && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

static bool bare_number(const char *text, unsigned long max, unsigned *out)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(text, &end, 10);
	if (errno || end == text || *end || v > max)
		return false;
	*out = (unsigned)v;
	return true;
}

static void bare_usage(FILE *f)
{
	fputs("usage: bare_server [--host ADDR] [--port N] [--threads N] [--connection-memory "
	      "BYTES] [--headers]\n"
	      "  a bare libmicrohttpd server with dropjudge's daemon flags, for bench-http\n",
	      f);
}

int main(int argc, char *argv[])
{
	const char *host = "127.0.0.1";
	unsigned port = 0, threads = 0, memory = BARE_CONNECTION_MEMORY;
	struct sockaddr_in in4;
	struct sockaddr_in6 in6;
	const struct sockaddr *addr;
	unsigned flags =
	    MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC | MHD_USE_ERROR_LOG;

	for (int i = 1; i < argc; i++) {
		const char *v;
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			bare_usage(stdout);
			return 0;
		} else if (strcmp(argv[i], "--headers") == 0) {
			bare_headers = true;
		} else if ((v = bare_flag(argc, argv, &i, "--host"))) {
			host = v;
		} else if ((v = bare_flag(argc, argv, &i, "--port"))) {
			if (!bare_number(v, 65535, &port))
				goto out_usage;
		} else if ((v = bare_flag(argc, argv, &i, "--threads"))) {
			if (!bare_number(v, 1024, &threads) || threads == 0)
				goto out_usage;
		} else if ((v = bare_flag(argc, argv, &i, "--connection-memory"))) {
			if (!bare_number(v, 16777216, &memory) || memory < 4096)
				goto out_usage;
		} else {
			goto out_usage;
		}
	}
	if (threads == 0)
		threads = bare_cpu_count();

	memset(&in4, 0, sizeof in4);
	memset(&in6, 0, sizeof in6);
	if (inet_pton(AF_INET, host, &in4.sin_addr) == 1) {
		in4.sin_family = AF_INET;
		in4.sin_port = htons((uint16_t)port);
		addr = (const struct sockaddr *)&in4;
	} else if (inet_pton(AF_INET6, host, &in6.sin6_addr) == 1) {
		in6.sin6_family = AF_INET6;
		in6.sin6_port = htons((uint16_t)port);
		addr = (const struct sockaddr *)&in6;
		flags |= MHD_USE_DUAL_STACK;
	} else {
		fprintf(stderr, "bare_server: '%s' is not an IPv4 or IPv6 address\n", host);
		return 2;
	}

	sigset_t signals;
	sigemptyset(&signals);
	sigaddset(&signals, SIGTERM);
	sigaddset(&signals, SIGINT);
	pthread_sigmask(SIG_BLOCK, &signals, NULL);
	signal(SIGPIPE, SIG_IGN);

	struct MHD_Daemon *d = MHD_start_daemon(
	    flags, (uint16_t)port, NULL, NULL, bare_access, NULL, MHD_OPTION_SOCK_ADDR, addr,
	    MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_CONNECTION_TIMEOUT,
	    (unsigned)BARE_TIMEOUT, MHD_OPTION_CONNECTION_LIMIT, (unsigned)BARE_MAX_CONNECTIONS,
	    MHD_OPTION_NOTIFY_COMPLETED, bare_completed, NULL, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
	    (size_t)memory, MHD_OPTION_END);
	if (!d) {
		fprintf(stderr, "bare_server: cannot listen on %s port %u\n", host, port);
		return 1;
	}
	const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	if (!info || info->port == 0) {
		fprintf(stderr, "bare_server: cannot read back the port\n");
		MHD_stop_daemon(d);
		return 1;
	}
	const char *lb = strchr(host, ':') ? "[" : "";
	const char *rb = strchr(host, ':') ? "]" : "";
	printf("bare_server listening on http://%s%s%s:%u\n", lb, host, rb, (unsigned)info->port);
	fflush(stdout);

	int sig;
	while (sigwait(&signals, &sig) != 0)
		;
	MHD_stop_daemon(d);
	return 0;

out_usage:
	bare_usage(stderr);
	return 2;
}
