/*
 * Flags and environment variables of `dropjudge serve` and `healthcheck`, and
 * the usage text: one table row per setting drives parsing and --help alike.
 */
#include "main/config.h"

#include <arpa/inet.h>
#include <string.h>

#include "codec/decimal.h"
#include "codec/error.h"
#include "dropjudge/version.h"
#include "http/accesslog.h"
#include "main/commands.h"

/* How a setting is read and stored. */
enum config_type {
	CONFIG_T_UNSIGNED, /* a number into an unsigned */
	CONFIG_T_ULONG,	   /* a number into an unsigned long */
	CONFIG_T_SIZE,	   /* a number into a size_t */
	CONFIG_T_BOOL,	   /* 0 or 1 into a bool */
	CONFIG_T_TEXT,	   /* a non-empty text, pointed to (not copied) */
	CONFIG_T_HOST,	   /* an address or host name, copied into host[] */
	CONFIG_T_LOG,	   /* json, text or off into log_format */
};

/* One setting of `serve`. Numbers must lie in [min, max]. */
struct config_option {
	const char *flag;	/* "--port" */
	const char *env;	/* "PORT" */
	const char *metavar;	/* "N" in the usage */
	enum config_type type;	/* how the value is read */
	size_t offset;		/* of its field in struct config: names one setting */
	unsigned long long min; /* smallest value taken */
	unsigned long long max; /* largest value taken */
	const char *def;	/* the default, read as a value is; NULL: zero */
	const char *help;	/* for --help, lines of at most 60 columns, default included */
};

/* The type and place of a field of struct config, in a table row. */
#define CFG(field, type) CONFIG_T_##type, offsetof(struct config, field)

