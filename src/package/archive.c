/*
 * Package sinks on libarchive (see archive.h): memory archives grow a problem_text through
 * archive_write_open()'s callback; directories are written by archive_write_disk with no "..",
 * no absolute path, no symlink.
 */
#include "package/archive.h"

#include <archive.h>
#include <archive_entry.h>

#include "problem/text.h"
#include "mem/alloc.h"

/* Every entry's modification time: 2024-01-01T00:00:00Z (zip's DOS times cannot hold 1970). */
#define PKG_MTIME 1704067200

struct pkg_sink {
	struct archive *a;
	const char *prefix;	 /* before each path: the archive's prefix, or the directory */
	const char *separator;	 /* between prefix and path: "/" for a directory, else "" */
	struct problem_text mem; /* memory sink: the archive so far */
};

/* Appends to the memory archive. Out of memory is remembered in s->mem for pkg_sink_close(), not
 * refused: libarchive leaks its deflate state when a write fails in the middle of an entry. */
static la_ssize_t pkg_sink_write_mem(struct archive *a, void *ctx, const void *buf, size_t n)
{
	(void)a;
	struct pkg_sink *s = ctx;
	problem_text_put(&s->mem, buf, n);
	return (la_ssize_t)n;
}

static void pkg_sink_fail(struct pkg_sink *s, struct codec_error *err, const char *what)
{
	const char *why = s->a ? archive_error_string(s->a) : NULL;
	codec_error_set(err, CODEC_E_INTERNAL, "%s: %s", what, why ? why : "out of memory");
}

struct pkg_sink *pkg_sink_open(enum package_sink kind, const char *path, const char *prefix,
			       struct codec_error *err)
{
	struct pkg_sink *s = dj_calloc(1, sizeof *s);
	if (!s) {
		codec_error_set(err, CODEC_E_INTERNAL, "out of memory");
		return NULL;
	}
	problem_text_init(&s->mem);
	bool dir = kind == PACKAGE_DIRECTORY;
	s->prefix = dir ? path : prefix;
	s->separator = dir ? "/" : "";
	s->a = dir ? archive_write_disk_new() : archive_write_new();
	const char *what = dir ? "cannot write a directory" : "cannot set up the archive";
	int rc = !s->a		       ? ARCHIVE_FATAL
		 : dir		       ? archive_write_disk_set_options(s->a, ARCHIVE_EXTRACT_PERM |
										  ARCHIVE_EXTRACT_SECURE_NODOTDOT |
										  ARCHIVE_EXTRACT_SECURE_SYMLINKS)
		 : kind == PACKAGE_ZIP ? archive_write_set_format_zip(s->a)
				       : archive_write_set_format_pax_restricted(s->a);
	if (rc == ARCHIVE_OK && kind == PACKAGE_TAR_GZ)
		rc = archive_write_add_filter_gzip(s->a);
	/* No time stamp in the gzip header: the same files, the same bytes. */
	if (rc == ARCHIVE_OK && kind == PACKAGE_TAR_GZ)
		rc = archive_write_set_filter_option(s->a, "gzip", "timestamp", NULL);
	if (rc == ARCHIVE_OK && !dir)
		rc = archive_write_set_bytes_in_last_block(s->a, 1);
	if (rc == ARCHIVE_OK && !dir) {
		what = path ? path : "cannot open the archive";
		rc = path ? archive_write_open_filename(s->a, path)
			  : archive_write_open(s->a, s, NULL, pkg_sink_write_mem, NULL);
	}
	if (rc == ARCHIVE_OK)
		return s;
	if (s->a || dir)
		pkg_sink_fail(s, err, what);
	else
		codec_error_set(err, CODEC_E_INTERNAL, "out of memory");
	if (s->a)
		archive_write_free(s->a);
	problem_text_free(&s->mem);
	dj_free(s);
	return NULL;
}

bool pkg_sink_put(struct pkg_sink *s, const char *path, const char *data, size_t len,
		  bool executable, struct codec_error *err)
{
	struct problem_text full;
	problem_text_init(&full);
	problem_text_printf(&full, "%s%s%s", s->prefix, s->separator, path);
	struct archive_entry *e = archive_entry_new();
	bool ok = !full.failed && e;
	if (!ok) {
		codec_error_set(err, CODEC_E_INTERNAL, "out of memory");
	} else {
		archive_entry_set_pathname(e, full.data);
		archive_entry_set_filetype(e, AE_IFREG);
		archive_entry_set_perm(e, executable ? 0755 : 0644);
		archive_entry_set_size(e, (la_int64_t)len);
		archive_entry_set_mtime(e, PKG_MTIME, 0); /* owner 0: a new entry's */
		ok = archive_write_header(s->a, e) == ARCHIVE_OK &&
		     (len == 0 || archive_write_data(s->a, data, len) == (la_ssize_t)len) &&
		     archive_write_finish_entry(s->a) == ARCHIVE_OK;
		if (!ok)
			pkg_sink_fail(s, err, full.data);
	}
	if (e)
		archive_entry_free(e);
	problem_text_free(&full);
	return ok;
}

enum codec_status pkg_sink_close(struct pkg_sink *s, bool ok, char **data, size_t *len,
				 struct codec_error *err)
{
	if (archive_write_close(s->a) != ARCHIVE_OK && ok) {
		pkg_sink_fail(s, err, "cannot finish the archive");
		ok = false;
	}
	archive_write_free(s->a);
	if (ok && s->mem.failed) {
		codec_error_set(err, CODEC_E_INTERNAL, "out of memory");
		ok = false;
	}
	if (ok && data) {
		*data = s->mem.data; /* handed over: not freed below */
		*len = s->mem.len;
		problem_text_init(&s->mem);
	}
	problem_text_free(&s->mem);
	dj_free(s);
	return ok ? CODEC_OK : CODEC_E_INTERNAL;
}
