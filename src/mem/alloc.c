/* The allocation seam (alloc.h): three function pointers, the C library's by default, and the
 * calloc and strdup built on them. */
#include "mem/alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static dj_malloc_fn alloc_malloc = malloc;
static dj_realloc_fn alloc_realloc = realloc;
static dj_free_fn alloc_free = free;

void *dj_malloc(size_t size)
{
	return alloc_malloc(size ? size : 1);
}

void *dj_calloc(size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		return NULL;
	void *p = dj_malloc(count * size);
	if (p)
		memset(p, 0, count * size);
	return p;
}

void *dj_realloc(void *ptr, size_t size)
{
	return alloc_realloc(ptr, size ? size : 1);
}

void dj_free(void *ptr)
{
	alloc_free(ptr);
}

char *dj_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = dj_malloc(n);
	if (p)
		memcpy(p, s, n);
	return p;
}

void dj_free_secret(void *p, size_t size)
{
	if (!p)
		return;
	explicit_bzero(p, size);
	dj_free(p);
}

void *dj_zalloc(void *opaque, unsigned items, unsigned size)
{
	(void)opaque;
	return dj_calloc(items, size);
}

void dj_zfree(void *opaque, void *p)
{
	(void)opaque;
	dj_free(p);
}

void dj_alloc_set(dj_malloc_fn m, dj_realloc_fn r, dj_free_fn f)
{
	alloc_malloc = m ? m : malloc;
	alloc_realloc = r ? r : realloc;
	alloc_free = f ? f : free;
}
