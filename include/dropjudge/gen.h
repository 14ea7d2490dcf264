/*
 * Test-data generators for both problems: the same seed and parameters give
 * the same case on every machine and build (xoshiro256**, integers in a
 * range drawn by rejection); changing what a seed gives bumps GEN_VERSION.
 * Pure: no allocation, no I/O, no global state.
 */
#ifndef DROPJUDGE_GEN_H
#define DROPJUDGE_GEN_H

#include <stdbool.h>
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

/* The next placement of a Monomino-Domino case: t uniform in 1..3, then (x, y) uniform where
 * that block fits in red. n calls on a fresh stream give the case of that seed. */
struct md_block gen_md_block(struct gen_rng *rng);

#define GEN_PUYO_MAX_CHAINS 12 /* largest min_chains accepted */

/*
 * Builds a settled 12-row Puyo field of the first `colors` colours (1..5)
 * whose chain count is at least `min_chains` (0..12; 0: random heights and
 * colours), by a bounded search. Returns true and fills *field; false (field
 * untouched) when the bound was reached first, at once for parameters out of
 * range or impossible (one colour cannot chain twice). With 2 colours some
 * seeds fail from 10 chains.
 */
bool gen_puyo_field(uint64_t seed, unsigned colors, unsigned min_chains, struct puyo_field *field);

#endif
