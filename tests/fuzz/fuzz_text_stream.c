/*
 * libFuzzer target: a Monomino-Domino text body read as it arrives
 * (route/intake.c) against the same body kept whole, the straightforward
 * path of route_handle().
 *
 * Input: byte 0 holds flags (bits 0-1: Accept application/json, text/plain,
 * none or any; bit 2: a limit of 3 blocks), byte 1 seeds where the body is
 * cut into chunks, the rest is the body. Checked: route_handle() answers the
 * streamed body with the same status, Content-Type, headers and bytes, and
 * counts the same for the metrics, as the body kept.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "route/route.h"

static const struct route_limits limits_default = {
    .max_body = 1u << 20, .max_blocks = 1000000, .max_batch = 1000, .max_trace_steps = 0};
static const struct route_limits limits_small = {
    .max_body = 1u << 20, .max_blocks = 3, .max_batch = 1000, .max_trace_steps = 0};

static const char *const accepts[] = {"application/json", "text/plain", NULL, "*/*"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	unsigned flags = data[0];
	uint32_t cut = data[1] * 2654435761u + 1u;
	size_t len = size - 2;
	char *body = fuzz_dup(data + 2, len);
	struct route_tally kept_tally, streamed_tally;
	memset(&kept_tally, 0, sizeof kept_tally);
	memset(&streamed_tally, 0, sizeof streamed_tally);

	struct route_request kept;
	memset(&kept, 0, sizeof kept);
	kept.method = "POST";
	kept.path = "/v1/monomino-domino";
	kept.content_type = "text/plain";
	kept.accept = accepts[flags & 3];
	kept.body = body;
	kept.body_len = len;
	kept.limits = flags & 4 ? &limits_small : &limits_default;
	kept.tally = &kept_tally;
	struct route_response want;
	route_handle(&kept, &want);

	struct route_request streamed = kept;
	struct route_match m;
	route_match(&streamed, (long long)len, &m);
	streamed.entry = m.entry;
	streamed.body = NULL;
	streamed.tally = &streamed_tally;
	struct route_intake *s = route_intake_new(&streamed);
	FUZZ_CHECK(s != NULL, "%s", "a text solve must stream");
	for (size_t at = 0; at < len;) {
		cut = cut * 1103515245u + 12345u;
		size_t n = 1 + (cut >> 16) % 64;
		if (n > len - at)
			n = len - at;
		route_intake_feed(s, body + at, n);
		at += n;
	}
	streamed.intake = s;
	struct route_response got;
	route_handle(&streamed, &got);

	FUZZ_CHECK(got.status == want.status, "status %u, kept %u", got.status, want.status);
	FUZZ_CHECK(got.body_len == want.body_len && memcmp(got.body, want.body, want.body_len) == 0,
		   "streamed %.*s\nkept %.*s", (int)got.body_len, got.body, (int)want.body_len,
		   want.body);
	FUZZ_CHECK((!got.content_type && !want.content_type) ||
		       (got.content_type && want.content_type &&
			strcmp(got.content_type, want.content_type) == 0),
		   "%s", "content types differ");
	FUZZ_CHECK(got.nheaders == want.nheaders, "%zu headers, kept %zu", got.nheaders,
		   want.nheaders);
	for (size_t i = 0; i < want.nheaders; i++)
		FUZZ_CHECK(strcmp(got.headers[i].name, want.headers[i].name) == 0 &&
			       strcmp(got.headers[i].value, want.headers[i].value) == 0,
			   "header %zu differs", i);
	FUZZ_CHECK(streamed_tally.solved == kept_tally.solved &&
		       streamed_tally.rejected == kept_tally.rejected,
		   "%s", "tallies differ");
	route_response_free(&want);
	route_response_free(&got);
	route_intake_free(s);
	free(body);
	return 0;
}
