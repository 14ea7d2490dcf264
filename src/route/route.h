/*
 * The request path without sockets: a parsed request in, a complete
 * response out. route_handle() is what the HTTP layer calls once a request
 * (headers and whole body) has arrived; tests and fuzz targets call it
 * directly. It owns the routing table, content negotiation and the
 * handlers; it keeps no mutable state, so any number of threads may call it.
 */
#ifndef DROPJUDGE_ROUTE_ROUTE_H
#define DROPJUDGE_ROUTE_ROUTE_H

#include <stdbool.h>
#include <stddef.h>

#include "codec/error.h"

#define ROUTE_MAX_PARAMS 16
/* Judge verdicts counted by a route_tally: enum judge_verdict's values. */
#define ROUTE_VERDICTS 3
/* route_response.route_name when no route matched. */
#define ROUTE_NAME_UNKNOWN "unknown"

/* Limits in force, from the configuration. */
struct route_limits {
	size_t max_body;	       /* bytes of a request body */
	unsigned long max_blocks;      /* placements in one Monomino-Domino case */
	unsigned long max_batch;       /* cases in one batch */
	unsigned long max_trace_steps; /* trace steps in all of one request; 0: no limit */
};

struct route_param {
	const char *key;   /* NUL-terminated, not owned */
	const char *value; /* NUL-terminated, not owned; "" for a bare key */
};

/*
 * What the HTTP layer found in the request's credentials (RFC 6750 bearer
 * tokens). Routes whose table entry says `auth` answer anything but
 * ROUTE_AUTH_OK with 401 (or 400 for MALFORMED); with no token file every
 * request is ROUTE_AUTH_OK.
 */
enum route_auth {
	ROUTE_AUTH_OK = 0,    /* a valid token, or none needed */
	ROUTE_AUTH_MISSING,   /* no Authorization header, or another scheme */
	ROUTE_AUTH_WRONG,     /* a well-formed token that is not known */
	ROUTE_AUTH_MALFORMED, /* several headers, or "Bearer" without a b64token */
};

/* What the handlers counted in one request, for the metrics. */
struct route_tally {
	const char *problem;			/* route_problem id (static); NULL: none */
	unsigned long solved;			/* cases answered */
	unsigned long rejected;			/* cases refused for their input */
	unsigned long verdicts[ROUTE_VERDICTS]; /* judge verdicts, by enum judge_verdict */
};

/* A request. Nothing in it is owned by the router. */
struct route_request {
	const char *method;	  /* "GET", "POST", ... */
	const char *path;	  /* without the query, e.g. "/v1/puyo" */
	const char *content_type; /* Content-Type header or NULL */
	const char *accept;	  /* Accept header or NULL */
	const char *body;	  /* the body; need not be NUL-terminated */
	size_t body_len;
	size_t nparams; /* query parameters, in order */
	struct route_param params[ROUTE_MAX_PARAMS];
	const struct route_limits *limits;
	bool draining;	      /* shutdown has begun */
	enum route_auth auth; /* the credentials' verdict */
	/* GET /metrics: renders the exposition text, malloc'ed, its length in
	 * *len; NULL when out of memory. NULL: no metrics (404). */
	char *(*metrics)(void *ctx, size_t *len);
	void *metrics_ctx;	   /* handed to metrics */
	struct route_tally *tally; /* counted into by the handlers; NULL: not counted */
};

#define ROUTE_MAX_HEADERS 4

struct route_header {
	const char *name; /* static string */
	char value[64];
};

/* A response. route_response_free() releases what it owns. */
struct route_response {
	unsigned status;	  /* HTTP status */
	const char *content_type; /* static string */
	char *body;		  /* dj_malloc'ed and owned, or static when body_static;
				     NULL for an empty body */
	size_t body_len;
	const char *route_name; /* the matched entry's name, ROUTE_NAME_UNKNOWN when
				   none: a static string for logs and metrics */
	bool body_static;	/* body is the static out-of-memory problem: never freed */
	size_t nheaders;
	struct route_header headers[ROUTE_MAX_HEADERS]; /* extra headers (Allow, ...) */
};

/*
 * Answers a request. Always fills *resp with a complete response (an error
 * is a problem+json response); *resp must then be released with
 * route_response_free(). Never fails: out of memory becomes a fixed 500.
 */
void route_handle(const struct route_request *req, struct route_response *resp);

/* Releases the body of a response; safe on a zeroed response. */
void route_response_free(struct route_response *resp);

/*
 * The fixed problem+json body of the 500 answered when memory runs out,
 * in static storage (*len bytes), so that it can be sent without
 * allocating. Its status is 500 and its type ".../problems/internal".
 */
const char *route_oom_body(size_t *len);

/*
 * Decides from the headers alone whether a request with a body can be
 * taken: CODEC_OK, or the status to answer (404, 405, 415, 413 when
 * content_length exceeds the limit; content_length < 0 when unknown).
 * The HTTP layer calls it before reading a body so that it never reads one
 * it would refuse.
 */
enum codec_status route_precheck(const struct route_request *req, long long content_length);

/* Whether the resource a request names does long work whatever its body
 * (a package build): the HTTP layer then answers it on its worker pool. */
bool route_is_heavy(const struct route_request *req);

/*
 * Fills *resp with the problem response for `err` (a set error). Used by
 * the HTTP layer for errors found outside route_handle (body too large).
 */
void route_error_response(const struct codec_error *err, struct route_response *resp);

/* Value of query parameter `key`, or NULL when absent. */
const char *route_param(const struct route_request *req, const char *key);

#endif
