/*
 * Unit tests of the HTTP layer's clock (src/http/clock.c): milliseconds and
 * nanoseconds agree, and the wall time worked out from a monotonic instant
 * is the wall clock's own, within a few milliseconds, for instants now, in
 * the past and across a second.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <time.h>

#include "http/clock.h"

/* Nanoseconds since the epoch of a timespec. */
static long long ns_of(struct timespec ts)
{
	return (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static long long wall_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return ns_of(ts);
}

/* How far apart two readings of two clocks may be on a busy machine. */
#define SLACK_NS 20000000LL

static void clock_should_give_milliseconds_of_its_nanoseconds(void **state)
{
	(void)state;
	long long ns = http_clock_ns();
	long long ms = http_clock_ms();
	assert_true(ms >= ns / 1000000);
	assert_true(ms - ns / 1000000 < SLACK_NS / 1000000);
}

static void clock_should_give_the_wall_time_of_now(void **state)
{
	(void)state;
	for (int i = 0; i < 1000; i++) {
		long long before = wall_ns();
		struct timespec at = http_clock_wall_at(http_clock_ns());
		long long after = wall_ns();
		assert_in_range(at.tv_nsec, 0, 999999999);
		assert_true(ns_of(at) >= before - SLACK_NS);
		assert_true(ns_of(at) <= after + SLACK_NS);
	}
}

static void clock_should_give_the_wall_time_of_an_earlier_instant(void **state)
{
	(void)state;
	/* Instants a second, a few milliseconds and a nanosecond back: each is
	 * that far behind the wall clock now, its nanoseconds in range. */
	static const long long back_ns[] = {1000000000LL, 3000000LL, 1LL, 999999999LL,
					    HTTP_CLOCK_WALL_REFRESH_NS * 3};
	for (size_t i = 0; i < sizeof back_ns / sizeof back_ns[0]; i++) {
		long long mono = http_clock_ns();
		long long wall = wall_ns();
		struct timespec at = http_clock_wall_at(mono - back_ns[i]);
		assert_in_range(at.tv_nsec, 0, 999999999);
		long long want = wall - back_ns[i];
		assert_true(ns_of(at) >= want - SLACK_NS);
		assert_true(ns_of(at) <= want + SLACK_NS);
	}
}

static void clock_should_keep_the_order_of_instants(void **state)
{
	(void)state;
	long long mono = http_clock_ns();
	long long last = 0;
	for (long long d = 0; d < 2000000000LL; d += 7654321) {
		long long now = ns_of(http_clock_wall_at(mono + d));
		assert_true(now > last);
		last = now;
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(clock_should_give_milliseconds_of_its_nanoseconds),
	    cmocka_unit_test(clock_should_give_the_wall_time_of_now),
	    cmocka_unit_test(clock_should_give_the_wall_time_of_an_earlier_instant),
	    cmocka_unit_test(clock_should_keep_the_order_of_instants),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
