/*
 * Unit tests of the checker (src/core/judge.c): a table of (expected, found,
 * verdict, part of the message) cases written from the rules of issue 3, the
 * message bounds (long tokens, odd bytes, no NUL), then a property test
 * against a naive reference checker written in this file straight from the
 * rules (normalise the lines, split the tokens, compare) on many thousands
 * of random outputs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "dropjudge/judge.h"

struct judge_case {
	const char *expected;
	const char *found;
	enum judge_verdict verdict;
	const char *message; /* must occur in the message; NULL: not checked */
};

static void judge_strings(const char *expected, const char *found, struct judge_report *report)
{
	memset(report, 0x55, sizeof *report); /* no stale NUL to lean on */
	judge_compare(expected, strlen(expected), found, strlen(found), report);
	assert_true(memchr(report->message, '\0', sizeof report->message) != NULL);
}

static void run_cases(const struct judge_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct judge_report r;
		judge_strings(cases[i].expected, cases[i].found, &r);
		if (r.verdict != cases[i].verdict ||
		    (cases[i].message && !strstr(r.message, cases[i].message))) {
			print_error("case %zu: expected %s with \"%s\", got %s: \"%s\"\n", i,
				    judge_verdict_name(cases[i].verdict),
				    cases[i].message ? cases[i].message : "",
				    judge_verdict_name(r.verdict), r.message);
			fail();
		}
	}
}

static void judge_should_accept_equal_output_after_trimming(void **state)
{
	(void)state;
	static const struct judge_case cases[] = {
	    {"2\n15\n", "2\n15\n", JUDGE_ACCEPTED, "ok: 2 tokens"},
	    {"2\n15\n", "2\n15", JUDGE_ACCEPTED, NULL},
	    {"2\n15", "2\n15\n", JUDGE_ACCEPTED, NULL},
	    {"2\n15\n", "2  \n15\t\r\n\n\n", JUDGE_ACCEPTED, NULL},
	    {"2\n15\n", "2\r\n15\r\n", JUDGE_ACCEPTED, NULL},
	    {"2\n15\n", "2\n15\n \t\n\r\n", JUDGE_ACCEPTED, NULL},
	    {"1 2 3\n", "1 2 3 \n", JUDGE_ACCEPTED, NULL},
	    {"3\n", "3\n", JUDGE_ACCEPTED, "ok: 1 token"},
	    {"", "", JUDGE_ACCEPTED, "ok: 0 tokens"},
	    {"", "\n\n  \n", JUDGE_ACCEPTED, NULL},
	    {"\n", "", JUDGE_ACCEPTED, NULL},
	    /* A blank line inside the output is kept, even when trimmed. */
	    {"1\n \n2\n", "1\n\n2\n", JUDGE_ACCEPTED, NULL},
	};
	run_cases(cases, sizeof cases / sizeof cases[0]);
}

static void judge_should_call_other_layouts_of_the_same_tokens_presentation_errors(void **state)
{
	(void)state;
	static const struct judge_case cases[] = {
	    {"2\n15\n", "2 15\n", JUDGE_PRESENTATION_ERROR, "at line 1"},
	    {"2\n15\n", " 2\n15\n", JUDGE_PRESENTATION_ERROR, "at line 1"},
	    {"2\n15\n", "2\n\n15\n", JUDGE_PRESENTATION_ERROR, "at line 2"},
	    {"2\n15\n", "2\n 15\n", JUDGE_PRESENTATION_ERROR, "at line 2"},
	    {"2\n15\n", "\n2\n15\n", JUDGE_PRESENTATION_ERROR, "at line 1"},
	    {"1 2 3\n", "1  2 3\n", JUDGE_PRESENTATION_ERROR, "layout differs"},
	    {"a b\n", "a\tb\n", JUDGE_PRESENTATION_ERROR, NULL},
	    {"1 2\n", "1\v2\n", JUDGE_PRESENTATION_ERROR, NULL},
	    {"1 2\n", "1\f2\n", JUDGE_PRESENTATION_ERROR, NULL},
	    {"1\n2\n3\n", "1\n2\n\n3\n", JUDGE_PRESENTATION_ERROR, "at line 3"},
	    /* A lone CR in the middle of a line is not trailing. */
	    {"1 2\n", "1\r2\n", JUDGE_PRESENTATION_ERROR, NULL},
	};
	run_cases(cases, sizeof cases / sizeof cases[0]);
}

