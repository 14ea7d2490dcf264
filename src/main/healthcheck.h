/*
 * `dropjudge healthcheck`: asks a server on this machine whether it lives,
 * with a plain socket (no HTTP library), for container health checks in an
 * image that has no curl.
 */
#ifndef DROPJUDGE_MAIN_HEALTHCHECK_H
#define DROPJUDGE_MAIN_HEALTHCHECK_H

#include <stddef.h>

/* Whole-exchange timeout used by `dropjudge healthcheck`. */
#define HEALTHCHECK_TIMEOUT_MS 2000u

/*
 * Sends "GET /livez" to 127.0.0.1:port and reads the status line, all
 * within timeout_ms. Returns 0 when the status is 200; otherwise 1 with
 * the reason (refused, timed out, status 503, ...) written to err (errlen
 * bytes, may be 0).
 */
int healthcheck_run(unsigned port, unsigned timeout_ms, char *err, size_t errlen);

#endif