/* The options of serve: one per setting, and the old names still taken after them. */
static const struct config_option config_options[] = {
    {"--host", "HOST", "ADDR", CFG(host, HOST), 0, 0, CONFIG_DEFAULT_HOST,
     "A name (localhost) or an IPv4 or IPv6 address to listen\n"
     "on. Default " CONFIG_DEFAULT_HOST "."},
    {"--port", "PORT", "N", CFG(http.port, UNSIGNED), 0, 65535, "8080",
     "TCP port, 0..65535; 0 picks a free one. Default 8080."},
    {"--threads", "THREADS", "N", CFG(http.threads, UNSIGNED), 1, CONFIG_MAX_THREADS, NULL,
     "Worker threads, 1..1024 (at most --max-connections).\n"
     "Default: one per CPU the process may use."},
    {"--max-body", "MAX_BODY", "BYTES", CFG(http.limits.max_body, SIZE), 1, 1ull << 30, "1048576",
     "Largest request body but a stream, 1..1073741824 bytes;\n"
     "more is 413. Default 1048576 (1 MiB)."},
    {"--max-json-body", "MAX_JSON_BODY", "BYTES", CFG(http.limits.max_json_body, SIZE), 1,
     16ull << 20, "1048576",
     "Largest JSON body, and line of a stream, 1..16777216\n"
     "bytes (and at most --max-body); more is 413. Default\n"
     "1048576 (1 MiB). Send more cases as a stream."},
    {"--max-stream-body", "MAX_STREAM_BODY", "BYTES", CFG(http.limits.max_stream_body, SIZE), 1,
     1ull << 40, "1073741824",
     "Largest stream of cases (application/x-ndjson), 1..2^40\n"
     "bytes; more is 413. Default 1073741824 (1 GiB)."},
    {"--max-blocks", "MAX_BLOCKS", "N", CFG(http.limits.max_blocks, ULONG), 1, 4294967295ull,
     "1000000",
     "Placements in one Monomino-Domino case, 1..4294967295;\n"
     "more is 422. Default 1000000."},
    {"--max-batch", "MAX_BATCH", "N", CFG(http.limits.max_batch, ULONG), 1, 1000000, "1000",
     "Cases in one batch, 1..1000000; more is 413. Default 1000."},
    {"--timeout", "TIMEOUT", "SECONDS", CFG(http.timeout, UNSIGNED), 1, 86400, "10",
     "Idle connection timeout, 1..86400 seconds. Default 10."},
    {"--max-connections", "MAX_CONNECTIONS", "N", CFG(http.max_connections, UNSIGNED), 1, 1000000,
     "1024",
     "Open connections at once, 1..1000000; more are refused.\n"
     "Default 1024."},
    {"--drain-timeout", "DRAIN_TIMEOUT", "SECONDS", CFG(drain_timeout, UNSIGNED), 0, 3600, "8",
     "At shutdown, how long requests in flight may take to\n"
     "finish, 0..3600 seconds. Default 8 (under Docker's 10 s\n"
     "grace before SIGKILL)."},
    {"--max-connections-per-ip", "MAX_CONNECTIONS_PER_IP", "N", CFG(http.max_per_ip, UNSIGNED), 0,
     1000000, "32",
     "Open connections from one client address, 0..1000000;\n"
     "more are refused; 0: no limit. Default 32."},
    {"--connection-memory", "CONNECTION_MEMORY", "BYTES", CFG(http.connection_memory, SIZE), 4096,
     16777216, "32768",
     "Memory of each connection, 4096..16777216 bytes: its\n"
     "request line and headers must fit, half of it reads a\n"
     "body. Zeroed for every request: smaller is faster for\n"
     "small requests, larger for large bodies. Default 32768."},
    {"--header-timeout", "HEADER_TIMEOUT", "SECONDS", CFG(http.header_timeout, UNSIGNED), 1, 3600,
     "10",
     "A request's headers must be complete within this many\n"
     "seconds of the connection opening (or of the previous\n"
     "answer), however slowly they arrive; 1..3600. Default 10."},
    {"--body-timeout", "BODY_TIMEOUT", "SECONDS", CFG(http.body_timeout, UNSIGNED), 1, 86400, "60",
     "A request's body must be complete within this many seconds\n"
     "of its headers; 1..86400. Default 60."},
    {"--max-request-trace-steps", "MAX_REQUEST_TRACE_STEPS", "N",
     CFG(http.limits.max_trace_steps, ULONG), 1, 100000000, "100000",
     "Trace steps of all the traces of one request together\n"
     "(every case of a batch counted), 1..100000000; more is\n"
     "422. Default 100000. One trace holds at most 10000\n"
     "steps (max_case_trace_steps of GET /v1)."},
    {"--auth-token-file", "AUTH_TOKEN_FILE", "FILE", CFG(auth_token_file, TEXT), 0, 0, NULL,
     "Bearer tokens, one a line (blank lines and # comments\n"
     "ignored): every /v1 path then needs 'Authorization:\n"
     "Bearer <token>'. Re-read on SIGHUP. Default: none needed.\n"
     "GET /metrics then needs a token too (see --metrics-open)."},
    {"--max-heavy-queue", "MAX_HEAVY_QUEUE", "N", CFG(http.max_heavy, UNSIGNED), 1, 100000, "64",
     "Heavy requests (packages, traces, large bodies,\n"
     "pictures, generator searches) queued or running at\n"
     "once; past it 503 with Retry-After. Default 64."},
    {"--max-heavy-per-client", "MAX_HEAVY_PER_CLIENT", "N",
     CFG(http.max_heavy_per_client, UNSIGNED), 1, 100000, "8",
     "Of those, from one client address. Default 8."},
    {"--max-svg-bytes", "MAX_SVG_BYTES", "BYTES", CFG(http.limits.max_svg_bytes, SIZE), 1024,
     1ull << 30, "8388608",
     "Largest SVG picture (render.svg, solve as SVG),\n"
     "1024..1073741824 bytes; larger is 422. Default 8388608\n"
     "(8 MiB; the 500-step strip at cell 96 is 3.9 MB)."},
    {"--answer-memory", "ANSWER_MEMORY", "BYTES", CFG(http.answer_memory, SIZE), 1048576,
     1ull << 40, "67108864",
     "Bytes of answers built and not yet sent (pictures,\n"
     "traces, batches, packages) held at once, 1048576..;\n"
     "past it a large answer is 503 with Retry-After.\n"
     "Default 67108864 (64 MiB)."},
    {"--package-cache", "PACKAGE_CACHE", "BYTES", CFG(http.package_cache, SIZE), 0, 1ull << 40,
     "33554432",
     "Bytes of built packages kept for the next GET or HEAD\n"
     "of the same package; 0: none. Default 33554432 (32 MiB)."},
    {"--metrics-open", "METRICS_OPEN", "0|1", CFG(http.limits.metrics_open, BOOL), 0, 1, "0",
     "1: GET /metrics answers without a token even with\n"
     "--auth-token-file (a scraper on a private network).\n"
     "Default 0."},
    {"--tls-cert", "TLS_CERT", "FILE", CFG(tls_cert, TEXT), 0, 0, NULL,
     "PEM certificate (chain): serve HTTPS. With --tls-key."},
    {"--tls-key", "TLS_KEY", "FILE", CFG(tls_key, TEXT), 0, 0, NULL,
     "PEM private key of --tls-cert."},
    {"--tls-priorities", "TLS_PRIORITIES", "TEXT", CFG(tls_priorities, TEXT), 0, 0,
     CONFIG_DEFAULT_TLS_PRIORITIES,
     "GnuTLS priority string for HTTPS. Default: TLS 1.3,\n"
     "and TLS 1.2 with ECDHE and AES-GCM or ChaCha20 only:\n" CONFIG_TLS_PRIORITIES_1
     "\n" CONFIG_TLS_PRIORITIES_2 "\n" CONFIG_TLS_PRIORITIES_3 "\n" CONFIG_TLS_PRIORITIES_4},
    {"--cors-origins", "CORS_ORIGINS", "LIST", CFG(http.limits.cors_origins, TEXT), 0, 0, NULL,
     "Comma-separated origins (https://app.example) whose\n"
     "browsers may call the API, or * for any: they get\n"
     "Access-Control-Allow-Origin, preflights 204. Default:\n"
     "none (no CORS header is sent)."},
    {"--log-format", "LOG_FORMAT", "json|text|off", CFG(log_format, LOG), 0, 0, "json",
     "Access log on stdout, one line per request: json, text\n"
     "or off. Default json (then the start, drain and stop\n"
     "lines are JSON too, and so is every line on stderr:\n"
     "libmicrohttpd's messages, connections closed, reloads)."},
    {"--max-trace-steps", "MAX_TRACE_STEPS", "N", CFG(http.limits.max_trace_steps, ULONG), 1,
     100000000, NULL,
     "The old name of --max-request-trace-steps\n"
     "(MAX_REQUEST_TRACE_STEPS), still taken; the new name wins."},
};

