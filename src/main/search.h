/*
 * `dropjudge search puyo [--ndjson] [FILE]`: the Puyo search of POST
 * /v1/puyo/search from the command line, through the same route.
 */
#ifndef DROPJUDGE_MAIN_SEARCH_H
#define DROPJUDGE_MAIN_SEARCH_H

#include <stdio.h>

/*
 * Runs `dropjudge search puyo [--ndjson] [FILE]`; argv holds the arguments
 * after "search". One JSON request (FILE, or stdin when absent or "-") is
 * answered on out as the route answers it (exit 0), or its problem written
 * to errout (exit 1); with --ndjson, one request a line, one answer a line,
 * then the summary (solve_ndjson()). Returns the exit status: 0, 1 (bad
 * request or I/O error), 2 (bad usage).
 */
int search_main(int argc, char *const argv[], FILE *out, FILE *errout);

#endif
