/*
 * Unit tests of the small helpers of codec/error.h that are not about the
 * error struct itself: RFC 6901 pointer building (codec_pointer_append) and
 * the message writer of http and main (codec_format).
 * The error struct is exercised through the decoders in test_md_codec.c and
 * test_puyo_codec.c.
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

#include "codec/error.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(codec_pointer_append_should_escape_and_cut_as_the_table_says),
	    cmocka_unit_test(
		codec_pointer_append_should_match_the_rfc_6901_reference_on_random_tokens),
	    cmocka_unit_test(codec_format_should_write_like_snprintf_and_nothing_without_a_buffer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