#define CONFIG_NOPTIONS (sizeof config_options / sizeof config_options[0])

/* Whether text is an address literal or a host name (RFC 1123 letters,
 * digits, '-' and '.'); main resolves a name before listening. */
static bool config_is_host(const char *text)
{
	unsigned char buf[sizeof(struct in6_addr)];
	return inet_pton(AF_INET, text, buf) == 1 || inet_pton(AF_INET6, text, buf) == 1 ||
	       (text[0] && text[0] != '-' && text[0] != '.' &&
		text[strspn(text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "0123456789-.")] == '\0');
}

/* Checks `value` for option `opt` and stores it in *cfg; false with err set,
 * naming `source` ("--port" or "PORT (environment)"), when it is bad. */
static bool config_set(struct config *cfg, const struct config_option *opt, const char *value,
		       const char *source, char *err, size_t errlen)
{
	char *field = (char *)cfg + opt->offset;
	if (opt->type == CONFIG_T_HOST) {
		if (strlen(value) >= sizeof cfg->host || !config_is_host(value)) {
			codec_format(err, errlen,
				     "%s: '%s' is not an IPv4 or IPv6 address or a host name",
				     source, value);
			return false;
		}
		memcpy(cfg->host, value, strlen(value) + 1);
		return true;
	}
	if (opt->type == CONFIG_T_LOG) {
		enum http_log_format format;
		if (!http_log_format_parse(value, &format)) {
			codec_format(err, errlen, "%s: '%s' is not json, text or off", source,
				     value);
			return false;
		}
		cfg->log_format = (int)format;
		return true;
	}
	if (opt->type == CONFIG_T_TEXT) {
		if (!value[0]) {
			codec_format(err, errlen, "%s: empty value", source);
			return false;
		}
		*(const char **)(void *)field = value;
		return true;
	}
	unsigned long long v = 0;
	enum codec_decimal rc = codec_decimal_read_str(value, &v);
	if (rc == CODEC_DECIMAL_NOT_A_NUMBER) {
		codec_format(err, errlen, "%s: '%s' is not a number (expected digits only)", source,
			     value);
		return false;
	}
	if (rc == CODEC_DECIMAL_OVERFLOW || v < opt->min || v > opt->max) {
		codec_format(err, errlen, "%s: %s is out of range (%llu..%llu)", source, value,
			     opt->min, opt->max);
		return false;
	}
	if (opt->type == CONFIG_T_UNSIGNED)
		*(unsigned *)(void *)field = (unsigned)v;
	else if (opt->type == CONFIG_T_ULONG)
		*(unsigned long *)(void *)field = (unsigned long)v;
	else if (opt->type == CONFIG_T_SIZE)
		*(size_t *)(void *)field = (size_t)v;
	else
		*(bool *)(void *)field = v != 0;
	return true;
}

