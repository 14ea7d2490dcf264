/*
 * The request path without sockets: a parsed request in, a complete response out. route_handle()
 * checks a request against its entry of the table (table.c) in one order, then calls the entry's
 * handler; the HTTP layer calls route_match() with the headers alone, before any body arrives.
 * No mutable state: any number of threads may call in.
 */
#ifndef DROPJUDGE_ROUTE_ROUTE_H
#define DROPJUDGE_ROUTE_ROUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/error.h"

/* The codec's faults (same values), then the request's own; status.c maps each to HTTP. */
enum route_status {
	ROUTE_OK = CODEC_OK,
	ROUTE_E_SYNTAX = CODEC_E_SYNTAX,	 /* the codec's: not parseable */
	ROUTE_E_INVALID = CODEC_E_INVALID,	 /* the codec's: parseable but impossible */
	ROUTE_E_TOO_LARGE = CODEC_E_TOO_LARGE,	 /* the codec's: over a configured limit */
	ROUTE_E_INTERNAL = CODEC_E_INTERNAL,	 /* the codec's: out of memory or a bug */
	ROUTE_E_MEDIA_TYPE = CODEC_STATUS_COUNT, /* a Content-Type we do not take */
	ROUTE_E_NOT_ACCEPTABLE,			 /* an Accept we cannot answer */
	ROUTE_E_NOT_FOUND,			 /* no such path */
	ROUTE_E_METHOD,				 /* path exists, method does not */
	ROUTE_E_UNAVAILABLE,			 /* shutting down */
	ROUTE_E_UNAUTHORIZED,			 /* no valid bearer token where one is needed */
	ROUTE_E_BAD_REQUEST,	 /* the HTTP message itself is malformed or ambiguous */
	ROUTE_E_NOT_IMPLEMENTED, /* an HTTP feature we do not support (a transfer coding) */
	ROUTE_E_BUSY,		 /* too much heavy work queued, or the client has gone */
	ROUTE_STATUS_COUNT
};

/* The route status of a codec status: the same kind. */
static inline enum route_status route_status_of(enum codec_status status)
{
	return (enum route_status)status;
}

