/*
 * The loading seam: libraries that only some subcommands need
 * (libmicrohttpd, GnuTLS, libarchive) are not linked into the program but
 * opened with dlopen() by the subcommands that use them, so that `solve`,
 * `check` and `generate` start without loading, relocating and
 * initialising them. Each library has one file (src/http/mhd_dl.c,
 * src/http/gnutls_dl.c, src/package/archive_dl.c) with a table of function
 * pointers typed after the library's own declarations and a header that
 * maps the library's names onto the table, so that call sites read as
 * plain calls.
 *
 * A subcommand loads what it needs up front with dl_library_load() and
 * exits 2 with the message when that fails. A call through a table that
 * was not loaded yet loads it first (dl_library_need()), so a caller that
 * did not load up front (a test) still works.
 */
#ifndef DROPJUDGE_MEM_DL_H
#define DROPJUDGE_MEM_DL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

/* A symbol to look up: its name, and where in the table its address goes. */
struct dl_sym {
	const char *name;
	size_t offset; /* of its pointer in the library's table */
};

/* An optional library and its table. Statically initialised, never freed. */
struct dl_library {
	const char *soname;	   /* e.g. "libmicrohttpd.so.12", from the build */
	const struct dl_sym *syms; /* every symbol the program calls */
	size_t nsyms;
	void *table; /* the struct of pointers that syms fill */
	pthread_mutex_t lock;
	bool tried;	 /* under lock: a load was attempted */
	int loaded;	 /* 1 once every symbol is in the table (atomic) */
	char error[320]; /* under lock: why the load failed */
};

/* Initialiser of a struct dl_library. */
#define DL_LIBRARY(soname_, syms_, table_)                                                         \
	{                                                                                          \
		.soname = (soname_), .syms = (syms_), .nsyms = sizeof(syms_) / sizeof((syms_)[0]), \
		.table = (table_), .lock = PTHREAD_MUTEX_INITIALIZER                               \
	}

/*
 * Opens lib and fills its table, once; any thread, any number of times.
 * Returns 0, or -1 with the reason in err ("cannot load
 * libmicrohttpd.so.12: ...", "libmicrohttpd.so.12 has no MHD_start_daemon:
 * ..."); a failed load is not tried again. The library stays loaded.
 */
int dl_library_load(struct dl_library *lib, char *err, size_t errlen);

/* dl_library_load(), and on failure "dropjudge: REASON" on stderr and exit
 * status 2. For calls through a table that nobody loaded up front. */
void dl_library_need(struct dl_library *lib);

/* Whether lib's table is filled. */
static inline bool dl_library_loaded(const struct dl_library *lib)
{
	return __atomic_load_n(&lib->loaded, __ATOMIC_ACQUIRE) != 0;
}

/*
 * The declarations that go with a library's table `struct NAME` (its
 * header defines the struct): NAME_table and NAME_library (defined in its
 * .c with DL_LIBRARY), NAME_load(err, errlen) to load it now (0, or -1
 * with the reason), and NAME(), the table, loaded first if it is not yet.
 */
#define DL_LIBRARY_ACCESSORS(NAME)                                                                 \
	extern struct NAME NAME##_table;                                                           \
	extern struct dl_library NAME##_library;                                                   \
	static inline int NAME##_load(char *err, size_t errlen)                                    \
	{                                                                                          \
		return dl_library_load(&NAME##_library, err, errlen);                              \
	}                                                                                          \
	static inline const struct NAME *NAME(void)                                                \
	{                                                                                          \
		if (__builtin_expect(!dl_library_loaded(&NAME##_library), 0))                      \
			dl_library_need(&NAME##_library);                                          \
		return &NAME##_table;                                                              \
	}

#endif
