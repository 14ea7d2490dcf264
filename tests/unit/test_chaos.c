/*
 * Failure injection on the request path, after jansson's test_chaos.c:
 * every request is answered again and again with the allocation seam
 * (mem/alloc.h, which jansson also allocates through) made to fail at the
 * 1st, 2nd, ... allocation, until a run needs no failure. Twice: through
 * route_handle() alone, and through the real HTTP server (http/server.c,
 * its per-request state and body buffer included) over a loopback socket.
 * Each run must give either the right answer or a 500 problem+json, and
 * never crash or leak (make test-sanitize runs this under LeakSanitizer,
 * make test-valgrind under memcheck).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <jansson.h>

#include "http/server.h"
#include "mem/alloc.h"
#include "route/route.h"

/* Allocations to allow before failing; < 0: never fail. Atomic: the server's thread allocates. */
static atomic_int allocs_left = -1;
static atomic_int failed; /* whether an allocation was refused in this run */

/* Whether this allocation may go ahead. */
static int chaos_allow(void)
{
	int left = atomic_load(&allocs_left);
	while (left > 0 && !atomic_compare_exchange_weak(&allocs_left, &left, left - 1))
		;
	if (left == 0) {
		atomic_store(&failed, 1);
		return 0;
	}
	return 1;
}

static void *chaos_malloc(size_t size)
{
	return chaos_allow() ? malloc(size) : NULL;
}

static void *chaos_realloc(void *p, size_t size)
{
	return chaos_allow() ? realloc(p, size) : NULL;
}

static void chaos_free(void *p)
{
	free(p);
}

static int chaos_setup(void **state)
{
	(void)state;
	dj_alloc_set(chaos_malloc, chaos_realloc, chaos_free);
	json_set_alloc_funcs(dj_malloc, dj_free);
	return 0;
}

static int chaos_teardown(void **state)
{
	(void)state;
	json_set_alloc_funcs(malloc, free);
	dj_alloc_set(NULL, NULL, NULL);
	return 0;
}

static const struct route_limits limits = {
    .max_body = 1 << 20,
    .max_blocks = 1000000,
    .max_batch = 1000,
};

struct chaos_case {
	const char *method;
	const char *path;
	const char *query_key; /* one parameter or NULL */
	const char *query_value;
	const char *content_type;
	const char *body;
	unsigned want; /* status when no allocation fails */
};

static const struct chaos_case cases[] = {
    {"GET", "/v1", NULL, NULL, NULL, NULL, 200},
    {"GET", "/readyz", NULL, NULL, NULL, NULL, 200},
    {"POST", "/v1/monomino-domino", "trace", "true", "application/json",
     "{\"blocks\":[[1,1,1],[2,3,0],[3,2,2],[3,2,3]]}", 200},
    {"POST", "/v1/monomino-domino", NULL, NULL, "application/json",
     "{\"cases\":[{\"blocks\":[[1,1,1]]},{\"blocks\":[[9,1,1]]}]}", 200},
    {"POST", "/v1/monomino-domino", NULL, NULL, "application/json", "{\"blocks\":[[9,1,1]]}", 422},
    {"POST", "/v1/puyo", "trace", "true", "text/plain",
     "......\n......\n......\n......\n......\n......\n......\n......\n.Y....\n.YG...\n"
     "RRYG..\nRRYGG.\n",
     200},
    {"POST", "/v1/puyo/judge", NULL, NULL, "application/json",
     "{\"cases\":[{\"input\":{\"field\":[\"......\",\"......\",\"......\",\"......\",\"......\","
     "\"......\",\"......\",\"......\",\"......\",\"......\",\"......\",\"RRRR..\"]},"
     "\"output\":\"1\"},{\"input\":3,\"output\":\"1\"}]}",
     200},
    {"POST", "/v1/monomino-domino/validate", NULL, NULL, "text/plain", "2\n4 0 0\n1 9 9\n", 200},
    {"GET", "/v1/monomino-domino/generate", "n", "20", NULL, NULL, 200},
    {"GET", "/v1/puyo/generate", "min_chains", "2", NULL, NULL, 200},
    {"GET", "/nowhere", NULL, NULL, NULL, NULL, 404},
};
#define NCASES (sizeof cases / sizeof cases[0])
/* More allocations than any case makes: a run past it is a loop. */
#define CHAOS_MAX_BUDGET 100000

/*
 * Checks that body[0..len) is a problem+json for status 500, parsed with
 * the seam not failing.
 */
static void assert_internal_problem(const char *what, const char *body, size_t len)
{
	json_error_t jerr;
	json_t *p = json_loadb(body, len, 0, &jerr);
	if (!p)
		fail_msg("%s: the 500 body is not JSON: %.*s", what, (int)len, body);
	assert_int_equal(json_integer_value(json_object_get(p, "status")), 500);
	assert_string_equal(json_string_value(json_object_get(p, "type")), "/errors/internal");
	json_decref(p);
}

static void every_route_allocation_failure_should_end_in_the_answer_or_a_500(void **state)
{
	(void)state;
	for (size_t i = 0; i < NCASES; i++) {
		const struct chaos_case *c = &cases[i];
		for (int budget = 0; budget < CHAOS_MAX_BUDGET; budget++) {
			struct route_request req = {
			    .method = c->method,
			    .path = c->path,
			    .content_type = c->content_type,
			    .body = c->body,
			    .body_len = c->body ? strlen(c->body) : 0,
			    .limits = &limits,
			};
			if (c->query_key) {
				req.params[0].key = c->query_key;
				req.params[0].value = c->query_value;
				req.nparams = 1;
			}
			struct route_response resp;
			atomic_store(&failed, 0);
			atomic_store(&allocs_left, budget);
			route_handle(&req, &resp);
			atomic_store(&allocs_left, -1);
			if (resp.status != c->want && resp.status != 500)
				fail_msg("%s %s with %d allocations: status %u", c->method, c->path,
					 budget, resp.status);
			if (resp.status == 500) {
				assert_true(atomic_load(&failed));
				assert_string_equal(resp.content_type, "application/problem+json");
				assert_internal_problem(c->path, resp.body, resp.body_len);
			}
			route_response_free(&resp);
			if (!atomic_load(&failed)) {
				assert_int_equal(resp.status, c->want);
				break;
			}
		}
	}
}

