/*
 * The table of GnuTLS (see http/gnutls_dl.h), opened by the soname the build
 * read from the library it compiled against.
 */
#define GNUTLS_DL_TABLE_ITSELF
#include "http/gnutls_dl.h"

#include <stddef.h>

#ifndef DJ_GNUTLS_SONAME
#error "DJ_GNUTLS_SONAME is not defined: the Makefile reads it from the library's SONAME"
#endif

struct gnutls_dl gnutls_dl_table;

#define GNUTLS_DL_ENTRY(name) {#name, offsetof(struct gnutls_dl, name)},
static const struct dl_sym gnutls_dl_syms[] = {
    GNUTLS_DL_SYMS(GNUTLS_DL_ENTRY){"gnutls_free", offsetof(struct gnutls_dl, gnutls_free_var)},
};

struct dl_library gnutls_dl_library =
    DL_LIBRARY(DJ_GNUTLS_SONAME, gnutls_dl_syms, &gnutls_dl_table);
