/*
 * What the route layer's files share: the operations each problem offers
 * (implemented in md.c and puyo.c), the handlers built on them (cases.c,
 * generate handlers, meta.c), content negotiation (negotiate.c) and the
 * response helpers (respond.c). Private to src/route, but for main/check.c,
 * whose checker protocols solve and validate through the same operations.
 */
#ifndef DROPJUDGE_ROUTE_HANDLERS_H
#define DROPJUDGE_ROUTE_HANDLERS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/error.h"
#include "dropjudge/md.h"
#include "dropjudge/puyo.h"
#include "route/route.h"

/* A trace longer than this many steps is refused (422 at "/trace"). */
#define ROUTE_MAX_TRACE_STEPS 10000

/* The final state of one solved case, before it is encoded. */
struct route_outcome {
	union {
		struct md_game md;
		struct {
			struct puyo_field field;
			struct puyo_result result;
		} puyo;
	} u;
	json_t *steps; /* owned trace array, NULL without trace */
};

/* What a problem offers. All functions are pure apart from allocation. */
struct route_problem {
	const char *id;	   /* path segment, "monomino-domino" */
	const char *title; /* "Monomino-Domino" */
	unsigned baekjoon; /* problem number */
	/* Solve one case from a JSON object at `pointer`; trace fills ->steps. */
	enum codec_status (*solve_json)(const json_t *case_obj, const char *pointer,
					const struct route_limits *limits, bool trace,
					struct route_outcome *out, struct codec_error *err);
	/* Optional fast path of a JSON body asked without ?trace: true when the
	 * body is the canonical case and *out holds its outcome; false (nothing
	 * reported) sends the body down the jansson path, solve_json. */
	bool (*solve_json_fast)(const char *body, size_t len, const struct route_limits *limits,
				struct route_outcome *out);
	/* Solve one case from the Baekjoon input text. */
	enum codec_status (*solve_text)(const char *text, size_t len,
					const struct route_limits *limits, bool trace,
					struct route_outcome *out, struct codec_error *err);
	/* New result object; takes out->steps. NULL when out of memory. */
	json_t *(*outcome_json)(struct route_outcome *out);
	/* Optional: the bytes outcome_json would give, dumped compact with a
	 * final newline, written straight into buf for an outcome without
	 * steps; returns the length as snprintf does. NULL: use outcome_json. */
	int (*outcome_write)(const struct route_outcome *out, char *buf, size_t size);
	/* The Baekjoon output text; returns its length as snprintf does. */
	int (*outcome_text)(const struct route_outcome *out, char *buf, size_t size);
	/* Check a case against the strict Baekjoon constraints, every fault into
	 * `err` (collect mode). */
	void (*validate_json)(const json_t *case_obj, const char *pointer, struct codec_error *err);
	void (*validate_text)(const char *text, size_t len, struct codec_error *err);
	/* Query parameters of GET .../generate besides "seed", NULL-terminated. */
	const char *const *generate_params;
	/* Answers GET .../generate for `seed` (JSON or, when text, the Baekjoon
	 * input text); the caller adds the seed and generator headers. */
	void (*generate)(const struct route_request *req, uint64_t seed, bool text,
			 struct route_response *resp);
};

extern const struct route_problem route_md;
extern const struct route_problem route_puyo;

/* Output format chosen by Accept. */
enum route_format {
	ROUTE_FORMAT_NONE = 0, /* nothing acceptable: 406 */
	ROUTE_FORMAT_JSON,
	ROUTE_FORMAT_TEXT,
};

/* Body format named by Content-Type. */
enum route_body {
	ROUTE_BODY_UNSUPPORTED = 0,
	ROUTE_BODY_JSON,
	ROUTE_BODY_TEXT,
};

/* Chooses JSON or (when text_ok) text/plain from an Accept header (NULL:
 * JSON). Honours q-values and the most specific matching range; a tie goes
 * to JSON. */
enum route_format route_negotiate(const char *accept, bool text_ok);

/* Reads a Content-Type header: application/json or text/plain, with an
 * optional charset that must be utf-8. */
enum route_body route_body_kind(const char *content_type);

/* Handlers; each fills *resp completely. */
void route_solve(const struct route_problem *p, const struct route_request *req,
		 struct route_response *resp);
void route_judge(const struct route_problem *p, const struct route_request *req,
		 struct route_response *resp);
void route_validate(const struct route_problem *p, const struct route_request *req,
		    struct route_response *resp);
void route_generate(const struct route_problem *p, const struct route_request *req,
		    struct route_response *resp);
void route_package(const struct route_problem *p, const struct route_request *req,
		   struct route_response *resp);
void route_livez(const struct route_request *req, struct route_response *resp);
/* GET /metrics: the exposition text from req->metrics. */
void route_metrics(const struct route_request *req, struct route_response *resp);
void route_readyz(const struct route_request *req, struct route_response *resp);
void route_info(const struct route_request *req, struct route_response *resp);
void route_openapi(const struct route_request *req, struct route_response *resp);
/* The viewer's page and files (www.c); GET .../render.svg (render.c). */
void route_www(const struct route_request *req, struct route_response *resp);
void route_md_render(const struct route_request *req, struct route_response *resp);
void route_puyo_render(const struct route_request *req, struct route_response *resp);
/* Answers solve's single case (the body of `req`) as SVG: the final state,
 * or with a trace (the case's "trace", else `trace`) every step; ?cell=
 * sizes it. A batch is 406. */
void route_render_body(const struct route_problem *p, const struct route_request *req, bool trace,
		       struct route_response *resp);

/*
 * Response helpers. route_respond_json takes `body` (a reference, even on
 * failure) and answers with the HTTP status of `status` (CODEC_OK: 200).
 * Out of memory becomes the fixed 500 answer.
 */
void route_respond_json(struct route_response *resp, enum codec_status status, json_t *body);
void route_respond_text(struct route_response *resp, const char *content_type, const char *text,
			size_t len);
void route_respond_error(struct route_response *resp, const struct codec_error *err);
void route_respond_oom(struct route_response *resp);
/* Adds a header; the value is copied (truncated to fit). */
void route_add_header(struct route_response *resp, const char *name, const char *value);

/*
 * Credentials (route/auth.c). route_auth_check returns CODEC_OK for
 * ROUTE_AUTH_OK, else records the 401 (400 for a malformed header) in err
 * and returns its status. route_auth_challenge adds the RFC 6750
 * WWW-Authenticate header that goes with such an answer (nothing for
 * ROUTE_AUTH_OK).
 */
enum codec_status route_auth_check(enum route_auth auth, struct codec_error *err);
void route_auth_challenge(enum route_auth auth, struct route_response *resp);

/*
 * Query parameters: rejects (400, at the parameter) any not in `allowed`
 * (NULL-terminated). Returns false with err set on the first bad one.
 */
bool route_check_params(const struct route_request *req, const char *const *allowed,
			struct codec_error *err);
/* Reads an unsigned decimal parameter in [min, max]; absent gives `dflt`.
 * Not a number: 400; out of range: 422. Returns false with err set. */
bool route_param_u64(const struct route_request *req, const char *key, uint64_t min, uint64_t max,
		     uint64_t dflt, uint64_t *out, struct codec_error *err);
/* Reads a boolean parameter (true/false/1/0); absent gives `dflt`. */
bool route_param_bool(const struct route_request *req, const char *key, bool dflt, bool *out,
		      struct codec_error *err);

/* Parses a JSON body; bad JSON is CODEC_E_SYNTAX located by line/column.
 * Returns a new reference or NULL with err set. */
json_t *route_parse_json(const char *body, size_t len, struct codec_error *err);

#endif
