/*
 * Unit tests of the configuration parser (src/main/config.c): defaults,
 * every flag in both spellings, every environment variable, the flag
 * winning over its variable, and every kind of bad value failing with a
 * message that names the flag or variable. Expected values come from the
 * documented defaults and ranges (issue 2, --help), written out here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "main/config.h"

/* A fake environment: NULL-terminated name/value pairs. */
struct fake_env {
	const char *pairs[16][2];
};

static const char *fake_getenv(void *ctx, const char *name)
{
	const struct fake_env *env = ctx;
	for (size_t i = 0; env && i < 16 && env->pairs[i][0]; i++)
		if (strcmp(env->pairs[i][0], name) == 0)
			return env->pairs[i][1];
	return NULL;
}

/* Parses a NULL-terminated argument list with an optional environment. */
static enum config_result parse(struct config *cfg, const char *const *args,
				const struct fake_env *env, char *err, size_t errlen)
{
	char *argv[32];
	int argc = 0;
	while (args && args[argc]) {
		argv[argc] = (char *)args[argc];
		argc++;
	}
	argv[argc] = NULL;
	return config_parse_serve(cfg, argc, argv, fake_getenv, (void *)env, err, errlen);
}

/* The settings of every flag, as a flat view for tables. */
enum field {
	F_PORT,
	F_THREADS,
	F_MAX_BODY,
	F_MAX_BLOCKS,
	F_MAX_BATCH,
	F_TIMEOUT,
	F_MAX_CONNECTIONS,
	F_DRAIN_TIMEOUT,
	F_MAX_PER_IP,
	F_HEADER_TIMEOUT,
	F_CONNECTION_MEMORY,
	F_BODY_TIMEOUT,
	F_MAX_TRACE_STEPS,
};

static unsigned long long field_value(const struct config *cfg, enum field f)
{
	switch (f) {
	case F_PORT:
		return cfg->http.port;
	case F_THREADS:
		return cfg->http.threads;
	case F_MAX_BODY:
		return cfg->http.limits.max_body;
	case F_MAX_BLOCKS:
		return cfg->http.limits.max_blocks;
	case F_MAX_BATCH:
		return cfg->http.limits.max_batch;
	case F_TIMEOUT:
		return cfg->http.timeout;
	case F_MAX_CONNECTIONS:
		return cfg->http.max_connections;
	case F_DRAIN_TIMEOUT:
		return cfg->drain_timeout;
	case F_MAX_PER_IP:
		return cfg->http.max_per_ip;
	case F_HEADER_TIMEOUT:
		return cfg->http.header_timeout;
	case F_CONNECTION_MEMORY:
		return cfg->http.connection_memory;
	case F_BODY_TIMEOUT:
		return cfg->http.body_timeout;
	case F_MAX_TRACE_STEPS:
		return cfg->http.limits.max_trace_steps;
	}
	return 0;
}

/* Every numeric setting with its documented range. */
static const struct numeric {
	enum field field;
	const char *flag;
	const char *env;
	unsigned long long min;
	unsigned long long max;
} numerics[] = {
    {F_PORT, "--port", "PORT", 0, 65535},
    {F_THREADS, "--threads", "THREADS", 1, 1024},
    {F_MAX_BODY, "--max-body", "MAX_BODY", 1, 1073741824ull},
    {F_MAX_BLOCKS, "--max-blocks", "MAX_BLOCKS", 1, 4294967295ull},
    {F_MAX_BATCH, "--max-batch", "MAX_BATCH", 1, 1000000},
    {F_TIMEOUT, "--timeout", "TIMEOUT", 1, 86400},
    {F_MAX_CONNECTIONS, "--max-connections", "MAX_CONNECTIONS", 1, 1000000},
    {F_DRAIN_TIMEOUT, "--drain-timeout", "DRAIN_TIMEOUT", 0, 3600},
    {F_MAX_PER_IP, "--max-connections-per-ip", "MAX_CONNECTIONS_PER_IP", 0, 1000000},
    {F_HEADER_TIMEOUT, "--header-timeout", "HEADER_TIMEOUT", 1, 3600},
    {F_CONNECTION_MEMORY, "--connection-memory", "CONNECTION_MEMORY", 4096, 16777216},
    {F_BODY_TIMEOUT, "--body-timeout", "BODY_TIMEOUT", 1, 86400},
    {F_MAX_TRACE_STEPS, "--max-request-trace-steps", "MAX_REQUEST_TRACE_STEPS", 1, 100000000},
    {F_MAX_TRACE_STEPS, "--max-trace-steps", "MAX_TRACE_STEPS", 1, 100000000}, /* old name */
};
#define NUMERICS (sizeof numerics / sizeof numerics[0])

