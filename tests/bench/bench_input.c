/*
 * Writes the inputs of `make bench` on stdout, the same bytes on every
 * machine (gen.h's streams):
 *
 *   bench_input md N SEED          Baekjoon 20061 text: N, then N placements
 *   bench_input md-json N SEED     the same case as JSON {"blocks": [[t,x,y], ...]}
 *   bench_input puyo-lines N SEED  N Puyo fields, one per line (the input of
 *                                  `dropjudge solve puyo --lines`)
 *   bench_input puyo-batch N SEED  the first N of those fields as a JSON batch
 *                                  {"cases": [{"field": [...]}, ...]}
 *   bench_input puyo-ndjson N SEED the same fields as a stream of cases, one
 *                                  {"field": [...]} a line
 *
 * The Puyo fields are settled, 12 rows (one in eight with the hidden 13th
 * row), 3 to 5 colours, one in four with garbage, columns of random height
 * with many tall ones, so that most fields chain (0 to 6 chains, a few more).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dropjudge/gen.h"

static int write_md(unsigned long n, struct gen_rng *rng)
{
	printf("%lu\n", n);
	for (unsigned long i = 0; i < n; i++) {
		struct md_block b = gen_md_block(rng);
		printf("%u %u %u\n", b.t, b.x, b.y);
	}
	return 0;
}

static int write_md_json(unsigned long n, struct gen_rng *rng)
{
	printf("{\"blocks\":[");
	for (unsigned long i = 0; i < n; i++) {
		struct md_block b = gen_md_block(rng);
		printf("%s[%u,%u,%u]", i ? "," : "", b.t, b.x, b.y);
	}
	printf("]}\n");
	return 0;
}

/* How write_puyo() writes each field. */
enum puyo_shape {
	PUYO_LINES, /* rows separated by spaces, a field a line */
	PUYO_BATCH, /* a JSON batch */
	PUYO_NDJSON /* a JSON case a line */
};

/* Writes n fields in the given shape. */
static int write_puyo(unsigned long n, struct gen_rng *rng, enum puyo_shape shape)
{
	static const char colors[] = "RGBPY";
	char line[13 * 7 + 1];
	for (unsigned long i = 0; i < n; i++) {
		unsigned rows = gen_rng_below(rng, 8) == 0 ? 13 : 12;
		unsigned ncolors = 3 + (unsigned)gen_rng_below(rng, 3);
		unsigned garbage = gen_rng_below(rng, 4) == 0 ? 10 : 0; /* percent */
		char grid[13][6];
		memset(grid, '.', sizeof grid);
		for (unsigned c = 0; c < 6; c++) {
			unsigned h = (unsigned)gen_rng_below(rng, rows + 1);
			if (gen_rng_below(rng, 3) == 0)
				h = rows - 4 + (unsigned)gen_rng_below(rng, 5);
			for (unsigned k = 0; k < h; k++) {
				char v = colors[gen_rng_below(rng, ncolors)];
				if (gen_rng_below(rng, 100) < garbage)
					v = 'O';
				grid[rows - 1 - k][c] = v;
			}
		}
		if (shape != PUYO_LINES) {
			if (shape == PUYO_BATCH)
				printf("%s{\"field\": [", i ? ", " : "{\"cases\": [");
			else
				printf("{\"field\": [");
			for (unsigned r = 0; r < rows; r++)
				printf("%s\"%.6s\"", r ? ", " : "", grid[r]);
			printf(shape == PUYO_BATCH ? "]}" : "]}\n");
			continue;
		}
		size_t len = 0;
		for (unsigned r = 0; r < rows; r++) {
			memcpy(line + len, grid[r], 6);
			len += 6;
			line[len++] = r + 1 < rows ? ' ' : '\n';
		}
		fwrite(line, 1, len, stdout);
	}
	if (shape == PUYO_BATCH)
		printf("%s]}\n", n ? "" : "{\"cases\": [");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr,
			"usage: bench_input md|md-json|puyo-lines|puyo-batch|puyo-ndjson N SEED\n");
		return 2;
	}
	unsigned long n = strtoul(argv[2], NULL, 10);
	struct gen_rng rng;
	gen_rng_init(&rng, strtoull(argv[3], NULL, 10));
	if (strcmp(argv[1], "md") == 0)
		return write_md(n, &rng);
	if (strcmp(argv[1], "md-json") == 0)
		return write_md_json(n, &rng);
	if (strcmp(argv[1], "puyo-lines") == 0)
		return write_puyo(n, &rng, PUYO_LINES);
	if (strcmp(argv[1], "puyo-batch") == 0)
		return write_puyo(n, &rng, PUYO_BATCH);
	if (strcmp(argv[1], "puyo-ndjson") == 0)
		return write_puyo(n, &rng, PUYO_NDJSON);
	fprintf(stderr, "bench_input: unknown input '%s'\n", argv[1]);
	return 2;
}
