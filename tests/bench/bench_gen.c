/*
 * Micro-benchmark of the generators: the Puyo search for each colour count
 * at 12 chains (and at the hardest two-colour counts), over many seeds,
 * reporting success rate, mean and worst time per field; and the
 * Monomino-Domino stream (blocks per second). Times are wall clock on a
 * possibly noisy machine: read the worst case with that in mind.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "dropjudge/gen.h"

#define SEEDS 300

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void bench_puyo(unsigned colors, unsigned min_chains)
{
	double sum = 0, worst = 0, worst_ok = 0;
	unsigned ok = 0;
	for (uint64_t seed = 0; seed < SEEDS; seed++) {
		struct puyo_field field;
		double t0 = now();
		bool found = gen_puyo_field(seed, colors, min_chains, &field);
		double t = now() - t0;
		sum += t;
		if (t > worst)
			worst = t;
		if (found) {
			ok++;
			if (t > worst_ok)
				worst_ok = t;
		}
	}
	printf("puyo colors %u min_chains %2u: %3u/%u found, mean %7.3f ms, worst %7.3f ms "
	       "(worst success %7.3f ms)\n",
	       colors, min_chains, ok, SEEDS, sum / SEEDS * 1e3, worst * 1e3, worst_ok * 1e3);
}

int main(void)
{
	for (unsigned colors = 3; colors <= 5; colors++)
		bench_puyo(colors, 12);
	for (unsigned m = 8; m <= 12; m++)
		bench_puyo(2, m);
	bench_puyo(1, 1);
	bench_puyo(4, 0);

	struct gen_rng rng;
	unsigned sum = 0;
	const unsigned n = 10000000;
	gen_rng_init(&rng, 1);
	double t0 = now();
	for (unsigned i = 0; i < n; i++) {
		struct md_block b = gen_md_block(&rng);
		sum += (unsigned)b.t + b.x + b.y;
	}
	double t = now() - t0;
	printf("md blocks: %.1f M/s (checksum %u)\n", n / t / 1e6, sum);
	return 0;
}
