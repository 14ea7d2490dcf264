/*
 * Configuration of `dropjudge serve` and `dropjudge healthcheck`: flags and
 * environment variables (read through a caller's lookup, so that tests
 * drive it with tables) in, a filled struct or a message naming the bad
 * flag or variable out; and the usage texts. A flag wins over its
 * variable; a variable set but empty counts as unset. Numbers are plain
 * decimal (no sign, no spaces, no suffix).
 */
#ifndef DROPJUDGE_MAIN_CONFIG_H
#define DROPJUDGE_MAIN_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define CONFIG_HOST_MAX	 64  /* bytes of a host address, with the NUL */
#define CONFIG_ERROR_MAX 256 /* bytes of an error message, with the NUL */

#define CONFIG_DEFAULT_HOST "0.0.0.0" /* the other defaults are in config.c's table */
#define CONFIG_MAX_THREADS  1024u
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
 * Parses the arguments of `serve` (after the subcommand's name), `--flag
 * VALUE` or `--flag=VALUE`, and the environment read through `lookup`
 * (NULL: none) into *cfg, starting from the defaults. On CONFIG_ERROR the
 * message is in err (errlen bytes, may be 0) and *cfg is unspecified.
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

/* Parses the arguments of `healthcheck` (--host, --port 1..65535,
 * --tls-cert, and their variables) as config_parse_serve() does. */
enum config_result config_parse_healthcheck(struct config_healthcheck *hc, int argc,
					    char *const argv[], config_lookup_fn lookup, void *ctx,
					    char *err, size_t errlen);

/* Write the whole usage; its part about `solve`; `serve --help` (the same
 * text as in the whole usage, which scripts/gen-docs.sh reads). */
void config_usage(FILE *out);
void config_usage_solve(FILE *out);
void config_usage_serve(FILE *out);

/* Writes the own help of subcommand `name` ("check", "validate",
 * "package", "healthcheck", "search", "solve puyo --lines") with an
 * example; false, writing nothing, for another name. */
bool config_usage_command(const char *name, FILE *out);

#endif
