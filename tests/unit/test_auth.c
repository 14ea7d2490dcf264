/*
 * Unit tests of the bearer token store (src/http/auth.c) and of the routes'
 * answer to credentials (src/route/router.c through route_handle): which
 * lines of a token file are tokens, which Authorization values pass, and
 * that a failed reload keeps the tokens in force. Expected verdicts follow
 * RFC 6750's b64token grammar, written out here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "http/auth.h"
#include "route/route.h"

/* Writes `text` to a new temporary file whose path goes to path[0..size). */
static void write_file(char *path, size_t size, const char *text)
{
	snprintf(path, size, "/tmp/dropjudge-auth-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	size_t n = strlen(text);
	assert_int_equal(write(fd, text, n), (ssize_t)n);
	close(fd);
}

static enum route_auth check1(struct http_auth *auth, const char *value)
{
	const char *values[] = {value};
	return http_auth_check(auth, values, value ? 1 : 0);
}

static void token_file_should_skip_comments_and_blanks_and_trim_tokens(void **state)
{
	(void)state;
	char path[64], err[256];
	write_file(path, sizeof path,
		   "# a comment\n\n  \t\nalpha-1\n\t beta.2== \r\n#gamma\nd~e+f/g_h");
	struct http_auth *auth = http_auth_new(path, err, sizeof err);
	assert_non_null(auth);
	assert_int_equal(http_auth_count(auth), 3);
	static const struct {
		const char *value;
		enum route_auth want;
	} cases[] = {
	    {"Bearer alpha-1", ROUTE_AUTH_OK},
	    {"Bearer beta.2==", ROUTE_AUTH_OK},
	    {"Bearer d~e+f/g_h", ROUTE_AUTH_OK},
	    {"bEaReR alpha-1", ROUTE_AUTH_OK},
	    {"Bearer    alpha-1  ", ROUTE_AUTH_OK},
	    {"Bearer #gamma", ROUTE_AUTH_MALFORMED}, /* '#' is no token character */
	    {"Bearer gamma", ROUTE_AUTH_WRONG},	     /* a comment is no token */
	    {"Bearer alpha-", ROUTE_AUTH_WRONG},
	    {"Bearer alpha-12", ROUTE_AUTH_WRONG},
	    {"Bearer beta.2=", ROUTE_AUTH_WRONG},
	    {"Bearer", ROUTE_AUTH_MALFORMED},
	    {"Bearer ", ROUTE_AUTH_MALFORMED},
	    {"Bearer\talpha-1", ROUTE_AUTH_MALFORMED},
	    {"Bearer alpha-1 x", ROUTE_AUTH_MALFORMED},
	    {"Bearer =abc", ROUTE_AUTH_MALFORMED},
	    {"Bearer a=b", ROUTE_AUTH_MALFORMED},
	    {"Basic YWxwaGEtMQ==", ROUTE_AUTH_MISSING},
	    {"Bearerx alpha-1", ROUTE_AUTH_MISSING},
	    {"", ROUTE_AUTH_MISSING},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		enum route_auth got = check1(auth, cases[i].value);
		if (got != cases[i].want)
			fail_msg("'%s': %d, want %d", cases[i].value, got, cases[i].want);
	}
	assert_int_equal(check1(auth, NULL), ROUTE_AUTH_MISSING);
	const char *two[] = {"Bearer alpha-1", "Bearer alpha-1"};
	assert_int_equal(http_auth_check(auth, two, 2), ROUTE_AUTH_MALFORMED);
	assert_int_equal(http_auth_check(NULL, NULL, 0), ROUTE_AUTH_OK);
	http_auth_free(auth);
	unlink(path);
}

static void token_file_should_be_refused_naming_the_line_not_the_token(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		const char *want;
	} cases[] = {
	    {"good\nsecret with spaces\n", ":2: not a bearer token"},
	    {"# nothing\n\n", "holds no token"},
	    {"", "holds no token"},
	    {"ok\n\xc3\xa9t\xc3\xa9\n", ":2: not a bearer token"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char path[64], err[256];
		write_file(path, sizeof path, cases[i].text);
		assert_null(http_auth_new(path, err, sizeof err));
		if (!strstr(err, cases[i].want))
			fail_msg("case %zu: '%s'", i, err);
		assert_null(strstr(err, "secret"));
		unlink(path);
	}
	char err[256];
	assert_null(http_auth_new("/nonexistent/tokens", err, sizeof err));
	assert_non_null(strstr(err, "cannot open the token file /nonexistent/tokens"));
}

static void reload_should_replace_the_tokens_or_keep_them_on_failure(void **state)
{
	(void)state;
	char path[64], err[256];
	write_file(path, sizeof path, "first\n");
	struct http_auth *auth = http_auth_new(path, err, sizeof err);
	assert_non_null(auth);

	FILE *f = fopen(path, "w");
	fputs("second\nthird\n", f);
	fclose(f);
	assert_int_equal(http_auth_reload(auth, err, sizeof err), 0);
	assert_int_equal(http_auth_count(auth), 2);
	assert_int_equal(check1(auth, "Bearer first"), ROUTE_AUTH_WRONG);
	assert_int_equal(check1(auth, "Bearer third"), ROUTE_AUTH_OK);

	f = fopen(path, "w");
	fputs("fourth\nnot one\n", f);
	fclose(f);
	assert_int_equal(http_auth_reload(auth, err, sizeof err), -1);
	assert_non_null(strstr(err, ":2:"));
	unlink(path);
	assert_int_equal(http_auth_reload(auth, err, sizeof err), -1);
	assert_non_null(strstr(err, "cannot open"));
	assert_int_equal(http_auth_count(auth), 2);
	assert_int_equal(check1(auth, "Bearer second"), ROUTE_AUTH_OK);
	assert_int_equal(check1(auth, "Bearer fourth"), ROUTE_AUTH_WRONG);
	http_auth_free(auth);
}

static const struct route_limits limits = {.max_body = 1 << 20, .max_blocks = 10, .max_batch = 10};

/* The answer of route_handle to GET `path` with credentials `auth`. */
static unsigned get_status(const char *path, enum route_auth auth, const char **challenge)
{
	struct route_request req = {.method = "GET", .path = path, .limits = &limits, .auth = auth};
	struct route_response resp;
	route_handle(&req, &resp);
	*challenge = NULL;
	for (size_t i = 0; i < resp.nheaders; i++)
		if (strcmp(resp.headers[i].name, "WWW-Authenticate") == 0)
			*challenge = resp.headers[i].value;
	unsigned status = resp.status;
	static char keep[64];
	if (*challenge) {
		snprintf(keep, sizeof keep, "%s", *challenge);
		*challenge = keep;
	}
	route_response_free(&resp);
	return status;
}

static void routes_should_answer_credentials_as_their_table_entry_says(void **state)
{
	(void)state;
	const char *ch;
	assert_int_equal(get_status("/v1", ROUTE_AUTH_OK, &ch), 200);
	assert_null(ch);
	assert_int_equal(get_status("/v1", ROUTE_AUTH_MISSING, &ch), 401);
	assert_string_equal(ch, "Bearer realm=\"dropjudge\"");
	assert_int_equal(get_status("/v1/puyo/generate", ROUTE_AUTH_WRONG, &ch), 401);
	assert_string_equal(ch, "Bearer realm=\"dropjudge\", error=\"invalid_token\"");
	assert_int_equal(get_status("/v1/monomino-domino/generate", ROUTE_AUTH_MALFORMED, &ch),
			 400);
	assert_string_equal(ch, "Bearer realm=\"dropjudge\", error=\"invalid_request\"");
	static const char *const open[] = {"/livez", "/healthz", "/readyz", "/openapi.yaml"};
	for (size_t i = 0; i < sizeof open / sizeof open[0]; i++) {
		assert_int_equal(get_status(open[i], ROUTE_AUTH_MISSING, &ch), 200);
		assert_null(ch);
	}
	assert_int_equal(get_status("/v1/nothing", ROUTE_AUTH_MISSING, &ch), 404);
	assert_null(ch);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(token_file_should_skip_comments_and_blanks_and_trim_tokens),
	    cmocka_unit_test(token_file_should_be_refused_naming_the_line_not_the_token),
	    cmocka_unit_test(reload_should_replace_the_tokens_or_keep_them_on_failure),
	    cmocka_unit_test(routes_should_answer_credentials_as_their_table_entry_says),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
