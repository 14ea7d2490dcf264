/*
 * The table of libarchive (see package/archive_dl.h), opened by the soname the build
 * read from the library it compiled against.
 */
#define ARCHIVE_DL_TABLE_ITSELF
#include "package/archive_dl.h"

#include <stddef.h>

#ifndef DJ_ARCHIVE_SONAME
#error "DJ_ARCHIVE_SONAME is not defined: the Makefile reads it from the library's SONAME"
#endif

struct archive_dl archive_dl_table;

#define ARCHIVE_DL_ENTRY(name) {#name, offsetof(struct archive_dl, name)},
static const struct dl_sym archive_dl_syms[] = {ARCHIVE_DL_SYMS(ARCHIVE_DL_ENTRY)};

struct dl_library archive_dl_library =
    DL_LIBRARY(DJ_ARCHIVE_SONAME, archive_dl_syms, &archive_dl_table);
