/*
 * dropjudge-check: `dropjudge check` and `validate` in a program of their own
 * that links only jansson, for judges that start one per test.
 */
#include <string.h>

#include <jansson.h>

#include "dropjudge/version.h"
#include "main/commands.h"
#include "mem/alloc.h"

static const char usage[] =
    "usage: dropjudge-check check --problem P --protocol X ARGS...\n"
    "       dropjudge-check validate --problem P --protocol X [FILE]\n"
    "  X: testlib, kattis, cms or dmoj (validate: testlib or kattis)\n"
    "The checker and validator of 'dropjudge check' and 'dropjudge validate'\n"
    "(the same arguments, exit statuses and output; see 'dropjudge --help'),\n"
    "in a small program for judges that start one per test. Also runs under\n"
    "the names a judge gives a checker or validator (dropjudge(1), JUDGES).\n"
    "Example:\n"
    "  dropjudge-check check --problem puyo --protocol testlib in out ans\n";

int main(int argc, char *argv[])
{
	json_set_alloc_funcs(dj_malloc, dj_free);
	int by_name = check_main_by_name(argc, argv);
	if (by_name >= 0)
		return by_name;
	const char *cmd = argc >= 2 ? argv[1] : "";
	if (strcmp(cmd, "check") == 0)
		return check_main(argc - 2, argv + 2);
	if (strcmp(cmd, "validate") == 0)
		return validate_main(argc - 2, argv + 2);
	if (argc == 2 && (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0)) {
		fputs(usage, stdout);
		return 0;
	}
	if (argc == 2 && strcmp(cmd, "--version") == 0) {
		printf("dropjudge-check " DROPJUDGE_VERSION "\njansson %s\n",
		       jansson_version_str());
		return 0;
	}
	fprintf(stderr, "dropjudge-check: %s%s%s\n%s", argc >= 2 ? "unknown command '" : "",
		argc >= 2 ? cmd : "a command is needed", argc >= 2 ? "'" : "", usage);
	return 2;
}
