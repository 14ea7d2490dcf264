/*
 * The subcommands besides serve. Each takes the arguments after its name and
 * returns the exit status: 0 done, 1 failed (the reason on stderr), 2 bad
 * usage; check and validate exit with their protocol's codes.
 */
#ifndef DROPJUDGE_MAIN_COMMANDS_H
#define DROPJUDGE_MAIN_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "codec/error.h"

/* `check ARGS` and `validate ARGS` in a contest system's protocol (check.c):
 * --problem P and --protocol X anywhere, the rest the protocol's arguments.
 * A judge's answer file that differs from dropjudge's is a judge error. */
int check_main(int argc, char *const argv[]);
int validate_main(int argc, char *const argv[]);

/* Runs the checker or validator argv[0]'s base name names (check_names; the
 * problem from the name, --problem or DROPJUDGE_PROBLEM) with argv[1..]: its
 * exit status; -1 for any other name. */
int check_main_by_name(int argc, char *const argv[]);

/* The value of flag `name` at argv[*i], "--name VALUE" (*i moved past it) or
 * "--name=VALUE"; NULL for another argument, with *missing set when VALUE is missing. */
const char *check_flag(int argc, char *const argv[], int *i, const char *name, bool *missing);

/* Reads all of `in` into a new buffer (NUL-terminated after *len bytes) for
 * the caller to dj_free(); NULL with errno set (EFBIG past `max`, ENOMEM, the read's). */
char *check_read_all(FILE *in, size_t max, size_t *len);

/* Writes fault i of err to out[0..size) as "NAME:LINE:COLUMN: detail" (LINE
 * and COLUMN when known); past its faults, "NAME: detail" of err itself. */
void check_format_error(char *out, size_t size, const char *name, const struct codec_error *err,
			unsigned i);

/* Writes "dropjudge: CMD: ", the printf-style message and "; try 'dropjudge
 * [CMD] --help'" (CMD when own_help) on stderr; returns 2, bad usage. */
int command_usage(const char *cmd, bool own_help, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* `solve PROBLEM [--lines | --ndjson] [FILE]` (--lines: puyo only) through the server's readers
 * and cores; `search puyo [--ndjson] [FILE]`: the answer of POST /v1/puyo/search. */
int solve_main(int argc, char *const argv[]);
int search_main(int argc, char *const argv[]);

/* `package --problem P --format F [--tests N] [--seed S] [--min-chains M] OUT`:
 * a zip for OUT ending in .zip or .kpp, a tar.gz for .tar.gz or .tgz, else a directory. */
int package_main(int argc, char *const argv[]);

/* Sends "GET /livez" to host:port (1..65535), reads the status line within 2 s; over TLS pinned
 * to tls_cert's PEM certificates (no name checked) unless NULL: 0 on a 200, else 1 with err set. */
int healthcheck_run(const char *host, unsigned port, const char *tls_cert, char *err,
		    size_t errlen);

#endif