/* Fills *cfg with the defaults of serve's table (threads 0: one per CPU),
 * then from the flags in argv, then from the environment for the options of
 * `opts[0..n)` no flag gave. */
static enum config_result config_parse(struct config *cfg, const struct config_option *opts,
				       size_t n, int argc, char *const argv[],
				       config_lookup_fn lookup, void *ctx, char *err, size_t errlen)
{
	/* By field offset: an old name and its new one are one setting. */
	bool given[sizeof(struct config)] = {false};

	memset(cfg, 0, sizeof *cfg);
	for (size_t k = 0; k < CONFIG_NOPTIONS; k++)
		if (config_options[k].def)
			config_set(cfg, &config_options[k], config_options[k].def, "", NULL, 0);
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return CONFIG_HELP;
		const char *value = NULL;
		bool missing = false;
		size_t k = 0;
		while (k < n && !(value = check_flag(argc, argv, &i, opts[k].flag, &missing)) &&
		       !missing)
			k++;
		if (missing)
			codec_format(err, errlen, "%s: missing value", opts[k].flag);
		else if (!value)
			codec_format(err, errlen,
				     argv[i][0] == '-' ? "unknown flag '%s'"
						       : "unexpected argument '%s'",
				     argv[i]);
		if (!value || !config_set(cfg, &opts[k], value, opts[k].flag, err, errlen))
			return CONFIG_ERROR;
		given[opts[k].offset] = true;
	}
	for (size_t k = 0; k < n && lookup; k++) {
		const struct config_option *opt = &opts[k];
		const char *value = given[opt->offset] ? NULL : lookup(ctx, opt->env);
		if (!value || !value[0])
			continue;
		char source[48];
		snprintf(source, sizeof source, "%s (environment)", opt->env);
		if (!config_set(cfg, opt, value, source, err, errlen))
			return CONFIG_ERROR;
		given[opt->offset] = true; /* the new name's variable wins over the old's */
	}
	return CONFIG_OK;
}

enum config_result config_parse_serve(struct config *cfg, int argc, char *const argv[],
				      config_lookup_fn lookup, void *ctx, char *err, size_t errlen)
{
	enum config_result r = config_parse(cfg, config_options, CONFIG_NOPTIONS, argc, argv,
					    lookup, ctx, err, errlen);
	if (r != CONFIG_OK)
		return r;
	if (cfg->http.threads > cfg->http.max_connections) {
		codec_format(err, errlen,
			     "--threads %u is more than --max-connections %u (THREADS, "
			     "MAX_CONNECTIONS): each thread needs a connection",
			     cfg->http.threads, cfg->http.max_connections);
		return CONFIG_ERROR;
	}
	if (!cfg->tls_cert != !cfg->tls_key) {
		codec_format(err, errlen, "%s needs %s as well (or TLS_CERT and TLS_KEY)",
			     cfg->tls_cert ? "--tls-cert" : "--tls-key",
			     cfg->tls_cert ? "--tls-key" : "--tls-cert");
		return CONFIG_ERROR;
	}
	return CONFIG_OK;
}

enum config_result config_parse_healthcheck(struct config_healthcheck *hc, int argc,
					    char *const argv[], config_lookup_fn lookup, void *ctx,
					    char *err, size_t errlen)
{
	/* Same names and variables as serve's, but port 0 cannot be asked. */
	static const struct config_option hc_options[] = {
	    {"--host", "HOST", "ADDR", CFG(host, HOST), 0, 0, NULL, NULL},
	    {"--port", "PORT", "N", CFG(http.port, UNSIGNED), 1, 65535, NULL, NULL},
	    {"--tls-cert", "TLS_CERT", "FILE", CFG(tls_cert, TEXT), 0, 0, NULL, NULL},
	};
	struct config cfg;
	enum config_result r =
	    config_parse(&cfg, hc_options, sizeof hc_options / sizeof hc_options[0], argc, argv,
			 lookup, ctx, err, errlen);
	if (r != CONFIG_OK)
		return r;
	hc->port = cfg.http.port;
	hc->tls_cert = cfg.tls_cert;
	/* A server listening on every address is asked on the loopback one. */
	snprintf(hc->host, sizeof hc->host, "%s",
		 strcmp(cfg.host, "0.0.0.0") == 0 ? "127.0.0.1"
		 : strcmp(cfg.host, "::") == 0	  ? "::1"
						  : cfg.host);
	return CONFIG_OK;
}