static void judge_should_name_the_first_differing_token(void **state)
{
	(void)state;
	static const struct judge_case cases[] = {
	    {"2\n15\n", "2\n14\n", JUDGE_WRONG_ANSWER,
	     "token 2 (line 2 of the output): expected '15', found '14'"},
	    {"2\n15\n", "3\n15\n", JUDGE_WRONG_ANSWER,
	     "token 1 (line 1 of the output): expected '2', found '3'"},
	    {"3\n", "03\n", JUDGE_WRONG_ANSWER, "expected '3', found '03'"},
	    {"3\n", "3.0\n", JUDGE_WRONG_ANSWER, "expected '3', found '3.0'"},
	    {"1\n2\n3\n", "1\n\n\n2\n4\n", JUDGE_WRONG_ANSWER, "token 3 (line 5 of the output)"},
	    {"1 2 3\n", "1 2 4 5\n", JUDGE_WRONG_ANSWER, "token 3 (line 1 of the output)"},
	    /* A differing token wins over a different count later. */
	    {"1 2\n", "9\n", JUDGE_WRONG_ANSWER, "expected '1', found '9'"},
	};
	run_cases(cases, sizeof cases / sizeof cases[0]);
}

static void judge_should_report_missing_tokens(void **state)
{
	(void)state;
	static const struct judge_case cases[] = {
	    {"2\n15\n", "2\n", JUDGE_WRONG_ANSWER,
	     "missing tokens: expected 2, the output has 1; token 2 should be '15'"},
	    {"2\n15\n", "", JUDGE_WRONG_ANSWER,
	     "expected 2, the output has 0; token 1 should be '2'"},
	    {"1 2 3 4\n", "1 2\n\n", JUDGE_WRONG_ANSWER, "expected 4, the output has 2; token 3"},
	    {"7\n", "\n \n", JUDGE_WRONG_ANSWER, "token 1 should be '7'"},
	};
	run_cases(cases, sizeof cases / sizeof cases[0]);
}

static void judge_should_report_extra_tokens(void **state)
{
	(void)state;
	static const struct judge_case cases[] = {
	    {"2\n15\n", "2\n15\n3\n", JUDGE_WRONG_ANSWER,
	     "extra tokens: expected 2, the output has 3; token 3 (line 3 of the output) is '3'"},
	    {"", "x", JUDGE_WRONG_ANSWER, "expected 0, the output has 1; token 1 (line 1"},
	    {"1\n", "1 2 3 4\n", JUDGE_WRONG_ANSWER,
	     "expected 1, the output has 4; token 2 (line 1"},
	};
	run_cases(cases, sizeof cases / sizeof cases[0]);
}

static void judge_should_cut_long_tokens_and_stay_bounded(void **state)
{
	(void)state;
	static char found[5001], expected[5001];
	struct judge_report r;

	memset(found, 'x', sizeof found - 1);
	memset(expected, '9', sizeof expected - 1);
	judge_strings(expected, found, &r);
	assert_int_equal(r.verdict, JUDGE_WRONG_ANSWER);
	assert_non_null(strstr(r.message, "...' (5000 bytes)"));
	assert_non_null(strstr(r.message, "'xxxxxxxxxx"));
	assert_true(strlen(r.message) < JUDGE_MESSAGE_MAX);

	/* Backslashes and escapes count towards the cut, never past it. */
	memset(found, '\\', sizeof found - 1);
	judge_strings(expected, found, &r);
	assert_true(strlen(r.message) < JUDGE_MESSAGE_MAX);
	memset(found, '\x80', sizeof found - 1);
	judge_strings(expected, found, &r);
	assert_true(strlen(r.message) < JUDGE_MESSAGE_MAX);
	assert_non_null(strstr(r.message, "\\x80\\x80"));

	/* Missing and extra messages are bounded too. */
	judge_strings(expected, "", &r);
	assert_true(strlen(r.message) < JUDGE_MESSAGE_MAX);
	judge_strings("", found, &r);
	assert_true(strlen(r.message) < JUDGE_MESSAGE_MAX);
}

