/*
 * The growing text buffer of the package builder (see text.h).
 */
#include "problem/text.h"
#include "mem/alloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void problem_text_init(struct problem_text *t)
{
	*t = (struct problem_text){.data = NULL, .len = 0, .cap = 0, .failed = false};
}

void problem_text_free(struct problem_text *t)
{
	dj_free(t->data);
	problem_text_init(t);
}

/* Makes room for `more` bytes and the NUL; false (and failed) when it cannot. */
static bool problem_text_reserve(struct problem_text *t, size_t more)
{
	if (t->failed)
		return false;
	if (t->len + more + 1 <= t->cap)
		return true;
	size_t cap = t->cap ? t->cap : 256;
	while (cap < t->len + more + 1)
		cap *= 2;
	char *p = dj_realloc(t->data, cap);
	if (!p) {
		t->failed = true;
		return false;
	}
	t->data = p;
	t->cap = cap;
	return true;
}

void problem_text_put(struct problem_text *t, const char *s, size_t n)
{
	if (!problem_text_reserve(t, n))
		return;
	if (n > 0) /* s may be NULL then */
		memcpy(t->data + t->len, s, n);
	t->len += n;
	t->data[t->len] = '\0';
}

void problem_text_puts(struct problem_text *t, const char *s)
{
	problem_text_put(t, s, strlen(s));
}

void problem_text_printf(struct problem_text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		t->failed = true; /* and reserve refuses */
	if (!problem_text_reserve(t, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(t->data + t->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

void problem_text_c_string(struct problem_text *t, const char *s)
{
	problem_text_puts(t, "\"");
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			problem_text_put(t, "\\", 1);
		problem_text_put(t, s, 1);
	}
	problem_text_puts(t, "\"");
}
