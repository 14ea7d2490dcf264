/*
 * A growing text buffer (package files, traces): the first allocation
 * failure is remembered and later appends ignored, so that a writer checks
 * once at the end.
 */
#ifndef DROPJUDGE_PROBLEM_TEXT_H
#define DROPJUDGE_PROBLEM_TEXT_H

#include <stdbool.h>
#include <stddef.h>

struct problem_text {
	char *data;  /* malloc'ed, NUL-terminated when not NULL; owned */
	size_t len;  /* bytes in data, without the NUL */
	size_t cap;  /* bytes allocated */
	bool failed; /* an append ran out of memory: the text is incomplete */
};

/* Starts an empty buffer; nothing is allocated yet. */
void problem_text_init(struct problem_text *t);

/* Releases the buffer; it is empty again afterwards. */
void problem_text_free(struct problem_text *t);

/* Appends n bytes. */
void problem_text_put(struct problem_text *t, const char *s, size_t n);

/* Appends a NUL-terminated string. */
void problem_text_puts(struct problem_text *t, const char *s);

/* Appends formatted text. */
void problem_text_printf(struct problem_text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Appends s as a C string literal. */
void problem_text_c_string(struct problem_text *t, const char *s);

#endif