static void the_out_of_memory_answer_should_need_no_allocation(void **state)
{
	(void)state;
	struct route_request req = {.method = "GET", .path = "/v1", .limits = &limits};
	struct route_response resp;
	atomic_store(&failed, 0);
	atomic_store(&allocs_left, 0);
	route_handle(&req, &resp);
	atomic_store(&allocs_left, -1);
	assert_int_equal(resp.status, 500);
	assert_true(resp.body_static);
	size_t len;
	const char *body = route_oom_body(&len);
	assert_ptr_equal(resp.body, body);
	assert_int_equal(resp.body_len, len);
	assert_internal_problem("the fixed 500", body, len);
	route_response_free(&resp);
}

/* --- through the HTTP server -------------------------------------------- */

/* What one exchange over a socket gave. */
struct exchange {
	unsigned status;    /* 0: no answer */
	char type[64];	    /* Content-Type */
	char body[1 << 16]; /* NUL-terminated */
	size_t body_len;
};

/* Sends c to 127.0.0.1:port with "Connection: close" and reads the whole answer. */
static void http_exchange(unsigned port, const struct chaos_case *c, struct exchange *x)
{
	static char raw[1 << 17];
	char req[4096];
	size_t blen = c->body ? strlen(c->body) : 0;
	int n = snprintf(
	    req, sizeof req, "%s %s%s%s%s%s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n",
	    c->method, c->path, c->query_key ? "?" : "", c->query_key ? c->query_key : "",
	    c->query_key ? "=" : "", c->query_key ? c->query_value : "");
	if (c->body)
		n += snprintf(req + n, sizeof req - (size_t)n,
			      "Content-Type: %s\r\nContent-Length: %zu\r\n\r\n%s", c->content_type,
			      blen, c->body);
	else
		n += snprintf(req + n, sizeof req - (size_t)n, "\r\n");
	assert_true(n > 0 && (size_t)n < sizeof req);

	int fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	struct timeval tv = {.tv_sec = 10, .tv_usec = 0};
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(connect(fd, (struct sockaddr *)&addr, sizeof addr), 0);
	assert_int_equal(send(fd, req, (size_t)n, MSG_NOSIGNAL), n);
	size_t got = 0;
	for (;;) {
		ssize_t r = recv(fd, raw + got, sizeof raw - 1 - got, 0);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	raw[got] = '\0';

	memset(x, 0, sizeof *x);
	unsigned status = 0;
	if (sscanf(raw, "HTTP/1.1 %3u", &status) != 1)
		return;
	x->status = status;
	const char *ct = strstr(raw, "Content-Type: ");
	if (ct)
		sscanf(ct + 14, "%63[^\r\n]", x->type);
	const char *body = strstr(raw, "\r\n\r\n");
	if (body) {
		body += 4;
		x->body_len = got - (size_t)(body - raw);
		memcpy(x->body, body, x->body_len);
	}
}

static void every_http_allocation_failure_should_end_in_the_answer_or_a_500(void **state)
{
	(void)state;
	char err[256];
	const struct http_config cfg = {
	    .host = "127.0.0.1",
	    .port = 0,
	    .threads = 2,
	    .timeout = 10,
	    .max_connections = 8,
	    .header_timeout = 10,
	    .body_timeout = 10,
	    .limits = limits,
	};
	struct http_server *srv = http_server_start(&cfg, err, sizeof err);
	if (!srv)
		fail_msg("cannot start the server: %s", err);
	unsigned port = http_server_port(srv);
	static struct exchange x;
	unsigned runs = 0, oom = 0;

	for (size_t i = 0; i < NCASES; i++) {
		const struct chaos_case *c = &cases[i];
		for (int budget = 0; budget < CHAOS_MAX_BUDGET; budget++) {
			atomic_store(&failed, 0);
			atomic_store(&allocs_left, budget);
			http_exchange(port, c, &x);
			atomic_store(&allocs_left, -1);
			runs++;
			if (x.status != c->want && x.status != 500)
				fail_msg("%s %s with %d allocations: status %u", c->method, c->path,
					 budget, x.status);
			if (x.status == 500) {
				oom++;
				assert_true(atomic_load(&failed));
				assert_string_equal(x.type, "application/problem+json");
				assert_internal_problem(c->path, x.body, x.body_len);
			}
			if (!atomic_load(&failed)) {
				assert_int_equal(x.status, c->want);
				break;
			}
		}
	}
	http_server_stop(srv);
	print_message("%u HTTP exchanges, %u answered 500\n", runs, oom);
	assert_true(oom > NCASES); /* the seam did reach the server's path */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(every_route_allocation_failure_should_end_in_the_answer_or_a_500),
	    cmocka_unit_test(the_out_of_memory_answer_should_need_no_allocation),
	    cmocka_unit_test(every_http_allocation_failure_should_end_in_the_answer_or_a_500),
	};
	return cmocka_run_group_tests(tests, chaos_setup, chaos_teardown);
}
