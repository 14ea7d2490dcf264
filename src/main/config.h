/*
 * Configuration of `dropjudge serve` and `healthcheck` from flags and variables
 * (a flag wins; an empty variable is unset; numbers are plain decimal), and usage.
 */
#ifndef DROPJUDGE_MAIN_CONFIG_H
#define DROPJUDGE_MAIN_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "http/server.h"

#define CONFIG_HOST_MAX	 64  /* bytes of a host address, with the NUL */
#define CONFIG_ERROR_MAX 256 /* bytes of an error message, with the NUL */

#define CONFIG_DEFAULT_HOST "0.0.0.0" /* the other defaults are in config.c's table */
#define CONFIG_MAX_THREADS  1024u
/* GnuTLS priorities: TLS 1.3, and TLS 1.2 with forward-secret AEAD suites only (ECDHE with
 * AES-GCM or ChaCha20-Poly1305; no static RSA, CBC or SHA-1 MAC). In pieces for --help's width. */
#define CONFIG_TLS_PRIORITIES_1 "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:"
#define CONFIG_TLS_PRIORITIES_2 "-CIPHER-ALL:+CHACHA20-POLY1305:+AES-256-GCM:"
#define CONFIG_TLS_PRIORITIES_3 "+AES-128-GCM:-MAC-ALL:+AEAD:-KX-ALL:"
#define CONFIG_TLS_PRIORITIES_4 "+ECDHE-ECDSA:+ECDHE-RSA"
#define CONFIG_DEFAULT_TLS_PRIORITIES                                                              \
	CONFIG_TLS_PRIORITIES_1 CONFIG_TLS_PRIORITIES_2 CONFIG_TLS_PRIORITIES_3                    \
	    CONFIG_TLS_PRIORITIES_4

/* Settings of `dropjudge serve`. */
struct config {
	char host[CONFIG_HOST_MAX]; /* IPv4 or IPv6 address, or a name, to listen on */
	struct http_config http;    /* numbers, limits (threads 0: per CPU); main fills the rest */
	unsigned drain_timeout;	    /* seconds to wait for requests at shutdown */
	/* Texts below point into argv or the environment (not copied); NULL: unset. */
	const char *auth_token_file; /* bearer tokens, one a line */
	const char *tls_cert;	     /* PEM certificate (chain) file; with tls_key */
	const char *tls_key;	     /* PEM private key file; with tls_cert */
	const char *tls_priorities;  /* GnuTLS priority string, never NULL */
	int log_format;		     /* enum http_log_format of http/accesslog.h */
};

/* Reads environment variable `name` (getenv-like); NULL when unset. */
typedef const char *(*config_lookup_fn)(void *ctx, const char *name);

enum config_result {
	CONFIG_OK = 0, /* settings filled */
	CONFIG_HELP,   /* --help or -h was given: print the usage, exit 0 */
	CONFIG_ERROR,  /* a bad flag or value: message written, exit 2 */
};

/* Parses the arguments of `serve` after its name and the environment read
 * through `lookup` (NULL: none) into *cfg, from the defaults up. On
 * CONFIG_ERROR the message is in err (errlen may be 0), *cfg unspecified. */
enum config_result config_parse_serve(struct config *cfg, int argc, char *const argv[],
				      config_lookup_fn lookup, void *ctx, char *err, size_t errlen);

/* Settings of `dropjudge healthcheck`. */
struct config_healthcheck {
	char host[CONFIG_HOST_MAX]; /* address or name; 0.0.0.0 and :: asked on the loopback */
	unsigned port;		    /* 1..65535 */
	const char *tls_cert;	    /* NULL: plain HTTP; else HTTPS trusting this PEM file only */
};

/* Parses the arguments of `healthcheck` (--host, --port 1..65535,
 * --tls-cert, and their variables) as config_parse_serve() does. */
enum config_result config_parse_healthcheck(struct config_healthcheck *hc, int argc,
					    char *const argv[], config_lookup_fn lookup, void *ctx,
					    char *err, size_t errlen);

/* The whole usage, which scripts/gen-docs.sh reads. */
void config_usage(FILE *out);

/* Writes the own help of subcommand `name` ("serve", "check", "validate",
 * "package", "healthcheck", "search", "solve puyo --lines"), its part of
 * the whole usage with an example; solve's part for another name. */
void config_usage_command(const char *name, FILE *out);

#endif
