/*
 * Failure injection on the request path, after jansson's test_chaos.c:
 * every request is answered again and again with jansson's allocator made
 * to fail at the 1st, 2nd, ... allocation, until a run needs no failure.
 * Each run must give either the right answer or the fixed 500, and never
 * crash or leak (run under valgrind or SANITIZER=address to see leaks).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "route/route.h"

static int allocs_left; /* allocations to allow before failing; < 0: never fail */
static int failed;	/* whether an allocation was refused in this run */

static void *chaos_malloc(size_t size)
{
	if (allocs_left == 0) {
		failed = 1;
		return NULL;
	}
	if (allocs_left > 0)
		allocs_left--;
	return malloc(size);
}

static void chaos_free(void *p)
{
	free(p);
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
};

static void every_allocation_failure_should_end_in_the_answer_or_a_500(void **state)
{
	(void)state;
	json_set_alloc_funcs(chaos_malloc, chaos_free);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct chaos_case *c = &cases[i];
		for (int budget = 0;; budget++) {
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
			allocs_left = budget;
			failed = 0;
			route_handle(&req, &resp);
			allocs_left = -1;
			if (resp.status != c->want && resp.status != 500)
				fail_msg("%s %s with %d allocations: status %u", c->method, c->path,
					 budget, resp.status);
			if (resp.status == 500)
				assert_true(failed);
			route_response_free(&resp);
			if (!failed) {
				assert_int_equal(resp.status, c->want);
				break;
			}
		}
	}
	json_set_alloc_funcs(malloc, free);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(every_allocation_failure_should_end_in_the_answer_or_a_500),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
