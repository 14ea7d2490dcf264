/*
 * The error type shared by every decoder and handler: first error wins,
 * faults located by JSON pointer or text line, optional collection of all
 * faults for validation. See error.h.
 */
#include "codec/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "codec/utf8.h"

void codec_error_init(struct codec_error *err, unsigned max_faults)
{
	if (!err)
		return;
	err->status = CODEC_OK;
	err->detail[0] = '\0';
	if (max_faults < 1)
		max_faults = 1;
	if (max_faults > CODEC_FAULTS_MAX)
		max_faults = CODEC_FAULTS_MAX;
	err->max_faults = max_faults;
	err->nfaults = 0;
	err->dropped = 0;
}

bool codec_error_is_set(const struct codec_error *err)
{
	return err && err->status != CODEC_OK;
}

bool codec_error_is_full(const struct codec_error *err)
{
	if (!err)
		return false;
	return err->status != CODEC_OK && err->max_faults <= 1;
}

/*
 * Replaces with '?' every byte of s that does not start a UTF-8 character:
 * bytes of the request (a query parameter's name) and characters cut in
 * half where a text was cut to fit. jansson refuses a string that is not
 * UTF-8, and problem_json() would then fail as if out of memory.
 */
static void text_make_utf8(char *s)
{
	size_t n = strlen(s);
	for (size_t pos = codec_utf8_invalid_at(s, n); pos < n;) {
		s[pos++] = '?';
		pos += codec_utf8_invalid_at(s + pos, n - pos);
	}
}

/* Sets status and summary when no error is set yet: the first one wins. */
static void __attribute__((format(printf, 4, 0)))
error_vset(struct codec_error *err, enum codec_status status, const char *where, const char *fmt,
	   va_list ap)
{
	if (err->status != CODEC_OK)
		return;
	err->status = status;
	char text[CODEC_DETAIL_MAX];
	vsnprintf(text, sizeof text, fmt, ap);
	if (where && where[0])
		snprintf(err->detail, sizeof err->detail, "%s: %s", where, text);
	else
		snprintf(err->detail, sizeof err->detail, "%s", text);
	text_make_utf8(err->detail);
}

/* The next free fault slot, or NULL (counting it as dropped) when full. */
static struct codec_fault *error_next_fault(struct codec_error *err)
{
	if (err->nfaults >= err->max_faults) {
		err->dropped++;
		return NULL;
	}
	struct codec_fault *f = &err->faults[err->nfaults++];
	memset(f, 0, sizeof *f);
	return f;
}

void codec_error_set(struct codec_error *err, enum codec_status status, const char *fmt, ...)
{
	if (!err)
		return;
	va_list ap;
	va_start(ap, fmt);
	error_vset(err, status, NULL, fmt, ap);
	va_end(ap);
}

void codec_error_at_pointer(struct codec_error *err, enum codec_status status, const char *pointer,
			    const char *fmt, ...)
{
	if (!err)
		return;
	va_list ap;
	va_start(ap, fmt);
	error_vset(err, status, pointer, fmt, ap); /* the root: no prefix */
	va_end(ap);
	struct codec_fault *f = error_next_fault(err);
	if (!f)
		return;
	snprintf(f->pointer, sizeof f->pointer, "%s", pointer);
	text_make_utf8(f->pointer);
	va_start(ap, fmt);
	vsnprintf(f->detail, sizeof f->detail, fmt, ap);
	va_end(ap);
	text_make_utf8(f->detail);
}

void codec_error_at_line(struct codec_error *err, enum codec_status status, unsigned line,
			 unsigned column, const char *fmt, ...)
{
	if (!err)
		return;
	char where[48];
	if (column)
		snprintf(where, sizeof where, "line %u, column %u", line, column);
	else
		snprintf(where, sizeof where, "line %u", line);
	va_list ap;
	va_start(ap, fmt);
	error_vset(err, status, where, fmt, ap);
	va_end(ap);
	struct codec_fault *f = error_next_fault(err);
	if (!f)
		return;
	f->line = line;
	f->column = column;
	va_start(ap, fmt);
	vsnprintf(f->detail, sizeof f->detail, fmt, ap);
	va_end(ap);
	text_make_utf8(f->detail);
}

void codec_error_at_param(struct codec_error *err, enum codec_status status, const char *name,
			  const char *fmt, ...)
{
	if (!err)
		return;
	char where[48];
	snprintf(where, sizeof where, "query parameter %s", name);
	va_list ap;
	va_start(ap, fmt);
	error_vset(err, status, where, fmt, ap);
	va_end(ap);
	struct codec_fault *f = error_next_fault(err);
	if (!f)
		return;
	snprintf(f->parameter, sizeof f->parameter, "%s", name);
	text_make_utf8(f->parameter);
	va_start(ap, fmt);
	vsnprintf(f->detail, sizeof f->detail, fmt, ap);
	va_end(ap);
	text_make_utf8(f->detail);
}

void codec_error_locate(struct codec_error *err, unsigned from, const char *pointer)
{
	if (!err)
		return;
	for (unsigned i = from; i < err->nfaults; i++) {
		struct codec_fault *f = &err->faults[i];
		if (f->line && !f->pointer[0]) {
			snprintf(f->pointer, sizeof f->pointer, "%s", pointer);
			text_make_utf8(f->pointer);
		}
	}
}

bool codec_pointer_append(char *out, size_t size, const char *token)
{
	size_t len = strnlen(out, size);
	char piece[2] = {'/', '\0'};
	size_t piece_len = 1;

	for (const char *p = token;; p++) {
		if (len + piece_len >= size)
			return false;
		memcpy(out + len, piece, piece_len);
		len += piece_len;
		out[len] = '\0';
		if (!*p)
			return true;
		if (*p == '~' || *p == '/') {
			piece[0] = '~';
			piece[1] = *p == '~' ? '0' : '1';
			piece_len = 2;
		} else {
			piece[0] = *p;
			piece_len = 1;
		}
	}
}

void codec_format(char *buf, size_t size, const char *fmt, ...)
{
	if (!buf || size == 0)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
}
