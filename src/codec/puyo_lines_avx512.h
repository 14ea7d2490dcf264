/*
 * The AVX-512 reader of a `dropjudge solve puyo --lines` line (private to
 * the codec): the one hand-vectorised kernel of the codec, which
 * puyo_lines_read() takes in place of its portable fast path where the
 * processor has AVX-512 BW and VBMI. The two take the same lines into the
 * same planes; tests/unit/test_puyo_codec.c and the fuzz target
 * fuzz_puyo_text hold them to each other (puyo_lines_avx512_set()).
 */
#ifndef DROPJUDGE_CODEC_PUYO_LINES_AVX512_H
#define DROPJUDGE_CODEC_PUYO_LINES_AVX512_H

#include <stdbool.h>
#include <stddef.h>

#include "dropjudge/puyo.h"

/*
 * Whether puyo_lines_read() takes puyo_lines_avx512_read(): the processor
 * has AVX-512 F, BW and VBMI, the build is not SIMD=0 (DROPJUDGE_SIMD 0),
 * and puyo_lines_avx512_set() has not turned it off.
 */
bool puyo_lines_avx512_on(void);

/*
 * For the tests: false makes puyo_lines_avx512_on() false from now on;
 * true gives it back to the processor's answer. Not for use while other
 * threads read lines.
 */
void puyo_lines_avx512_set(bool on);

/*
 * True when s[0..len) is exactly 12 or 13 rows of 6 characters of
 * `.RGBPYO` separated by single spaces, having filled *planes (12 rows:
 * h = 1..12); false (planes unspecified) for any other line. Reads
 * s[0..64) even when the line is shorter than that: only for lines of
 * 83 bytes or more, which every line it takes is (it returns false for
 * others before reading). Only when puyo_lines_avx512_on() said true.
 */
bool puyo_lines_avx512_read(const char *s, size_t len, struct puyo_planes *planes);

#endif
