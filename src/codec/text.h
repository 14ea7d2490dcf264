/*
 * Strings compared on the request path: a method, a media type or a label
 * against a literal, a few times a request. Their first bytes mostly
 * differ, and a byte compared here costs less than a call of strcmp().
 */
#ifndef DROPJUDGE_CODEC_TEXT_H
#define DROPJUDGE_CODEC_TEXT_H

#include <stdbool.h>
#include <string.h>

/* Whether the NUL-terminated strings a and b are the same (strcmp() == 0). */
static inline bool codec_text_is(const char *a, const char *b)
{
	return a[0] == b[0] && strcmp(a, b) == 0;
}

#endif
