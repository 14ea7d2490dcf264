/*
 * The one decimal reader of dropjudge: plain unsigned decimal digits (no
 * sign, no spaces, no suffix) into an unsigned long long, with overflow
 * told apart from "not a number". Query parameters, flags and environment
 * variables read whole strings with codec_decimal_read(); the streaming
 * text reader adds one digit at a time with codec_decimal_push(). Its
 * writer, codec_decimal_write(), prints what the fixed-shape answers hold.
 */
#ifndef DROPJUDGE_CODEC_DECIMAL_H
#define DROPJUDGE_CODEC_DECIMAL_H

#include <stdbool.h>
#include <stddef.h>

enum codec_decimal {
	CODEC_DECIMAL_OK = 0,	    /* *out holds the value */
	CODEC_DECIMAL_NOT_A_NUMBER, /* empty, or a byte that is not a digit */
	CODEC_DECIMAL_OVERFLOW,	    /* digits only, but more than ULLONG_MAX */
};

/* Reads s[0..len) (need not be NUL-terminated); *out is set only on OK. */
enum codec_decimal codec_decimal_read(const char *s, size_t len, unsigned long long *out);

/* Reads a NUL-terminated string, as codec_decimal_read(). */
enum codec_decimal codec_decimal_read_str(const char *s, unsigned long long *out);

/*
 * Appends `digit` (0..9) to *value, saturating at `cap`: returns false, with
 * *value = cap, when the result would pass cap.
 */
bool codec_decimal_push(unsigned long long *value, unsigned digit, unsigned long long cap);

/* Longest decimal codec_decimal_write() writes (ULLONG_MAX), without a NUL. */
#define CODEC_DECIMAL_WRITE_MAX 20

/* Writes `value` in decimal at out (room for CODEC_DECIMAL_WRITE_MAX
 * bytes), without a NUL; returns the number of digits. */
size_t codec_decimal_write(char *out, unsigned long long value);

#endif
