/*
 * Micro-benchmarks of the request path without sockets, reported as
 * ratios measured side by side in one run (the machine may be noisy):
 *
 * - a 10,000-placement Monomino-Domino JSON case answered by route_handle()
 *   versus jansson only parsing the same body;
 * - the same case as Baekjoon text;
 * - Puyo chain counting on generated fields (cases per second).
 *
 * Each figure is the best of several rounds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "dropjudge/gen.h"
#include "dropjudge/puyo.h"
#include "route/route.h"

#define ROUNDS 7

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const struct route_limits limits = {
    .max_body = 1 << 24, .max_blocks = 1000000, .max_batch = 1000, .max_trace_steps = 0};

static double time_route(const char *type, const char *body, size_t len, int reps)
{
	double best = 1e9;
	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now();
		for (int i = 0; i < reps; i++) {
			struct route_request req = {.method = "POST",
						    .path = "/v1/monomino-domino",
						    .content_type = type,
						    .accept = "application/json",
						    .body = body,
						    .body_len = len,
						    .limits = &limits};
			struct route_response resp;
			route_handle(&req, &resp);
			if (resp.status != 200) {
				fprintf(stderr, "bench: status %u\n", resp.status);
				exit(1);
			}
			route_response_free(&resp);
		}
		double t = (now() - t0) / reps;
		if (t < best)
			best = t;
	}
	return best;
}

static double time_parse(const char *body, size_t len, int reps)
{
	double best = 1e9;
	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now();
		for (int i = 0; i < reps; i++) {
			json_t *root = json_loadb(body, len, 0, NULL);
			if (!root)
				exit(1);
			json_decref(root);
		}
		double t = (now() - t0) / reps;
		if (t < best)
			best = t;
	}
	return best;
}

int main(void)
{
	enum { N = 10000, REPS = 40 };
	char *json = malloc(32 + N * 12), *text = malloc(16 + N * 7);
	size_t jl = (size_t)sprintf(json, "{\"blocks\":["), tl = (size_t)sprintf(text, "%d\n", N);
	struct gen_rng rng;
	gen_rng_init(&rng, 1);
	for (int i = 0; i < N; i++) {
		struct md_block b = gen_md_block(&rng);
		jl += (size_t)sprintf(json + jl, "%s[%u,%u,%u]", i ? "," : "", b.t, b.x, b.y);
		tl += (size_t)sprintf(text + tl, "%u %u %u\n", b.t, b.x, b.y);
	}
	jl += (size_t)sprintf(json + jl, "]}");

	double parse = time_parse(json, jl, REPS);
	double solve_json = time_route("application/json", json, jl, REPS);
	double solve_text = time_route("text/plain", text, tl, REPS);
	printf("monomino-domino, %d placements (best of %d rounds):\n", N, ROUNDS);
	printf("  jansson parse only      %8.1f us\n", parse * 1e6);
	printf("  answer, JSON body       %8.1f us  ratio to parse %.2f (goal <= 1.00)\n",
	       solve_json * 1e6, solve_json / parse);
	printf("  answer, Baekjoon text   %8.1f us  ratio to parse %.2f\n", solve_text * 1e6,
	       solve_text / parse);

	enum { FIELDS = 256 };
	static struct puyo_field fields[FIELDS];
	for (unsigned i = 0; i < FIELDS; i++)
		if (!gen_puyo_field(i, 4, i % 8, &fields[i]))
			gen_puyo_field(i, 4, 0, &fields[i]);
	double best = 1e9;
	unsigned long chains = 0;
	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now();
		for (int rep = 0; rep < 100; rep++) {
			for (unsigned i = 0; i < FIELDS; i++) {
				struct puyo_field f = fields[i];
				struct puyo_result res;
				puyo_run(&f, &res);
				chains += res.chains;
			}
		}
		double t = (now() - t0) / (100.0 * FIELDS);
		if (t < best)
			best = t;
	}
	printf(
	    "puyo, generated fields of 0..7 chains: %.2f us a field, %.0f fields/s (%lu chains)\n",
	    best * 1e6, 1.0 / best, chains);
	free(json);
	free(text);
	return 0;
}
