/*
 * libFuzzer target: the whole in-process request path, route_handle().
 *
 * Input: byte 0 holds flags (bit 0: draining; bit 1: small limits; bits
 * 2-3: the credentials' verdict, an enum route_auth), then
 * five lines, each ended by '\n': method, path, Content-Type, Accept and
 * query; the rest is the body. An empty Content-Type or Accept line means
 * the header is absent; the query is "k=v&k&..." (a bare key has the value
 * "", as the HTTP layer gives it), at most ROUTE_MAX_PARAMS parameters.
 * Every string is in its own exact-size buffer and the body is not
 * NUL-terminated, so that a read past any of them is caught. Checked:
 * - the status is one the API documents, and never 500 (no allocation
 *   fails here, so a 500 is a bug);
 * - every status >= 400 is application/problem+json whose "status" is the
 *   HTTP status, with "type", "title" and "detail", and errors whose
 *   pointers are RFC 6901;
 * - a body the content type calls JSON parses (json_loadb), and ends with
 *   a newline; an NDJSON answer (read whole from its stream) is one JSON
 *   object a line, each line ended by a newline; 405 carries Allow;
 * - 401 only with credentials that are not ROUTE_AUTH_OK, and then (as for
 *   their 400) with the WWW-Authenticate challenge; health, readiness and
 *   the description never ask for credentials;
 * - route_match()'s refusal agrees with route_handle() on what it refuses;
 * - the same request answers the same (the generators are not asked twice).
 * Deep two-colour Puyo searches and large packages are skipped
 * (is_slow_search, is_large_package).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "route/route.h"

static const struct route_limits default_limits = {
    .max_body = 1 << 20,
    .max_blocks = 1000000,
    .max_batch = 1000,
};

static const struct route_limits small_limits = {
    .max_body = 4096,
    .max_blocks = 5,
    .max_batch = 3,
};

static const unsigned known_statuses[] = {200, 204, 308, 400, 401, 404,
					  405, 406, 413, 415, 422, 503};

/* Takes the next line of data[*pos..size) as a new string; NULL at the end. */
static char *take_line(const uint8_t *data, size_t size, size_t *pos)
{
	if (*pos >= size)
		return NULL;
	const uint8_t *nl = memchr(data + *pos, '\n', size - *pos);
	size_t end = nl ? (size_t)(nl - data) : size;
	char *line = fuzz_strndup(data + *pos, end - *pos);
	*pos = nl ? end + 1 : size;
	return line;
}

static bool status_is_known(unsigned status)
{
	for (size_t i = 0; i < sizeof known_statuses / sizeof known_statuses[0]; i++)
		if (known_statuses[i] == status)
			return true;
	return false;
}

static const char *header_of(const struct route_response *resp, const char *name)
{
	for (size_t i = 0; i < resp->nheaders; i++)
		if (strcmp(resp->headers[i].name, name) == 0)
			return resp->headers[i].value;
	return NULL;
}

static bool has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The problem+json document of an error answer. */
static void check_problem(const json_t *doc, const struct route_response *resp)
{
	FUZZ_CHECK(json_is_object(doc), "a problem that is not an object");
	FUZZ_CHECK(json_integer_value(json_object_get(doc, "status")) == (json_int_t)resp->status,
		   "problem status %lld, HTTP %u",
		   (long long)json_integer_value(json_object_get(doc, "status")), resp->status);
	FUZZ_CHECK(json_is_string(json_object_get(doc, "type")) &&
		       json_is_string(json_object_get(doc, "title")) &&
		       json_is_string(json_object_get(doc, "detail")),
		   "a problem without type, title or detail");
	const json_t *errors = json_object_get(doc, "errors");
	FUZZ_CHECK(!errors || json_is_array(errors), "errors is not an array");
	size_t i;
	const json_t *e;
	json_array_foreach(errors, i, e)
	{
		const json_t *pointer = json_object_get(e, "pointer");
		FUZZ_CHECK(json_is_string(json_object_get(e, "detail")), "error %zu: no detail", i);
		FUZZ_CHECK(pointer || json_object_get(e, "line") || json_object_get(e, "parameter"),
			   "error %zu is not located", i);
		FUZZ_CHECK(!pointer || (json_is_string(pointer) &&
					fuzz_pointer_is_valid(json_string_value(pointer))),
			   "error %zu: pointer '%s' is not RFC 6901", i,
			   json_string_value(pointer));
	}
}

/* Every JSON document inside a 200 answer: batch slots hold problems too. */
static void check_slots(const json_t *doc)
{
	const json_t *results = json_object_get(doc, "results");
	size_t i;
	const json_t *slot;
	json_array_foreach(results, i, slot)
	{
		const json_t *problem = json_object_get(slot, "error");
		if (!problem)
			continue;
		json_int_t status = json_integer_value(json_object_get(problem, "status"));
		FUZZ_CHECK(status == 400 || status == 413 || status == 422,
			   "batch slot %zu: status %lld", i, (long long)status);
		struct route_response fake = {.status = (unsigned)status};
		check_problem(problem, &fake);
	}
}

