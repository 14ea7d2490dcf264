/*
 * Where a package's files go, through libarchive: a zip or tar.gz in memory or in a file, or a
 * directory. Fixed timestamps, owner 0 and modes 0644 or 0755: the same files give the same
 * bytes. Private to src/package.
 */
#ifndef DROPJUDGE_PACKAGE_ARCHIVE_H
#define DROPJUDGE_PACKAGE_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "codec/error.h"
#include "package/package.h"

struct pkg_sink;

/* Opens a sink: into memory when path is NULL (zip or tar.gz only), else into the file or
 * directory at path; `prefix` ("" or "name/") goes before each path in an archive. NULL with err
 * set (CODEC_E_INTERNAL) on failure. */
struct pkg_sink *pkg_sink_open(enum package_sink kind, const char *path, const char *prefix,
			       struct codec_error *err);

/* Adds a regular file. False with err set on failure; the sink must then still be closed. */
bool pkg_sink_put(struct pkg_sink *s, const char *path, const char *data, size_t len,
		  bool executable, struct codec_error *err);

/* Finishes and frees the sink; a memory sink's archive, when `ok`, goes to the caller as *data
 * and *len (data is NULL for other sinks, and then left as it is). Returns CODEC_OK or
 * CODEC_E_INTERNAL with err set. */
enum codec_status pkg_sink_close(struct pkg_sink *s, bool ok, char **data, size_t *len,
				 struct codec_error *err);

#endif
