/*
 * Baseline of `make bench` goals 2 and 5: jansson alone parsing a body,
 * json_loadb() then json_decref(), as a straightforward server would
 * before doing anything with it.
 *
 *   json_parse FILE [REPS]
 *   json_parse --lines FILE
 *
 * Prints the median over 7 rounds of the microseconds one parse takes.
 * With --lines, the baseline of `make bench` goal 6: every line of FILE
 * (a stream of cases) parsed on its own, json_loadb() then json_decref(),
 * the whole file once a round; prints the median microseconds of a round.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* json_parse --lines FILE: see above. */
static int parse_lines(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 1;
	}
	size_t cap = (size_t)1 << 20, len = 0, n;
	char *body = malloc(cap);
	while (body && (n = fread(body + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap)
			body = realloc(body, cap *= 2);
	}
	fclose(f);
	if (!body) {
		fprintf(stderr, "json_parse: out of memory\n");
		return 1;
	}
	double t[ROUNDS];
	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now();
		for (const char *p = body, *end = body + len; p < end;) {
			const char *lf = memchr(p, '\n', (size_t)(end - p));
			size_t l = lf ? (size_t)(lf - p) : (size_t)(end - p);
			json_error_t err;
			json_t *root = l ? json_loadb(p, l, 0, &err) : NULL;
			if (l && !root) {
				fprintf(stderr, "json_parse: %s: %s\n", path, err.text);
				return 1;
			}
			json_decref(root);
			p += l + 1;
		}
		t[r] = (now() - t0) * 1e6;
	}
	free(body);
	qsort(t, ROUNDS, sizeof t[0], cmp);
	printf("%.0f\n", t[ROUNDS / 2]);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--lines") == 0)
		return parse_lines(argv[2]);
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