static void judge_should_show_odd_bytes_as_escapes(void **state)
{
	(void)state;
	static const struct judge_case cases[] = {
	    {"1\n", "\x01\xff\n", JUDGE_WRONG_ANSWER, "found '\\x01\\xff'"},
	    {"1\n", "a\\b\n", JUDGE_WRONG_ANSWER, "found 'a\\\\b'"},
	    {"1\n", "'\n", JUDGE_WRONG_ANSWER, "found '''"},
	};
	run_cases(cases, sizeof cases / sizeof cases[0]);

	/* The message is plain printable ASCII whatever the output holds. */
	char found[256];
	for (unsigned i = 0; i < 256; i++)
		found[i] = (char)(i == ' ' || i == '\t' || i == '\n' || i == '\r' ? 'z' : i);
	struct judge_report r;
	judge_compare("1", 1, found, sizeof found, &r);
	for (const char *p = r.message; *p; p++)
		assert_true(*p >= 0x20 && *p < 0x7f);
}

static void judge_should_read_only_the_given_lengths(void **state)
{
	(void)state;
	struct judge_report r;

	/* No terminating NUL needed; bytes after the length are ignored. */
	judge_compare("2\n15\nGARBAGE", 5, "2\n15 trailing", 4, &r);
	assert_int_equal(r.verdict, JUDGE_ACCEPTED);
	/* A NUL byte inside is an ordinary byte of a token. */
	judge_compare("1", 1, "1\0", 2, &r);
	assert_int_equal(r.verdict, JUDGE_WRONG_ANSWER);
	assert_non_null(strstr(r.message, "found '1\\x00'"));
	/* NULL buffers of length 0 are empty outputs. */
	judge_compare(NULL, 0, NULL, 0, &r);
	assert_int_equal(r.verdict, JUDGE_ACCEPTED);
	judge_compare("1\n", 2, NULL, 0, &r);
	assert_int_equal(r.verdict, JUDGE_WRONG_ANSWER);
	assert_non_null(strstr(r.message, "missing tokens"));
}

static void judge_should_name_the_verdicts(void **state)
{
	(void)state;
	assert_string_equal(judge_verdict_name(JUDGE_ACCEPTED), "accepted");
	assert_string_equal(judge_verdict_name(JUDGE_PRESENTATION_ERROR), "presentation_error");
	assert_string_equal(judge_verdict_name(JUDGE_WRONG_ANSWER), "wrong_answer");
	assert_string_equal(judge_verdict_name((enum judge_verdict)7), "unknown");
}

/*
 * The naive reference, straight from the rules. Accepted: cut each line at
 * its '\n', strip ' ', '\t', '\r' from its end, drop the empty lines at the
 * end, compare the lists. Tokens: split on the six C whitespace bytes.
 */
#define REF_MAX 64

struct ref_lines {
	char line[REF_MAX + 1][REF_MAX + 1];
	size_t n;
};

static void ref_lines(const char *s, size_t len, struct ref_lines *out)
{
	size_t start = 0;
	out->n = 0;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && s[i] != '\n')
			continue;
		size_t end = i;
		while (end > start &&
		       (s[end - 1] == ' ' || s[end - 1] == '\t' || s[end - 1] == '\r'))
			end--;
		memcpy(out->line[out->n], s + start, end - start);
		out->line[out->n][end - start] = '\0';
		out->n++;
		start = i + 1;
	}
	while (out->n > 0 && out->line[out->n - 1][0] == '\0')
		out->n--;
}

static size_t ref_tokens(const char *s, size_t len, char tok[][REF_MAX + 1])
{
	size_t n = 0, i = 0;
	while (i < len) {
		if (strchr(" \t\n\r\v\f", s[i])) {
			i++;
			continue;
		}
		size_t k = 0;
		while (i < len && !strchr(" \t\n\r\v\f", s[i]))
			tok[n][k++] = s[i++];
		tok[n++][k] = '\0';
	}
	return n;
}