static void config_should_start_from_the_documented_defaults(void **state)
{
	(void)state;
	struct config cfg;
	char err[CONFIG_ERROR_MAX];
	const char *args[] = {NULL};
	assert_int_equal(parse(&cfg, args, NULL, err, sizeof err), CONFIG_OK);
	assert_string_equal(cfg.host, "0.0.0.0");
	assert_int_equal(cfg.http.port, 8080);
	assert_int_equal(cfg.http.threads, 0); /* one per CPU, resolved by main */
	assert_int_equal(cfg.http.limits.max_body, 1048576);
	assert_int_equal(cfg.http.limits.max_blocks, 1000000);
	assert_int_equal(cfg.http.limits.max_batch, 1000);
	assert_int_equal(cfg.http.timeout, 10);
	assert_int_equal(cfg.http.max_connections, 1024);
	assert_int_equal(cfg.drain_timeout, 8);
	assert_int_equal(cfg.http.max_per_ip, 32);
	assert_int_equal(cfg.http.connection_memory, 32768);
	assert_int_equal(cfg.http.header_timeout, 10);
	assert_int_equal(cfg.http.body_timeout, 60);
	assert_int_equal(cfg.http.limits.max_trace_steps, 100000);
}

static void config_should_take_every_flag_in_both_spellings(void **state)
{
	(void)state;
	for (size_t i = 0; i < NUMERICS; i++) {
		const struct numeric *n = &numerics[i];
		unsigned long long values[] = {n->min, n->max, (n->min + n->max) / 2};
		for (size_t v = 0; v < 3; v++) {
			struct config cfg;
			char err[CONFIG_ERROR_MAX], text[32], joined[64];
			snprintf(text, sizeof text, "%llu", values[v]);
			const char *separate[] = {n->flag, text, NULL};
			assert_int_equal(parse(&cfg, separate, NULL, err, sizeof err), CONFIG_OK);
			assert_true(field_value(&cfg, n->field) == values[v]);

			snprintf(joined, sizeof joined, "%s=%llu", n->flag, values[v]);
			const char *together[] = {joined, NULL};
			assert_int_equal(parse(&cfg, together, NULL, err, sizeof err), CONFIG_OK);
			assert_true(field_value(&cfg, n->field) == values[v]);
		}
	}
}

static void config_should_read_every_environment_variable(void **state)
{
	(void)state;
	for (size_t i = 0; i < NUMERICS; i++) {
		const struct numeric *n = &numerics[i];
		struct config cfg;
		char err[CONFIG_ERROR_MAX], text[32];
		snprintf(text, sizeof text, "%llu", n->max);
		struct fake_env env = {{{n->env, text}}};
		const char *args[] = {NULL};
		assert_int_equal(parse(&cfg, args, &env, err, sizeof err), CONFIG_OK);
		assert_true(field_value(&cfg, n->field) == n->max);
	}
	struct config cfg;
	char err[CONFIG_ERROR_MAX];
	struct fake_env env = {{{"HOST", "127.0.0.1"}}};
	const char *args[] = {NULL};
	assert_int_equal(parse(&cfg, args, &env, err, sizeof err), CONFIG_OK);
	assert_string_equal(cfg.host, "127.0.0.1");
}

