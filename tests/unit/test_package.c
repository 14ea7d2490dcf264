/*
 * The package builder: requests checked at the parameter at fault, the
 * archives' signatures, reproducible bytes, the statement renderers'
 * escaping, template expansion, and failure injection: every allocation
 * of the builder made to fail in turn must end in CODEC_E_INTERNAL with
 * nothing leaked (through the allocation seam, mem/alloc.h; libarchive's
 * own allocations are not reached; run under SANITIZER=address to see
 * leaks).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mem/alloc.h"
#include "package/package.h"
#include "package/statement.h"
#include "problem/text.h"

/* --- Failure injection through the allocation seam (mem/alloc.h) ------- */

static long allocs_left = -1; /* allocations to allow before failing; < 0: never fail */
static int failed;

static int chaos_refuse(void)
{
	if (allocs_left == 0) {
		failed = 1;
		return 1;
	}
	if (allocs_left > 0)
		allocs_left--;
	return 0;
}

static void *chaos_malloc(size_t size)
{
	return chaos_refuse() ? NULL : malloc(size);
}

static void *chaos_realloc(void *p, size_t size)
{
	return chaos_refuse() ? NULL : realloc(p, size);
}

static void chaos_free(void *p)
{
	free(p);
}

/* --- Tests ---------------------------------------------------------------- */

static struct package_request request(const char *problem, enum package_format format)
{
	return (struct package_request){
	    .problem = problem, .format = format, .tests = 12, .seed = 9, .min_chains = 5};
}