static enum judge_verdict ref_verdict(const char *e, size_t el, const char *f, size_t fl)
{
	static struct ref_lines le, lf;
	static char te[REF_MAX][REF_MAX + 1], tf[REF_MAX][REF_MAX + 1];

	ref_lines(e, el, &le);
	ref_lines(f, fl, &lf);
	bool same = le.n == lf.n;
	for (size_t i = 0; same && i < le.n; i++)
		same = strcmp(le.line[i], lf.line[i]) == 0;
	if (same)
		return JUDGE_ACCEPTED;
	size_t ne = ref_tokens(e, el, te), nf = ref_tokens(f, fl, tf);
	if (ne != nf)
		return JUDGE_WRONG_ANSWER;
	for (size_t i = 0; i < ne; i++)
		if (strcmp(te[i], tf[i]) != 0)
			return JUDGE_WRONG_ANSWER;
	return JUDGE_PRESENTATION_ERROR;
}

static uint64_t rng_state = 88172645463325252u;

static unsigned rnd(unsigned bound)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (unsigned)(rng_state % bound);
}

/* A random output over a small alphabet that makes every verdict likely. */
static size_t random_output(char *buf)
{
	static const char alphabet[] = "1122  \n\n\t\r\v";
	size_t n = rnd(REF_MAX / 2);
	for (size_t i = 0; i < n; i++)
		buf[i] = alphabet[rnd(sizeof alphabet - 1)];
	return n;
}

/* Small edits of `src` that keep the tokens or change one. */
static size_t mutate(const char *src, size_t n, char *dst)
{
	static const char alphabet[] = "12 \n\t\r";
	memcpy(dst, src, n);
	unsigned edits = rnd(3);
	for (unsigned e = 0; e < edits; e++) {
		unsigned kind = rnd(3);
		size_t at = n ? rnd((unsigned)n + 1) : 0;
		if (kind == 0 && n < REF_MAX - 1) { /* insert */
			memmove(dst + at + 1, dst + at, n - at);
			dst[at] = alphabet[rnd(sizeof alphabet - 1)];
			n++;
		} else if (kind == 1 && at < n) { /* delete */
			memmove(dst + at, dst + at + 1, n - at - 1);
			n--;
		} else if (at < n) { /* replace */
			dst[at] = alphabet[rnd(sizeof alphabet - 1)];
		}
	}
	return n;
}

static void judge_should_match_the_reference_on_random_outputs(void **state)
{
	(void)state;
	char e[REF_MAX], f[REF_MAX];
	unsigned seen[3] = {0};

	for (unsigned i = 0; i < 200000; i++) {
		size_t el = random_output(e);
		size_t fl = rnd(4) ? mutate(e, el, f) : random_output(f);
		enum judge_verdict want = ref_verdict(e, el, f, fl);
		struct judge_report r;
		judge_compare(e, el, f, fl, &r);
		if (r.verdict != want) {
			print_error("case %u: reference says %s, checker %s (%s)\n", i,
				    judge_verdict_name(want), judge_verdict_name(r.verdict),
				    r.message);
			fail();
		}
		seen[want]++;
	}
	/* Every verdict was exercised many times. */
	for (unsigned v = 0; v < 3; v++)
		assert_true(seen[v] > 10000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(judge_should_accept_equal_output_after_trimming),
	    cmocka_unit_test(
		judge_should_call_other_layouts_of_the_same_tokens_presentation_errors),
	    cmocka_unit_test(judge_should_name_the_first_differing_token),
	    cmocka_unit_test(judge_should_report_missing_tokens),
	    cmocka_unit_test(judge_should_report_extra_tokens),
	    cmocka_unit_test(judge_should_cut_long_tokens_and_stay_bounded),
	    cmocka_unit_test(judge_should_show_odd_bytes_as_escapes),
	    cmocka_unit_test(judge_should_read_only_the_given_lengths),
	    cmocka_unit_test(judge_should_name_the_verdicts),
	    cmocka_unit_test(judge_should_match_the_reference_on_random_outputs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