/* The part of the manual about `solve`, also its own help. */
static void config_usage_solve(FILE *out)
{
	fprintf(out,
		"solve monomino-domino|puyo [FILE]\n"
		"  Reads the Baekjoon input from FILE (stdin when FILE is absent or \"-\") and\n"
		"  prints the Baekjoon output (\"S\\nT\\n\" or \"C\\n\"), using the server's\n"
		"  simulators and lenient reader (CRLF, a missing final newline and trailing\n"
		"  blank lines are fine; floating puyos fall first). Monomino-Domino input is\n"
		"  streamed, so any N runs in constant memory. A bad input prints\n"
		"    dropjudge: FILE:LINE:COLUMN: detail\n"
		"  to stderr (\"<stdin>\" for FILE, COLUMN when known) and exits 1.\n"
		"solve puyo --lines [FILE]\n"
		"  One field per line, one chain count per line out; two threads share the\n"
		"  work (DROPJUDGE_SOLVE_THREADS=1 keeps it to one).\n"
		"solve monomino-domino|puyo --ndjson [FILE]\n"
		"  A stream of cases, one JSON case a line: the lines POST /v1/PROBLEM answers\n"
		"  to Content-Type: application/x-ndjson (default limits), in flat memory.\n");
}

/* A subcommand's part of the manual (its usage line, what it does), an example for its help. */
struct config_usage_part {
	const char *name;    /* the subcommand */
	const char *text;    /* from its usage line on, ending in a newline */
	const char *example; /* one command line */
};

