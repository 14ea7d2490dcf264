/*
 * The one error type of dropjudge: a status, a summary and the faults that
 * caused it, each located by a JSON pointer (RFC 6901) or a text line.
 *
 * Modelled on jansson's json_error_t: the caller owns it, any function that
 * can fail takes a pointer to it (NULL allowed), and the first error wins:
 * later calls never overwrite the status or summary. In "collect" mode
 * (validation) further faults are appended, up to CODEC_FAULTS_MAX; the
 * count of those that did not fit is kept in `dropped`. Every text stored
 * is valid UTF-8, so that it can go into JSON: a byte that does not start a
 * UTF-8 character (from the request, or a character cut where a text was
 * cut to fit) is stored as '?'.
 *
 * The codec's statuses are its faults: syntax, invalid, too large,
 * internal. The route layer extends them with the request's own kinds (not
 * found, method, media type, ...: enum route_status, numbered from
 * CODEC_STATUS_COUNT on) and records those in the same error; what HTTP
 * status each becomes is decided in one place only, the route layer's table
 * (route/status.c).
 */
#ifndef DROPJUDGE_CODEC_ERROR_H
#define DROPJUDGE_CODEC_ERROR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "codec/utf8.h" /* codec_utf8_char_len(), once declared here */

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
/* A summary holds "<location>: <detail>". */
#define CODEC_SUMMARY_MAX (CODEC_POINTER_MAX + CODEC_DETAIL_MAX + 16)

/*
 * One located fault: by a JSON pointer, a text line, or both (a Baekjoon
 * text held in a JSON string: pointer to the string, line inside it), or by
 * a query parameter.
 */
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

/*
 * The error. Small (one fault inline, well under a kilobyte): the faults of
 * collect mode live in an array the caller lends (codec_error_collect()).
 * Do not copy a codec_error: `faults` may point into it.
 */
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

/* Clears an error, first-wins mode (max_faults is 1; a larger value is
 * taken as 1: collecting needs the storage codec_error_collect() takes). */
void codec_error_init(struct codec_error *err, unsigned max_faults);

/*
 * Clears an error in collect mode: up to `max` (1..CODEC_FAULTS_MAX) faults
 * go into faults[0..max), which the caller owns and keeps alive as long as
 * the error is read.
 */
void codec_error_collect(struct codec_error *err, struct codec_fault *faults, unsigned max);

/* Copies a first-wins error (its one fault inline); a collecting one keeps
 * pointing at the storage it was lent. */
void codec_error_copy(struct codec_error *dst, const struct codec_error *src);

/* Whether an error has been recorded. NULL counts as none. */
bool codec_error_is_set(const struct codec_error *err);

/*
 * Whether a decoder should stop: an error is set and the error is in
 * first-wins mode (max_faults 1). A collecting error is never full: decoders
 * go on so that validation lists every fault (those past CODEC_FAULTS_MAX
 * are only counted). NULL is never full, but decoders must stop at their
 * first error when they cannot record it.
 */
bool codec_error_is_full(const struct codec_error *err);

/*
 * The one entry point: records a fault of `status` at `where` (NULL: no
 * location), its detail formatted from fmt and ap. The first error also
 * sets the status and the summary "<location>: <detail>". NULL err is
 * ignored. `status` is an enum codec_status, or a kind of the layer above
 * (numbered from CODEC_STATUS_COUNT on), which that layer's own shorthands
 * pass.
 */
void codec_error_vadd(struct codec_error *err, unsigned status, const struct codec_where *where,
		      const char *fmt, va_list ap) __attribute__((format(printf, 4, 0)));

/* codec_error_vadd() with variable arguments. */
void codec_error_add(struct codec_error *err, enum codec_status status,
		     const struct codec_where *where, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Shorthands of codec_error_add(): no location (no fault is listed), a
 * JSON pointer, a text line and column (0: no column), a query parameter. */
void codec_error_set(struct codec_error *err, enum codec_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void codec_error_at_pointer(struct codec_error *err, enum codec_status status, const char *pointer,
			    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void codec_error_at_line(struct codec_error *err, enum codec_status status, unsigned line,
			 unsigned column, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void codec_error_at_param(struct codec_error *err, enum codec_status status, const char *name,
			  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * Sorts the faults by position (JSON pointer order, array indices as
 * numbers; then line, then column) and rewrites the summary from the first
 * of them, so that a collected error reads from the top of the input down.
 */
void codec_error_sort(struct codec_error *err);

/*
 * Prefixes `pointer` to every fault recorded after fault index `from` that
 * has a line but no pointer: a Baekjoon text read from a JSON string is then
 * located as {"pointer": "/input", "line": 3}. Also used to locate faults of
 * a case inside a batch.
 */
void codec_error_locate(struct codec_error *err, unsigned from, const char *pointer);

/*
 * Appends "/" and `token`, escaped as RFC 6901 says ('~' as "~0", '/' as
 * "~1"), to the pointer held in out[0..size) (a NUL-terminated string, ""
 * for the root). A piece that does not fit, with everything after it, is
 * left out, so an escape is never cut in half. Returns whether the whole
 * token fit.
 */
bool codec_pointer_append(char *out, size_t size, const char *token);

/*
 * Writes a message into buf as snprintf does (cut to size - 1 bytes and
 * terminated); writes nothing when buf is NULL or size is 0. For the
 * "char *err, size_t errlen" reasons that http and main hand back.
 */
void codec_format(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