static void config_should_let_the_flag_win_over_the_environment(void **state)
{
	(void)state;
	for (size_t i = 0; i < NUMERICS; i++) {
		const struct numeric *n = &numerics[i];
		struct config cfg;
		char err[CONFIG_ERROR_MAX], flag_text[32], env_text[32];
		snprintf(flag_text, sizeof flag_text, "%llu", n->min);
		snprintf(env_text, sizeof env_text, "%llu", n->max);
		struct fake_env env = {{{n->env, env_text}}};
		const char *args[] = {n->flag, flag_text, NULL};
		assert_int_equal(parse(&cfg, args, &env, err, sizeof err), CONFIG_OK);
		assert_true(field_value(&cfg, n->field) == n->min);

		/* A bad variable is not even read when the flag is given. */
		struct fake_env bad = {{{n->env, "not-a-number"}}};
		assert_int_equal(parse(&cfg, args, &bad, err, sizeof err), CONFIG_OK);
		assert_true(field_value(&cfg, n->field) == n->min);
	}
	struct config cfg;
	char err[CONFIG_ERROR_MAX];
	struct fake_env env = {{{"HOST", "127.0.0.1"}, {"PORT", "9000"}}};
	const char *args[] = {"--host=::1", NULL};
	assert_int_equal(parse(&cfg, args, &env, err, sizeof err), CONFIG_OK);
	assert_string_equal(cfg.host, "::1");
	assert_int_equal(cfg.http.port, 9000);
}

/* --max-trace-steps was renamed --max-request-trace-steps: the old flag and
 * variable are still taken, and neither overrides the new name once given. */
static void config_should_take_the_old_name_of_a_renamed_flag_below_the_new(void **state)
{
	(void)state;
	struct config cfg;
	char err[CONFIG_ERROR_MAX];
	struct fake_env old_env = {{{"MAX_TRACE_STEPS", "7"}}};
	const char *none[] = {NULL};
	assert_int_equal(parse(&cfg, none, &old_env, err, sizeof err), CONFIG_OK);
	assert_int_equal(cfg.http.limits.max_trace_steps, 7);
	const char *new_flag[] = {"--max-request-trace-steps", "9", NULL};
	assert_int_equal(parse(&cfg, new_flag, &old_env, err, sizeof err), CONFIG_OK);
	assert_int_equal(cfg.http.limits.max_trace_steps, 9);
	struct fake_env both = {{{"MAX_TRACE_STEPS", "7"}, {"MAX_REQUEST_TRACE_STEPS", "8"}}};
	assert_int_equal(parse(&cfg, none, &both, err, sizeof err), CONFIG_OK);
	assert_int_equal(cfg.http.limits.max_trace_steps, 8);
	const char *old_flag[] = {"--max-trace-steps", "5", NULL};
	struct fake_env new_env = {{{"MAX_REQUEST_TRACE_STEPS", "8"}}};
	assert_int_equal(parse(&cfg, old_flag, &new_env, err, sizeof err), CONFIG_OK);
	assert_int_equal(cfg.http.limits.max_trace_steps, 5); /* a flag wins over any variable */
}

static void config_should_let_the_last_flag_win(void **state)
{
	(void)state;
	struct config cfg;
	char err[CONFIG_ERROR_MAX];
	const char *args[] = {"--port", "1", "--port=2", NULL};
	assert_int_equal(parse(&cfg, args, NULL, err, sizeof err), CONFIG_OK);
	assert_int_equal(cfg.http.port, 2);
}

static void config_should_treat_an_empty_variable_as_unset(void **state)
{
	(void)state;
	struct config cfg;
	char err[CONFIG_ERROR_MAX];
	struct fake_env env = {{{"PORT", ""}, {"HOST", ""}, {"THREADS", ""}}};
	const char *args[] = {NULL};
	assert_int_equal(parse(&cfg, args, &env, err, sizeof err), CONFIG_OK);
	assert_int_equal(cfg.http.port, 8080);
	assert_string_equal(cfg.host, "0.0.0.0");
	assert_int_equal(cfg.http.threads, 0);
}

/* Values that are not plain decimal numbers. */
static const char *const not_numbers[] = {
    "", "abc", "12x", "x12", "-1", "+1", " 1", "1 ", "1.5", "0x10", "1e3", "١",
};

