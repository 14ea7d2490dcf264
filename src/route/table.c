/*
 * The route table: every resource of the service, one row each. A row says all route_handle()
 * checks (methods, body kinds, answer formats, query parameters) and what the HTTP layer needs
 * before the body (name, auth). A new resource, format or parameter is a row or a bit here;
 * nothing else decides routes.
 */

#include "codec/md_codec.h"
#include "dropjudge/gen.h"
#include "package/package.h"
#include "render/render.h"
#include "route/handlers.h"

#define JSON ROUTE_FORMAT_JSON
#define TEXT ROUTE_FORMAT_TEXT
#define HTML ROUTE_FORMAT_HTML
#define YAML ROUTE_FORMAT_YAML

/* clang-format off */
/* Puyo answers with links into puyop.com and Puyo Nexus. */
#define LINKS_PARAM {.name = "links", .type = ROUTE_PARAM_BOOL, .json_only = true}
#define CELL_PARAM                                                      \
	{.name = "cell", .type = ROUTE_PARAM_U64, .min = RENDER_CELL_MIN, \
	 .max = RENDER_CELL_MAX, .dflt = RENDER_CELL_DEFAULT}
/* A picture's view: cell size, one step (in the case's range: render.c), every step, animated. */
#define RENDER_VIEW_PARAMS                                      \
	CELL_PARAM, {.name = "step", .type = ROUTE_PARAM_TEXT}, \
	{.name = "strip", .type = ROUTE_PARAM_BOOL},            \
	{.name = "animate", .type = ROUTE_PARAM_BOOL}

#define TRACE_PARAM {.name = "trace", .type = ROUTE_PARAM_BOOL, .json_only = true}
#define SEED_PARAM {.name = "seed", .type = ROUTE_PARAM_U64, .min = 0, .max = UINT64_MAX}
#define ANSWER_PARAM {.name = "with_answer", .type = ROUTE_PARAM_BOOL, .json_only = true}

/* A problem's package: GET, zip or tar.gz, the tests' count and seed, then its own parameters. */
#define PROBLEM_PACKAGE(path_, name_, problem_, ...)                                    \
	{.path = path_, .name = name_, .methods = ROUTE_GET,                            \
	 .formats = ROUTE_FORMAT_ZIP | ROUTE_FORMAT_TAR_GZ, .auth = true, .heavy = true, \
	 .cached = true, .handle = ROUTE_HANDLE_PACKAGE, .problem = problem_, .params = { \
		{.name = "format", .type = ROUTE_PARAM_TEXT},                            \
		{.name = "tests", .type = ROUTE_PARAM_U64, .min = 1,                     \
		 .max = PACKAGE_MAX_TESTS, .dflt = PACKAGE_DEFAULT_TESTS},                \
		{.name = "seed", .type = ROUTE_PARAM_U64, .max = UINT64_MAX, .dflt = 1}, \
		__VA_ARGS__}}

/* The three POST resources every problem has. */
#define PROBLEM_POSTS(prefix, id, problem_, solve_extra)                         \
	{.path = prefix, .name = id "_solve", .methods = ROUTE_POST,             \
	 .bodies = ROUTE_BODY_JSON | ROUTE_BODY_TEXT | ROUTE_BODY_NDJSON,        \
	 .formats = JSON | TEXT | ROUTE_FORMAT_SVG,                              \
	 .auth = true, .handle = ROUTE_HANDLE_SOLVE, .problem = problem_,              \
	 .params = {TRACE_PARAM, CELL_PARAM, solve_extra}},                      \
	{.path = prefix "/judge", .name = id "_judge", .methods = ROUTE_POST,    \
	 .bodies = ROUTE_BODY_JSON | ROUTE_BODY_NDJSON, .formats = JSON,          \
	 .auth = true, .handle = ROUTE_HANDLE_JUDGE, .problem = problem_,              \
	 .params = {TRACE_PARAM}},                                               \
	{.path = prefix "/validate", .name = id "_validate", .methods = ROUTE_POST, \
	 .bodies = ROUTE_BODY_JSON | ROUTE_BODY_TEXT | ROUTE_BODY_NDJSON,        \
	 .formats = JSON, .auth = true, .handle = ROUTE_HANDLE_VALIDATE, .problem = problem_}

