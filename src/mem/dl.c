/*
 * The loading seam (see dl.h): dlopen() and dlsym() into a library's table.
 */
#include "mem/dl.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fills lib->table, or lib->error; under lib->lock. */
static void dl_open(struct dl_library *lib)
{
	void *handle = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		snprintf(lib->error, sizeof lib->error, "cannot load %s: %s", lib->soname,
			 dlerror());
		return;
	}
	for (size_t i = 0; i < lib->nsyms; i++) {
		dlerror();
		void *sym = dlsym(handle, lib->syms[i].name);
		if (!sym) {
			const char *why = dlerror();
			snprintf(lib->error, sizeof lib->error, "%s has no %s: %s", lib->soname,
				 lib->syms[i].name, why ? why : "a null address");
			dlclose(handle);
			return;
		}
		memcpy((char *)lib->table + lib->syms[i].offset, &sym, sizeof sym);
	}
	__atomic_store_n(&lib->loaded, 1, __ATOMIC_RELEASE);
}

int dl_library_load(struct dl_library *lib, char *err, size_t errlen)
{
	if (dl_library_loaded(lib))
		return 0;
	pthread_mutex_lock(&lib->lock);
	if (!lib->tried) {
		lib->tried = true;
		dl_open(lib);
	}
	if (!dl_library_loaded(lib) && errlen > 0)
		snprintf(err, errlen, "%s", lib->error);
	pthread_mutex_unlock(&lib->lock);
	return dl_library_loaded(lib) ? 0 : -1;
}

void dl_library_need(struct dl_library *lib)
{
	char err[sizeof lib->error];
	if (dl_library_load(lib, err, sizeof err) != 0) {
		fprintf(stderr, "dropjudge: %s\n", err);
		exit(2);
	}
}
