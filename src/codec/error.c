/* The error type shared by every decoder and handler. See error.h. */
#include "codec/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "codec/utf8.h"

void codec_error_init(struct codec_error *err)
{
	if (!err)
		return;
	err->status = CODEC_OK;
	err->detail[0] = '\0';
	err->max_faults = 1;
	err->nfaults = 0;
	err->dropped = 0;
	err->faults = &err->first;
}

void codec_error_collect(struct codec_error *err, struct codec_fault *faults, unsigned max)
{
	codec_error_init(err);
	if (!err || !faults)
		return;
	err->faults = faults;
	err->max_faults = max < 1 ? 1 : max > CODEC_FAULTS_MAX ? CODEC_FAULTS_MAX : max;
}

void codec_error_copy(struct codec_error *dst, const struct codec_error *src)
{
	*dst = *src;
	if (src->faults == &src->first)
		dst->faults = &dst->first;
}

bool codec_error_is_set(const struct codec_error *err)
{
	return err && err->status != CODEC_OK;
}

/* Replaces with '?' every byte of s that does not start a UTF-8 character
 * (of the request, or of a character cut to fit): jansson refuses them. */
static void text_make_utf8(char *s)
{
	size_t n = strlen(s);
	for (size_t pos = codec_utf8_invalid_at(s, n); pos < n;) {
		s[pos++] = '?';
		pos += codec_utf8_invalid_at(s + pos, n - pos);
	}
}

/* Sets the summary "<where>: <text>", or the text alone, cut to fit; <where> reads
 * "line 3, column 2", "/blocks/1/0", "query parameter n", and is empty for the root. */
static void summary_write(struct codec_error *err, const struct codec_where *w, const char *text)
{
	char place[CODEC_POINTER_MAX + 48], *d = err->detail;
	const char *pointer = w && w->pointer ? w->pointer : "", *comma = pointer[0] ? ", " : "";
	if (w && w->parameter && w->parameter[0])
		snprintf(place, sizeof place, "query parameter %s", w->parameter);
	else if (!w || !w->line)
		snprintf(place, sizeof place, "%s", pointer);
	else if (w->column)
		snprintf(place, sizeof place, "%s%sline %u, column %u", pointer, comma, w->line,
			 w->column);
	else
		snprintf(place, sizeof place, "%s%sline %u", pointer, comma, w->line);
	if (snprintf(d, sizeof err->detail, "%s%s%s", place, place[0] ? ": " : "", text) < 0)
		d[0] = '\0';
	text_make_utf8(d);
}

unsigned codec_error_vadd(struct codec_error *err, unsigned status, const struct codec_where *where,
			  const char *fmt, va_list ap)
{
	char text[CODEC_DETAIL_MAX];
	if (!err)
		return status;
	vsnprintf(text, sizeof text, fmt, ap);
	text_make_utf8(text);
	if (err->status == CODEC_OK) {
		err->status = status;
		summary_write(err, where, text);
	}
	/* A fault is listed only where the place names something. */
	if (!where || !(where->pointer || (where->parameter && where->parameter[0]) || where->line))
		return status;
	if (err->nfaults >= err->max_faults) {
		err->dropped++;
		return status;
	}
	struct codec_fault *f = &err->faults[err->nfaults++];
	*f = (struct codec_fault){.line = where->line, .column = where->column};
	snprintf(f->pointer, sizeof f->pointer, "%s", where->pointer ? where->pointer : "");
	snprintf(f->parameter, sizeof f->parameter, "%s", where->parameter ? where->parameter : "");
	text_make_utf8(f->pointer);
	text_make_utf8(f->parameter);
	memcpy(f->detail, text, sizeof f->detail);
	return status;
}

enum codec_status codec_error_add(struct codec_error *err, enum codec_status status,
				  const struct codec_where *where, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	codec_error_vadd(err, status, where, fmt, ap);
	va_end(ap);
	return status;
}

enum codec_status codec_error_set(struct codec_error *err, enum codec_status status,
				  const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	codec_error_vadd(err, status, NULL, fmt, ap);
	va_end(ap);
	return status;
}

enum codec_status codec_error_at_pointer(struct codec_error *err, enum codec_status status,
					 const char *pointer, const char *fmt, ...)
{
	const struct codec_where w = {.pointer = pointer ? pointer : ""};
	va_list ap;
	va_start(ap, fmt);
	codec_error_vadd(err, status, &w, fmt, ap);
	va_end(ap);
	return status;
}

enum codec_status codec_error_at_line(struct codec_error *err, enum codec_status status,
				      unsigned line, unsigned column, const char *fmt, ...)
{
	const struct codec_where w = {.line = line, .column = column};
	va_list ap;
	va_start(ap, fmt);
	codec_error_vadd(err, status, &w, fmt, ap);
	va_end(ap);
	return status;
}

enum codec_status codec_error_at_param(struct codec_error *err, enum codec_status status,
				       const char *name, const char *fmt, ...)
{
	const struct codec_where w = {.parameter = name};
	va_list ap;
	va_start(ap, fmt);
	codec_error_vadd(err, status, &w, fmt, ap);
	va_end(ap);
	return status;
}

/* Compares two RFC 6901 pointers token by token, indices as numbers. */
static int pointer_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		a += *a == '/';
		b += *b == '/';
		size_t na = strcspn(a, "/"), nb = strcspn(b, "/");
		bool da = na > 0 && strspn(a, "0123456789") >= na;
		bool db = nb > 0 && strspn(b, "0123456789") >= nb;
		/* indices of unequal length: the shorter is smaller */
		int c = da && db && na != nb ? 0 : strncmp(a, b, na < nb ? na : nb);
		if (c == 0 && na != nb)
			c = na < nb ? -1 : 1;
		if (c != 0)
			return c;
		a += na;
		b += nb;
	}
	return (*a != 0) - (*b != 0);
}

static int fault_cmp(const void *pa, const void *pb)
{
	const struct codec_fault *a = pa, *b = pb;
	int c = strcmp(a->parameter, b->parameter);
	if (c == 0)
		c = pointer_cmp(a->pointer, b->pointer);
	if (c == 0 && a->line != b->line)
		c = a->line < b->line ? -1 : 1;
	if (c == 0 && a->column != b->column)
		c = a->column < b->column ? -1 : 1;
	return c;
}

void codec_error_sort(struct codec_error *err)
{
	if (!err || err->nfaults < 2)
		return;
	/* Insertion sort: stable, so faults at one place keep their order. */
	for (unsigned i = 1; i < err->nfaults; i++) {
		struct codec_fault f = err->faults[i];
		unsigned j = i;
		for (; j > 0 && fault_cmp(&err->faults[j - 1], &f) > 0; j--)
			err->faults[j] = err->faults[j - 1];
		err->faults[j] = f;
	}
	const struct codec_fault *f = &err->faults[0];
	struct codec_where w = {.pointer = f->pointer,
				.parameter = f->parameter[0] ? f->parameter : NULL,
				.line = f->line,
				.column = f->column};
	summary_write(err, &w, f->detail);
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
	char one[2] = "/";
	const char *piece = one;
	for (const char *p = token;; p++) {
		size_t n = strlen(piece);
		if (len + n >= size)
			return false;
		memcpy(out + len, piece, n + 1);
		len += n;
		if (!*p)
			return true;
		one[0] = *p;
		piece = *p == '~' ? "~0" : *p == '/' ? "~1" : one;
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
