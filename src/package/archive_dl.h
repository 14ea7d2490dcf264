/*
 * libarchive, opened by the subcommands that write problem packages (package,
 * and serve for its package route).
 * Include this header instead of the library's own: it includes them,
 * then maps each name the program calls onto the table of
 * archive_dl.c (see mem/dl.h), which is filled by dlopen() on first use or
 * by archive_dl_load().
 */
#ifndef DROPJUDGE_PACKAGE_ARCHIVE_DL_H
#define DROPJUDGE_PACKAGE_ARCHIVE_DL_H

#include <archive.h>
#include <archive_entry.h>

#include "mem/dl.h"

/* Every function of the library that the program calls, once. */
#define ARCHIVE_DL_SYMS(X)                                                                         \
	X(archive_entry_free)                                                                      \
	X(archive_entry_new)                                                                       \
	X(archive_entry_set_filetype)                                                              \
	X(archive_entry_set_gid)                                                                   \
	X(archive_entry_set_mtime)                                                                 \
	X(archive_entry_set_pathname)                                                              \
	X(archive_entry_set_perm)                                                                  \
	X(archive_entry_set_size)                                                                  \
	X(archive_entry_set_uid)                                                                   \
	X(archive_error_string)                                                                    \
	X(archive_write_add_filter_gzip)                                                           \
	X(archive_write_close)                                                                     \
	X(archive_write_data)                                                                      \
	X(archive_write_disk_new)                                                                  \
	X(archive_write_disk_set_options)                                                          \
	X(archive_write_finish_entry)                                                              \
	X(archive_write_free)                                                                      \
	X(archive_write_header)                                                                    \
	X(archive_write_new)                                                                       \
	X(archive_write_open)                                                                      \
	X(archive_write_open_filename)                                                             \
	X(archive_write_set_bytes_in_last_block)                                                   \
	X(archive_write_set_filter_option)                                                         \
	X(archive_write_set_format_pax_restricted)                                                 \
	X(archive_write_set_format_zip)

#define ARCHIVE_DL_FIELD(name) __typeof__(name) *name;
/* A pointer per symbol, typed as the library declares it. */
struct archive_dl {
	ARCHIVE_DL_SYMS(ARCHIVE_DL_FIELD)
};
#undef ARCHIVE_DL_FIELD

DL_LIBRARY_ACCESSORS(archive_dl)

#ifndef ARCHIVE_DL_TABLE_ITSELF
#define archive_entry_free		      (archive_dl()->archive_entry_free)
#define archive_entry_new		      (archive_dl()->archive_entry_new)
#define archive_entry_set_filetype	      (archive_dl()->archive_entry_set_filetype)
#define archive_entry_set_gid		      (archive_dl()->archive_entry_set_gid)
#define archive_entry_set_mtime		      (archive_dl()->archive_entry_set_mtime)
#define archive_entry_set_pathname	      (archive_dl()->archive_entry_set_pathname)
#define archive_entry_set_perm		      (archive_dl()->archive_entry_set_perm)
#define archive_entry_set_size		      (archive_dl()->archive_entry_set_size)
#define archive_entry_set_uid		      (archive_dl()->archive_entry_set_uid)
#define archive_error_string		      (archive_dl()->archive_error_string)
#define archive_write_add_filter_gzip	      (archive_dl()->archive_write_add_filter_gzip)
#define archive_write_close		      (archive_dl()->archive_write_close)
#define archive_write_data		      (archive_dl()->archive_write_data)
#define archive_write_disk_new		      (archive_dl()->archive_write_disk_new)
#define archive_write_disk_set_options	      (archive_dl()->archive_write_disk_set_options)
#define archive_write_finish_entry	      (archive_dl()->archive_write_finish_entry)
#define archive_write_free		      (archive_dl()->archive_write_free)
#define archive_write_header		      (archive_dl()->archive_write_header)
#define archive_write_new		      (archive_dl()->archive_write_new)
#define archive_write_open		      (archive_dl()->archive_write_open)
#define archive_write_open_filename	      (archive_dl()->archive_write_open_filename)
#define archive_write_set_bytes_in_last_block (archive_dl()->archive_write_set_bytes_in_last_block)
#define archive_write_set_filter_option	      (archive_dl()->archive_write_set_filter_option)
#define archive_write_set_format_pax_restricted                                                    \
	(archive_dl()->archive_write_set_format_pax_restricted)
#define archive_write_set_format_zip (archive_dl()->archive_write_set_format_zip)
#endif

#endif
