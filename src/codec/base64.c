/*
 * Base64 decoding. See base64.h.
 */
#include "codec/base64.h"

#include <string.h>

/* Value of a base64 character, -1 for any other byte. */
static int b64_value(char c)
{
	static const char alphabet[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *at = c ? memchr(alphabet, c, sizeof alphabet - 1) : NULL;
	return at ? (int)(at - alphabet) : -1;
}

bool codec_base64_decode(const char *s, size_t len, unsigned char *out, size_t *out_len,
			 size_t *bad)
{
	unsigned long acc = 0;
	unsigned bits = 0;
	size_t n = 0, end = len;

	/* At most two '=' at the end, and only where a quantum ends. */
	while (end > 0 && len - end < 2 && s[end - 1] == '=')
		end--;
	if (end < len && len % 4 != 0) {
		*bad = end;
		return false;
	}
	for (size_t i = 0; i < end; i++) {
		int v = b64_value(s[i]);
		if (v < 0) {
			*bad = i;
			return false;
		}
		acc = (acc << 6 | (unsigned long)v) & 0xffffffu;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[n++] = (unsigned char)(acc >> bits);
		}
	}
	if (bits >= 6) { /* a lone character cannot end a text */
		*bad = end - 1;
		return false;
	}
	*out_len = n;
	return true;
}