/* GET on a constant or service resource, open to all. */
#define META(p, n, fmts, fn) \
	{.path = p, .name = n, .methods = ROUTE_GET, .formats = fmts, .handle = fn}
/* GET behind the tokens. */
#define GUARDED(p, n, fmts, fn) \
	{.path = p, .name = n, .methods = ROUTE_GET, .formats = fmts, .auth = true, .handle = fn}
/* A heavy GET behind the tokens (a generator's search, a picture). */
#define HEAVY(p, n, fmts, fn, problem_, ...)                                       \
	{.path = p, .name = n, .methods = ROUTE_GET, .formats = fmts, .auth = true, \
	 .heavy = true, .handle = fn, .problem = problem_, .params = {__VA_ARGS__}}

/* The page of a problem type (status.c names them): the handler reads the slug from the path. */
#define PROBLEM_TYPE(slug)                                                     \
	{.path = "/errors/" slug, .name = "problem_type", .methods = ROUTE_GET, \
	 .formats = JSON | HTML, .handle = ROUTE_HANDLE_PROBLEM_PAGE}
/* clang-format on */

static const struct route_entry route_table[] = {
    META("/", "index", JSON | HTML, ROUTE_HANDLE_INDEX),
    META("/livez", "livez", JSON, ROUTE_HANDLE_LIVEZ),
    META("/healthz", "healthz", JSON, ROUTE_HANDLE_LIVEZ),
    META("/readyz", "readyz", JSON, ROUTE_HANDLE_READYZ),
    /* Behind the tokens like /v1, unless --metrics-open (router.c). */
    GUARDED("/metrics", "metrics", ROUTE_FORMAT_METRICS, ROUTE_HANDLE_METRICS),
    META("/openapi.yaml", "openapi", YAML, ROUTE_HANDLE_WWW),
    META("/viewer.css", "viewer_css", ROUTE_FORMAT_CSS, ROUTE_HANDLE_WWW),
    META("/viewer.js", "viewer_js", ROUTE_FORMAT_JS, ROUTE_HANDLE_WWW),
    META("/favicon.svg", "favicon", ROUTE_FORMAT_SVG, ROUTE_HANDLE_WWW),
    META("/favicon.ico", "favicon", ROUTE_FORMAT_SVG, ROUTE_HANDLE_WWW),
    META("/docs", "docs", HTML, ROUTE_HANDLE_WWW),
    META("/docs.css", "docs_css", ROUTE_FORMAT_CSS, ROUTE_HANDLE_WWW),
    META("/errors", "problem_types", JSON | HTML, ROUTE_HANDLE_PROBLEM_TYPES),
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
    PROBLEM_TYPE("busy"),
    GUARDED("/v1", "v1", JSON, ROUTE_HANDLE_INFO),
    PROBLEM_POSTS("/v1/monomino-domino", "monomino_domino", "monomino-domino", {.name = ""}),
    HEAVY("/v1/monomino-domino/generate", "monomino_domino_generate", JSON | TEXT,
	  ROUTE_HANDLE_GENERATE, "monomino-domino", SEED_PARAM,
	  {.name = "n",
	   .type = ROUTE_PARAM_U64,
	   .min = MD_BAEKJOON_MIN_N,
	   .max = MD_BAEKJOON_MAX_N,
	   .dflt = 10,
	   .max_blocks = true},
	  ANSWER_PARAM),
    PROBLEM_PACKAGE("/v1/monomino-domino/package", "monomino_domino_package", "monomino-domino"),
    HEAVY("/v1/monomino-domino/render.svg", "monomino_domino_render", ROUTE_FORMAT_SVG,
	  ROUTE_HANDLE_MD_RENDER, "", {.name = "blocks", .type = ROUTE_PARAM_TEXT},
	  RENDER_VIEW_PARAMS),
    PROBLEM_POSTS("/v1/puyo", "puyo", "puyo", LINKS_PARAM),
    PROBLEM_PACKAGE("/v1/puyo/package", "puyo_package", "puyo",
		    {.name = "min_chains",
		     .type = ROUTE_PARAM_U64,
		     .min = 1,
		     .max = GEN_PUYO_MAX_CHAINS,
		     .dflt = PACKAGE_DEFAULT_MIN_CHAINS}),
    HEAVY("/v1/puyo/render.svg", "puyo_render", ROUTE_FORMAT_SVG, ROUTE_HANDLE_PUYO_RENDER, "",
	  {.name = "field", .type = ROUTE_PARAM_TEXT}, {.name = "puyop", .type = ROUTE_PARAM_TEXT},
	  {.name = "puyo_nexus", .type = ROUTE_PARAM_TEXT}, RENDER_VIEW_PARAMS),
    {.path = "/v1/puyo/search",
     .name = "puyo_search",
     .methods = ROUTE_POST,
     .bodies = ROUTE_BODY_JSON | ROUTE_BODY_NDJSON,
     .formats = JSON | ROUTE_FORMAT_SVG,
     .auth = true,
     .heavy = true, /* up to 10,648 sequences, each with its trigger search */
     .handle = ROUTE_HANDLE_PUYO_SEARCH,
     .params = {CELL_PARAM}},
    HEAVY("/v1/puyo/search.svg", "puyo_search_render", ROUTE_FORMAT_SVG,
	  ROUTE_HANDLE_PUYO_SEARCH_SVG, "", {.name = "field", .type = ROUTE_PARAM_TEXT},
	  {.name = "pairs", .type = ROUTE_PARAM_TEXT},
	  {.name = "add", .type = ROUTE_PARAM_U64, .min = 1, .max = 4, .dflt = 3},
	  {.name = "limit", .type = ROUTE_PARAM_U64, .min = 1, .max = 100, .dflt = 10},
	  {.name = "colors", .type = ROUTE_PARAM_TEXT}, CELL_PARAM),
    HEAVY("/v1/puyo/generate", "puyo_generate", JSON | TEXT, ROUTE_HANDLE_GENERATE, "puyo",
	  SEED_PARAM,
	  {.name = "colors", .type = ROUTE_PARAM_U64, .min = 1, .max = PUYO_COLORS, .dflt = 4},
	  {.name = "min_chains", .type = ROUTE_PARAM_U64, .max = GEN_PUYO_MAX_CHAINS},
	  ANSWER_PARAM),
};

