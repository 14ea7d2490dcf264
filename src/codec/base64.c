/* Base64 decoding. See base64.h. */
#include "codec/base64.h"

#include <string.h>

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

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
		const char *at = s[i] ? strchr(alphabet, s[i]) : NULL;
		if (!at) {
			*bad = i;
			return false;
		}
		acc = (acc << 6 | (unsigned long)(at - alphabet)) & 0xffffffu;
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
