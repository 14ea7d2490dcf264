/*
 * GET /v1/{problem}/generate: the parts every generator shares — the seed
 * (given, or drawn from the clock and echoed), the answer format, and the
 * headers that make a case reproducible.
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

void route_generate(const struct route_problem *p, const struct route_request *req,
		    struct route_response *resp)
{
	struct codec_error err;
	codec_error_init(&err, 1);
	const char *allowed[ROUTE_MAX_PARAMS + 2] = {"seed"};
	size_t n = 1;
	for (const char *const *a = p->generate_params; *a && n < ROUTE_MAX_PARAMS + 1; a++)
		allowed[n++] = *a;
	allowed[n] = NULL;
	uint64_t seed;
	if (!route_check_params(req, allowed, &err))
		goto out_error;
	if (!route_param(req, "seed"))
		seed = fresh_seed();
	else if (!route_param_u64(req, "seed", 0, UINT64_MAX, 0, &seed, &err))
		goto out_error;
	enum route_format fmt = route_negotiate(req->accept, true);
	if (fmt == ROUTE_FORMAT_NONE) {
		codec_error_set(&err, CODEC_E_NOT_ACCEPTABLE,
				"this resource answers application/json or text/plain");
		goto out_error;
	}
	p->generate(req, seed, fmt == ROUTE_FORMAT_TEXT, resp);
	if (resp->status != 200)
		return;
	char value[32];
	snprintf(value, sizeof value, "%" PRIu64, seed);
	route_add_header(resp, "Dropjudge-Seed", value);
	snprintf(value, sizeof value, "%d", GEN_VERSION);
	route_add_header(resp, "Dropjudge-Generator", value);
	return;
out_error:
	route_respond_error(resp, &err);
}
