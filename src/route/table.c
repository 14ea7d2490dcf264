/*
 * The route table: every resource of the service, one row each. A row says
 * everything route_handle() checks (methods, body kinds, answer formats,
 * query parameters) and what the HTTP layer needs to know before the body
 * (name, auth). Adding a resource, a format or a parameter is adding a row
 * or a bit here; nothing else decides routes.
 */
#include <string.h>

#include "codec/md_codec.h"
#include "dropjudge/gen.h"
#include "package/package.h"
#include "render/render.h"
#include "route/handlers.h"

#define JSON ROUTE_FORMAT_JSON
#define TEXT ROUTE_FORMAT_TEXT
#define HTML ROUTE_FORMAT_HTML
#define YAML ROUTE_FORMAT_YAML

/* ?trace=: the same parameter wherever a route can trace. */
/* The view of a picture: cell size, one step, every step, animated. How far
 * step may go depends on the case, which the handler checks. */
/* Puyo answers with links into puyop.com and Puyo Nexus. */
#define LINKS_PARAM                                                                                \
	{                                                                                          \
		.name = "links", .type = ROUTE_PARAM_BOOL, .json_only = true                       \
	}
#define CELL_PARAM                                                                                 \
	{                                                                                          \
		.name = "cell", .type = ROUTE_PARAM_U64, .min = RENDER_CELL_MIN,                   \
		.max = RENDER_CELL_MAX, .dflt = RENDER_CELL_DEFAULT                                \
	}
#define RENDER_VIEW_PARAMS                                                                         \
	CELL_PARAM,                                                                                \
	    {.name = "step", .type = ROUTE_PARAM_U64, .min = 1, .max = UINT64_MAX, .dflt = 0},     \
	    {.name = "strip", .type = ROUTE_PARAM_BOOL},                                           \
	{                                                                                          \
		.name = "animate", .type = ROUTE_PARAM_BOOL                                        \
	}

#define TRACE_PARAM                                                                                \
	{                                                                                          \
		.name = "trace", .type = ROUTE_PARAM_BOOL, .json_only = true                       \
	}
#define SEED_PARAM                                                                                 \
	{                                                                                          \
		.name = "seed", .type = ROUTE_PARAM_U64, .min = 0, .max = UINT64_MAX               \
	}
#define ANSWER_PARAM                                                                               \
	{                                                                                          \
		.name = "with_answer", .type = ROUTE_PARAM_BOOL, .json_only = true                 \
	}

/* A problem's package: GET, zip or tar.gz, the tests' count and seed, then
 * the problem's own parameters. */
#define PROBLEM_PACKAGE(path_, name_, problem, ...)                                                \
	{                                                                                          \
		.path = path_, .name = name_, .methods = ROUTE_GET,                                \
		.formats = ROUTE_FORMAT_ZIP | ROUTE_FORMAT_TAR_GZ, .auth = true, .heavy = true,    \
		.handle = route_package, .data = problem, .params = {                              \
			{.name = "format", .type = ROUTE_PARAM_TEXT},                              \
			{.name = "tests",                                                          \
			 .type = ROUTE_PARAM_U64,                                                  \
			 .min = 1,                                                                 \
			 .max = PACKAGE_MAX_TESTS,                                                 \
			 .dflt = PACKAGE_DEFAULT_TESTS},                                           \
			{.name = "seed", .type = ROUTE_PARAM_U64, .max = UINT64_MAX, .dflt = 1},   \
			__VA_ARGS__                                                                \
		}                                                                                  \
	}

/* The three POST resources every problem has. */
/* clang-format off */
#define PROBLEM_POSTS(prefix, id, problem, solve_extra)                         \
	{.path = prefix, .name = id "_solve", .methods = ROUTE_POST,             \
	 .bodies = ROUTE_BODY_JSON | ROUTE_BODY_TEXT,                           \
	 .formats = JSON | TEXT | ROUTE_FORMAT_SVG,                              \
	 .auth = true, .handle = route_solve, .data = problem,                   \
	 .params = {TRACE_PARAM, CELL_PARAM, solve_extra}},                      \
	{.path = prefix "/judge", .name = id "_judge", .methods = ROUTE_POST,    \
	 .bodies = ROUTE_BODY_JSON, .formats = JSON,                             \
	 .auth = true, .handle = route_judge, .data = problem,                   \
	 .params = {TRACE_PARAM}},                                               \
	{.path = prefix "/validate", .name = id "_validate", .methods = ROUTE_POST, \
	 .bodies = ROUTE_BODY_JSON | ROUTE_BODY_TEXT, .formats = JSON,            \
	 .auth = true, .handle = route_validate, .data = problem}
/* clang-format on */

/* GET on a constant or service resource, open to all. */
#define META(p, n, fmts, fn)                                                                       \
	{                                                                                          \
		.path = p, .name = n, .methods = ROUTE_GET, .formats = fmts, .handle = fn          \
	}

