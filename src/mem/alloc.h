/*
 * The allocation seam: every allocation of dropjudge's own code and, through
 * json_set_alloc_funcs(), of jansson goes through these functions, so that a
 * test can make the Nth allocation fail (dj_alloc_set()). Same contracts as
 * malloc, calloc, realloc, free and strdup; free blocks with dj_free().
 */
#ifndef DROPJUDGE_MEM_ALLOC_H
#define DROPJUDGE_MEM_ALLOC_H

#include <stddef.h>

void *dj_malloc(size_t size);
void *dj_calloc(size_t count, size_t size);
void *dj_realloc(void *ptr, size_t size);
void dj_free(void *ptr);
char *dj_strdup(const char *s);

/* Overwrites p[0..size) with zeros in a way the compiler keeps, then frees
 * p: for keys and tokens. NULL is ignored. */
void dj_free_secret(void *p, size_t size);

/* zlib's zalloc and zfree (opaque unused): dj_calloc() and dj_free(). */
void *dj_zalloc(void *opaque, unsigned items, unsigned size);
void dj_zfree(void *opaque, void *p);

typedef void *(*dj_malloc_fn)(size_t size);
typedef void *(*dj_realloc_fn)(void *ptr, size_t size);
typedef void (*dj_free_fn)(void *ptr);

/* For tests: installs the functions every dj_ allocation calls (NULL: the
 * C library's), while no other thread allocates. */
void dj_alloc_set(dj_malloc_fn m, dj_realloc_fn r, dj_free_fn f);

#endif
