/*
 * What the libFuzzer targets of tests/fuzz share: the invariant check that
 * aborts (so that libFuzzer saves the input as a crash), and the checks that
 * hold for every struct codec_error a decoder fills: a known status, faults
 * that fit, RFC 6901 pointers, and a problem+json document that can be built
 * and read back (jansson refuses strings that are not UTF-8, and a refused
 * string turns the answer into a 500).
 *
 * Header-only: each target is one translation unit, built and linked alone.
 */
#ifndef DROPJUDGE_FUZZ_COMMON_H
#define DROPJUDGE_FUZZ_COMMON_H

#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/error.h"
#include "route/status.h"

/* Aborts with a message when an invariant does not hold. */
#define FUZZ_CHECK(cond, ...)                                                                      \
	do {                                                                                       \
		if (!(cond))                                                                       \
			fuzz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);                         \
	} while (0)

static inline void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 4, 5)));

static inline void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "\n==fuzz== invariant broken at %s:%d: %s\n==fuzz== ", file, line, cond);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* A copy of data[0..len) in a block of exactly len bytes (at least one), so
 * that AddressSanitizer catches a read past its end. Never NULL. */
static inline char *fuzz_dup(const uint8_t *data, size_t len)
{
	char *copy = malloc(len ? len : 1);
	if (!copy)
		abort();
	if (len)
		memcpy(copy, data, len);
	return copy;
}

/* The input as any JSON value, as the route would parse it; NULL when it
 * is not JSON. The caller owns the reference. */
static inline json_t *fuzz_json_value(const uint8_t *data, size_t len)
{
	char *text = fuzz_dup(data, len);
	json_t *value = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, NULL);
	free(text);
	return value;
}

/* The same, NUL-terminated. */
static inline char *fuzz_strndup(const uint8_t *data, size_t len)
{
	char *copy = malloc(len + 1);
	if (!copy)
		abort();
	if (len)
		memcpy(copy, data, len);
	copy[len] = '\0';
	return copy;
}

/* Whether s is an RFC 6901 JSON pointer: "" or "/..." with '~' only in "~0" and "~1". */
static inline bool fuzz_pointer_is_valid(const char *s)
{
	if (s[0] && s[0] != '/')
		return false;
	for (; *s; s++)
		if (*s == '~' && s[1] != '0' && s[1] != '1')
			return false;
	return true;
}

/*
 * Checks an error a decoder or handler filled: its status is one of
 * `allowed` (CODEC_OK always is), its counts fit, every fault is located,
 * every pointer is RFC 6901, and problem_json() builds a document that
 * serialises and parses back.
 */
static inline void fuzz_check_error(const struct codec_error *err, const enum codec_status *allowed,
				    size_t nallowed)
{
	bool known = err->status == CODEC_OK;
	for (size_t i = 0; i < nallowed; i++)
		known |= err->status == allowed[i];
	FUZZ_CHECK(known, "unexpected status %d (%s)", err->status, err->detail);
	FUZZ_CHECK(err->nfaults <= err->max_faults && err->max_faults <= CODEC_FAULTS_MAX,
		   "%u faults, max %u", err->nfaults, err->max_faults);
	if (err->status == CODEC_OK) {
		FUZZ_CHECK(err->nfaults == 0 && err->dropped == 0,
			   "no error but %u faults (%u dropped)", err->nfaults, err->dropped);
		return;
	}
	FUZZ_CHECK(err->detail[0] != '\0', "an error without a summary");
	for (unsigned i = 0; i < err->nfaults; i++) {
		const struct codec_fault *f = &err->faults[i];
		FUZZ_CHECK(fuzz_pointer_is_valid(f->pointer), "fault %u: bad pointer '%s'", i,
			   f->pointer);
		FUZZ_CHECK(f->detail[0] != '\0', "fault %u without a detail", i);
		FUZZ_CHECK(f->column == 0 || f->line != 0, "fault %u: a column without a line", i);
	}
	json_t *problem = problem_json(err);
	FUZZ_CHECK(problem != NULL, "problem_json failed (not UTF-8?): '%s'", err->detail);
	char *text = json_dumps(problem, JSON_COMPACT);
	FUZZ_CHECK(text != NULL, "problem does not serialise");
	json_t *back = json_loads(text, 0, NULL);
	FUZZ_CHECK(back != NULL, "problem does not parse back: %s", text);
	FUZZ_CHECK(json_equal(problem, back), "problem changed in a round trip: %s", text);
	json_decref(back);
	free(text);
	json_decref(problem);
}

/* Whether two errors say the same first thing: status, summary, first fault. */
static inline bool fuzz_same_first_fault(const struct codec_error *a, const struct codec_error *b)
{
	if (a->status != b->status || strcmp(a->detail, b->detail) != 0)
		return false;
	if ((a->nfaults > 0) != (b->nfaults > 0))
		return false;
	if (a->nfaults == 0)
		return true;
	const struct codec_fault *fa = &a->faults[0], *fb = &b->faults[0];
	return strcmp(fa->pointer, fb->pointer) == 0 && strcmp(fa->parameter, fb->parameter) == 0 &&
	       fa->line == fb->line && fa->column == fb->column &&
	       strcmp(fa->detail, fb->detail) == 0;
}

/* Whether two errors are the same in every field that is set. */
static inline bool fuzz_same_error(const struct codec_error *a, const struct codec_error *b)
{
	if (a->status != b->status || strcmp(a->detail, b->detail) != 0 ||
	    a->nfaults != b->nfaults || a->dropped != b->dropped)
		return false;
	for (unsigned i = 0; i < a->nfaults; i++) {
		const struct codec_fault *fa = &a->faults[i], *fb = &b->faults[i];
		if (strcmp(fa->pointer, fb->pointer) != 0 ||
		    strcmp(fa->parameter, fb->parameter) != 0 || fa->line != fb->line ||
		    fa->column != fb->column || strcmp(fa->detail, fb->detail) != 0)
			return false;
	}
	return true;
}

#endif