static void config_should_refuse_a_bad_number_naming_the_flag(void **state)
{
	(void)state;
	for (size_t i = 0; i < NUMERICS; i++) {
		const struct numeric *n = &numerics[i];
		for (size_t b = 0; b < sizeof not_numbers / sizeof not_numbers[0]; b++) {
			struct config cfg;
			char err[CONFIG_ERROR_MAX], joined[64];
			snprintf(joined, sizeof joined, "%s=%s", n->flag, not_numbers[b]);
			const char *args[] = {joined, NULL};
			assert_int_equal(parse(&cfg, args, NULL, err, sizeof err), CONFIG_ERROR);
			assert_non_null(strstr(err, n->flag));

			const char *separate[] = {n->flag, not_numbers[b], NULL};
			assert_int_equal(parse(&cfg, separate, NULL, err, sizeof err),
					 CONFIG_ERROR);
			assert_non_null(strstr(err, n->flag));
		}
	}
}

static void config_should_refuse_a_bad_variable_naming_it(void **state)
{
	(void)state;
	for (size_t i = 0; i < NUMERICS; i++) {
		const struct numeric *n = &numerics[i];
		for (size_t b = 1; b < sizeof not_numbers / sizeof not_numbers[0]; b++) {
			struct config cfg;
			char err[CONFIG_ERROR_MAX];
			struct fake_env env = {{{n->env, not_numbers[b]}}};
			const char *args[] = {NULL};
			assert_int_equal(parse(&cfg, args, &env, err, sizeof err), CONFIG_ERROR);
			assert_non_null(strstr(err, n->env));
		}
	}
}

static void config_should_refuse_values_out_of_range_and_overflow(void **state)
{
	(void)state;
	for (size_t i = 0; i < NUMERICS; i++) {
		const struct numeric *n = &numerics[i];
		char above[32], below[32];
		snprintf(above, sizeof above, "%llu", n->max + 1);
		snprintf(below, sizeof below, "%llu", n->min - 1);
		const char *bad[] = {above, n->min > 0 ? below : NULL, "18446744073709551615",
				     "18446744073709551616", "99999999999999999999999999"};
		for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
			if (!bad[b])
				continue;
			struct config cfg;
			char err[CONFIG_ERROR_MAX];
			const char *args[] = {n->flag, bad[b], NULL};
			assert_int_equal(parse(&cfg, args, NULL, err, sizeof err), CONFIG_ERROR);
			assert_non_null(strstr(err, n->flag));
			assert_non_null(strstr(err, "range"));

			struct fake_env env = {{{n->env, bad[b]}}};
			const char *none[] = {NULL};
			assert_int_equal(parse(&cfg, none, &env, err, sizeof err), CONFIG_ERROR);
			assert_non_null(strstr(err, n->env));
		}
	}
}

static void config_should_take_addresses_and_host_names(void **state)
{
	(void)state;
	static const struct {
		const char *host;
		bool ok;
	} cases[] = {
	    {"0.0.0.0", true},	 {"127.0.0.1", true}, {"::", true},
	    {"::1", true},	 {"fe80::1", true},   {"192.168.1.255", true},
	    {"localhost", true}, {"1.2.3", true},     {"example.com", true},
	    {"", false},	 {"1.2.3.4 ", false}, {"-x", false},
	    {"[::1]", false},	 {"a/b", false},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct config cfg;
		char err[CONFIG_ERROR_MAX];
		const char *args[] = {"--host", cases[i].host, NULL};
		enum config_result r = parse(&cfg, args, NULL, err, sizeof err);
		if (cases[i].ok) {
			assert_int_equal(r, CONFIG_OK);
			assert_string_equal(cfg.host, cases[i].host);
		} else {
			assert_int_equal(r, CONFIG_ERROR);
			assert_non_null(strstr(err, "--host"));
		}
	}
	struct config cfg;
	char err[CONFIG_ERROR_MAX];
	struct fake_env env = {{{"HOST", "my host"}}};
	const char *none[] = {NULL};
	assert_int_equal(parse(&cfg, none, &env, err, sizeof err), CONFIG_ERROR);
	assert_non_null(strstr(err, "HOST"));
}

