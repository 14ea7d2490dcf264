/*
 * GET /v1/{problem}/generate: the parts every generator shares — the seed
 * (given, or drawn at random and echoed), and the headers that make a
 * case reproducible. The table has read every parameter already. HEAD
 * answers the headers without searching for a case.
 */
#include <inttypes.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/types.h>

#include "dropjudge/gen.h"
#include "route/handlers.h"

/* A seed for a request that named none: drawn at random (getrandom), with
 * the address of a stack slot mixed in should the kernel refuse. */
static uint64_t fresh_seed(void)
{
	uint64_t z = 0;
	if (getrandom(&z, sizeof z, GRND_NONBLOCK) != (ssize_t)sizeof z)
		z ^= (uint64_t)(uintptr_t)&z;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

void route_add_seed_headers(struct route_response *resp, uint64_t seed)
{
	char value[32];
	snprintf(value, sizeof value, "%" PRIu64, seed);
	route_add_header(resp, "Dropjudge-Seed", value);
	snprintf(value, sizeof value, "%d", GEN_VERSION);
	route_add_header(resp, "Dropjudge-Generator", value);
}

enum route_status route_generate(const struct route_call *call, struct route_response *resp,
				 struct codec_error *err)
{
	const struct problem *p = route_entry_problem(call->entry);
	uint64_t seed = route_param(call->req, "seed") ? route_arg(call, "seed") : fresh_seed();
	if (call->req->headers_only) { /* HEAD: the case is not searched for */
		route_respond_empty(resp, 200);
		resp->content_type = route_format_media(call->format);
		resp->head_only = true;
	} else {
		struct problem_gen g = {.seed = seed,
					.n = route_arg(call, "n"),
					.colors = route_arg(call, "colors"),
					.min_chains = route_arg(call, "min_chains"),
					.with_answer = route_arg(call, "with_answer") != 0,
					.text = call->format == ROUTE_FORMAT_TEXT};
		struct problem_text text;
		json_t *obj = NULL;
		problem_text_init(&text);
		enum route_status st = route_status_of(p->generate(&g, &text, &obj, err));
		if (st == ROUTE_OK && g.text)
			st = route_respond_text(resp, ROUTE_TEXT_MEDIA_TYPE, text.data, text.len,
						err);
		else if (st == ROUTE_OK)
			st = route_respond_json(resp, obj, err);
		problem_text_free(&text);
		if (st != ROUTE_OK)
			return st;
	}
	route_add_seed_headers(resp, seed);
	return ROUTE_OK;
}
