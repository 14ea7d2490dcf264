/* The internals of streams of cases that ndjson.c and its tests share. */
#ifndef DROPJUDGE_ROUTE_NDJSON_H
#define DROPJUDGE_ROUTE_NDJSON_H

#include <stdbool.h>
#include <stddef.h>

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

/* route_stream.read of a held answer (a struct route_ndjson): written out
 * of its records, or the held gzip bytes as they are (raw). */
long route_ndjson_read(void *ctx, char *buf, size_t size);

#endif
