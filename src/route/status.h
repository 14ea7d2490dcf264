/*
 * RFC 9457 problem details, and the route layer's one table that maps an
 * enum route_status (the codec's faults, the request's refusals) to an HTTP
 * status, a problem type and a title. Nothing else in dropjudge chooses an HTTP
 * status.
 */
#ifndef DROPJUDGE_ROUTE_STATUS_H
#define DROPJUDGE_ROUTE_STATUS_H

#include <jansson.h>
#include <stdbool.h>

#include "codec/error.h"
#include "route/route.h"

#define PROBLEM_MEDIA_TYPE "application/problem+json"

/* The HTTP status of an enum route_status, as a codec_error holds it (200
 * for ROUTE_OK; a value without a row reads as ROUTE_E_INTERNAL). */
unsigned problem_http_status(unsigned status);

/* The last segment of a status's type URI ("invalid-input"); NULL for
 * ROUTE_OK. Type URIs are "/errors/" and the slug. */
const char *problem_slug(unsigned status);

/* What the page of a problem type says. Strings are static. */
struct problem_page {
	char type[64];	     /* the type URI, "/errors/invalid-input" */
	unsigned status;     /* the HTTP status it comes with */
	const char *title;   /* the problem's title */
	const char *meaning; /* what the error means */
	const char *fix;     /* how to fix the request */
};

/* Fills *page for the type named `slug`; false when there is none. */
bool problem_describe(const char *slug, struct problem_page *page);

/* Fills *page for the n-th type (0 first) in the order GET /errors lists
 * them; false past the last. */
bool problem_page_at(size_t n, struct problem_page *page);

/*
 * New problem object {"type", "title", "status", "detail", "errors"?} for an
 * error that is set. "errors" lists the faults, each {"pointer"} or
 * {"line", "column"?} with "detail"; when faults were dropped the object
 * also has "errors_omitted". Returns NULL when out of memory.
 */
json_t *problem_json(const struct codec_error *err);

/* New array of the faults only (for validation answers); NULL on OOM. */
json_t *problem_faults_json(const struct codec_error *err);

#endif
