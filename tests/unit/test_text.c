/*
 * Unit tests of the string helpers of the request path (src/codec/text.h),
 * each against the straightforward way it stands for: codec_text_is
 * against strcmp(), codec_text_name_is against a byte-by-byte compare that
 * folds ASCII letters only (what strncasecmp() does in the C locale), and
 * codec_text_has_blank against a loop looking for ' ' and '\t'.
 *
 * Every string is copied into a block of exactly its own size, so that a
 * read past its end is caught by the sanitizer build (make test-sanitize).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "codec/text.h"

/* The header names the server compares fields with (framing.c, auth.c). */
static const char *const names[] = {
    "Host",
    "Accept",
    "Origin",
    "User-Agent",
    "Content-Type",
    "X-Request-Id",
    "Content-Length",
    "Accept-Encoding",
    "Content-Encoding",
    "Transfer-Encoding",
    "Authorization",
    "a",
    "ab",
    "abc",
    "Connection",
    "X-Forwarded-For-Client-Address-1",
};
#define NNAMES (sizeof names / sizeof names[0])

/* A small generator of our own, so that every run draws the same. */
static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* The reference: bytes equal, or both the same ASCII letter in either case. */
static bool name_is_ref(const char *s, const char *name, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char a = (unsigned char)s[i], b = (unsigned char)name[i];
		if (a >= 'A' && a <= 'Z')
			a = (unsigned char)(a + 32);
		if (b >= 'A' && b <= 'Z')
			b = (unsigned char)(b + 32);
		if (a != b)
			return false;
	}
	return true;
}

static bool has_blank_ref(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == ' ' || s[i] == '\t')
			return true;
	return false;
}

/* A copy of s[0..n) in a block of exactly n bytes (one for n == 0). */
static char *exact_copy(const char *s, size_t n)
{
	char *p = malloc(n ? n : 1);
	assert_non_null(p);
	memcpy(p, s, n);
	return p;
}

static void check_name(const char *s, const char *name, size_t n)
{
	char *a = exact_copy(s, n);
	char *b = exact_copy(name, n);
	assert_int_equal(codec_text_name_is(a, b, n), name_is_ref(a, b, n));
	free(a);
	free(b);
}

static void check_blank(const char *s, size_t n)
{
	char *a = exact_copy(s, n);
	assert_int_equal(codec_text_has_blank(a, n), has_blank_ref(a, n));
	free(a);
}

/* Every name against itself in every mix of cases of its first 12 letters. */
static void text_name_is_should_take_every_case_of_a_name(void **state)
{
	(void)state;
	for (size_t k = 0; k < NNAMES; k++) {
		size_t n = strlen(names[k]);
		size_t bits = n < 12 ? n : 12;
		for (unsigned mask = 0; mask < (1u << bits); mask++) {
			char s[64];
			memcpy(s, names[k], n);
			for (size_t i = 0; i < bits; i++)
				if ((mask >> i) & 1u) {
					char c = s[i];
					if (c >= 'a' && c <= 'z')
						s[i] = (char)(c - 32);
					else if (c >= 'A' && c <= 'Z')
						s[i] = (char)(c + 32);
				}
			assert_true(name_is_ref(s, names[k], n));
			check_name(s, names[k], n);
		}
	}
}

/* Every name with each of its bytes replaced by each of the 256 values:
 * only the other case of a letter is the same name; a byte that differs
 * from a '-' or a digit by the 0x20 bit alone ('\r' for '-') is not. */
static void text_name_is_should_refuse_every_other_byte(void **state)
{
	(void)state;
	for (size_t k = 0; k < NNAMES; k++) {
		size_t n = strlen(names[k]);
		for (size_t i = 0; i < n; i++)
			for (int v = 0; v < 256; v++) {
				char s[64];
				memcpy(s, names[k], n);
				s[i] = (char)v;
				check_name(s, names[k], n);
			}
	}
}

/* Random strings near a name: cases flipped, bytes replaced, every length. */
static void text_name_is_should_match_the_reference_on_random_strings(void **state)
{
	(void)state;
	static const char near[] = {'\r',	'\n', ' ', '\t', '\0', '-', 0x0d, 0x7f,
				    (char)0xc3, '@',  '[', '`',	 '{',  '_', 'm',  'M'};
	for (int round = 0; round < 200000; round++) {
		const char *name = names[rng() % NNAMES];
		size_t n = strlen(name);
		char s[64];
		memcpy(s, name, n);
		unsigned edits = (unsigned)(rng() % 4);
		for (unsigned e = 0; e < edits; e++) {
			size_t i = (size_t)(rng() % n);
			uint64_t r = rng();
			if (r % 3 == 0)
				s[i] = (char)(s[i] ^ 0x20);
			else if (r % 3 == 1)
				s[i] = near[(r >> 8) % sizeof near];
			else
				s[i] = (char)(r >> 16);
		}
		check_name(s, name, n);
	}
}

static void text_has_blank_should_find_a_blank_anywhere(void **state)
{
	(void)state;
	char s[48];
	for (size_t n = 0; n <= sizeof s; n++) {
		memset(s, 'x', sizeof s);
		check_blank(s, n);
		for (size_t i = 0; i < n; i++)
			for (int v = 0; v < 256; v++) {
				memset(s, 'x', sizeof s);
				s[i] = (char)v;
				check_blank(s, n);
			}
	}
}

static void text_has_blank_should_match_the_reference_on_random_strings(void **state)
{
	(void)state;
	static const char bytes[] = {' ',  '\t', '\0', '\n', '\r',	 0x29,	     0x19, 0x08,
				     0x0a, 0x21, 'a',  'A',  (char)0xa0, (char)0x89, '-',  ':'};
	for (int round = 0; round < 200000; round++) {
		char s[40];
		size_t n = (size_t)(rng() % (sizeof s + 1));
		for (size_t i = 0; i < n; i++) {
			uint64_t r = rng();
			s[i] = r % 8 == 0 ? bytes[(r >> 8) % sizeof bytes]
					  : (char)('A' + (r >> 16) % 26);
		}
		check_blank(s, n);
	}
}

static void text_is_should_be_strcmp(void **state)
{
	(void)state;
	static const char *const words[] = {"",	     "G",	"GET",	  "GETS", "HEAD", "POST",
					    "post",  "PUT",	"DELETE", "GET ", "GE",	  "OPTIONS",
					    "PATCH", "PATCHES", "\x80",	  "\x80x"};
	size_t nw = sizeof words / sizeof words[0];
	for (size_t i = 0; i < nw; i++)
		for (size_t j = 0; j < nw; j++)
			assert_int_equal(codec_text_is(words[i], words[j]),
					 strcmp(words[i], words[j]) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(text_name_is_should_take_every_case_of_a_name),
	    cmocka_unit_test(text_name_is_should_refuse_every_other_byte),
	    cmocka_unit_test(text_name_is_should_match_the_reference_on_random_strings),
	    cmocka_unit_test(text_has_blank_should_find_a_blank_anywhere),
	    cmocka_unit_test(text_has_blank_should_match_the_reference_on_random_strings),
	    cmocka_unit_test(text_is_should_be_strcmp),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