static void config_should_refuse_unknown_flags_and_stray_arguments(void **state)
{
	(void)state;
	static const char *const cases[][3] = {
	    {"--nope", NULL, "--nope"},
	    {"--port8080", NULL, "--port8080"},
	    {"-p", NULL, "-p"},
	    {"serve", NULL, "serve"},
	    {"--port", "1 extra", "--port"},
	    {"--max-bodyx=1", NULL, "--max-bodyx"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct config cfg;
		char err[CONFIG_ERROR_MAX];
		const char *args[] = {cases[i][0], cases[i][1], NULL};
		assert_int_equal(parse(&cfg, args, NULL, err, sizeof err), CONFIG_ERROR);
		assert_non_null(strstr(err, cases[i][2]));
	}
	struct config cfg;
	char err[CONFIG_ERROR_MAX];
	const char *stray[] = {"--port", "80", "extra", NULL};
	assert_int_equal(parse(&cfg, stray, NULL, err, sizeof err), CONFIG_ERROR);
	assert_non_null(strstr(err, "extra"));
}

static void config_should_refuse_a_flag_without_its_value(void **state)
{
	(void)state;
	for (size_t i = 0; i < NUMERICS; i++) {
		struct config cfg;
		char err[CONFIG_ERROR_MAX];
		const char *args[] = {numerics[i].flag, NULL};
		assert_int_equal(parse(&cfg, args, NULL, err, sizeof err), CONFIG_ERROR);
		assert_non_null(strstr(err, numerics[i].flag));
		assert_non_null(strstr(err, "missing"));
	}
}

static void config_should_ask_for_help(void **state)
{
	(void)state;
	struct config cfg;
	char err[CONFIG_ERROR_MAX];
	const char *long_form[] = {"--port", "1", "--help", NULL};
	assert_int_equal(parse(&cfg, long_form, NULL, err, sizeof err), CONFIG_HELP);
	const char *short_form[] = {"-h", NULL};
	assert_int_equal(parse(&cfg, short_form, NULL, err, sizeof err), CONFIG_HELP);
}

static void config_should_not_need_an_error_buffer(void **state)
{
	(void)state;
	struct config cfg;
	char *argv[] = {(char *)"--port", (char *)"x", NULL};
	assert_int_equal(config_parse_serve(&cfg, 2, argv, NULL, NULL, NULL, 0), CONFIG_ERROR);
	assert_int_equal(config_parse_serve(&cfg, 0, argv, NULL, NULL, NULL, 0), CONFIG_OK);
}

static enum config_result parse_hc(unsigned *port, const char *const *args,
				   const struct fake_env *env, char *err, size_t errlen)
{
	struct config_healthcheck hc = {.port = 0, .tls_cert = NULL};
	char *argv[8];
	int argc = 0;
	while (args[argc]) {
		argv[argc] = (char *)args[argc];
		argc++;
	}
	argv[argc] = NULL;
	enum config_result r =
	    config_parse_healthcheck(&hc, argc, argv, fake_getenv, (void *)env, err, errlen);
	*port = hc.port;
	return r;
}

static void healthcheck_should_take_its_port_from_flag_then_variable_then_default(void **state)
{
	(void)state;
	unsigned port = 0;
	char err[CONFIG_ERROR_MAX];
	const char *none[] = {NULL};
	assert_int_equal(parse_hc(&port, none, NULL, err, sizeof err), CONFIG_OK);
	assert_int_equal(port, 8080);

	struct fake_env env = {{{"PORT", "9001"}}};
	assert_int_equal(parse_hc(&port, none, &env, err, sizeof err), CONFIG_OK);
	assert_int_equal(port, 9001);

	const char *flag[] = {"--port", "9002", NULL};
	assert_int_equal(parse_hc(&port, flag, &env, err, sizeof err), CONFIG_OK);
	assert_int_equal(port, 9002);
	const char *joined[] = {"--port=65535", NULL};
	assert_int_equal(parse_hc(&port, joined, &env, err, sizeof err), CONFIG_OK);
	assert_int_equal(port, 65535);
}

static void healthcheck_should_refuse_port_zero_and_bad_arguments(void **state)
{
	(void)state;
	unsigned port = 0;
	char err[CONFIG_ERROR_MAX];
	static const char *const cases[][3] = {
	    {"--port", "0", "--port"},	  {"--port", "65536", "--port"},
	    {"--port", "http", "--port"}, {"--host", "a b", "--host"},
	    {"extra", NULL, "extra"},	  {"--port", NULL, "--port"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *args[] = {cases[i][0], cases[i][1], NULL};
		assert_int_equal(parse_hc(&port, args, NULL, err, sizeof err), CONFIG_ERROR);
		assert_non_null(strstr(err, cases[i][2]));
	}
	struct fake_env env = {{{"PORT", "0"}}};
	const char *none[] = {NULL};
	assert_int_equal(parse_hc(&port, none, &env, err, sizeof err), CONFIG_ERROR);
	assert_non_null(strstr(err, "PORT"));
}

static void healthcheck_should_ask_the_loopback_for_a_wildcard_host(void **state)
{
	(void)state;
	static const char *const cases[][2] = {{"0.0.0.0", "127.0.0.1"},
					       {"::", "::1"},
					       {"10.1.2.3", "10.1.2.3"},
					       {"localhost", "localhost"}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct config_healthcheck hc;
		char err[CONFIG_ERROR_MAX];
		char *argv[] = {"--host", (char *)cases[i][0], NULL};
		assert_int_equal(
		    config_parse_healthcheck(&hc, 2, argv, NULL, NULL, err, sizeof err), CONFIG_OK);
		assert_string_equal(hc.host, cases[i][1]);
	}
	struct config_healthcheck hc;
	char err[CONFIG_ERROR_MAX];
	struct fake_env env = {{{"HOST", "::"}}};
	char *none[] = {NULL};
	assert_int_equal(
	    config_parse_healthcheck(&hc, 0, none, fake_getenv, (void *)&env, err, sizeof err),
	    CONFIG_OK);
	assert_string_equal(hc.host, "::1");
}

static void threads_over_max_connections_should_exit_2_naming_both(void **state)
{
	(void)state;
	struct config cfg;
	char err[CONFIG_ERROR_MAX];
	const char *args[] = {"--threads", "8", "--max-connections", "4", NULL};
	assert_int_equal(parse(&cfg, args, NULL, err, sizeof err), CONFIG_ERROR);
	assert_non_null(strstr(err, "--threads"));
	assert_non_null(strstr(err, "--max-connections"));
	const char *fine[] = {"--threads", "4", "--max-connections", "4", NULL};
	assert_int_equal(parse(&cfg, fine, NULL, err, sizeof err), CONFIG_OK);
}

static void config_should_take_the_security_files_from_flags_or_variables(void **state)
{
	(void)state;
	struct config cfg;
	char err[CONFIG_ERROR_MAX];
	const char *none[] = {NULL};
	assert_int_equal(parse(&cfg, none, NULL, err, sizeof err), CONFIG_OK);
	assert_null(cfg.auth_token_file);
	assert_null(cfg.tls_cert);
	assert_null(cfg.tls_key);
	/* TLS 1.3, and TLS 1.2 with forward-secret AEAD suites only (as
	 * docs/OPERATING.md writes it; tests/http/tls.test.mjs tries it). */
	assert_string_equal(
	    cfg.tls_priorities,
	    "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:-CIPHER-ALL:+CHACHA20-POLY1305:"
	    "+AES-256-GCM:+AES-128-GCM:-MAC-ALL:+AEAD:-KX-ALL:+ECDHE-ECDSA:+ECDHE-RSA");

	const char *flags[] = {"--auth-token-file", "/t", "--tls-cert=/c",
			       "--tls-key",	    "/k", "--tls-priorities",
			       "SECURE256",	    NULL};
	assert_int_equal(parse(&cfg, flags, NULL, err, sizeof err), CONFIG_OK);
	assert_string_equal(cfg.auth_token_file, "/t");
	assert_string_equal(cfg.tls_cert, "/c");
	assert_string_equal(cfg.tls_key, "/k");
	assert_string_equal(cfg.tls_priorities, "SECURE256");

	struct fake_env env = {{{"AUTH_TOKEN_FILE", "/et"},
				{"TLS_CERT", "/ec"},
				{"TLS_KEY", "/ek"},
				{"TLS_PRIORITIES", "NORMAL"}}};
	assert_int_equal(parse(&cfg, none, &env, err, sizeof err), CONFIG_OK);
	assert_string_equal(cfg.auth_token_file, "/et");
	assert_string_equal(cfg.tls_cert, "/ec");
	assert_string_equal(cfg.tls_key, "/ek");
	assert_string_equal(cfg.tls_priorities, "NORMAL");
	assert_int_equal(parse(&cfg, flags, &env, err, sizeof err), CONFIG_OK);
	assert_string_equal(cfg.tls_cert, "/c");
}

static void config_should_want_the_tls_certificate_and_key_together(void **state)
{
	(void)state;
	struct config cfg;
	char err[CONFIG_ERROR_MAX];
	const char *cert[] = {"--tls-cert", "/c", NULL};
	assert_int_equal(parse(&cfg, cert, NULL, err, sizeof err), CONFIG_ERROR);
	assert_non_null(strstr(err, "--tls-key"));
	struct fake_env env = {{{"TLS_KEY", "/k"}}};
	const char *none[] = {NULL};
	assert_int_equal(parse(&cfg, none, &env, err, sizeof err), CONFIG_ERROR);
	assert_non_null(strstr(err, "--tls-cert"));
	const char *empty[] = {"--auth-token-file=", NULL};
	assert_int_equal(parse(&cfg, empty, NULL, err, sizeof err), CONFIG_ERROR);
	assert_non_null(strstr(err, "--auth-token-file"));
}

static void healthcheck_should_take_the_certificate_from_flag_then_variable(void **state)
{
	(void)state;
	struct config_healthcheck hc;
	char err[CONFIG_ERROR_MAX];
	char *none[] = {NULL};
	assert_int_equal(config_parse_healthcheck(&hc, 0, none, fake_getenv, NULL, err, sizeof err),
			 CONFIG_OK);
	assert_null(hc.tls_cert);
	struct fake_env env = {{{"TLS_CERT", "/ec"}, {"PORT", "8443"}}};
	assert_int_equal(config_parse_healthcheck(&hc, 0, none, fake_getenv, &env, err, sizeof err),
			 CONFIG_OK);
	assert_string_equal(hc.tls_cert, "/ec");
	assert_int_equal(hc.port, 8443);
	char *flag[] = {(char *)"--tls-cert", (char *)"/c", NULL};
	assert_int_equal(config_parse_healthcheck(&hc, 2, flag, fake_getenv, &env, err, sizeof err),
			 CONFIG_OK);
	assert_string_equal(hc.tls_cert, "/c");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(config_should_start_from_the_documented_defaults),
	    cmocka_unit_test(config_should_take_every_flag_in_both_spellings),
	    cmocka_unit_test(config_should_read_every_environment_variable),
	    cmocka_unit_test(config_should_let_the_flag_win_over_the_environment),
	    cmocka_unit_test(config_should_take_the_old_name_of_a_renamed_flag_below_the_new),
	    cmocka_unit_test(config_should_let_the_last_flag_win),
	    cmocka_unit_test(config_should_treat_an_empty_variable_as_unset),
	    cmocka_unit_test(config_should_refuse_a_bad_number_naming_the_flag),
	    cmocka_unit_test(config_should_refuse_a_bad_variable_naming_it),
	    cmocka_unit_test(config_should_refuse_values_out_of_range_and_overflow),
	    cmocka_unit_test(config_should_take_addresses_and_host_names),
	    cmocka_unit_test(config_should_refuse_unknown_flags_and_stray_arguments),
	    cmocka_unit_test(config_should_refuse_a_flag_without_its_value),
	    cmocka_unit_test(config_should_ask_for_help),
	    cmocka_unit_test(config_should_not_need_an_error_buffer),
	    cmocka_unit_test(healthcheck_should_take_its_port_from_flag_then_variable_then_default),
	    cmocka_unit_test(healthcheck_should_refuse_port_zero_and_bad_arguments),
	    cmocka_unit_test(healthcheck_should_ask_the_loopback_for_a_wildcard_host),
	    cmocka_unit_test(threads_over_max_connections_should_exit_2_naming_both),
	    cmocka_unit_test(config_should_take_the_security_files_from_flags_or_variables),
	    cmocka_unit_test(config_should_want_the_tls_certificate_and_key_together),
	    cmocka_unit_test(healthcheck_should_take_the_certificate_from_flag_then_variable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
