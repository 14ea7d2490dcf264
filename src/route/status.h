/* RFC 9457 problem details, and the one table from enum route_status to
 * HTTP status, problem type and title. */
#ifndef DROPJUDGE_ROUTE_STATUS_H
#define DROPJUDGE_ROUTE_STATUS_H

#include <jansson.h>
#include <stdbool.h>

#include "codec/error.h"
#include "route/route.h"

#define PROBLEM_MEDIA_TYPE "application/problem+json"

/* The HTTP status of an enum route_status (no row: ROUTE_E_INTERNAL's). */
unsigned problem_http_status(unsigned status);

/* The last segment of a status's type URI ("invalid-input"); NULL for OK. */
const char *problem_slug(unsigned status);

/* New problem object of a set error, with "errors" and "errors_omitted"; NULL on OOM. */
json_t *problem_json(const struct codec_error *err);

/* Adds to obj (taken) the faults of err as "errors" (when there are any,
 * or always), then "errors_omitted"; obj, or NULL (released) on OOM. */
json_t *problem_add_faults(json_t *obj, const struct codec_error *err, bool always);

#endif
