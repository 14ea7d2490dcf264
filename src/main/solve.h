/*
 * `dropjudge solve`: the Baekjoon input format in, the Baekjoon output
 * format out, through the same codecs and cores as the server. It reads
 * Monomino-Domino input in chunks through the push parser and places each
 * block as soon as it is read, so memory stays flat whatever N is.
 */
#ifndef DROPJUDGE_MAIN_SOLVE_H
#define DROPJUDGE_MAIN_SOLVE_H

#include <stdio.h>

/*
 * `solve PROBLEM --ndjson`: a stream of cases, one JSON case a line, each
 * answered on a line of its own in order, then the summary line: the bytes
 * POST /v1/PROBLEM with Content-Type: application/x-ndjson answers under
 * the default limits. Memory stays flat whatever the number of lines.
 * Returns 0, or 1 on a read or write error (message on errout); a bad line
 * is answered in its place and is not an error of the run.
 */
int solve_ndjson(const char *problem, FILE *in, const char *name, FILE *out, FILE *errout);

/*
 * Runs `dropjudge solve PROBLEM [--lines | --ndjson] [FILE]` (--lines for puyo only); argv holds
 * the arguments after "solve". FILE absent or "-" reads stdin. Returns the exit status: 0 solved, 1
 * bad input or I/O error, 2 bad usage (message on errout).
 */
int solve_main(int argc, char *const argv[], FILE *out, FILE *errout);

#endif
