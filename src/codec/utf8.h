/* The one UTF-8 decoder of dropjudge, as strict as jansson: no overlong form, no surrogate, nothing
 * above U+10FFFF. Used wherever a request's text is measured, shown or made JSON-safe. */
#ifndef DROPJUDGE_CODEC_UTF8_H
#define DROPJUDGE_CODEC_UTF8_H

#include <stddef.h>

/* Decodes the character at s[0..n): its length (1..4), its code point in
 * *cp (NULL allowed); 0 when s does not start a valid one. */
size_t codec_utf8_decode(const char *s, size_t n, unsigned long *cp);

/* Offset of the first byte of s[0..len) not starting a valid character; len when all is UTF-8. */
size_t codec_utf8_invalid_at(const char *s, size_t len);

/* codec_utf8_decode() of the NUL-terminated s, reading no further. */
size_t codec_utf8_char_len(const unsigned char *s);

#endif
