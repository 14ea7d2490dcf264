/*
 * The AVX-512 reader of a `dropjudge solve puyo --lines` line, which
 * puyo_lines_read() takes in place of its portable fast path where the
 * processor has AVX-512 BW and VBMI; the tests hold the two to each other.
 */
#ifndef DROPJUDGE_CODEC_PUYO_LINES_AVX512_H
#define DROPJUDGE_CODEC_PUYO_LINES_AVX512_H

#include <stdbool.h>
#include <stddef.h>

#include "dropjudge/puyo.h"

/* Whether puyo_lines_read() takes it: the processor has it, the build is
 * not SIMD=0 and puyo_lines_avx512_set() did not turn it off. */
bool puyo_lines_avx512_on(void);

/* For the tests: false turns it off, true gives it back to the processor. */
void puyo_lines_avx512_set(bool on);

/* True when s[0..len) is exactly 12 or 13 rows of `.RGBPYO` separated by
 * single spaces, having filled *planes; false for any other line. Only
 * when puyo_lines_avx512_on(). */
bool puyo_lines_avx512_read(const char *s, size_t len, struct puyo_planes *planes);

#endif
