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

enum codec_decimal codec_decimal_read_str(const char *s, unsigned long long *out)
{
	unsigned long long v = 0;
	bool overflow = false;
	if (!*s)
		return CODEC_DECIMAL_NOT_A_NUMBER;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return CODEC_DECIMAL_NOT_A_NUMBER;
		if (!codec_decimal_push(&v, (unsigned)(*s - '0'), ULLONG_MAX))
			overflow = true;
	}
	if (overflow)
		return CODEC_DECIMAL_OVERFLOW;
	*out = v;
	return CODEC_DECIMAL_OK;
}

size_t codec_decimal_write(unsigned long long value, char *out)
{
	char digits[CODEC_DECIMAL_MAX];
	size_t n = 0;
	do {
		digits[sizeof digits - ++n] = (char)('0' + value % 10);
		value /= 10;
	} while (value);
	memcpy(out, digits + sizeof digits - n, n);
	return n;
}
