/*
 * Unit tests of the small helpers of codec/error.h that are not about the
 * error struct itself: RFC 6901 pointer building (codec_pointer_append) and
 * the message writer of http and main (codec_format); and of the one rule
 * every text stored in the struct follows (valid UTF-8).
 * The error struct is otherwise exercised through the decoders in
 * test_md_codec.c and test_puyo_codec.c.
 *
 * Expected pointers come from RFC 6901 section 3 ('~' is written "~0", '/'
 * is written "~1") and, for buffers too small, from the rule that a pointer
 * is cut before the first piece that does not fit, never inside "~0"/"~1";
 * the random test compares with a naive reference written from those rules.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "codec/decimal.h"
#include "codec/error.h"
#include "codec/utf8.h"
#include "route/status.h"

/* Errors of the tests: collect mode takes its storage from a small ring,
 * so that two collecting errors can be alive at once. */
static struct codec_fault fault_ring[4][CODEC_FAULTS_MAX];
static unsigned fault_ring_next;

static void error_init(struct codec_error *err, unsigned max_faults)
{
	if (max_faults <= 1) {
		codec_error_init(err);
		return;
	}
	codec_error_collect(err, fault_ring[fault_ring_next++ % 4], max_faults);
}

struct pointer_case {
	const char *base;     /* pointer before the call */
	const char *token;    /* token appended */
	size_t size;	      /* buffer size given */
	const char *expected; /* pointer after the call */
	bool fit;	      /* expected return value */
};

static const struct pointer_case pointer_cases[] = {
    {"", "field", 32, "/field", true},
    {"", "", 32, "/", true},
    {"/cases/3", "blocks", 32, "/cases/3/blocks", true},
    {"", "a/b~c", 32, "/a~1b~0c", true},
    {"", "~~//", 32, "/~0~0~1~1", true},
    {"/x", "0", 32, "/x/0", true},
    /* exactly full: "/abc" and the NUL take 5 bytes */
    {"", "abc", 5, "/abc", true},
    {"", "abcd", 5, "/abc", false},
    /* an escape that does not fit is left out whole */
    {"", "ab~", 5, "/ab", false},
    {"", "a~", 4, "/a", false},
    {"", "a~", 5, "/a~0", true},
    /* nothing fits: the pointer stays as it was */
    {"/full", "x", 6, "/full", false},
    {"", "x", 1, "", false},
};

static void codec_pointer_append_should_escape_and_cut_as_the_table_says(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof pointer_cases / sizeof pointer_cases[0]; i++) {
		const struct pointer_case *c = &pointer_cases[i];
		char out[64];
		strcpy(out, c->base);
		bool fit = codec_pointer_append(out, c->size, c->token);
		assert_string_equal(out, c->expected);
		assert_int_equal(fit, c->fit);
	}
}

/*
 * The reference: the pieces of "/" + token ("/", then each character, '~'
 * and '/' as two-byte escapes), kept while they fit in size - 1 bytes
 * after base. Returns whether every piece was kept.
 */
static bool reference_append(char *out, size_t size, const char *token)
{
	char pieces[300][3];
	size_t n = 0;
	strcpy(pieces[n++], "/");
	for (const char *p = token; *p; p++)
		strcpy(pieces[n++], *p == '~' ? "~0" : *p == '/' ? "~1" : (char[]){*p, '\0'});
	for (size_t i = 0; i < n; i++) {
		if (strlen(out) + strlen(pieces[i]) > size - 1)
			return false;
		strcat(out, pieces[i]);
	}
	return true;
}

static void codec_pointer_append_should_match_the_rfc_6901_reference_on_random_tokens(void **state)
{
	(void)state;
	srand(6901);
	for (int iter = 0; iter < 20000; iter++) {
		char base[40] = "";
		char token[200];
		size_t blen = (size_t)rand() % 30;
		for (size_t i = 0; i < blen; i++)
			base[i] = i == 0 ? '/' : "abc/"[rand() % 4];
		base[blen] = '\0';
		size_t tlen = (size_t)rand() % 120;
		for (size_t i = 0; i < tlen; i++)
			token[i] = "ab~/"[rand() % 4];
		token[tlen] = '\0';
		size_t size = blen + 1 + (size_t)rand() % 140;

		char got[256], want[256];
		strcpy(got, base);
		strcpy(want, base);
		bool fit = codec_pointer_append(got, size, token);
		bool want_fit = reference_append(want, size, token);
		assert_string_equal(got, want);
		assert_int_equal(fit, want_fit);
	}
}

static void codec_format_should_write_like_snprintf_and_nothing_without_a_buffer(void **state)
{
	(void)state;
	char buf[8];

	codec_format(buf, sizeof buf, "port %u", 80u);
	assert_string_equal(buf, "port 80");

	memset(buf, 'x', sizeof buf);
	codec_format(buf, sizeof buf, "%s", "too long to fit");
	assert_string_equal(buf, "too lon");

	memset(buf, 'x', sizeof buf);
	codec_format(buf, 0, "%s", "nothing");
	assert_int_equal(buf[0], 'x');

	codec_format(NULL, 16, "%s", "nothing"); /* must not crash */
}

