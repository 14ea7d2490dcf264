/*
 * Unit tests of the loading seam (mem/dl.h) and of the three tables built
 * on it: a library that is not there and a symbol that is not in it are
 * reported by name, and every table the program uses loads and is complete.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "http/gnutls_dl.h"
#include "http/mhd_dl.h"
#include "mem/dl.h"
#include "package/archive_dl.h"

struct one_fn {
	void (*fn)(void);
};

static struct one_fn missing_table, nosym_table;
static const struct dl_sym missing_syms[] = {{"nothing", offsetof(struct one_fn, fn)}};
static const struct dl_sym nosym_syms[] = {
    {"dropjudge_no_such_function", offsetof(struct one_fn, fn)}};

static void dl_should_name_a_library_that_cannot_be_loaded(void **state)
{
	(void)state;
	static struct dl_library lib =
	    DL_LIBRARY("libdropjudge-absent.so.0", missing_syms, &missing_table);
	char err[512];
	assert_int_equal(dl_library_load(&lib, err, sizeof err), -1);
	assert_non_null(strstr(err, "cannot load libdropjudge-absent.so.0"));
	assert_false(dl_library_loaded(&lib));
	/* not tried again, same answer */
	err[0] = '\0';
	assert_int_equal(dl_library_load(&lib, err, sizeof err), -1);
	assert_non_null(strstr(err, "cannot load libdropjudge-absent.so.0"));
	assert_null(missing_table.fn);
}

static void dl_should_name_a_symbol_the_library_lacks(void **state)
{
	(void)state;
	static struct dl_library lib = DL_LIBRARY("libz.so.1", nosym_syms, &nosym_table);
	char err[512];
	assert_int_equal(dl_library_load(&lib, err, sizeof err), -1);
	assert_non_null(strstr(err, "libz.so.1 has no dropjudge_no_such_function"));
	assert_false(dl_library_loaded(&lib));
}

/* Every pointer of a loaded table is set. */
static void assert_table_full(const void *table, size_t size)
{
	const char *p = table;
	for (size_t at = 0; at + sizeof(void *) <= size; at += sizeof(void *)) {
		void *ptr;
		memcpy(&ptr, p + at, sizeof ptr);
		assert_non_null(ptr);
	}
}

static void dl_should_load_every_table_the_program_uses(void **state)
{
	(void)state;
	char err[512] = "";
	assert_int_equal(mhd_dl_load(err, sizeof err), 0);
	assert_int_equal(gnutls_dl_load(err, sizeof err), 0);
	assert_int_equal(archive_dl_load(err, sizeof err), 0);
	assert_table_full(&mhd_dl_table, sizeof mhd_dl_table);
	assert_table_full(&gnutls_dl_table, sizeof gnutls_dl_table);
	assert_table_full(&archive_dl_table, sizeof archive_dl_table);
	/* calls through the tables reach the libraries */
	assert_non_null(strstr(gnutls_strerror(GNUTLS_E_AGAIN), "again"));
	assert_int_equal(MHD_is_feature_supported(MHD_FEATURE_TLS), MHD_YES);
	struct archive *a = archive_write_new();
	assert_non_null(a);
	assert_int_equal(archive_write_free(a), ARCHIVE_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(dl_should_name_a_library_that_cannot_be_loaded),
	    cmocka_unit_test(dl_should_name_a_symbol_the_library_lacks),
	    cmocka_unit_test(dl_should_load_every_table_the_program_uses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