static const struct config_usage_part config_usage_parts[] = {
    {"check",
     "check --problem monomino-domino|puyo --protocol testlib|kattis|cms|dmoj ARGS\n"
     "  Judges a contestant's output as POST /v1/{problem}/judge does, speaking\n"
     "  the protocol of a contest system (ARGS as that system passes them):\n"
     "    testlib  INPUT OUTPUT ANSWER [REPORT [-appes]]; exit 0 ok, 1 wrong\n"
     "             answer, 2 presentation error, 3 fail; verdict on stderr\n"
     "    kattis   INPUT ANSWER FEEDBACK_DIR [FLAGS] < OUTPUT; exit 42 accepted,\n"
     "             43 rejected, 1 judge error; FEEDBACK_DIR/judgemessage.txt\n"
     "    cms      INPUT CORRECT_OUTPUT OUTPUT; score 1.0 or 0.0 on stdout,\n"
     "             one line on stderr (translate:success or why); exit 1 on\n"
     "             a judge error\n"
     "    dmoj     INPUT OUTPUT ANSWER; exit 0 accepted, 1 wrong, 2 internal\n"
     "             error; the verdict on stdout\n"
     "  The ANSWER file is checked against dropjudge's own answer: when its\n"
     "  tokens differ, the result is the protocol's judge error. Run under the\n"
     "  name dropjudge-checker-PROTOCOL[-PROBLEM], output_validator (kattis),\n"
     "  check (testlib) or checker (cms), the program is that checker; the\n"
     "  problem then comes from the name, --problem or DROPJUDGE_PROBLEM.\n",
     "dropjudge check --problem puyo --protocol testlib in.txt out.txt ans.txt"},
    {"validate",
     "validate --problem monomino-domino|puyo --protocol testlib|kattis [FILE]\n"
     "  The strict validator of POST /v1/{problem}/validate on FILE or stdin:\n"
     "  testlib exits 0 valid, 3 invalid (testlib's --testset, --group ...\n"
     "  flags are taken and ignored); kattis exits 42 valid, 43 invalid. Every\n"
     "  fault goes to stderr as FILE:LINE:COLUMN: detail. Also run as\n"
     "  dropjudge-validator-PROTOCOL[-PROBLEM], input_validator or validator.\n",
     "dropjudge validate --problem monomino-domino --protocol testlib < in.txt"},
    {"package",
     "package --problem P --format kattis|polygon|domjudge|cms [--tests N] [--seed S]\n"
     "        [--min-chains M] OUT\n"
     "  Writes a problem package a judge imports as it is: statement, the\n"
     "  public examples as samples, N secret tests (1..500, default 20: edge\n"
     "  cases, random, large, for Puyo long chains of at least M chains, 1..12,\n"
     "  default 8) drawn from seed S (default 1) with their answers, input and\n"
     "  output validator or checker as C sources the judge compiles (no\n"
     "  dropjudge needed there), Baekjoon's limits and the format's metadata.\n"
     "  OUT ending in .zip or .kpp is a zip, in .tar.gz or .tgz a tar.gz; in\n"
     "  another archive's suffix (.rar, .7z, .tar, .tar.xz, .gz ...) it is\n"
     "  refused; anything else is a directory.\n",
     "dropjudge package --problem puyo --format kattis --tests 50 puyo.zip"},
    {"solve puyo --lines",
     "solve puyo --lines [FILE]\n"
     "  One field per line: its 12 rows (or 13, the hidden row first) of 6\n"
     "  characters of .RGBPYO, top row first, separated by single spaces. Prints\n"
     "  one chain count per line, in order, in constant memory. At the first bad\n"
     "  line prints the counts before it, then FILE:LINE:COLUMN: detail, exit 1.\n"
     "  Two threads share the work; DROPJUDGE_SOLVE_THREADS=1 keeps it to one.\n",
     "dropjudge solve puyo --lines fields.txt"},
    {"search",
     "search puyo [--ndjson] [FILE]\n"
     "  Reads one search request in JSON ({\"field\": [...], \"pairs\": [...],\n"
     "  \"add\": 3, \"limit\": 10, \"colors\": \"RGBPY\"}) from FILE or stdin and\n"
     "  prints the answer of POST /v1/puyo/search: the field's triggers and the\n"
     "  ranked placements of the pairs. A bad request prints its problem to\n"
     "  stderr and exits 1. With --ndjson: one request a line, one answer a\n"
     "  line, then the summary line.\n",
     "dropjudge search puyo request.json"},
    {"healthcheck",
     "healthcheck [--host ADDR] [--port N] [--tls-cert FILE]\n"
     "  Sends GET /livez to ADDR:N (ADDR from --host, else HOST, else 127.0.0.1;\n"
     "  a server's 0.0.0.0 is asked on 127.0.0.1 and :: on ::1, so the HOST a\n"
     "  container serves on works; N from --port, else PORT, else 8080;\n"
     "  1..65535) over a raw socket with a 2 second timeout. Exits 0 when the answer\n"
     "  is 200, 1 otherwise (the reason on stderr). With --tls-cert FILE (else\n"
     "  TLS_CERT, as the server reads it) it speaks HTTPS and trusts only the\n"
     "  certificates in FILE; no name is checked, the certificate is pinned.\n",
     "dropjudge healthcheck --host localhost --port 8080"},
};

/* The part of the manual about `serve` after its title line: what it prints,
 * every flag with its variable and default, limits, signals, tokens, TLS. */
static void config_usage_serve_text(FILE *out)
{
	fprintf(out,
		"  Prints one line to stdout once it listens:\n"
		"    dropjudge " DROPJUDGE_VERSION " listening on http://HOST:PORT\n"
		"  (https:// with --tls-cert; with the real port when --port is 0; an IPv6\n"
		"  HOST is in brackets).\n"
		"  Started by systemd with a socket (socket activation: LISTEN_PID and\n"
		"  LISTEN_FDS, dropjudge.socket), it serves that socket and --host and\n"
		"  --port are not used; it says READY=1 once serving and STOPPING=1 at the\n"
		"  drain to NOTIFY_SOCKET.\n"
		"  Flags, each also read from an environment variable; the flag wins, and an\n"
		"  empty variable counts as unset. Write --flag VALUE or --flag=VALUE; numbers\n"
		"  are plain decimal digits (no sign, suffix or spaces).\n"
		"\n");
	for (size_t k = 0; k < CONFIG_NOPTIONS; k++) {
		const struct config_option *opt = &config_options[k];
		fprintf(out, "  %s %s, %s=%s\n", opt->flag, opt->metavar, opt->env, opt->metavar);
		for (const char *line = opt->help; *line;) {
			size_t n = strcspn(line, "\n");
			fprintf(out, "      %.*s\n", (int)n, line);
			line += n + (line[n] == '\n');
		}
	}
	fprintf(out,
		"\n"
		"  A body over --max-body is answered 413: before it is read when\n"
		"  Content-Length announces it, else (chunked) once it has ended; a body\n"
		"  that is not kept but goes on past 64 MiB is cut off without an answer.\n"
		"  Keep-alive, chunked request bodies and HEAD work.\n"
		"  SIGTERM or SIGINT starts a drain: /readyz answers 503, new connections\n"
		"  are closed at once, requests in flight complete (each answered with\n"
		"  \"Connection: close\") for up to --drain-timeout seconds, then the process\n"
		"  exits 0. A second SIGTERM or SIGINT ends the process at once, exit 0\n"
		"  (connections still open and work in progress are cut). SIGHUP reloads\n"
		"  what can change without a restart and the service goes on: the token\n"
		"  file (below).\n"
		"  With --auth-token-file, a /v1 request without a known token is 401 (with\n"
		"  WWW-Authenticate: Bearer realm=\"dropjudge\"), a malformed Authorization\n"
		"  header 400; /livez, /healthz, /readyz, /openapi.yaml and the viewer's\n"
		"  files (/, /viewer.css, /viewer.js; the page asks for a token) stay open.\n"
		"  Tokens are compared in constant time and never logged. SIGHUP re-reads the\n"
		"  file; when it cannot be read the tokens in force stay and the reason is\n"
		"  logged.\n"
		"  With --tls-cert and --tls-key the port speaks HTTPS only (GnuTLS).\n"
		"\n");
}

