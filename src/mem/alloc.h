/*
 * The allocation seam: every allocation of dropjudge's own code (codec,
 * route, http, main) and, through json_set_alloc_funcs(dj_malloc,
 * dj_free), of jansson goes through these functions. They call the C
 * library's allocator unless a test installed its own functions with
 * dj_alloc_set(), which is how the chaos test makes the Nth allocation
 * fail anywhere on the request path. The core does not allocate.
 *
 * Same contracts as malloc, calloc, realloc, free and strdup: NULL on
 * failure (and for dj_realloc the block is left as it was), dj_free(NULL)
 * does nothing, and a block from any of them is released with dj_free().
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

typedef void *(*dj_malloc_fn)(size_t size);
typedef void *(*dj_realloc_fn)(void *ptr, size_t size);
typedef void (*dj_free_fn)(void *ptr);

/*
 * Installs the functions every dj_ allocation calls from now on (NULL
 * restores the C library's). For tests only; call it while no other
 * thread allocates, and free every block with the functions that made it.
 */
void dj_alloc_set(dj_malloc_fn m, dj_realloc_fn r, dj_free_fn f);

#endif
