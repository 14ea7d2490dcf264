/*
 * A second thread for `dropjudge solve puyo --lines`: a batch of whole
 * lines is split at a line end near its middle, and each thread answers
 * one half into memory; the answers are then written in order. Only lines
 * that all read well are answered here: at the first bad line, or when
 * anything else goes wrong, nothing is kept and the caller answers the
 * batch line by line (solve.c), which says exactly what is wrong where.
 * So the output is the same bytes with or without this thread
 * (tests/http/solve-lines.test.mjs holds one against the other).
 *
 * Off with DROPJUDGE_SOLVE_THREADS=1, or on a machine with one CPU.
 */
#ifndef DROPJUDGE_MAIN_SOLVE_PAIR_H
#define DROPJUDGE_MAIN_SOLVE_PAIR_H

#include <stdbool.h>
#include <stddef.h>

/* Bytes of whole lines below which a batch is not worth splitting. */
#define SOLVE_PAIR_MIN ((size_t)64 << 10)

struct solve_pair;

/*
 * Starts the helper thread, with room for the answers of a batch of up to
 * max_batch bytes. NULL when switched off (DROPJUDGE_SOLVE_THREADS=1, one
 * CPU) or when the thread or its memory cannot be had: the caller then
 * runs alone.
 */
struct solve_pair *solve_pair_new(size_t max_batch);

/*
 * Answers s[0..len), whole lines each ended by '\n' (len <= max_batch), one
 * chain count and '\n' per line, into out[0..cap): true with *out_len
 * bytes written and *lines lines answered; false (nothing to keep) at a
 * line that does not read as a field, or when the answers do not fit.
 */
bool solve_pair_answer(struct solve_pair *p, const char *s, size_t len, char *out, size_t cap,
		       size_t *out_len, unsigned *lines);

/* Stops the thread and frees p; NULL is ignored. */
void solve_pair_free(struct solve_pair *p);

#endif
