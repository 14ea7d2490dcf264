/*
 * The one error type of dropjudge: a status, a summary and the faults that
 * caused it, each located by a JSON pointer (RFC 6901), a text line or a
 * query parameter. The caller owns it, functions that can fail take a
 * pointer to it (NULL allowed), and the first error wins; in collect mode
 * (validation) further faults are appended, up to CODEC_FAULTS_MAX, the
 * rest counted in `dropped`. Every text stored is valid UTF-8 (other bytes
 * become '?'). The route layer numbers its own kinds from
 * CODEC_STATUS_COUNT on (enum route_status).
 */
#ifndef DROPJUDGE_CODEC_ERROR_H
#define DROPJUDGE_CODEC_ERROR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "codec/utf8.h"

enum codec_status {
	CODEC_OK = 0,
	CODEC_E_SYNTAX,	   /* not parseable: bad JSON, not the Baekjoon text format */
	CODEC_E_INVALID,   /* parseable but impossible: out of range, wrong size */
	CODEC_E_TOO_LARGE, /* over a configured limit (body, batch) */
	CODEC_E_INTERNAL,  /* out of memory or a bug; never for client input */
	CODEC_STATUS_COUNT /* a layer above numbers its own kinds from here on */
};

#define CODEC_POINTER_MAX 96
#define CODEC_DETAIL_MAX  240
#define CODEC_FAULTS_MAX  100
#define CODEC_SUMMARY_MAX (CODEC_POINTER_MAX + CODEC_DETAIL_MAX + 16)

/* One located fault (a text in a JSON string has both pointer and line). */
struct codec_fault {
	char pointer[CODEC_POINTER_MAX]; /* RFC 6901 pointer, "" when none */
	char parameter[32];		 /* query parameter name, "" when none */
	unsigned line;			 /* 1-based text line, 0 when none */
	unsigned column;		 /* 1-based column, 0 when unknown */
	char detail[CODEC_DETAIL_MAX];	 /* what is wrong there */
};

/* Where a fault is: any of the four, all empty for none. */
struct codec_where {
	const char *pointer;   /* RFC 6901 pointer, NULL or "" when none (or the root) */
	const char *parameter; /* query parameter, NULL when none */
	unsigned line;	       /* 1-based text line, 0 when none */
	unsigned column;       /* 1-based column, 0 when unknown */
};

/* The error: one fault inline; collect mode's faults live in an array the
 * caller lends. Copy it only with codec_error_copy(). */
struct codec_error {
	unsigned status;		/* of the first error, CODEC_OK while none: an enum
					   codec_status, or a kind of the layer above */
	char detail[CODEC_SUMMARY_MAX]; /* summary of the first error */
	unsigned max_faults;		/* 1: first wins; more: collect */
	unsigned nfaults;		/* faults[0..nfaults) are set */
	unsigned dropped;		/* faults that did not fit */
	struct codec_fault *faults;	/* &first, or the caller's array */
	struct codec_fault first;	/* the one fault of first-wins mode */
};

/* Clears an error in first-wins mode (collecting needs storage:
 * codec_error_collect()). */
void codec_error_init(struct codec_error *err);

/* Clears an error in collect mode: up to `max` (1..CODEC_FAULTS_MAX) faults
 * go into the caller's faults[0..max), kept alive while the error is read. */
void codec_error_collect(struct codec_error *err, struct codec_fault *faults, unsigned max);

/* Copies an error; a collecting one keeps pointing at its lent storage. */
void codec_error_copy(struct codec_error *dst, const struct codec_error *src);

/* Whether an error has been recorded. NULL counts as none. */
bool codec_error_is_set(const struct codec_error *err);

/* Records a fault of `status` at `where` (NULL: no location, no fault
 * listed); the first error also sets the status and the summary
 * "<location>: <detail>". NULL err is ignored. Returns `status`. */
unsigned codec_error_vadd(struct codec_error *err, unsigned status, const struct codec_where *where,
			  const char *fmt, va_list ap) __attribute__((format(printf, 4, 0)));

/* codec_error_vadd() with variable arguments; its shorthands at no location (no fault is
 * listed), a JSON pointer, a text line and column (0: no column), a query parameter; each
 * returns `status`, as in `return codec_error_set(err, CODEC_E_INVALID, "...");`. */
enum codec_status codec_error_add(struct codec_error *err, enum codec_status status,
				  const struct codec_where *where, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
enum codec_status codec_error_set(struct codec_error *err, enum codec_status status,
				  const char *fmt, ...) __attribute__((format(printf, 3, 4)));
enum codec_status codec_error_at_pointer(struct codec_error *err, enum codec_status status,
					 const char *pointer, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
enum codec_status codec_error_at_line(struct codec_error *err, enum codec_status status,
				      unsigned line, unsigned column, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
enum codec_status codec_error_at_param(struct codec_error *err, enum codec_status status,
				       const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Sorts the faults by position (pointer, indices as numbers; line; column); resummarises. */
void codec_error_sort(struct codec_error *err);

/* Gives `pointer` to faults from index `from` on with a line and no pointer (text in JSON). */
void codec_error_locate(struct codec_error *err, unsigned from, const char *pointer);

/* Appends "/" and `token` escaped as RFC 6901 says to the pointer in
 * out[0..size); what does not fit is left out, never half an escape.
 * Returns whether the whole token fit. */
bool codec_pointer_append(char *out, size_t size, const char *token);

/* snprintf() into buf that writes nothing when buf is NULL or size 0. */
void codec_format(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
