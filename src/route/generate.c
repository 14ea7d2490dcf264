/*
 * GET /v1/{problem}/generate: the parts every generator shares — the seed
 * (given, or drawn from the clock and echoed), and the headers that make a
 * case reproducible. The table has read every parameter already.
 */
#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include "dropjudge/gen.h"
#include "route/handlers.h"

/* A seed for a request that named none: the clock, mixed (splitmix64). */
static uint64_t fresh_seed(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t z =
	    (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec + (uint64_t)(uintptr_t)&ts;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

enum codec_status route_generate(const struct route_call *call, struct route_response *resp,
				 struct codec_error *err)
{
	const struct route_problem *p = call->entry->data;
	uint64_t seed = route_arg_given(call, "seed") ? route_arg(call, "seed") : fresh_seed();
	enum codec_status st =
	    p->generate(call, seed, route_arg(call, "with_answer") != 0, resp, err);
	if (st != CODEC_OK)
		return st;
	char value[32];
	snprintf(value, sizeof value, "%" PRIu64, seed);
	route_add_header(resp, "Dropjudge-Seed", value);
	snprintf(value, sizeof value, "%d", GEN_VERSION);
	route_add_header(resp, "Dropjudge-Generator", value);
	return CODEC_OK;
}
