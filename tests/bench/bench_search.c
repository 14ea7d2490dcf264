/*
 * Micro-benchmark of the Puyo search (issue 47): the fast search
 * (src/core/puyo_search.c) against the straightforward reference
 * (tests/bench/puyo_search_ref.c) on the same random mid-game fields, for
 * triggers alone (no pairs) and for one, two and three pairs (22, 484 and
 * 10,648 sequences, each with its trigger search; add 3, all five colours).
 * Prints fields per second of each and their ratio, medians of ROUNDS
 * interleaved rounds; every answer of the fast search is checked against
 * the reference's, byte for byte. Exits 1 on a different answer, or when
 * the three-pair search is not at least 20 times the reference.
 */
#include <time.h>

#include "dropjudge/puyo_search.h"

#include "puyo_search_ref.c"
#include "puyo_search_text.h"

#define ROUNDS 5

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A mid-game field: columns of 3 to 9 puyos of four colours; pairs of two of them. */
static void random_request(struct ref_request *rq, uint64_t *s, int pairs)
{
	memset(rq, 0, sizeof *rq);
	memset(rq->field, '.', sizeof rq->field);
	for (int c = 0; c < REF_COLS; c++) {
		int h = 3 + (int)(rng_next(s) % 7);
		for (int i = 0; i < h; i++)
			rq->field[REF_ROWS - 1 - i][c] = ref_color_order[rng_next(s) % 4];
	}
	rq->add = 3;
	rq->limit = 10;
	rq->npairs = pairs;
	for (int i = 0; i < pairs; i++) {
		unsigned a = (unsigned)(rng_next(s) % 4),
			 b = (a + 1 + (unsigned)(rng_next(s) % 3)) % 4;
		rq->pairs[i][0] = ref_color_order[a]; /* two colours: all 22 placements */
		rq->pairs[i][1] = ref_color_order[b];
	}
	strcpy(rq->colors, "RGBPY");
}

static void request_fast(const struct ref_request *rq, struct puyo_search_request *req)
{
	memset(req, 0, sizeof *req);
	puyo_field_init(&req->field, 13);
	for (unsigned r = 0; r < REF_ROWS; r++)
		for (unsigned c = 0; c < REF_COLS; c++)
			req->field.cell[r][c] = (uint8_t)puyo_cell_from_char(rq->field[r][c]);
	req->add = (unsigned)rq->add;
	req->pairs = (unsigned)rq->npairs;
	for (int i = 0; i < rq->npairs; i++)
		for (int j = 0; j < 2; j++)
			req->pair[i][j] = (uint8_t)puyo_cell_from_char(rq->pairs[i][j]);
	req->limit = (unsigned)rq->limit;
	req->colors = PUYO_SEARCH_ALL_COLORS;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Benchmarks `fields` requests of `pairs` pairs; returns the ratio. */
static double bench(int pairs, unsigned fields)
{
	static struct ref_request rq[64];
	static struct puyo_search_request req[64];
	static struct puyo_search_answer ans;
	static char want[1 << 15], got[1 << 15];
	double t_ref[ROUNDS], t_fast[ROUNDS];
	uint64_t s = 47 + (uint64_t)pairs;
	unsigned fast_reps = 1; /* the fast search repeats to time a measurable span */

	for (unsigned i = 0; i < fields; i++) {
		random_request(&rq[i], &s, pairs);
		request_fast(&rq[i], &req[i]);
	}
	for (unsigned r = 0; r < ROUNDS; r++) {
		double t0 = now();
		for (unsigned i = 0; i < fields; i++)
			ref_search(&rq[i], want, sizeof want);
		t_ref[r] = (now() - t0) / fields;
		if (r == 0) {
			double one = now();
			puyo_search(&req[0], &ans);
			one = now() - one;
			while (fast_reps < 1000 && one * fast_reps * fields < t_ref[0] * fields / 4)
				fast_reps *= 2;
		}
		t0 = now();
		for (unsigned k = 0; k < fast_reps; k++)
			for (unsigned i = 0; i < fields; i++)
				puyo_search(&req[i], &ans);
		t_fast[r] = (now() - t0) / fields / fast_reps;
	}
	for (unsigned i = 0; i < fields; i++) {
		ref_search(&rq[i], want, sizeof want);
		puyo_search(&req[i], &ans);
		answer_text(&req[i], &ans, got, sizeof got);
		if (strcmp(want, got) != 0) {
			fprintf(stderr, "bench_search: %d pairs, field %u: answers differ\n", pairs,
				i);
			exit(1);
		}
	}
	qsort(t_ref, ROUNDS, sizeof t_ref[0], cmp_double);
	qsort(t_fast, ROUNDS, sizeof t_fast[0], cmp_double);
	double ref = t_ref[ROUNDS / 2], fast = t_fast[ROUNDS / 2];
	static const char *const what[] = {"triggers alone", "one pair (22 sequences)",
					   "two pairs (484 sequences)",
					   "three pairs (10,648 sequences)"};
	printf("puyo search, %-30s reference %10.1f fields/s, fast %10.1f fields/s, %6.1fx\n",
	       what[pairs], 1 / ref, 1 / fast, ref / fast);
	return ref / fast;
}

int main(void)
{
	bench(0, 64);
	bench(1, 64);
	bench(2, 16);
	double ratio = bench(3, 2);
	if (ratio < 20) {
		fprintf(stderr, "bench_search: three pairs %.1fx, under the 20x goal\n", ratio);
		return 1;
	}
	return 0;
}
