/* Plain unsigned decimal numbers. See decimal.h. */
#include "codec/decimal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum codec_decimal codec_decimal_read_str(const char *s, unsigned long long *out)
{
	if (!*s || s[strspn(s, "0123456789")])
		return CODEC_DECIMAL_NOT_A_NUMBER;
	errno = 0;
	unsigned long long v = strtoull(s, NULL, 10);
	if (errno == ERANGE)
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
