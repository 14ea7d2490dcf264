/*
 * The internals of streams of cases (ndjson.c, ndjson_direct.c) that the
 * two files share and the tests reach: the reader with its fast lines
 * chosen, and the held answer read as it is sent.
 */
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

/*
 * route_ndjson_new(), with direct telling whether lines may be read by the
 * problem's fast reader (when req allows it: route_ndjson_direct()); false:
 * every line through route_handle(), the reference the fast lines must
 * equal byte for byte.
 */
struct route_ndjson *route_ndjson_new_with(const struct route_request *req, route_put_fn *put,
					   void *ctx, bool direct);

/* The next bytes of a held answer, after route_ndjson_end(): as
 * route_stream.read (> 0 bytes, 0 at the end, -1 on a fault). */
long route_ndjson_read(struct route_ndjson *nd, char *buf, size_t size);

/*
 * The problem whose fast reader may answer the lines of a stream sent as
 * req: its solve resource, no query parameter, a fast reader and a fixed
 * answer (outcome_write); NULL for any other stream, or in a build with
 * NDJSON_DIRECT=0.
 */
const struct problem *route_ndjson_direct(const struct route_request *req);

/*
 * Reads and solves a line with p's fast reader as route_handle() would
 * (the BOM skipped as route_solve() skips it): true with *out filled when
 * the line is p's canonical case; false (nothing done) sends it down
 * route_handle().
 */
bool route_ndjson_direct_line(const struct problem *p, const struct problem_limits *pl,
			      const char *line, size_t len, struct problem_outcome *out);

#endif
