/*
 * Reading a small configuration file (token file, certificate, key) whole
 * into memory, for the modules of the HTTP layer that keep it there.
 */
#ifndef DROPJUDGE_HTTP_FILE_H
#define DROPJUDGE_HTTP_FILE_H

#include <stddef.h>

/*
 * Reads the file at `path`, at most `max` bytes, into a new NUL-terminated
 * buffer that the caller releases with dj_free_secret(buf, *len + 1); its
 * length (without the NUL) in *len. On failure (cannot open or read,
 * larger than max, out of memory) returns NULL and writes the reason, as
 * "cannot open the <what> PATH: ...", to err (errlen bytes). The reason
 * never quotes the file's contents.
 */
char *http_read_file(const char *path, const char *what, size_t max, size_t *len, char *err,
		     size_t errlen);

#endif
