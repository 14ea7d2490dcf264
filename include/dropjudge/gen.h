/*
 * Test-data generators for both problems, reproducible on every machine.
 *
 * The pseudo-random stream is xoshiro256** (Blackman and Vigna) seeded by
 * four outputs of splitmix64 from the 64-bit seed; integers in a range are
 * drawn by rejection, so the same seed and parameters give the same case on
 * every machine and every build. Changing what a seed gives means bumping
 * GEN_VERSION.
 *
 * Pure: no allocation, no I/O, no global state.
 */
#ifndef DROPJUDGE_GEN_H
#define DROPJUDGE_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "md.h"
#include "puyo.h"

#define GEN_VERSION 1

/* xoshiro256** state. Caller-owned; start it with gen_rng_init(). */
struct gen_rng {
	uint64_t s[4];
};

/* Seeds the stream: s[0..3] are successive splitmix64 outputs from `seed`. */
void gen_rng_init(struct gen_rng *rng, uint64_t seed);

/* Next 64-bit output of xoshiro256**. */
uint64_t gen_rng_next(struct gen_rng *rng);

/* Uniform integer in [0, bound), bound >= 1, by rejection sampling. */
uint64_t gen_rng_below(struct gen_rng *rng, uint64_t bound);

/*
 * Draws the next placement of a Monomino-Domino case: t uniform in 1..3, then
 * (x, y) uniform among the positions where that block fits in red. Calling it
 * n times on a fresh stream gives the case of that seed, one block at a time,
 * so that a case of any length streams without a buffer.
 */
struct md_block gen_md_block(struct gen_rng *rng);

/* Bounds of the Puyo search. */
#define GEN_PUYO_MAX_CHAINS 12 /* largest min_chains accepted */

/*
 * Builds a settled 12-row Puyo field, using only the first `colors` colours
 * (1..5), whose chain count is at least `min_chains` (0..12), by a bounded
 * search. Returns true and fills *field on success; returns false (the field
 * is then unspecified) when the bound was reached first, at once for
 * parameters out of range or impossible (one colour cannot chain twice).
 * With 3 to 5 colours every chain count up to 12 is found; with 2 colours
 * some seeds fail from 10 chains on.
 */
bool gen_puyo_field(uint64_t seed, unsigned colors, unsigned min_chains, struct puyo_field *field);

#endif