/*
 * Found by fuzz_route: a query parameter named by a byte that is not UTF-8
 * ("?%FF") made problem_json() fail (jansson refuses such a string), and the
 * client got a 500 "out of memory" for a 400. Every text the error stores is
 * now UTF-8, a byte that does not start a character becoming '?'.
 */
struct utf8_case {
	const char *name;     /* the case */
	const char *text;     /* given as a parameter name, a pointer and a detail */
	const char *expected; /* what is stored */
};

static const struct utf8_case utf8_cases[] = {
    {"ASCII and control characters are kept", "ab\x01c", "ab\x01c"},
    {"valid characters of 2, 3 and 4 bytes are kept", "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",
     "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"},
    {"a stray byte", "t\x9e\x01", "t?\x01"},
    {"0xFF and 0xFE", "\xff\xfe", "??"},
    {"an overlong '/'", "\xc0\xaf", "??"},
    {"an overlong 3-byte form", "\xe0\x80\xaf", "???"},
    {"a surrogate", "\xed\xa0\x80", "???"},
    {"past U+10FFFF", "\xf4\x90\x80\x80", "????"},
    {"a lead byte without its continuation", "a\xc3", "a?"},
};

static void codec_error_should_store_only_utf8_so_that_problem_json_never_fails(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof utf8_cases / sizeof utf8_cases[0]; i++) {
		const struct utf8_case *c = &utf8_cases[i];
		struct codec_error err;
		error_init(&err, 4);
		codec_error_at_param(&err, CODEC_E_SYNTAX, c->text, "%s", c->text);
		codec_error_at_pointer(&err, CODEC_E_SYNTAX, c->text, "%s", c->text);
		codec_error_at_line(&err, CODEC_E_SYNTAX, 1, 1, "%s", c->text);
		print_message("%s\n", c->name);
		assert_int_equal(err.nfaults, 3);
		assert_string_equal(err.faults[0].parameter, c->expected);
		assert_string_equal(err.faults[0].detail, c->expected);
		assert_string_equal(err.faults[1].pointer, c->expected);
		assert_string_equal(err.faults[1].detail, c->expected);
		assert_string_equal(err.faults[2].detail, c->expected);
		json_t *problem = problem_json(&err);
		assert_non_null(problem);
		json_decref(problem);
	}

	/* A pointer cut to fit inside a 2-byte character ends in '?'. */
	char pointer[CODEC_POINTER_MAX + 8];
	memset(pointer, 'a', CODEC_POINTER_MAX - 2);
	strcpy(pointer + CODEC_POINTER_MAX - 2, "\xc3\xa9");
	struct codec_error err;
	codec_error_init(&err);
	codec_error_at_pointer(&err, CODEC_E_INVALID, pointer, "unknown member");
	assert_int_equal(strlen(err.faults[0].pointer), CODEC_POINTER_MAX - 1);
	assert_int_equal(err.faults[0].pointer[CODEC_POINTER_MAX - 2], '?');
	json_t *problem = problem_json(&err);
	assert_non_null(problem);
	json_decref(problem);
}

static void the_error_should_be_small(void **state)
{
	(void)state;
	/* several sit on one stack: one fault inline, the rest lent */
	assert_true(sizeof(struct codec_error) < 1024);
}

static void collected_faults_should_sort_by_position(void **state)
{
	(void)state;
	static struct codec_fault faults[8];
	struct codec_error err;
	codec_error_collect(&err, faults, 8);
	codec_error_at_pointer(&err, CODEC_E_INVALID, "/blocks/10/0", "b");
	codec_error_at_pointer(&err, CODEC_E_INVALID, "/blocks/2/1", "a");
	codec_error_at_pointer(&err, CODEC_E_INVALID, "/blocks/2/0", "first");
	codec_error_at_line(&err, CODEC_E_INVALID, 0, 0, "unlocated"); /* no fault */
	codec_error_sort(&err);
	assert_int_equal(err.nfaults, 3);
	assert_string_equal(err.faults[0].pointer, "/blocks/2/0");
	assert_string_equal(err.faults[1].pointer, "/blocks/2/1");
	assert_string_equal(err.faults[2].pointer, "/blocks/10/0");
	assert_string_equal(err.detail, "/blocks/2/0: first");
	codec_error_collect(&err, faults, 8);
	codec_error_at_line(&err, CODEC_E_SYNTAX, 5, 1, "e");
	codec_error_at_line(&err, CODEC_E_SYNTAX, 3, 9, "c");
	codec_error_at_line(&err, CODEC_E_SYNTAX, 3, 2, "b");
	codec_error_sort(&err);
	assert_string_equal(err.detail, "line 3, column 2: b");
	assert_int_equal(err.faults[2].line, 5);
}

