/*
 * `dropjudge search puyo`: one search request read whole (at most the JSON
 * body limit of the server's defaults) and answered by route_handle() as
 * POST /v1/puyo/search answers it, or a stream of them (--ndjson) through
 * the stream reader of `solve --ndjson`.
 */
#include "main/search.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "main/check.h"
#include "main/config.h"
#include "main/solve.h"
#include "mem/alloc.h"
#include "route/route.h"

/* Answers the one request read from `in`. */
static int search_one(FILE *in, const char *name, FILE *out, FILE *errout)
{
	const struct route_limits limits = {.max_body = CONFIG_DEFAULT_MAX_BODY,
					    .max_json_body = CONFIG_DEFAULT_MAX_JSON_BODY};
	size_t len;
	char *body = check_read_all(in, CONFIG_DEFAULT_MAX_JSON_BODY, &len);
	if (!body) {
		fprintf(errout, "dropjudge: %s: %s\n", name,
			errno == EFBIG ? "larger than the 1 MiB a JSON request may have"
				       : strerror(errno));
		return 1;
	}
	struct route_request req = {.method = "POST",
				    .path = "/v1/puyo/search",
				    .content_type = "application/json",
				    .body = body,
				    .body_len = len,
				    .limits = &limits,
				    .auth = ROUTE_AUTH_OK};
	struct route_response resp;
	route_handle(&req, &resp);
	int ret = 0;
	if (!route_response_gather(&resp)) {
		fprintf(errout, "dropjudge: %s: out of memory\n", name);
		ret = 1;
	} else if (resp.status != 200) {
		fprintf(errout, "dropjudge: %s: %.*s", name, (int)resp.body_len, resp.body);
		ret = 1;
	} else if (fwrite(resp.body, 1, resp.body_len, out) != resp.body_len || fflush(out) != 0) {
		fprintf(errout, "dropjudge: cannot write the answer: %s\n", strerror(errno));
		ret = 1;
	}
	route_response_free(&resp);
	dj_free(body);
	return ret;
}

int search_main(int argc, char *const argv[], FILE *out, FILE *errout)
{
	bool ndjson = false;
	const char *path = NULL;
	if (argc < 1 || strcmp(argv[0], "puyo") != 0) {
		fprintf(errout, "dropjudge: search: expected 'puyo' (the one problem searched); "
				"try 'dropjudge --help'\n");
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--ndjson") == 0 && !ndjson) {
			ndjson = true;
		} else if (!path && (argv[i][0] != '-' || strcmp(argv[i], "-") == 0)) {
			path = argv[i];
		} else {
			fprintf(errout,
				"dropjudge: search: unexpected argument '%s'; try 'dropjudge "
				"--help'\n",
				argv[i]);
			return 2;
		}
	}
	if (!path || strcmp(path, "-") == 0)
		return ndjson ? solve_ndjson("puyo/search", stdin, "<stdin>", out, errout)
			      : search_one(stdin, "<stdin>", out, errout);
	FILE *in = fopen(path, "rb");
	if (!in) {
		fprintf(errout, "dropjudge: %s: %s\n", path, strerror(errno));
		return 1;
	}
	int ret = ndjson ? solve_ndjson("puyo/search", in, path, out, errout)
			 : search_one(in, path, out, errout);
	fclose(in);
	return ret;
}