/* Each line of an NDJSON answer is a JSON object, and the last line ends. */
static void check_lines(const struct route_response *resp)
{
	FUZZ_CHECK(resp->body_len == 0 || resp->body[resp->body_len - 1] == '\n',
		   "an NDJSON answer whose last line does not end");
	for (size_t at = 0; at < resp->body_len;) {
		const char *nl = memchr(resp->body + at, '\n', resp->body_len - at);
		size_t end = (size_t)(nl - resp->body);
		json_error_t jerr;
		json_t *line = json_loadb(resp->body + at, end - at, 0, &jerr);
		FUZZ_CHECK(line != NULL && json_is_object(line),
			   "an NDJSON line that is not an object (%s): %.*s",
			   line ? "not an object" : jerr.text, (int)(end - at), resp->body + at);
		json_decref(line);
		at = end + 1;
	}
}

/* Reads a streamed answer whole into resp->body, as the HTTP layer would send it. */
static void drain_stream(struct route_response *resp)
{
	if (!resp->stream.read)
		return;
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	FUZZ_CHECK(buf != NULL, "out of memory");
	for (;;) {
		if (cap - len < 1024) {
			cap *= 2;
			buf = realloc(buf, cap);
			FUZZ_CHECK(buf != NULL, "out of memory");
		}
		long n = resp->stream.read(resp->stream.ctx, buf + len, cap - len);
		FUZZ_CHECK(n >= 0, "a stream read failed (%ld)", n);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	resp->stream.free(resp->stream.ctx);
	memset(&resp->stream, 0, sizeof resp->stream);
	resp->body = buf;
	resp->body_len = len;
}

static void check_response(const struct route_request *req, const struct route_response *resp)
{
	FUZZ_CHECK(resp->status != 500, "500 without running out of memory: %.*s",
		   (int)resp->body_len, resp->body ? resp->body : "");
	FUZZ_CHECK(status_is_known(resp->status), "status %u", resp->status);
	FUZZ_CHECK(resp->route_name != NULL, "no route name");
	if (resp->status == 204 || resp->status == 308) {
		FUZZ_CHECK(resp->body_len == 0 && resp->content_type == NULL, "%u with a body",
			   resp->status);
		FUZZ_CHECK(header_of(resp, resp->status == 204 ? "Allow" : "Location") != NULL,
			   "%u without %s", resp->status,
			   resp->status == 204 ? "Allow" : "Location");
		return;
	}
	FUZZ_CHECK(resp->content_type != NULL, "no content type");
	FUZZ_CHECK(resp->body_len == 0 || resp->body != NULL, "a length without a body");
	FUZZ_CHECK(resp->nheaders <= ROUTE_MAX_HEADERS, "%zu headers", resp->nheaders);
	if (resp->status == 503)
		FUZZ_CHECK(req->draining, "503 while not draining");
	if (resp->status == 405)
		FUZZ_CHECK(header_of(resp, "Allow") != NULL, "405 without Allow");
	if (resp->status == 401)
		FUZZ_CHECK(req->auth == ROUTE_AUTH_MISSING || req->auth == ROUTE_AUTH_WRONG,
			   "401 with credentials %d", (int)req->auth);
	if (resp->status == 401 || (resp->status == 400 && req->auth == ROUTE_AUTH_MALFORMED &&
				    strncmp(req->path, "/v1", 3) == 0))
		FUZZ_CHECK(header_of(resp, "WWW-Authenticate") != NULL, "%u without a challenge",
			   resp->status);
	if (req->auth != ROUTE_AUTH_OK &&
	    (strcmp(req->path, "/livez") == 0 || strcmp(req->path, "/healthz") == 0 ||
	     strcmp(req->path, "/readyz") == 0 || strcmp(req->path, "/openapi.yaml") == 0))
		FUZZ_CHECK(resp->status != 401 && header_of(resp, "WWW-Authenticate") == NULL,
			   "%s asked for credentials", req->path);

	bool ndjson = strcmp(resp->content_type, "application/x-ndjson") == 0;
	bool json = !ndjson && strstr(resp->content_type, "json") != NULL;
	if (resp->status >= 400)
		FUZZ_CHECK(strcmp(resp->content_type, "application/problem+json") == 0,
			   "%u answered as %s", resp->status, resp->content_type);
	else
		FUZZ_CHECK(has_prefix(resp->content_type, "application/json") || ndjson ||
			       has_prefix(resp->content_type, "text/plain") ||
			       has_prefix(resp->content_type, "application/yaml") ||
			       strcmp(resp->content_type, "application/zip") == 0 ||
			       strcmp(resp->content_type, "application/gzip") == 0 ||
			       has_prefix(resp->content_type, "image/svg+xml") ||
			       has_prefix(resp->content_type, "text/html") ||
			       has_prefix(resp->content_type, "text/css") ||
			       has_prefix(resp->content_type, "text/javascript"),
			   "content type %s", resp->content_type);
	if (ndjson)
		check_lines(resp);
	if (!json)
		return;
	FUZZ_CHECK(resp->body_len > 0 && resp->body[resp->body_len - 1] == '\n',
		   "a JSON body without a final newline");
	json_error_t jerr;
	json_t *doc = json_loadb(resp->body, resp->body_len, 0, &jerr);
	FUZZ_CHECK(doc != NULL, "a %s body that is not JSON (%s): %.*s", resp->content_type,
		   jerr.text, (int)resp->body_len, resp->body);
	if (resp->status >= 400)
		check_problem(doc, resp);
	else
		check_slots(doc);
	json_decref(doc);
}

/* Value of a decimal query parameter as the generator reads it; 0 when absent or not one. */
static unsigned long long param_value(const struct route_request *req, const char *key)
{
	const char *v = route_param(req, key);
	return v && *v >= '0' && *v <= '9' ? strtoull(v, NULL, 10) : 0;
}

/*
 * Whether a request asks for a deep two-colour Puyo search: up to 60 ms in
 * a release build but near a second under the sanitizers, so that a corpus
 * full of them would starve everything else. The generator's own unit tests
 * and bench_gen cover that search; its parameters are still fuzzed here.
 */
static bool is_slow_search(const struct route_request *req)
{
	return strcmp(req->path, "/v1/puyo/generate") == 0 && param_value(req, "colors") == 2 &&
	       param_value(req, "min_chains") >= 8;
}

/*
 * Whether a request asks for a package of more than 20 secret tests: up to
 * a second in a release build (500 tests of 10,000 placements) and several
 * under the sanitizers. Packages are checked whole by tests/judges and
 * test_package; here the default size and its parameters are fuzzed.
 */
static bool is_large_package(const struct route_request *req)
{
	size_t n = strlen(req->path);
	return n >= 8 && strcmp(req->path + n - 8, "/package") == 0 &&
	       param_value(req, "tests") > 20;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	uint8_t flags = data[0];
	size_t pos = 1;
	char *method = take_line(data, size, &pos);
	char *path = take_line(data, size, &pos);
	char *content_type = take_line(data, size, &pos);
	char *accept = take_line(data, size, &pos);
	char *query = take_line(data, size, &pos);
	size_t body_len = size - (pos < size ? pos : size);
	char *body = fuzz_dup(data + size - body_len, body_len);

	struct route_request req;
	memset(&req, 0, sizeof req);
	req.method = method ? method : "";
	req.path = path ? path : "";
	req.content_type = content_type && content_type[0] ? content_type : NULL;
	req.accept = accept && accept[0] ? accept : NULL;
	req.body = body;
	req.body_len = body_len;
	req.limits = flags & 2 ? &small_limits : &default_limits;
	req.draining = flags & 1;
	req.auth = (enum route_auth)((flags >> 2) & 3);

	/* Split the query in place: each key and value is NUL-terminated. */
	char *pieces[ROUTE_MAX_PARAMS];
	size_t npieces = 0;
	for (char *kv = query; kv && *kv && npieces < ROUTE_MAX_PARAMS;) {
		char *amp = strchr(kv, '&');
		size_t n = amp ? (size_t)(amp - kv) : strlen(kv);
		char *piece = fuzz_strndup((const uint8_t *)kv, n);
		pieces[npieces++] = piece;
		char *eq = strchr(piece, '=');
		if (eq)
			*eq = '\0';
		req.params[req.nparams].key = piece;
		req.params[req.nparams].value = eq ? eq + 1 : "";
		req.nparams++;
		kv = amp ? amp + 1 : NULL;
	}

	struct route_response resp;
	memset(&resp, 0, sizeof resp);
	if (is_slow_search(&req) || is_large_package(&req))
		goto out_free;
	route_handle(&req, &resp);
	drain_stream(&resp);
	check_response(&req, &resp);

	struct route_match m;
	route_match(&req, (long long)body_len, &m);
	enum route_status pre = m.refusal;
	if (pre != ROUTE_OK && pre != ROUTE_E_TOO_LARGE)
		FUZZ_CHECK(problem_http_status(pre) == resp.status,
			   "route_match refuses with %u, route_handle answers %u",
			   problem_http_status(pre), resp.status);

	/* Not for the generators: a seed may be drawn from the clock, and the
	 * Puyo search is the slowest request there is (unit tests cover it). */
	if (!strstr(req.path, "/generate")) {
		struct route_response again;
		route_handle(&req, &again);
		drain_stream(&again);
		FUZZ_CHECK(
		    again.status == resp.status && again.body_len == resp.body_len &&
			(resp.body_len == 0 || memcmp(again.body, resp.body, resp.body_len) == 0),
		    "the same request answered %u then %u", resp.status, again.status);
		route_response_free(&again);
	}

out_free:
	route_response_free(&resp);
	for (size_t i = 0; i < npieces; i++)
		free(pieces[i]);
	free(method);
	free(path);
	free(content_type);
	free(accept);
	free(query);
	free(body);
	return 0;
}