const struct route_entry *route_entries(size_t *count)
{
	*count = sizeof route_table / sizeof route_table[0];
	return route_table;
}

/* What the numbers of a row stand for: the only pointers of the table. */
static route_handler_fn *const route_handlers[ROUTE_HANDLES] = {
    [ROUTE_HANDLE_SOLVE] = route_solve,
    [ROUTE_HANDLE_JUDGE] = route_judge,
    [ROUTE_HANDLE_VALIDATE] = route_validate,
    [ROUTE_HANDLE_GENERATE] = route_generate,
    [ROUTE_HANDLE_LIVEZ] = route_health,
    [ROUTE_HANDLE_READYZ] = route_health,
    [ROUTE_HANDLE_INFO] = route_info,
    [ROUTE_HANDLE_INDEX] = route_index,
    [ROUTE_HANDLE_PROBLEM_TYPES] = route_problem_types,
    [ROUTE_HANDLE_PROBLEM_PAGE] = route_problem_page,
    [ROUTE_HANDLE_METRICS] = route_metrics,
    [ROUTE_HANDLE_PACKAGE] = route_package,
    [ROUTE_HANDLE_WWW] = route_www,
    [ROUTE_HANDLE_MD_RENDER] = route_md_render_call,
    [ROUTE_HANDLE_PUYO_RENDER] = route_puyo_render_call,
    [ROUTE_HANDLE_PUYO_SEARCH] = route_puyo_search,
    [ROUTE_HANDLE_PUYO_SEARCH_SVG] = route_puyo_search_svg,
};

route_handler_fn *route_entry_handler(const struct route_entry *e)
{
	return route_handlers[e->handle];
}

const struct problem *route_entry_problem(const struct route_entry *e)
{
	return e->problem[0] ? problem_find(e->problem) : NULL;
}