static void package_check_should_name_the_parameter_at_fault(void **state)
{
	(void)state;
	static const struct {
		struct package_request req;
		const char *parameter;
	} cases[] = {
	    {{"tetris", PACKAGE_KATTIS, 10, 1, 5, NULL, NULL}, "problem"},
	    {{"puyo", PACKAGE_FORMAT_COUNT, 10, 1, 5, NULL, NULL}, "format"},
	    {{"puyo", PACKAGE_KATTIS, 0, 1, 5, NULL, NULL}, "tests"},
	    {{"puyo", PACKAGE_KATTIS, PACKAGE_MAX_TESTS + 1, 1, 5, NULL, NULL}, "tests"},
	    {{"puyo", PACKAGE_KATTIS, 10, 1, 0, NULL, NULL}, "min_chains"},
	    {{"puyo", PACKAGE_KATTIS, 10, 1, 13, NULL, NULL}, "min_chains"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct codec_error err;
		codec_error_init(&err);
		assert_int_equal(package_check(&cases[i].req, &err), CODEC_E_INVALID);
		assert_int_equal(err.nfaults, 1);
		assert_string_equal(err.faults[0].parameter, cases[i].parameter);
	}
	/* min_chains means nothing to Monomino-Domino. */
	struct package_request md = {"monomino-domino", PACKAGE_POLYGON, 1, 0, 0, NULL, NULL};
	assert_int_equal(package_check(&md, NULL), CODEC_OK);
}

/* package_request.stop: true from its third call on, saying why. */
static bool stop_at_third(void *ctx, struct codec_error *err)
{
	unsigned *calls = ctx;
	if (++*calls < 3)
		return false;
	codec_error_set(err, CODEC_E_TOO_LARGE, "stopped at the third call");
	return true;
}

static void package_build_should_stop_when_asked_between_tests(void **state)
{
	(void)state;
	unsigned calls = 0;
	struct package_request req = {.problem = "monomino-domino",
				      .format = PACKAGE_POLYGON,
				      .tests = PACKAGE_MAX_TESTS,
				      .seed = 1,
				      .stop = stop_at_third,
				      .stop_ctx = &calls};
	struct codec_error err;
	char *data = (char *)&req;
	size_t len = 1;
	codec_error_init(&err);
	assert_int_equal(package_build_memory(&req, PACKAGE_ZIP, &data, &len, &err),
			 CODEC_E_TOO_LARGE);
	assert_string_equal(err.detail, "stopped at the third call"); /* the stop's own error */
	assert_null(data);
	assert_int_equal(calls, 3); /* not asked again once it said stop */
}

static void package_formats_should_read_back_their_names(void **state)
{
	(void)state;
	for (unsigned f = 0; f < PACKAGE_FORMAT_COUNT; f++) {
		enum package_format back;
		assert_true(package_format_from_name(package_format_name(f), &back));
		assert_int_equal(back, f);
	}
	enum package_format none;
	assert_false(package_format_from_name("Kattis", &none));
	assert_false(package_format_from_name(NULL, &none));
}

static void package_build_should_give_a_zip_or_a_gzip_and_the_same_bytes_twice(void **state)
{
	(void)state;
	static const unsigned char zip[] = {'P', 'K', 3, 4}, gz[] = {0x1f, 0x8b};
	for (unsigned f = 0; f < PACKAGE_FORMAT_COUNT; f++) {
		for (int sink = PACKAGE_ZIP; sink <= PACKAGE_TAR_GZ; sink++) {
			struct package_request req = request(f % 2 ? "puyo" : "monomino-domino", f);
			char *a, *b;
			size_t alen, blen;
			assert_int_equal(package_build_memory(&req, sink, &a, &alen, NULL),
					 CODEC_OK);
			assert_int_equal(package_build_memory(&req, sink, &b, &blen, NULL),
					 CODEC_OK);
			assert_true(alen > 100);
			assert_memory_equal(
			    a, sink == PACKAGE_ZIP ? (const void *)zip : (const void *)gz,
			    sink == PACKAGE_ZIP ? sizeof zip : sizeof gz);
			assert_int_equal(alen, blen);
			assert_memory_equal(a, b, alen);
			req.seed++;
			dj_free(b);
			assert_int_equal(package_build_memory(&req, sink, &b, &blen, NULL),
					 CODEC_OK);
			assert_false(alen == blen && memcmp(a, b, alen) == 0);
			dj_free(a);
			dj_free(b);
		}
	}
}

static void package_build_memory_should_refuse_a_directory(void **state)
{
	(void)state;
	struct package_request req = request("puyo", PACKAGE_KATTIS);
	char *data = (char *)&req;
	size_t len = 1;
	struct codec_error err;
	codec_error_init(&err);
	assert_int_equal(package_build_memory(&req, PACKAGE_DIRECTORY, &data, &len, &err),
			 CODEC_E_INTERNAL);
	assert_int_equal(err.status, CODEC_E_INTERNAL);
}

static void every_allocation_failure_should_end_in_an_internal_error(void **state)
{
	(void)state;
	for (unsigned f = 0; f < PACKAGE_FORMAT_COUNT; f++) {
		struct package_request req = request(f == 1 ? "puyo" : "monomino-domino", f);
		req.tests = 9;
		for (long n = 0;; n++) {
			struct codec_error err;
			codec_error_init(&err);
			char *data = NULL;
			size_t len = 0;
			allocs_left = n;
			failed = 0;
			dj_alloc_set(chaos_malloc, chaos_realloc, chaos_free);
			enum codec_status st =
			    package_build_memory(&req, PACKAGE_ZIP, &data, &len, &err);
			dj_alloc_set(NULL, NULL, NULL);
			allocs_left = -1;
			if (!failed) {
				assert_int_equal(st, CODEC_OK);
				dj_free(data);
				/* Every test's text, the sink, the table: many were refused. */
				assert_true(n > 2 * (long)req.tests);
				break;
			}
			assert_int_equal(st, CODEC_E_INTERNAL);
			assert_null(data);
			assert_int_equal(err.status, CODEC_E_INTERNAL);
			assert_true(n < 100000);
		}
	}
}

static void render(const struct statement *st, enum statement_style style, char *out, size_t size)
{
	struct problem_text t;
	problem_text_init(&t);
	statement_render(st, style, &t);
	assert_false(t.failed);
	snprintf(out, size, "%s", t.data);
	problem_text_free(&t);
}

static void statements_should_escape_each_language_and_keep_the_structure(void **state)
{
	(void)state;
	static const struct statement_example ex[] = {{"1\n_\n", "2 & 3\n"}};
	const struct statement st = {
	    .title = "A_B",
	    .source = "Somewhere",
	    .legend = "Cost is 100% of $5 & #1 <= x_y {z} ~^\\.\n\n- **one** `a_b`\n- two",
	    .input = "In.",
	    .output = "Out.",
	    .time_limit_ms = 1500,
	    .memory_mib = 64,
	    .examples = ex,
	    .nexamples = 1,
	};
	char out[8192];
	render(&st, STATEMENT_KATTIS_LATEX, out, sizeof out);
	assert_non_null(strstr(out, "\\problemname{A\\_B}\n"));
	assert_non_null(strstr(out, "Cost is 100\\% of \\$5 \\& \\#1 \\textless{}= x\\_y \\{z\\} "
				    "\\~{}\\^{}\\textbackslash{}."));
	assert_non_null(strstr(out,
			       "\\begin{itemize}\n\\item \\textbf{one} \\texttt{a\\_b}\n\\item "
			       "two\n\\end{itemize}"));
	assert_non_null(strstr(out, "\\section*{Input}\n\nIn."));
	assert_null(strstr(out, "2 & 3"));
	render(&st, STATEMENT_POLYGON_LATEX, out, sizeof out);
	assert_non_null(strstr(out,
			       "\\begin{problem}{A\\_B}{standard input}{standard output}{1.500 "
			       "seconds}{64 megabytes}"));
	assert_non_null(strstr(out, "\\exmp{1\n_\n}{2 & 3\n}%"));
	render(&st, STATEMENT_HTML, out, sizeof out);
	assert_non_null(strstr(out, "<p>Cost is 100% of $5 &amp; #1 &lt;= x_y {z} ~^\\.</p>"));
	assert_non_null(strstr(out, "<ul>\n<li><strong>one</strong> <code>a_b</code></li>\n"));
	assert_non_null(strstr(out, "<pre>2 &amp; 3\n</pre>"));
	render(&st, STATEMENT_MARKDOWN, out, sizeof out);
	assert_non_null(strstr(out, "# A_B\n\nTime limit: 1.500 seconds. Memory limit: 64 MiB."));
	assert_non_null(strstr(out, "- **one** `a_b`\n- two"));
	assert_non_null(strstr(out, "### Example 1\n\nInput:\n\n```\n1\n_\n```\n"));
}

static void package_file_names_should_be_what_each_judge_expects(void **state)
{
	(void)state;
	char name[64];
	struct package_request req = request("monomino-domino", PACKAGE_DOMJUDGE);
	package_file_name(&req, PACKAGE_ZIP, name, sizeof name);
	assert_string_equal(name, "monominodomino.zip");
	req.format = PACKAGE_POLYGON;
	package_file_name(&req, PACKAGE_TAR_GZ, name, sizeof name);
	assert_string_equal(name, "monominodomino-polygon.tar.gz");
	req = request("puyo", PACKAGE_KATTIS);
	package_file_name(&req, PACKAGE_ZIP, name, sizeof name);
	assert_string_equal(name, "puyo.zip");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(package_check_should_name_the_parameter_at_fault),
	    cmocka_unit_test(package_formats_should_read_back_their_names),
	    cmocka_unit_test(package_build_should_give_a_zip_or_a_gzip_and_the_same_bytes_twice),
	    cmocka_unit_test(package_build_memory_should_refuse_a_directory),
	    cmocka_unit_test(package_build_should_stop_when_asked_between_tests),
	    cmocka_unit_test(every_allocation_failure_should_end_in_an_internal_error),
	    cmocka_unit_test(statements_should_escape_each_language_and_keep_the_structure),
	    cmocka_unit_test(package_file_names_should_be_what_each_judge_expects),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
