/* Base64 decoding (RFC 4648 section 4, standard alphabet) of bytes a JSON string cannot carry
 * (output with invalid UTF-8). Padding optional; any other non-alphabet byte is an error. */
#ifndef DROPJUDGE_CODEC_BASE64_H
#define DROPJUDGE_CODEC_BASE64_H

#include <stdbool.h>
#include <stddef.h>

/* Bytes codec_base64_decode() writes at most for `len` characters. */
#define CODEC_BASE64_DECODED_MAX(len) (((len) + 3) / 4 * 3)

/* Decodes s[0..len) into out, *out_len bytes; false, with *bad the offset
 * of the first character that cannot be there, when s is not base64. */
bool codec_base64_decode(const char *s, size_t len, unsigned char *out, size_t *out_len,
			 size_t *bad);

#endif
