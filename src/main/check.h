/*
 * `dropjudge check` and `dropjudge validate`: the checker of
 * POST /v1/{problem}/judge and the strict validator of
 * POST /v1/{problem}/validate, speaking the protocols contest systems use
 * for their checkers and validators:
 *
 *   testlib (Polygon, Codeforces, DMOJ's testlib type)
 *     check input output answer [report [-appes]]: exit 0 ok, 1 wrong
 *     answer, 2 presentation error, 3 fail (judge error); the verdict and
 *     message on stderr ("ok ...", "wrong answer ...", "wrong output format
 *     ...", "FAIL ..."), the message in the report file, as testlib's XML
 *     with -appes. validate [--testset T] [--group G] ... < input: exit 0
 *     valid, 3 invalid.
 *   kattis (Kattis problem package format; DOMjudge, BAPCtools)
 *     check input judge_answer feedback_dir [flags] < team_output: exit 42
 *     accepted, 43 rejected, 1 judge error; judgemessage.txt in
 *     feedback_dir (and judgeerror.txt on a judge error). validate < input:
 *     exit 42 valid, 43 invalid.
 *   cms (CMS's checker of Batch tasks)
 *     check input correct_output contestant_output: the score (1.0 or 0.0)
 *     on stdout and exactly one line on stderr: "translate:success", or the
 *     verdict and why ("wrong answer: token 1 ..."); exit 0;
 *     a judge error prints no score and exits 1.
 *   dmoj (DMOJ's bridged checker, default type)
 *     check input output answer: exit 0 accepted, 1 wrong (a presentation
 *     error too), 2 internal error; the verdict as feedback on stdout.
 *
 * The answer file given by the judge is checked against dropjudge's own
 * answer: when their tokens differ the result is the protocol's judge
 * error, never a verdict. Validation faults go to stderr, one a line, as
 * "NAME:LINE:COLUMN: detail".
 */
#ifndef DROPJUDGE_MAIN_CHECK_H
#define DROPJUDGE_MAIN_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "codec/error.h"

/*
 * Runs `dropjudge check ARGS` (argv holds the arguments after "check").
 * Flags --problem P and --protocol X may come anywhere; the rest are the
 * protocol's arguments. Returns the exit status.
 */
int check_main(int argc, char *const argv[]);

/* Runs `dropjudge validate ARGS`; returns the exit status. */
int validate_main(int argc, char *const argv[]);

/*
 * When the program's name (argv[0], without its directory) is one a judge
 * runs it under, runs that checker or validator with all of argv[1..] and
 * returns its exit status; otherwise returns -1. The names are
 * dropjudge-checker-PROTOCOL[-PROBLEM] and dropjudge-validator-PROTOCOL
 * [-PROBLEM], output_validator and input_validator (kattis), check and
 * validator (testlib), checker (cms). Without a -PROBLEM suffix or a
 * --problem flag the problem is read from DROPJUDGE_PROBLEM.
 */
int check_main_by_name(int argc, char *const argv[]);

/*
 * The value of flag `name` at argv[*i], written "--name VALUE" (moving *i
 * past VALUE) or "--name=VALUE". NULL when argv[*i] is another argument,
 * or, with *missing set, when VALUE is missing. Shared with the other
 * subcommands' parsers.
 */
const char *check_flag(int argc, char *const argv[], int *i, const char *name, bool *missing);

/*
 * Reads all of `in` into a new buffer, NUL-terminated after its *len
 * bytes, which the caller frees with dj_free(). Returns NULL with errno
 * set on failure: EFBIG when `in` holds more than `max` bytes, ENOMEM, or
 * the read's own error. Shared with solve and search.
 */
char *check_read_all(FILE *in, size_t max, size_t *len);

/*
 * Writes the first fault of err into out[0..size) as "NAME:LINE:COLUMN:
 * detail" (LINE and COLUMN when known), or "NAME: detail" of the error
 * when it holds no fault.
 */
void check_format_error(char *out, size_t size, const char *name, const struct codec_error *err);

#endif