static void a_root_fault_should_have_no_location_prefix(void **state)
{
	(void)state;
	struct codec_error err;
	codec_error_init(&err);
	codec_error_at_pointer(&err, CODEC_E_INVALID, "", "expected an object");
	assert_string_equal(err.detail, "expected an object");
	assert_string_equal(err.faults[0].pointer, "");
}

static void the_utf8_decoder_should_refuse_overlong_surrogates_and_cut_characters(void **state)
{
	(void)state;
	static const struct {
		const char *s;
		size_t n;
		size_t want;
	} cases[] = {
	    {"a", 1, 1},
	    {"\xc3\xa9", 2, 2},
	    {"\xe2\x82\xac", 3, 3},
	    {"\xf0\x9f\x98\x80", 4, 4},
	    {"\xc0\x80", 2, 0},
	    {"\xed\xa0\x80", 3, 0},
	    {"\xe2\x82", 2, 0},
	    {"\xf4\x90\x80\x80", 4, 0},
	    {"\xff", 1, 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_int_equal(codec_utf8_decode(cases[i].s, cases[i].n, NULL), cases[i].want);
	assert_int_equal(codec_utf8_invalid_at("ab\xff"
					       "c",
					       4),
			 2);
	assert_int_equal(codec_utf8_invalid_at("abc", 3), 3);
}

static void the_decimal_reader_should_tell_overflow_from_not_a_number(void **state)
{
	(void)state;
	unsigned long long v = 0;
	assert_int_equal(codec_decimal_read_str("18446744073709551615", &v), CODEC_DECIMAL_OK);
	assert_true(v == 18446744073709551615ull);
	assert_int_equal(codec_decimal_read_str("18446744073709551616", &v),
			 CODEC_DECIMAL_OVERFLOW);
	assert_int_equal(codec_decimal_read_str("", &v), CODEC_DECIMAL_NOT_A_NUMBER);
	assert_int_equal(codec_decimal_read_str("+1", &v), CODEC_DECIMAL_NOT_A_NUMBER);
	assert_int_equal(codec_decimal_read_str("1 ", &v), CODEC_DECIMAL_NOT_A_NUMBER);
}

/* The writer against printf's %llu: every power of ten and its neighbours,
 * the extremes, and random numbers of every length. */
static void the_decimal_writer_should_write_what_printf_writes(void **state)
{
	(void)state;
	unsigned long long probes[200];
	size_t n = 0;
	probes[n++] = 0;
	probes[n++] = ULLONG_MAX;
	probes[n++] = ULLONG_MAX - 1;
	for (unsigned long long p = 1; n + 3 <= 80; p *= 10) {
		probes[n++] = p - 1;
		probes[n++] = p;
		probes[n++] = p + 1;
		if (p > ULLONG_MAX / 10)
			break;
	}
	unsigned long long x = 0x9e3779b97f4a7c15ull;
	while (n < sizeof probes / sizeof probes[0]) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		probes[n++] = x >> (x % 64); /* every length */
	}
	/* Every number below 100,000, then the probes. */
	for (unsigned long long v = 0; v < 100000; v++) {
		char want[32], got[CODEC_DECIMAL_MAX + 1];
		int len = snprintf(want, sizeof want, "%llu", v);
		size_t k = codec_decimal_write(v, got);
		got[k] = '\0';
		assert_int_equal(k, (size_t)len);
		assert_string_equal(got, want);
	}
	for (size_t i = 0; i < n; i++) {
		char want[32], got[CODEC_DECIMAL_MAX + 1];
		int len = snprintf(want, sizeof want, "%llu", probes[i]);
		size_t k = codec_decimal_write(probes[i], got);
		got[k] = '\0';
		assert_int_equal(k, (size_t)len);
		assert_string_equal(got, want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(codec_pointer_append_should_escape_and_cut_as_the_table_says),
	    cmocka_unit_test(
		codec_pointer_append_should_match_the_rfc_6901_reference_on_random_tokens),
	    cmocka_unit_test(codec_format_should_write_like_snprintf_and_nothing_without_a_buffer),
	    cmocka_unit_test(codec_error_should_store_only_utf8_so_that_problem_json_never_fails),
	    cmocka_unit_test(the_error_should_be_small),
	    cmocka_unit_test(collected_faults_should_sort_by_position),
	    cmocka_unit_test(a_root_fault_should_have_no_location_prefix),
	    cmocka_unit_test(the_utf8_decoder_should_refuse_overlong_surrogates_and_cut_characters),
	    cmocka_unit_test(the_decimal_reader_should_tell_overflow_from_not_a_number),
	    cmocka_unit_test(the_decimal_writer_should_write_what_printf_writes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
