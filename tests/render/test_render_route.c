/*
 * Unit tests of route_render_body (src/route/render.c): solve's single case
 * answered as SVG, from JSON or Baekjoon text, for both problems. The
 * answer stated in the picture is the statement's; a trace draws every
 * step and the final state; a batch is 406; faults are located as solve
 * locates them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "route/handlers.h"

static const struct route_limits limits = {
    .max_body = 1 << 20,
    .max_blocks = 1000000,
    .max_batch = 1000,
};

static unsigned count(const char *s, size_t len, const char *needle)
{
	unsigned n = 0;
	size_t k = strlen(needle);
	for (size_t i = 0; i + k <= len; i++)
		n += memcmp(s + i, needle, k) == 0;
	return n;
}

/* Answers `body` for problem p as its solve route would (the parameters
 * read from the table's row); `cell` NULL for the default. */
static void answer(const struct problem *p, const char *content_type, const char *body, bool trace,
		   const char *cell, struct route_response *resp)
{
	struct route_request req = {
	    .method = "POST",
	    .path = p == &problem_md ? "/v1/monomino-domino" : "/v1/puyo",
	    .content_type = content_type,
	    .accept = "image/svg+xml",
	    .body = body,
	    .body_len = strlen(body),
	    .limits = &limits,
	};
	if (cell) {
		req.params[0] = (struct route_param){"cell", cell};
		req.nparams = 1;
	}
	struct route_call call = {
	    .req = &req, .bytes = body, .nbytes = strlen(body), .format = ROUTE_FORMAT_SVG};
	size_t n;
	const struct route_entry *e = route_entries(&n);
	for (size_t i = 0; i < n && !call.entry; i++)
		if (strcmp(e[i].path, req.path) == 0)
			call.entry = &e[i];
	assert_non_null(call.entry);
	struct codec_error err;
	codec_error_init(&err);
	if (route_read_params(&call, &err) != ROUTE_OK) {
		route_error_response_id(&err, NULL, resp);
		return;
	}
	memset(resp, 0, sizeof *resp);
	route_render_body(&call, trace, resp);
}

static const char md_example_7[] = "8\n1 1 1\n2 3 0\n3 2 2\n3 2 3\n3 1 3\n2 0 0\n3 2 0\n3 1 2\n";

static void render_body_should_draw_the_md_answer_from_text_and_json(void **state)
{
	(void)state;
	struct route_response resp;
	answer(&problem_md, "text/plain", md_example_7, false, NULL, &resp);
	assert_int_equal(resp.status, 200);
	assert_string_equal(resp.content_type, "image/svg+xml");
	/* Example 7: score 2, 15 tiles. */
	assert_int_equal(count(resp.body, resp.body_len, "Answer: score 2 and 15 tiles"), 1);
	assert_int_equal(count(resp.body, resp.body_len, "<svg class=\"frame\""), 1);
	route_response_free(&resp);

	answer(&problem_md, "application/json",
	       "{\"blocks\": [[1,1,1],{\"t\":2,\"x\":3,\"y\":0}], \"trace\": true}", false, "16",
	       &resp);
	assert_int_equal(resp.status, 200);
	/* Example 2: score 0, 6 tiles; two placements and the final frame. */
	assert_int_equal(count(resp.body, resp.body_len, "Answer: score 0 and 6 tiles"), 1);
	assert_int_equal(count(resp.body, resp.body_len, "<svg class=\"frame\""), 3);
	route_response_free(&resp);
}

static void render_body_should_draw_the_puyo_chain_from_rows_and_links(void **state)
{
	(void)state;
	struct route_response resp;
	answer(&problem_puyo, "text/plain",
	       "......\n......\n......\n......\n......\n......\n......\n......\n.Y....\n.YG...\n"
	       "RRYG..\nRRYGG.\n",
	       true, NULL, &resp);
	assert_int_equal(resp.status, 200);
	assert_int_equal(count(resp.body, resp.body_len, "Answer: 3 chains"), 1);
	assert_int_equal(count(resp.body, resp.body_len, "<svg class=\"frame\""), 4);
	route_response_free(&resp);

	answer(&problem_puyo, "application/json", "{\"puyop\": \"4004g09y09yg\"}", false, NULL,
	       &resp);
	assert_int_equal(resp.status, 200);
	assert_int_equal(count(resp.body, resp.body_len, "Answer: 3 chains"), 1);
	route_response_free(&resp);
}

static void render_body_should_refuse_batches_and_locate_faults(void **state)
{
	(void)state;
	struct route_response resp;
	answer(&problem_md, "application/json", "{\"cases\": []}", false, NULL, &resp);
	assert_int_equal(resp.status, 406);
	route_response_free(&resp);

	answer(&problem_md, "text/plain", "2\n1 1 1\n4 0 0\n", false, NULL, &resp);
	assert_int_equal(resp.status, 422);
	assert_int_equal(count(resp.body, resp.body_len, "\"line\":3"), 1);
	route_response_free(&resp);

	answer(&problem_puyo, "application/json", "{\"puyo_nexus\": \"4B\"}", false, NULL, &resp);
	assert_int_equal(resp.status, 422);
	assert_int_equal(count(resp.body, resp.body_len, "\"pointer\":\"/puyo_nexus\""), 1);
	route_response_free(&resp);

	answer(&problem_md, "text/plain", md_example_7, false, "7", &resp);
	assert_int_equal(resp.status, 422);
	assert_int_equal(count(resp.body, resp.body_len, "\"parameter\":\"cell\""), 1);
	route_response_free(&resp);

	/* A trace of more steps than a strip draws: 422 at the case's trace. */
	static char big[8192]; /* 26 + 501 * 8 + 2 bytes */
	size_t n = (size_t)snprintf(big, sizeof big, "{\"trace\": true, \"blocks\": [");
	for (int i = 0; i < 501; i++)
		n += (size_t)snprintf(big + n, sizeof big - n, "%s[1,0,0]", i ? "," : "");
	snprintf(big + n, sizeof big - n, "]}");
	answer(&problem_md, "application/json", big, false, NULL, &resp);
	assert_int_equal(resp.status, 422);
	assert_int_equal(count(resp.body, resp.body_len, "\"pointer\":\"/trace\""), 1);
	route_response_free(&resp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(render_body_should_draw_the_md_answer_from_text_and_json),
	    cmocka_unit_test(render_body_should_draw_the_puyo_chain_from_rows_and_links),
	    cmocka_unit_test(render_body_should_refuse_batches_and_locate_faults),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
