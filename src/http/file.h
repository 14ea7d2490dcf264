/* Reading a small configuration file (tokens, certificate, key) whole. */
#ifndef DROPJUDGE_HTTP_FILE_H
#define DROPJUDGE_HTTP_FILE_H

#include <stddef.h>

/*
 * Reads the file at `path`, at most `max` bytes, into a new NUL-terminated
 * buffer released with dj_free_secret(buf, *len + 1), *len its length. NULL
 * on failure, with the reason ("cannot open the <what> PATH: ...", never
 * the contents) in err (errlen bytes).
 */
char *http_read_file(const char *path, const char *what, size_t max, size_t *len, char *err,
		     size_t errlen);

#endif
