/*
 * A growing text buffer for the package builder: appends never fail
 * loudly, the first allocation failure is remembered and the buffer then
 * ignores further appends, so that a writer checks once at the end.
 * Private to src/package.
 */
#ifndef DROPJUDGE_PACKAGE_TEXT_H
#define DROPJUDGE_PACKAGE_TEXT_H

#include <stdbool.h>
#include <stddef.h>

struct pkg_text {
	char *data;  /* malloc'ed, NUL-terminated when not NULL; owned */
	size_t len;  /* bytes in data, without the NUL */
	size_t cap;  /* bytes allocated */
	bool failed; /* an append ran out of memory: the text is incomplete */
};

/* Starts an empty buffer; nothing is allocated yet. */
void pkg_text_init(struct pkg_text *t);

/* Releases the buffer; it is empty again afterwards. */
void pkg_text_free(struct pkg_text *t);

/* Appends n bytes. */
void pkg_text_put(struct pkg_text *t, const char *s, size_t n);

/* Appends a NUL-terminated string. */
void pkg_text_puts(struct pkg_text *t, const char *s);

/* Appends formatted text. */
void pkg_text_printf(struct pkg_text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