/* The page of a problem type (problem.c names them). */
#define PROBLEM_TYPE(slug)                                                                         \
	{                                                                                          \
		.path = "/problems/" slug, .name = "problem_type", .methods = ROUTE_GET,           \
		.formats = JSON | HTML, .handle = route_problem_page, .data = slug                 \
	}

static const struct route_entry route_table[] = {
    META("/", "index", JSON | HTML, route_index),
    META("/livez", "livez", JSON, route_livez),
    META("/healthz", "healthz", JSON, route_livez),
    META("/readyz", "readyz", JSON, route_readyz),
    META("/metrics", "metrics", ROUTE_FORMAT_METRICS, route_metrics),
    META("/openapi.yaml", "openapi", YAML, route_openapi),
    META("/viewer.css", "viewer_css", ROUTE_FORMAT_CSS, route_www),
    META("/viewer.js", "viewer_js", ROUTE_FORMAT_JS, route_www),
    META("/problems", "problem_types", JSON | HTML, route_problem_types),
    PROBLEM_TYPE("malformed-input"),
    PROBLEM_TYPE("invalid-input"),
    PROBLEM_TYPE("too-large"),
    PROBLEM_TYPE("unsupported-media-type"),
    PROBLEM_TYPE("not-acceptable"),
    PROBLEM_TYPE("not-found"),
    PROBLEM_TYPE("method-not-allowed"),
    PROBLEM_TYPE("unavailable"),
    PROBLEM_TYPE("unauthorized"),
    PROBLEM_TYPE("malformed-request"),
    PROBLEM_TYPE("not-implemented"),
    PROBLEM_TYPE("internal"),
    {.path = "/v1",
     .name = "v1",
     .methods = ROUTE_GET,
     .formats = JSON,
     .auth = true,
     .handle = route_info},
    PROBLEM_POSTS("/v1/monomino-domino", "monomino_domino", &route_md, {.name = NULL}),
    {.path = "/v1/monomino-domino/generate",
     .name = "monomino_domino_generate",
     .methods = ROUTE_GET,
     .formats = JSON | TEXT,
     .auth = true,
     .heavy = true, /* a generator's search */
     .handle = route_generate,
     .data = &route_md,
     .params = {SEED_PARAM,
		{.name = "n",
		 .type = ROUTE_PARAM_U64,
		 .min = MD_BAEKJOON_MIN_N,
		 .max = MD_BAEKJOON_MAX_N,
		 .dflt = 10,
		 .limit = ROUTE_LIMIT_MAX_BLOCKS},
		ANSWER_PARAM}},
    PROBLEM_PACKAGE("/v1/monomino-domino/package", "monomino_domino_package", &route_md),
    {.path = "/v1/monomino-domino/render.svg",
     .name = "monomino_domino_render",
     .methods = ROUTE_GET,
     .formats = ROUTE_FORMAT_SVG,
     .auth = true,
     .handle = route_md_render_call,
     .params = {{.name = "blocks", .type = ROUTE_PARAM_TEXT}, RENDER_VIEW_PARAMS}},
    PROBLEM_POSTS("/v1/puyo", "puyo", &route_puyo, LINKS_PARAM),
    PROBLEM_PACKAGE("/v1/puyo/package", "puyo_package", &route_puyo,
		    {.name = "min_chains",
		     .type = ROUTE_PARAM_U64,
		     .min = 1,
		     .max = GEN_PUYO_MAX_CHAINS,
		     .dflt = PACKAGE_DEFAULT_MIN_CHAINS}),
    {.path = "/v1/puyo/render.svg",
     .name = "puyo_render",
     .methods = ROUTE_GET,
     .formats = ROUTE_FORMAT_SVG,
     .auth = true,
     .handle = route_puyo_render_call,
     .params = {{.name = "field", .type = ROUTE_PARAM_TEXT},
		{.name = "puyop", .type = ROUTE_PARAM_TEXT},
		{.name = "puyo_nexus", .type = ROUTE_PARAM_TEXT},
		RENDER_VIEW_PARAMS}},
    {.path = "/v1/puyo/generate",
     .name = "puyo_generate",
     .methods = ROUTE_GET,
     .formats = JSON | TEXT,
     .auth = true,
     .heavy = true, /* a generator's search */
     .handle = route_generate,
     .data = &route_puyo,
     .params =
	 {SEED_PARAM,
	  {.name = "colors", .type = ROUTE_PARAM_U64, .min = 1, .max = PUYO_COLORS, .dflt = 4},
	  {.name = "min_chains",
	   .type = ROUTE_PARAM_U64,
	   .min = 0,
	   .max = GEN_PUYO_MAX_CHAINS,
	   .dflt = 0},
	  ANSWER_PARAM}},
};

const struct route_entry *route_entries(size_t *count)
{
	*count = sizeof route_table / sizeof route_table[0];
	return route_table;
}
