/* UTF-8 decoding. See utf8.h. */
#include "codec/utf8.h"

size_t codec_utf8_decode(const char *s, size_t n, unsigned long *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	/* the length a lead byte says: 0xc0, 0xc1 and 0xf5 on never lead */
	size_t len = n == 0	   ? 0
		     : u[0] < 0x80 ? 1
		     : u[0] < 0xc2 ? 0
		     : u[0] < 0xe0 ? 2
		     : u[0] < 0xf0 ? 3
		     : u[0] < 0xf5 ? 4
				   : 0;
	if (len == 0 || len > n)
		return 0;
	unsigned long c = len == 1 ? u[0] : u[0] & (0x7fu >> len);
	for (size_t i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (u[i] & 0x3fu);
	}
	if (c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff) || (len == 3 && c < 0x800) ||
	    (len == 4 && c < 0x10000))
		return 0;
	if (cp)
		*cp = c;
	return len;
}

size_t codec_utf8_invalid_at(const char *s, size_t len)
{
	size_t pos = 0;
	while (pos < len) {
		size_t n = codec_utf8_decode(s + pos, len - pos, NULL);
		if (n == 0)
			return pos;
		pos += n;
	}
	return len;
}

size_t codec_utf8_char_len(const unsigned char *s)
{
	size_t n = 1;
	while (n < 4 && s[n - 1] != 0 && s[n] != 0)
		n++;
	return s[0] ? codec_utf8_decode((const char *)s, n, NULL) : 1;
}