void config_usage_command(const char *name, FILE *out)
{
	for (size_t i = 0; i < sizeof config_usage_parts / sizeof config_usage_parts[0]; i++) {
		const struct config_usage_part *part = &config_usage_parts[i];
		if (strcmp(part->name, name) != 0)
			continue;
		fprintf(
		    out,
		    "Usage: dropjudge %s\nExample:\n  %s\n\nThe whole manual: dropjudge --help\n",
		    part->text, part->example);
		return;
	}
	if (strcmp(name, "serve") != 0) {
		config_usage_solve(out);
		return;
	}
	fprintf(out, "Usage: dropjudge [serve] [FLAGS]\n\n");
	config_usage_serve_text(out);
	fprintf(out, "Example:\n  dropjudge serve --host localhost --port 8080 --log-format text\n"
		     "\nThe whole manual: dropjudge --help\n");
}

void config_usage(FILE *out)
{
	fprintf(out,
		"dropjudge " DROPJUDGE_VERSION
		": Monomino-Domino (Baekjoon 20061) and Puyo Puyo (Baekjoon 11559)\n"
		"as an HTTP judging service.\n"
		"\n"
		"Usage:\n"
		"  dropjudge [serve] [FLAGS]                 serve the HTTP API (the default)\n"
		"  dropjudge solve monomino-domino [FILE]    solve one Baekjoon 20061 input\n"
		"  dropjudge solve puyo [FILE]               solve one Baekjoon 11559 input\n"
		"  dropjudge solve puyo --lines [FILE]       count the chains of many fields\n"
		"  dropjudge solve PROBLEM --ndjson [FILE]   answer a stream of JSON cases\n"
		"  dropjudge search puyo [--ndjson] [FILE]   triggers and pair placements\n"
		"  dropjudge healthcheck [--host ADDR] [--port N] [--tls-cert FILE]\n"
		"                                            check a running server\n"
		"  dropjudge check --problem P --protocol X ARGS    a checker for a judge\n"
		"  dropjudge validate --problem P --protocol X [FILE]  a validator for a judge\n"
		"  dropjudge package --problem P --format F [--tests N] [--seed S]\n"
		"                    [--min-chains M] OUT   a problem package for a judge\n"
		"  dropjudge --help | -h                     this text\n"
		"  dropjudge --version                       print \"dropjudge " DROPJUDGE_VERSION
		"\"\n"
		"\n"
		"serve\n");
	config_usage_serve_text(out);
	config_usage_solve(out);
	for (size_t i = 0; i < sizeof config_usage_parts / sizeof config_usage_parts[0]; i++)
		fprintf(out, "\n%s", config_usage_parts[i].text);
	fprintf(out,
		"\n"
		"Exit status: 0 success; 1 failure (cannot listen, bad solve input, unreadable\n"
		"FILE, unhealthy); 2 bad usage (unknown subcommand or flag, bad value, a token,\n"
		"certificate or key file that cannot be used; the message names the flag,\n"
		"variable or file). check and validate exit with their protocol's codes.\n");
}
