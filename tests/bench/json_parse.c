/*
 * Baseline of `make bench` goals 2 and 5: jansson alone parsing a body,
 * json_loadb() then json_decref(), as a straightforward server would
 * before doing anything with it.
 *
 *   json_parse FILE [REPS]
 *
 * Prints the median over 7 rounds of the microseconds one parse takes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <jansson.h>

#define ROUNDS 7

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: json_parse FILE [REPS]\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	static char body[1 << 24];
	size_t len = fread(body, 1, sizeof body, f);
	fclose(f);
	int reps = argc > 2 ? atoi(argv[2]) : 200;
	double t[ROUNDS];
	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now();
		for (int i = 0; i < reps; i++) {
			json_error_t err;
			json_t *root = json_loadb(body, len, 0, &err);
			if (!root) {
				fprintf(stderr, "json_parse: %s: %s\n", argv[1], err.text);
				return 1;
			}
			json_decref(root);
		}
		t[r] = (now() - t0) / reps * 1e6;
	}
	qsort(t, ROUNDS, sizeof t[0], cmp);
	printf("%.2f\n", t[ROUNDS / 2]);
	return 0;
}
