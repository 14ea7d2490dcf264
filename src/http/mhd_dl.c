/*
 * The table of libmicrohttpd (see http/mhd_dl.h), opened by the soname the build
 * read from the library it compiled against.
 */
#define MHD_DL_TABLE_ITSELF
#include "http/mhd_dl.h"

#include <stddef.h>

#ifndef DJ_MHD_SONAME
#error "DJ_MHD_SONAME is not defined: the Makefile reads it from the library's SONAME"
#endif

struct mhd_dl mhd_dl_table;

#define MHD_DL_ENTRY(name) {#name, offsetof(struct mhd_dl, name)},
static const struct dl_sym mhd_dl_syms[] = {MHD_DL_SYMS(MHD_DL_ENTRY)};

struct dl_library mhd_dl_library = DL_LIBRARY(DJ_MHD_SONAME, mhd_dl_syms, &mhd_dl_table);
