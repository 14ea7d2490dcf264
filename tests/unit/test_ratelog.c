/*
 * Unit tests of the rate-limited error log (http/ratelog.h), with stderr
 * sent to a temporary file: a burst of lines writes RATELOG_BURST of them
 * and counts the rest, and the count is written once, as one line, when a
 * second has passed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "http/ratelog.h"

/* Lines of `path` that contain `needle`. */
static int count_lines(const char *path, const char *needle)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char line[600];
	int n = 0;
	while (fgets(line, sizeof line, f))
		n += strstr(line, needle) != NULL;
	fclose(f);
	return n;
}

static void ratelog_should_write_a_burst_then_count_the_rest_once_a_second(void **state)
{
	(void)state;
	char path[] = "/tmp/dropjudge-ratelog-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	fflush(stderr);
	assert_non_null(freopen(path, "w", stderr));

	unsigned long long before = http_ratelog_suppressed_total();
	for (int i = 0; i < 500; i++)
		http_ratelog_event("server", "bad request %d\n", i);
	http_ratelog_tick(); /* within the second: the count waits */
	fflush(stderr);
	assert_int_equal(count_lines(path, "dropjudge: bad request"), RATELOG_BURST);
	assert_int_equal(http_ratelog_suppressed_total() - before, 500 - RATELOG_BURST);

	sleep(1);
	http_ratelog_tick();
	http_ratelog_tick(); /* nothing new: no second count line */
	fflush(stderr);
	assert_int_equal(count_lines(path, "log lines suppressed"), 1);
	char expect[64];
	snprintf(expect, sizeof expect, "dropjudge: %d log lines suppressed", 500 - RATELOG_BURST);
	assert_int_equal(count_lines(path, expect), 1);
	/* A new second has a new budget. */
	http_ratelog_event("server", "after the pause");
	fflush(stderr);
	assert_int_equal(count_lines(path, "dropjudge: after the pause"), 1);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(ratelog_should_write_a_burst_then_count_the_rest_once_a_second),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
