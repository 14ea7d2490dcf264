/* The internals of streams of cases that ndjson.c, ndjson_direct.c and
 * their tests share. */
#ifndef DROPJUDGE_ROUTE_NDJSON_H
#define DROPJUDGE_ROUTE_NDJSON_H

#include <stdbool.h>
#include <stddef.h>

#include "problem/problem.h"
#include "route/handlers.h"

/* Whether the build reads lines with the problems' fast readers (1) or
 * every line through route_handle() (0). */
#ifndef NDJSON_DIRECT
#define NDJSON_DIRECT 1
#endif

/* route_ndjson_new(); direct false sends every line through route_handle(),
 * the reference the fast lines must equal byte for byte. */
struct route_ndjson *route_ndjson_new_with(const struct route_request *req, route_put_fn *put,
					   void *ctx, bool direct);

/* The next bytes of a held answer, as route_stream.read. */
long route_ndjson_read(struct route_ndjson *nd, char *buf, size_t size);

/* The problem whose fast reader may answer the lines of a stream to its
 * solve resource without parameters; NULL otherwise or with NDJSON_DIRECT=0. */
const struct problem *route_ndjson_direct(const struct route_request *req);

/* Solves a line with p's fast reader as route_handle() would: true with
 * *out filled, false (nothing done) when the reader does not take it. */
bool route_ndjson_direct_line(const struct problem *p, const struct problem_limits *pl,
			      const char *line, size_t len, struct problem_outcome *out);

#endif
