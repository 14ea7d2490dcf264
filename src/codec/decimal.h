/* The one decimal reader and writer of dropjudge: plain unsigned digits (no sign, spaces or suffix)
 * to an unsigned long long, overflow told apart from "not a number", and back. */
#ifndef DROPJUDGE_CODEC_DECIMAL_H
#define DROPJUDGE_CODEC_DECIMAL_H

#include <limits.h>
#include <stddef.h>
#include <string.h>

enum codec_decimal {
	CODEC_DECIMAL_OK = 0,	    /* *out holds the value */
	CODEC_DECIMAL_NOT_A_NUMBER, /* empty, or a byte that is not a digit */
	CODEC_DECIMAL_OVERFLOW,	    /* digits only, but more than ULLONG_MAX */
};

/* Reads a NUL-terminated string; *out is set only on OK. */
enum codec_decimal codec_decimal_read_str(const char *s, unsigned long long *out);

/* Longest decimal text of an unsigned long long, without a NUL. */
#define CODEC_DECIMAL_MAX 20

/* Writes what printf("%llu") writes, no NUL, to out[0..CODEC_DECIMAL_MAX); returns its length. */
size_t codec_decimal_write(unsigned long long value, char *out);

/* Writes `value` as jansson prints it cast to json_int_t (negative past
 * LLONG_MAX); room for CODEC_DECIMAL_MAX + 1 bytes. */
static inline size_t codec_json_int_write(unsigned long long value, char *out)
{
	if (value <= (unsigned long long)LLONG_MAX)
		return codec_decimal_write(value, out);
	out[0] = '-';
	return 1 + codec_decimal_write(0 - value, out + 1); /* its magnitude */
}

/* Appends s at buf + n (the caller made room); returns the new length. */
static inline size_t codec_text_put(char *buf, size_t n, const char *s)
{
	size_t len = strlen(s);
	memcpy(buf + n, s, len);
	return n + len;
}

/* snprintf(buf, size, "%s", text) for the n bytes of text; returns n. */
static inline int codec_text_copy(char *buf, size_t size, const char *text, size_t n)
{
	if (size > 0) {
		size_t k = n < size ? n : size - 1;
		memcpy(buf, text, k);
		buf[k] = '\0';
	}
	return (int)n;
}

#endif
