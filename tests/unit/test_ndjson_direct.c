/*
 * The fast lines of streams of cases (route/ndjson.c) against the
 * straightforward path: random streams of good and bad lines (canonical
 * cases, ids of every JSON type, faults, batches, blank lines, CRLF, lines
 * over the limit, a BOM) must be answered with the same bytes whether the
 * fast reader takes lines or every line goes through route_handle(), held
 * (packed records, read back as sent) or written to a sink; and each answer
 * line must be the bytes of its line sent alone as a request: the answer
 * with the "id" last, or {"line": n, "id": ..., "error": problem}.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "dropjudge/gen.h"
#include "route/handlers.h"

static const struct route_limits limits = {
    .max_body = 1 << 20,
    .max_json_body = 600,
    .max_blocks = 1000,
    .max_batch = 10,
    .max_trace_steps = 100000,
};

/* A growing buffer of bytes. */
struct bytes {
	char *data;
	size_t len;
	size_t cap;
};

static void bytes_add(struct bytes *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->data = realloc(b->data, b->cap);
		assert_non_null(b->data);
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

static void bytes_str(struct bytes *b, const char *s)
{
	bytes_add(b, s, strlen(s));
}

static int bytes_put(const char *s, size_t n, void *ctx)
{
	bytes_add(ctx, s, n);
	return 0;
}

/* Ids of every JSON type; the string and integer ones are echoed. */
static const char *const ids[] = {
    "\"a\"",
    "\"\\u00e9t\\u00e9 \\\"q\\\"\"",
    "7",
    "-12",
    "123456789012345",
    "1.5",
    "true",
    "false",
    "null",
    "[1]",
    "{\"x\":1}",
    "\"\"",
};
#define NIDS (sizeof ids / sizeof ids[0])

/* A random Puyo field: rows strings of `.RGBPYO` (a bad byte now and then). */
static void random_field(struct gen_rng *rng, struct bytes *b, const char *sep)
{
	static const char cells[] = ".RGBPYO";
	unsigned rows = gen_rng_below(rng, 8) == 0 ? 13 : 12;
	if (gen_rng_below(rng, 20) == 0)
		rows = 11;
	bytes_str(b, "[");
	for (unsigned r = 0; r < rows; r++) {
		char row[9] = "\"......\"";
		for (unsigned c = 0; c < 6; c++)
			row[1 + c] =
			    gen_rng_below(rng, 3) == 0 ? '.' : cells[gen_rng_below(rng, 7)];
		if (gen_rng_below(rng, 40) == 0)
			row[1 + gen_rng_below(rng, 6)] = 'x';
		if (r > 0)
			bytes_str(b, sep);
		bytes_str(b, row);
	}
	bytes_str(b, "]");
}

/* A random Monomino-Domino case {"blocks": [...]}, some out of range. */
static void random_blocks(struct gen_rng *rng, struct bytes *b)
{
	bytes_str(b, "{\"blocks\":[");
	unsigned n = (unsigned)gen_rng_below(rng, 12);
	for (unsigned i = 0; i < n; i++) {
		char blk[48];
		snprintf(blk, sizeof blk, "%s[%u,%u,%u]", i ? "," : "",
			 1 + (unsigned)gen_rng_below(rng, gen_rng_below(rng, 30) ? 3 : 4),
			 (unsigned)gen_rng_below(rng, 4), (unsigned)gen_rng_below(rng, 4));
		bytes_str(b, blk);
	}
	bytes_str(b, "]}");
}

/* One random line of a stream, without its end. */
static void random_line(struct gen_rng *rng, struct bytes *b, bool md)
{
	switch (gen_rng_below(rng, 14)) {
	case 0:
	case 1:
	case 2:
	case 3: /* the canonical case, compact or spaced */
		if (md) {
			random_blocks(rng, b);
			break;
		}
		bytes_str(b, gen_rng_below(rng, 2) ? "{\"field\":" : "{ \"field\" : ");
		random_field(rng, b, gen_rng_below(rng, 2) ? "," : ", ");
		bytes_str(b, gen_rng_below(rng, 2) ? "}" : " }");
		break;
	case 4:
	case 5: /* with an id of any type, before or after */
		if (gen_rng_below(rng, 2)) {
			bytes_str(b, "{\"id\":");
			bytes_str(b, ids[gen_rng_below(rng, NIDS)]);
			bytes_str(b, md ? ",\"blocks\":[[1,0,0]]}" : ",\"field\":");
			if (!md) {
				random_field(rng, b, ",");
				bytes_str(b, "}");
			}
		} else {
			if (md)
				bytes_str(b, "{\"blocks\":[[2,1,1]]");
			else {
				bytes_str(b, "{\"field\":");
				random_field(rng, b, ",");
			}
			bytes_str(b, ",\"id\":");
			bytes_str(b, ids[gen_rng_below(rng, NIDS)]);
			bytes_str(b, "}");
		}
		break;
	case 6:
		bytes_str(b, "");
		break;
	case 7:
		bytes_str(b, gen_rng_below(rng, 2) ? " \t " : "\r");
		break;
	case 8:
		bytes_str(b, gen_rng_below(rng, 2) ? "{bad" : "[1,2]");
		break;
	case 9:
		bytes_str(b, "{\"id\":\"b\",\"cases\":[]}");
		break;
	case 10: /* a trace asked in the line */
		bytes_str(b, md ? "{\"blocks\":[[1,0,0]],\"trace\":true}"
				: "{\"trace\":true,\"field\":");
		if (!md) {
			random_field(rng, b, ",");
			bytes_str(b, "}");
		}
		break;
	case 11: /* over the line limit */
		bytes_str(b, "{\"id\":1,\"pad\":\"");
		for (unsigned i = 0; i < 70; i++)
			bytes_str(b, "xxxxxxxxxx");
		bytes_str(b, "\"}");
		break;
	case 12:
		bytes_str(b, "{\"field\":[\"......\"],\"id\":{\"deep\":[1,2]}}");
		break;
	default: /* a member the fast reader does not know */
		bytes_str(b, md ? "{\"blocks\":[],\"x\":1}" : "{\"field\":[],\"x\":1}");
		break;
	}
}

static struct route_request stream_request(const char *path)
{
	return (struct route_request){.method = "POST",
				      .path = path,
				      .content_type = "application/x-ndjson",
				      .limits = &limits};
}

/* The answer to body from a reader (direct or not), held and read back in
 * pieces of random size, or written to a sink. */
static void run(const char *path, const char *body, size_t len, bool direct, bool held,
		struct gen_rng *rng, struct bytes *out)
{
	struct route_request req = stream_request(path);
	struct route_ndjson *nd = route_ndjson_new(&req, held ? NULL : bytes_put, out, direct);
	assert_non_null(nd);
	for (size_t at = 0; at < len;) {
		size_t n = 1 + (size_t)gen_rng_below(rng, len - at);
		route_ndjson_feed(nd, body + at, n);
		at += n;
	}
	assert_int_equal(route_ndjson_end(nd), 0);
	if (held) {
		char buf[97];
		long n;
		while ((n = route_ndjson_read(nd, buf,
					      1 + (size_t)gen_rng_below(rng, sizeof buf))) > 0)
			bytes_add(out, buf, (size_t)n);
		assert_int_equal(n, 0);
	}
	route_ndjson_free(nd);
}

/* The expected answer bytes: each line as a request alone, then the
 * summary; lines over the limit are taken from `got` once checked. */
static void expect_lines(const char *path, const char *body, size_t len, const struct bytes *got,
			 struct bytes *want)
{
	unsigned long lineno = 0, cases = 0, failed = 0;
	const char *g = got->data, *gend = got->data + got->len;
	for (const char *p = body, *end = body + len; p < end;) {
		const char *lf = memchr(p, '\n', (size_t)(end - p));
		size_t n = lf ? (size_t)(lf - p) : (size_t)(end - p);
		const char *line = p;
		size_t llen = n > 0 && line[n - 1] == '\r' ? n - 1 : n;
		p += n + 1;
		lineno++;
		if (lineno == 1 && llen >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0) {
			line += 3;
			llen -= 3;
		}
		size_t k = 0;
		while (k < llen && (line[k] == ' ' || line[k] == '\t' || line[k] == '\r'))
			k++;
		if (k == llen)
			continue;
		cases++;
		/* the answer line in got at the same place, for the checks below */
		const char *glf = g < gend ? memchr(g, '\n', (size_t)(gend - g)) : NULL;
		assert_non_null(glf);
		if (llen > limits.max_json_body) {
			json_t *a = json_loadb(g, (size_t)(glf - g), 0, NULL);
			assert_int_equal(json_integer_value(json_object_get(a, "line")), lineno);
			assert_int_equal(json_integer_value(json_object_get(
					     json_object_get(a, "error"), "status")),
					 413);
			json_decref(a);
			bytes_add(want, g, (size_t)(glf - g) + 1);
			failed++;
			g = glf + 1;
			continue;
		}
		g = glf + 1;
		struct route_request req = {.method = "POST",
					    .path = path,
					    .content_type = "application/json",
					    .accept = "application/json",
					    .body = line,
					    .body_len = llen,
					    .limits = &limits};
		struct route_response alone;
		route_handle(&req, &alone);
		assert_true(route_response_gather(&alone));
		size_t blen = alone.body_len;
		while (blen > 0 && alone.body[blen - 1] == '\n')
			blen--;
		json_t *parsed = json_loadb(line, llen, 0, NULL);
		json_t *id = json_is_object(parsed) ? json_object_get(parsed, "id") : NULL;
		char *idtext = json_is_string(id) || json_is_integer(id)
				   ? json_dumps(id, JSON_COMPACT | JSON_ENCODE_ANY)
				   : NULL;
		if (json_is_object(parsed) && json_object_get(parsed, "cases")) {
			/* a batch on a line is that line's error: its bytes from got */
			const char *start = g - 1;
			while (start > got->data && start[-1] != '\n')
				start--;
			assert_non_null(strstr(start, "\"error\":"));
			bytes_add(want, start, (size_t)(g - start));
			failed++;
		} else if (alone.status == 200) {
			assert_true(blen > 0 && alone.body[blen - 1] == '}');
			if (idtext) {
				bytes_add(want, alone.body, blen - 1);
				bytes_str(want, blen > 2 ? ",\"id\":" : "\"id\":");
				bytes_str(want, idtext);
				bytes_str(want, "}");
			} else {
				bytes_add(want, alone.body, blen);
			}
			bytes_str(want, "\n");
		} else {
			char head[64];
			snprintf(head, sizeof head, "{\"line\":%lu,", lineno);
			bytes_str(want, head);
			if (idtext) {
				bytes_str(want, "\"id\":");
				bytes_str(want, idtext);
				bytes_str(want, ",");
			}
			bytes_str(want, "\"error\":");
			bytes_add(want, alone.body, blen);
			bytes_str(want, "}\n");
			failed++;
		}
		free(idtext);
		json_decref(parsed);
		route_response_free(&alone);
	}
	char summary[160];
	snprintf(summary, sizeof summary,
		 "{\"summary\":{\"cases\":%lu,\"answered\":%lu,\"failed\":%lu}}\n", cases,
		 cases - failed, failed);
	bytes_str(want, summary);
}

static void assert_same(const char *what, const char *body, const struct bytes *a,
			const struct bytes *b)
{
	if (a->len != b->len || memcmp(a->data, b->data, a->len) != 0) {
		size_t at = 0;
		while (at < a->len && at < b->len && a->data[at] == b->data[at])
			at++;
		fail_msg("%s differ at byte %zu\nbody: %s\nwant: %.*s\ngot:  %.*s", what, at, body,
			 (int)(a->len - at < 200 ? a->len - at : 200), a->data + at,
			 (int)(b->len - at < 200 ? b->len - at : 200), b->data + at);
	}
}

static void fast_lines_should_answer_the_bytes_of_each_line_alone(void **state)
{
	(void)state;
	static const char *const paths[] = {"/v1/puyo", "/v1/monomino-domino", "/v1/puyo/validate"};
	struct gen_rng rng;
	gen_rng_init(&rng, 2042);
	for (unsigned round = 0; round < 400; round++) {
		const char *path = paths[round % 3];
		bool md = strcmp(path, "/v1/monomino-domino") == 0;
		struct bytes body = {NULL, 0, 0};
		unsigned lines = 1 + (unsigned)gen_rng_below(&rng, 30);
		if (gen_rng_below(&rng, 8) == 0)
			bytes_str(&body, "\xEF\xBB\xBF");
		for (unsigned i = 0; i < lines; i++) {
			random_line(&rng, &body, md);
			bytes_str(&body, gen_rng_below(&rng, 3) == 0 ? "\r\n" : "\n");
		}
		if (gen_rng_below(&rng, 3) == 0)
			body.len--; /* a last line without its LF */
		struct bytes plain_held = {0}, direct_held = {0}, plain_put = {0}, direct_put = {0},
			     want = {0};
		run(path, body.data, body.len, false, true, &rng, &plain_held);
		run(path, body.data, body.len, true, true, &rng, &direct_held);
		run(path, body.data, body.len, false, false, &rng, &plain_put);
		run(path, body.data, body.len, true, false, &rng, &direct_put);
		expect_lines(path, body.data, body.len, &plain_held, &want);
		assert_same("the lines alone and the held straightforward answer", body.data, &want,
			    &plain_held);
		assert_same("the straightforward and the fast held answers", body.data, &plain_held,
			    &direct_held);
		assert_same("the held and the written answers", body.data, &plain_held, &plain_put);
		assert_same("the straightforward and the fast written answers", body.data,
			    &plain_put, &direct_put);
		free(body.data);
		free(plain_held.data);
		free(direct_held.data);
		free(plain_put.data);
		free(direct_put.data);
		free(want.data);
	}
}

/* Many packed lines: the held records span several blocks, and a text
 * line between them, read back in large pieces. */
static void a_long_stream_should_be_read_back_whole(void **state)
{
	(void)state;
	struct gen_rng rng;
	gen_rng_init(&rng, 7);
	struct bytes body = {0};
	for (unsigned i = 0; i < 30000; i++) {
		if (i % 1000 == 999)
			bytes_str(&body, "{bad\n");
		bytes_str(&body, "{\"field\":");
		random_field(&rng, &body, ",");
		bytes_str(&body, "}\n");
	}
	struct bytes plain = {0}, direct = {0};
	run("/v1/puyo", body.data, body.len, false, false, &rng, &plain);
	struct route_request req = stream_request("/v1/puyo");
	struct route_ndjson *nd = route_ndjson_new(&req, NULL, NULL, true);
	assert_non_null(nd);
	route_ndjson_feed(nd, body.data, body.len);
	assert_int_equal(route_ndjson_end(nd), 0);
	static char buf[1 << 18];
	long n;
	while ((n = route_ndjson_read(nd, buf, sizeof buf)) > 0)
		bytes_add(&direct, buf, (size_t)n);
	assert_int_equal(n, 0);
	route_ndjson_free(nd);
	assert_same("a long stream", "(30000 lines)", &plain, &direct);
	free(body.data);
	free(plain.data);
	free(direct.data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(fast_lines_should_answer_the_bytes_of_each_line_alone),
	    cmocka_unit_test(a_long_stream_should_be_read_back_whole),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
