/*
 * Configuration of `dropjudge serve` and `dropjudge healthcheck`: flags and
 * environment variables in, a filled struct or a message naming the bad
 * flag or variable out.
 *
 * Parsing is a pure function: it reads only its arguments and the
 * environment through a caller-supplied lookup, so that tests can drive it
 * with tables. A flag wins over its environment variable; an environment
 * variable that is set but empty counts as unset. Numbers are plain
 * decimal (no sign, no spaces, no suffix); anything else, a value out of
 * range, an unknown flag or a stray argument is an error (exit status 2).
 */
#ifndef DROPJUDGE_MAIN_CONFIG_H
#define DROPJUDGE_MAIN_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define CONFIG_HOST_MAX	 64  /* bytes of a host address, with the NUL */
#define CONFIG_ERROR_MAX 256 /* bytes of an error message, with the NUL */

/* Defaults, also shown by --help. */
#define CONFIG_DEFAULT_HOST		    "0.0.0.0"
#define CONFIG_DEFAULT_PORT		    8080u
#define CONFIG_DEFAULT_MAX_BODY		    ((size_t)1 << 20)
#define CONFIG_DEFAULT_MAX_JSON_BODY	    ((size_t)1 << 20)
#define CONFIG_DEFAULT_MAX_STREAM_BODY	    ((size_t)1 << 30)
#define CONFIG_DEFAULT_MAX_BLOCKS	    1000000ul
#define CONFIG_DEFAULT_MAX_BATCH	    1000ul
#define CONFIG_DEFAULT_TIMEOUT		    10u
#define CONFIG_DEFAULT_MAX_CONNECTIONS	    1024u
#define CONFIG_DEFAULT_MAX_PER_IP	    32u
#define CONFIG_DEFAULT_HEADER_TIMEOUT	    10u
#define CONFIG_DEFAULT_BODY_TIMEOUT	    60u
#define CONFIG_DEFAULT_MAX_TRACE_STEPS	    100000ul
#define CONFIG_DEFAULT_MAX_HEAVY	    64u
#define CONFIG_DEFAULT_MAX_HEAVY_PER_CLIENT 8u
#define CONFIG_DEFAULT_MAX_SVG_BYTES	    ((size_t)8 << 20)
#define CONFIG_DEFAULT_ANSWER_MEMORY	    ((size_t)64 << 20)
#define CONFIG_DEFAULT_PACKAGE_CACHE	    ((size_t)32 << 20)
/* Below Docker's 10 s grace between SIGTERM and SIGKILL, so that a drain
 * that runs out still ends in an orderly exit. */
#define CONFIG_DEFAULT_DRAIN_TIMEOUT 8u
#define CONFIG_MAX_THREADS	     1024u
/* GnuTLS priorities: TLS 1.3, and TLS 1.2 with forward-secret AEAD suites
 * only (ECDHE with AES-GCM or ChaCha20-Poly1305): no static RSA key
 * exchange, no CBC, no SHA-1 MAC. In pieces, for --help's width. */
#define CONFIG_TLS_PRIORITIES_1 "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:"
#define CONFIG_TLS_PRIORITIES_2 "-CIPHER-ALL:+CHACHA20-POLY1305:+AES-256-GCM:"
#define CONFIG_TLS_PRIORITIES_3 "+AES-128-GCM:-MAC-ALL:+AEAD:-KX-ALL:"
#define CONFIG_TLS_PRIORITIES_4 "+ECDHE-ECDSA:+ECDHE-RSA"
#define CONFIG_DEFAULT_TLS_PRIORITIES                                                              \
	CONFIG_TLS_PRIORITIES_1 CONFIG_TLS_PRIORITIES_2 CONFIG_TLS_PRIORITIES_3                    \
	    CONFIG_TLS_PRIORITIES_4

