/*
 * The fast lines of a stream of cases: a line that the problem's fast
 * reader takes is solved here as route_solve() would, without a request
 * and response for each line. tests/unit/test_ndjson.c demands the same
 * answer bytes with it and without it.
 */
#include <string.h>

#include "route/ndjson.h"

const struct problem *route_ndjson_direct(const struct route_request *req)
{
	if (!NDJSON_DIRECT || req->nparams != 0)
		return NULL; /* a parameter (trace, links) changes the answer */
	const struct route_entry *e = req->entry;
	if (!e) {
		struct route_match m;
		route_match(req, -1, &m);
		e = m.entry;
	}
	if (!e || route_entry_handler(e) != route_solve)
		return NULL;
	const struct problem *p = route_entry_problem(e);
	return p && p->solve_json_fast && p->outcome_write ? p : NULL;
}

bool route_ndjson_direct_line(const struct problem *p, const struct problem_limits *pl,
			      const char *line, size_t len, struct problem_outcome *out)
{
	route_skip_bom(&line, &len);
	memset(out, 0, sizeof *out);
	return p->solve_json_fast(line, len, pl, out);
}
