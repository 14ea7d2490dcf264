/*
 * What the codec tests share for the direct JSON writers: the bytes the
 * route would have sent through jansson (a compact dump and a newline), and
 * the check that a writer gives exactly those bytes and behaves as snprintf
 * does when the buffer is short. Header-only; include after cmocka.h.
 */
#ifndef DROPJUDGE_TEST_WRITER_CHECK_H
#define DROPJUDGE_TEST_WRITER_CHECK_H

#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* A writer under test: fills buf as snprintf does, from ctx. */
typedef int (*writer_fn)(const void *ctx, char *buf, size_t size);

#define WRITER_CHECK_MAX 320 /* longer than any answer written directly */

/* The compact dump of `value` (a reference taken) and "\n"; free() it. */
static inline char *dump_line(json_t *value)
{
	assert_non_null(value);
	char *text = json_dumps(value, JSON_COMPACT);
	assert_non_null(text);
	json_decref(value);
	size_t len = strlen(text);
	char *line = malloc(len + 2);
	assert_non_null(line);
	memcpy(line, text, len);
	memcpy(line + len, "\n", 2);
	free(text);
	return line;
}

/* Checks `write` gives `want` whole, its length with no buffer, and (when
 * cut) the right prefix and NUL in every shorter buffer, never past it. */
static inline void assert_writes(const char *want, writer_fn write, const void *ctx, bool cut)
{
	int len = (int)strlen(want);
	char buf[WRITER_CHECK_MAX];
	assert_true(len < WRITER_CHECK_MAX);
	assert_int_equal(write(ctx, buf, sizeof buf), len);
	assert_string_equal(buf, want);
	assert_int_equal(write(ctx, NULL, 0), len);
	for (int size = 1; cut && size <= len + 1; size++) {
		char small[WRITER_CHECK_MAX];
		memset(small, 'X', sizeof small);
		assert_int_equal(write(ctx, small, (size_t)size), len);
		assert_memory_equal(small, want, (size_t)size - 1);
		assert_int_equal(small[size - 1], '\0');
		assert_int_equal(small[size], 'X');
	}
}

#endif
