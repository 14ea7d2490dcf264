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
