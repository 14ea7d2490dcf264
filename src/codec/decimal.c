/*
 * Plain unsigned decimal numbers. See decimal.h.
 */
#include "codec/decimal.h"

#include <limits.h>
#include <string.h>

bool codec_decimal_push(unsigned long long *value, unsigned digit, unsigned long long cap)
{
	if (*value > (cap - digit) / 10) {
		*value = cap;
		return false;
	}
	*value = *value * 10 + digit;
	return true;
}

enum codec_decimal codec_decimal_read(const char *s, size_t len, unsigned long long *out)
{
	unsigned long long v = 0;
	bool overflow = false;

	if (len == 0)
		return CODEC_DECIMAL_NOT_A_NUMBER;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return CODEC_DECIMAL_NOT_A_NUMBER;
		if (!codec_decimal_push(&v, (unsigned)(s[i] - '0'), ULLONG_MAX))
			overflow = true;
	}
	if (overflow)
		return CODEC_DECIMAL_OVERFLOW;
	*out = v;
	return CODEC_DECIMAL_OK;
}

enum codec_decimal codec_decimal_read_str(const char *s, unsigned long long *out)
{
	return codec_decimal_read(s, strlen(s), out);
}

/* "00" to "99": two digits at a time. */
static const char decimal_pairs[200] = {
#define DECIMAL_ROW(t)                                                                             \
	t, '0', t, '1', t, '2', t, '3', t, '4', t, '5', t, '6', t, '7', t, '8', t, '9'
    DECIMAL_ROW('0'), DECIMAL_ROW('1'), DECIMAL_ROW('2'), DECIMAL_ROW('3'), DECIMAL_ROW('4'),
    DECIMAL_ROW('5'), DECIMAL_ROW('6'), DECIMAL_ROW('7'), DECIMAL_ROW('8'), DECIMAL_ROW('9'),
#undef DECIMAL_ROW
};

/* Digits of value: one more for each power of ten it reaches (most
 * numbers written are small, so a few comparisons). */
static size_t decimal_digits(unsigned long long value)
{
	size_t n = 1;
	for (unsigned long long p = 10; value >= p; p *= 10) {
		n++;
		if (n == CODEC_DECIMAL_MAX) /* 10^19 is the last power that fits */
			break;
	}
	return n;
}

size_t codec_decimal_write(unsigned long long value, char *out)
{
	/* Most numbers written (counts, sizes, statuses' parts) are small. */
	if (value < 100) {
		if (value < 10) {
			out[0] = (char)('0' + value);
			return 1;
		}
		memcpy(out, decimal_pairs + 2 * value, 2);
		return 2;
	}
	size_t n = decimal_digits(value);
	char *p = out + n;
	while (value >= 100) {
		unsigned r = (unsigned)(value % 100);
		value /= 100;
		p -= 2;
		memcpy(p, decimal_pairs + 2 * r, 2);
	}
	if (value >= 10) {
		memcpy(p - 2, decimal_pairs + 2 * value, 2);
	} else {
		p[-1] = (char)('0' + value);
	}
	return n;
}