/* Settings of `dropjudge serve`. */
struct config {
	char host[CONFIG_HOST_MAX];    /* IPv4 or IPv6 address, or a name, to listen on */
	unsigned port;		       /* 0..65535; 0: any free port */
	unsigned threads;	       /* 1..CONFIG_MAX_THREADS; 0: one per CPU (caller resolves) */
	size_t max_body;	       /* bytes of a request body, >= 1 */
	size_t max_json_body;	       /* bytes of a JSON body or a stream's line, >= 1 */
	size_t max_stream_body;	       /* bytes of an NDJSON stream, >= 1 */
	unsigned long max_blocks;      /* placements in one Monomino-Domino case, >= 1 */
	unsigned long max_batch;       /* cases in one batch, >= 1 */
	unsigned timeout;	       /* idle connection timeout, seconds, >= 1 */
	unsigned max_connections;      /* open connections at once, >= 1 */
	unsigned drain_timeout;	       /* seconds to wait for requests at shutdown */
	unsigned max_per_ip;	       /* open connections from one address; 0: no limit */
	unsigned header_timeout;       /* seconds for a request's headers, >= 1 */
	size_t connection_memory;      /* bytes of each connection's memory pool */
	unsigned body_timeout;	       /* seconds for a request's body after its headers, >= 1 */
	unsigned long max_trace_steps; /* trace steps in all of one request, >= 1 */
	bool metrics_open;	       /* GET /metrics needs no token with a token file */
	unsigned max_heavy;	       /* heavy requests queued or running at once, >= 1 */
	unsigned max_heavy_per_client; /* of them from one client address, >= 1 */
	size_t max_svg_bytes;	       /* bytes of one SVG answer; more is 422 */
	size_t answer_memory;	       /* bytes of answers held at once; past it 503 */
	size_t package_cache;	       /* bytes of built packages kept; 0: none */
	/* Texts below point into argv or the environment (not copied); NULL: unset. */
	const char *auth_token_file; /* bearer tokens, one a line */
	const char *tls_cert;	     /* PEM certificate (chain) file; with tls_key */
	const char *tls_key;	     /* PEM private key file; with tls_cert */
	const char *tls_priorities;  /* GnuTLS priority string, never NULL */
	const char *cors_origins;    /* CORS origins, comma-separated, or "*"; NULL: none */
	int log_format;		     /* enum http_log_format of http/accesslog.h */
};

/* Reads environment variable `name` (getenv-like); NULL when unset. */
typedef const char *(*config_lookup_fn)(void *ctx, const char *name);

enum config_result {
	CONFIG_OK = 0, /* settings filled */
	CONFIG_HELP,   /* --help or -h was given: print the usage, exit 0 */
	CONFIG_ERROR,  /* a bad flag or value: message written, exit 2 */
};

/*
 * Parses the arguments of `serve` (argv[0..argc), without the program or
 * subcommand name) and the environment read through `lookup` (NULL: no
 * environment) into *cfg, starting from the defaults. Flags take their
 * value as `--flag VALUE` or `--flag=VALUE`. On CONFIG_ERROR a message
 * naming the flag or variable is written to err (errlen bytes, may be 0)
 * and *cfg is unspecified.
 */
enum config_result config_parse_serve(struct config *cfg, int argc, char *const argv[],
				      config_lookup_fn lookup, void *ctx, char *err, size_t errlen);

/* Settings of `dropjudge healthcheck`. */
struct config_healthcheck {
	char host[CONFIG_HOST_MAX]; /* address or name to ask; 0.0.0.0 and :: become
				       their loopback addresses */
	unsigned port;		    /* 1..65535 */
	const char *tls_cert;	    /* NULL: plain HTTP; else HTTPS trusting this PEM file only */
};

/*
 * Parses the arguments of `healthcheck`: `--host ADDR`, else HOST, else
 * 0.0.0.0 (asked as 127.0.0.1; :: as ::1); `--port N` (1..65535), else the
 * PORT variable, else 8080; `--tls-cert FILE`, else TLS_CERT. Same
 * conventions as config_parse_serve().
 */
enum config_result config_parse_healthcheck(struct config_healthcheck *hc, int argc,
					    char *const argv[], config_lookup_fn lookup, void *ctx,
					    char *err, size_t errlen);

/* Writes the complete usage (every subcommand, flag, variable, default). */
void config_usage(FILE *out);

/* Writes the part of the usage about `solve` (also in config_usage()). */
void config_usage_solve(FILE *out);

/* Writes `serve --help`: its usage line, what it prints, every flag with
 * its variable and default, and an example (the same text as in
 * config_usage(), which scripts/gen-docs.sh reads). */
void config_usage_serve(FILE *out);

/* Writes the own help of subcommand `name` ("check", "validate",
 * "package", "healthcheck", "solve puyo --lines"): its usage line, what it
 * does, its flags and one example. Returns false, writing nothing, for
 * any other name. */
bool config_usage_command(const char *name, FILE *out);

#endif