/* codec_error_add() and codec_error_set() (no location) for a route_status; both return it. */
enum route_status route_error_add(struct codec_error *err, enum route_status status,
				  const struct codec_where *where, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
#define route_error_set(err, status, ...) route_error_add(err, status, NULL, __VA_ARGS__)

#define ROUTE_MAX_PARAMS 16 /* query parameters read from one request */
#define ROUTE_VERDICTS	 3  /* judge verdicts a route_tally counts: enum judge_verdict */

/* Limits and settings in force, from the configuration. */
struct route_limits {
	size_t max_body;	       /* bytes of a body but a stream (inflated) */
	size_t max_json_body;	       /* bytes of a JSON body or stream line; 0: none */
	size_t max_stream_body;	       /* bytes of an NDJSON stream; 0: max_body */
	unsigned long max_blocks;      /* placements in one Monomino-Domino case */
	unsigned long max_batch;       /* cases in one batch */
	const char *cors_origins;      /* CORS origins, comma-separated, "*" any; NULL, "": none */
	unsigned long max_trace_steps; /* trace steps in all of one request; 0: no limit */
	bool metrics_open;	       /* GET /metrics needs no token, token file or not */
	size_t max_svg_bytes;	       /* bytes of one SVG answer; more is 422; 0: no limit */
};

struct route_param {
	const char *key;   /* NUL-terminated, not owned */
	const char *value; /* NUL-terminated, not owned; "" for a bare key */
};

/* The request's bearer token (RFC 6750) as the HTTP layer judged it; OK without a token file. */
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

/* The method of a request, as the router reads it. */
enum route_verb {
	ROUTE_VERB_OTHER = 0, /* any other method, or none */
	ROUTE_VERB_GET,
	ROUTE_VERB_HEAD,
	ROUTE_VERB_POST,
	ROUTE_VERB_OPTIONS,
};

/* A request. Nothing in it is owned by the router. */
struct route_request {
	const char *method;	      /* "GET", "POST", ... */
	const char *path;	      /* without the query, e.g. "/v1/puyo" */
	const char *content_type;     /* Content-Type header or NULL */
	const char *content_encoding; /* Content-Encoding or NULL; body is decoded */
	const char *accept;	      /* Accept header or NULL */
	const char *origin;	      /* Origin header or NULL (CORS) */
	const char *request_id;	      /* echoed in every problem body; NULL: none */
	const char *body;	      /* the body; need not be NUL-terminated */
	size_t body_len;
	size_t nparams; /* query parameters, in order */
	struct route_param params[ROUTE_MAX_PARAMS];
	const struct route_limits *limits;
	bool draining;				  /* shutdown has begun */
	enum route_auth auth;			  /* the credentials' verdict */
	char *(*metrics)(void *ctx, size_t *len); /* GET /metrics' text, malloc'ed; NULL: 404 */
	void *metrics_ctx;			  /* handed to metrics */
	struct route_tally *tally;		  /* counted into by the handlers; NULL: not */
	const struct route_entry *entry;	  /* route_match()'s entry, when kept; or NULL */
	struct route_intake *intake;		  /* the body's intake (body then NULL); or NULL */
	bool headers_only;			  /* HEAD: a handler may answer head_only */
	bool (*gone)(void *ctx);		  /* whether the client has gone; NULL: never */
	void *gone_ctx;				  /* handed to gone */
};

#define ROUTE_MAX_HEADERS 12
#define ROUTE_HEADER_MAX  160 /* bytes of a header value, with the NUL */

struct route_header {
	const char *name; /* static string */
	char value[ROUTE_HEADER_MAX];
};

/* A body written as it is sent: read() fills buf[0..size) and returns its bytes, 0 at the end,
 * -1 to close the connection; free() releases ctx, and the request's body must outlive it. */
struct route_stream {
	long (*read)(void *ctx, char *buf, size_t size);
	void (*free)(void *ctx);
	bool (*gzipped)(void *ctx); /* optional, asked before read(): true when it gives gzip */
	int gzip_level;		    /* zlib's level for the HTTP layer's gzip; 0: default */
	void *ctx;		    /* owned: released by free() */
};

/* A response. route_response_free() releases what it owns. */
struct route_response {
	unsigned status;	  /* HTTP status */
	const char *content_type; /* static string; NULL for no body (204, 308) */
	char *body;		  /* owned, or static; NULL for an empty body */
	size_t body_len;
	struct route_stream stream; /* when .read is set, the body (body NULL) */
	bool body_static;	    /* body is static: never written or freed */
	bool head_only;		    /* no body; head_length its bytes (0: unknown) */
	size_t head_length;
	const char *route_name; /* the entry's name, or ROUTE_NAME_UNKNOWN */
	size_t nheaders;
	struct route_header headers[ROUTE_MAX_HEADERS]; /* extra headers (Allow, ...) */
};

/* Answer formats, as bits of a set (negotiate.c has their table). */
enum route_format {
	ROUTE_FORMAT_NONE = 0,
	ROUTE_FORMAT_JSON = 1u << 0,	/* application/json */
	ROUTE_FORMAT_TEXT = 1u << 1,	/* text/plain; charset=utf-8: the Baekjoon formats */
	ROUTE_FORMAT_HTML = 1u << 2,	/* text/html; charset=utf-8 */
	ROUTE_FORMAT_YAML = 1u << 3,	/* application/yaml */
	ROUTE_FORMAT_SVG = 1u << 4,	/* image/svg+xml */
	ROUTE_FORMAT_CSS = 1u << 5,	/* text/css; charset=utf-8 */
	ROUTE_FORMAT_JS = 1u << 6,	/* text/javascript; charset=utf-8 */
	ROUTE_FORMAT_ZIP = 1u << 7,	/* application/zip */
	ROUTE_FORMAT_TAR_GZ = 1u << 8,	/* application/gzip: a tar.gz */
	ROUTE_FORMAT_METRICS = 1u << 9, /* text/plain; version=0.0.4 (Prometheus) */
	ROUTE_FORMAT_NDJSON = 1u << 10, /* application/x-ndjson: the answer of a stream */
};

/* Body kinds, as bits of a set, named by Content-Type. */
enum route_body {
	ROUTE_BODY_NONE = 0,	     /* no body is read */
	ROUTE_BODY_JSON = 1u << 0,   /* application/json */
	ROUTE_BODY_TEXT = 1u << 1,   /* text/plain, charset utf-8 if any: Baekjoon text */
	ROUTE_BODY_NDJSON = 1u << 2, /* application/x-ndjson or jsonl */
};

/* Methods, as bits of a set. HEAD goes wherever GET does; OPTIONS everywhere. */
enum route_method {
	ROUTE_GET = 1u << 0,
	ROUTE_POST = 1u << 1,
};

enum route_param_type {
	ROUTE_PARAM_BOOL, /* true, false, 1, 0 (a bare key is true) */
	ROUTE_PARAM_U64,  /* unsigned decimal in [min, max] */
	ROUTE_PARAM_TEXT, /* any text; the handler reads it (route_param()) */
};

/* Bytes of the strings of a row, with their NUL. */
#define ROUTE_PATH_MAX	     40
#define ROUTE_ENTRY_NAME_MAX 32
#define ROUTE_PARAM_NAME_MAX 16
#define ROUTE_PROBLEM_ID_MAX 24

/* One query parameter an entry takes. */
struct route_param_spec {
	char name[ROUTE_PARAM_NAME_MAX]; /* "" ends a list */
	enum route_param_type type;	 /* how the value reads */
	uint64_t min;			 /* U64: smallest value taken */
	uint64_t max;			 /* U64: largest value taken */
	uint64_t dflt;			 /* value when absent (BOOL: 0 or 1) */
	bool max_blocks;		 /* U64: max is also at most --max-blocks */
	bool json_only;			 /* BOOL: when true the answer can only be JSON */
};

#define ROUTE_ENTRY_PARAMS 8 /* parameters one entry may declare */
#define ROUTE_NAME_UNKNOWN "unknown"

struct route_call;

/* A handler, after the table's checks: ROUTE_OK with *resp filled, or err set and its status. */
typedef enum route_status route_handler_fn(const struct route_call *call,
					   struct route_response *resp, struct codec_error *err);

/* A row of the table; no pointer (handler and problem are numbers), so never relocated. */
struct route_entry {
	char path[ROUTE_PATH_MAX];	 /* exact path, e.g. "/v1/puyo/judge" */
	char name[ROUTE_ENTRY_NAME_MAX]; /* for logs and metrics, e.g. "puyo_judge" */
	unsigned methods;		 /* enum route_method bits */
	unsigned bodies;		 /* enum route_body bits taken by POST; 0: none */
	unsigned formats;		 /* enum route_format bits it can answer, >= 1 */
	bool auth;			 /* asks for authentication when it is configured */
	bool heavy;			 /* long work whatever the body */
	bool cached;			 /* GET answers may be cached (http/cache.h) */
	unsigned char handle;		 /* enum route_handle (handlers.h): computes the answer */
	char problem[ROUTE_PROBLEM_ID_MAX];		    /* the problem's id; "" for none */
	struct route_param_spec params[ROUTE_ENTRY_PARAMS]; /* ended by an empty name */
};

/* The handler of an entry. */
route_handler_fn *route_entry_handler(const struct route_entry *e);

/* What a handler receives: the request and what the table decided. */
struct route_call {
	const struct route_request *req;
	const struct route_entry *entry;
	enum route_body body; /* the body's kind; ROUTE_BODY_NONE without one */
	const char *bytes;    /* the kept body, a leading byte-order mark skipped */
	size_t nbytes;
	enum route_format format;	   /* the one format to answer in */
	uint64_t args[ROUTE_ENTRY_PARAMS]; /* parameter values, entry->params order */
	struct codec_fault **faults;	   /* route_collect()'s storage, or NULL */
};

/* What the headers alone say about a request (route_match()). */
struct route_match {
	const struct route_entry *entry; /* NULL for 404 or a redirect */
	bool takes_body;		 /* the method sends a body this entry reads */
	enum route_status refusal;	 /* ROUTE_OK, or route_handle()'s answer to the headers:
					    404, 405, 401, 415, 406, or 413 (declared length) */
};

/* Matches a request by method, path and headers; content_length: declared, < 0 unknown. */
void route_match(const struct route_request *req, long long content_length, struct route_match *m);

/* The most bytes a body may have: a stream max_stream_body, JSON the least of max_body and
 * max_json_body, any other max_body (a limit of 0 reads as max_body). */
size_t route_body_limit(const struct route_request *req);

/* The body kind a request's Content-Type names; ROUTE_BODY_NONE for none. */
enum route_body route_request_body(const struct route_request *req);

/* Answers a request: always a complete response (an error as problem+json,
 * out of memory a fixed 500), released by route_response_free(). */
void route_handle(const struct route_request *req, struct route_response *resp);

/* Releases the body of a response; safe on a zeroed response. */
void route_response_free(struct route_response *resp);

/* Reads a streamed body whole into resp->body; false on OOM or a failed stream (released). */
bool route_response_gather(struct route_response *resp);

/* Adds a header, its value copied (cut to fit); dropped past the last. */
void route_add_header(struct route_response *resp, const char *name, const char *value);
/* Adds `token` to the response's Vary header, creating it when absent. */
void route_add_vary(struct route_response *resp, const char *token);

/* A body read chunk by chunk as it arrives (intake.c): a text case to solve or a stream of
 * cases, answered as if kept whole. NULL for another request or out of memory: it is kept. */
struct route_intake;
struct route_intake *route_intake_new(const struct route_request *req);
/* Takes the next bytes of the body (after any gzip inflating). */
void route_intake_feed(struct route_intake *s, const char *data, size_t len);
/* Frees an intake once its answer is sent; NULL is ignored. */
void route_intake_free(struct route_intake *s);

/* The fixed problem+json body of the out-of-memory 500, static. */
const char *route_oom_body(size_t *len);

/* Fills *resp with the problem response of a set error, with "request_id" when not NULL. */
void route_error_response_id(const struct codec_error *err, const char *request_id,
			     struct route_response *resp);

/* Value of query parameter `key`, or NULL when absent. */
const char *route_param(const struct route_request *req, const char *key);

/* The table: every entry, for documentation checks and the HTTP layer. */
const struct route_entry *route_entries(size_t *count);

#endif
