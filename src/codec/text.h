/* Request-path strings (method, media type, header name) against a literal: the first byte before
 * strcmp(), header names a word at a time without strcasecmp()'s locale tables. */
#ifndef DROPJUDGE_CODEC_TEXT_H
#define DROPJUDGE_CODEC_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Whether the NUL-terminated strings a and b are the same (strcmp() == 0). */
static inline bool codec_text_is(const char *a, const char *b)
{
	return a[0] == b[0] && strcmp(a, b) == 0;
}

/* Eight bytes of s as one word (in memory order; any byte order will do). */
static inline uint64_t codec_text_word(const char *s)
{
	uint64_t w;
	memcpy(&w, s, sizeof w);
	return w;
}

/* Whether word a equals word b (or byte a byte b), the case of b's letters
 * (bytes with bit 0x40, the caller's promise) left out. */
static inline bool codec_text_fold8(uint64_t a, uint64_t b)
{
	uint64_t fold = (b & 0x4040404040404040u) >> 1;
	return (a | fold) == (b | fold);
}

/* strncasecmp(s, name, n) == 0 for `name` of ASCII letters, digits, '-'; reads only s[0..n). */
static inline bool codec_text_name_is(const char *s, const char *name, size_t n)
{
	if (n >= 8) {
		size_t i = 0;
		for (; i + 8 <= n; i += 8)
			if (!codec_text_fold8(codec_text_word(s + i), codec_text_word(name + i)))
				return false;
		return i == n ||
		       codec_text_fold8(codec_text_word(s + n - 8), codec_text_word(name + n - 8));
	}
	for (size_t i = 0; i < n; i++)
		if (!codec_text_fold8((unsigned char)s[i], (unsigned char)name[i]))
			return false;
	return true;
}

/* Whether the word w holds a space or a tab: a zero byte once XORed with
 * eight of either. */
static inline bool codec_text_blank8(uint64_t w)
{
	uint64_t s = w ^ 0x2020202020202020u, t = w ^ 0x0909090909090909u;
	return (((s - 0x0101010101010101u) & ~s) | ((t - 0x0101010101010101u) & ~t)) &
	       0x8080808080808080u;
}

/* Whether s[0..n) holds a space or a tab; read only within its n bytes. */
static inline bool codec_text_has_blank(const char *s, size_t n)
{
	if (n >= 8) {
		size_t i = 0;
		for (; i + 8 <= n; i += 8)
			if (codec_text_blank8(codec_text_word(s + i)))
				return true;
		return i != n && codec_text_blank8(codec_text_word(s + n - 8));
	}
	for (size_t i = 0; i < n; i++)
		if (s[i] == ' ' || s[i] == '\t')
			return true;
	return false;
}

#endif
