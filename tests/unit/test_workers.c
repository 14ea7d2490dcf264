/*
 * Unit tests of the worker pool (http/workers.h): every job submitted runs
 * exactly once, in the order queued when there is one worker; stopping
 * runs the jobs still queued and refuses new ones; a trim request is
 * served without a job, after its delay, and leaves every thread working.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "http/workers.h"

#define JOBS 200

struct counted {
	struct http_job job; /* first: the pool hands this back */
	atomic_int *runs;    /* times each job ran, indexed by id */
	atomic_int *order;   /* next position in `seen` */
	int *seen;	     /* ids in the order they ran */
	int id;		     /* this job's index */
	useconds_t sleep_us; /* work to simulate */
};

static void counted_run(struct http_job *job)
{
	struct counted *c = (struct counted *)job;
	if (c->sleep_us)
		usleep(c->sleep_us);
	atomic_fetch_add(&c->runs[c->id], 1);
	c->seen[atomic_fetch_add(c->order, 1)] = c->id;
}

static void run_all(unsigned threads, useconds_t sleep_us, bool check_order)
{
	static struct counted jobs[JOBS];
	static atomic_int runs[JOBS];
	static int seen[JOBS];
	atomic_int order;
	char err[128];

	atomic_init(&order, 0);
	struct http_workers *w = http_workers_new(threads, err, sizeof err);
	assert_non_null(w);
	for (int i = 0; i < JOBS; i++) {
		atomic_init(&runs[i], 0);
		jobs[i] = (struct counted){.job = {.run = counted_run},
					   .runs = runs,
					   .order = &order,
					   .seen = seen,
					   .id = i,
					   .sleep_us = sleep_us};
		assert_true(http_workers_submit(w, &jobs[i].job));
	}
	http_workers_trim(w);
	http_workers_stop(w); /* runs what is still queued */
	assert_int_equal(atomic_load(&order), JOBS);
	for (int i = 0; i < JOBS; i++) {
		assert_int_equal(atomic_load(&runs[i]), 1);
		if (check_order)
			assert_int_equal(seen[i], i);
	}
	struct counted late = {.job = {.run = counted_run}};
	assert_false(http_workers_submit(w, &late.job));
	http_workers_stop(w); /* idempotent */
	http_workers_free(w);
}

static void workers_should_run_every_job_once_in_order_with_one_thread(void **state)
{
	(void)state;
	run_all(1, 0, true);
}

static void workers_should_run_every_job_once_with_several_threads(void **state)
{
	(void)state;
	run_all(4, 100, false);
}

/* A job that waits (up to 2 s) until `want` jobs of its kind have started. */
struct meeting {
	struct http_job job; /* first: the pool hands this back */
	atomic_int *started;
	int want;
	bool met;
};

static void meeting_run(struct http_job *job)
{
	struct meeting *m = (struct meeting *)job;
	atomic_fetch_add(m->started, 1);
	for (int i = 0; i < 2000 && atomic_load(m->started) < m->want; i++)
		usleep(1000);
	m->met = atomic_load(m->started) >= m->want;
}

static void workers_should_keep_every_thread_through_a_delayed_trim(void **state)
{
	(void)state;
	char err[128];
	struct http_workers *w = http_workers_new(3, err, sizeof err);
	assert_non_null(w);
	/* asked twice: the second call moves the trim on; then it is due and
	 * one thread trims while the others wake and must go on waiting */
	http_workers_trim(w);
	usleep(30000);
	http_workers_trim(w);
	usleep(300000);
	/* three jobs that can only all finish on three live threads */
	atomic_int started;
	atomic_init(&started, 0);
	struct meeting m[3];
	for (int i = 0; i < 3; i++) {
		m[i] =
		    (struct meeting){.job = {.run = meeting_run}, .started = &started, .want = 3};
		assert_true(http_workers_submit(w, &m[i].job));
	}
	http_workers_stop(w);
	for (int i = 0; i < 3; i++)
		assert_true(m[i].met);
	http_workers_free(w);
}

static void workers_should_refuse_zero_threads(void **state)
{
	(void)state;
	char err[128] = "";
	assert_null(http_workers_new(0, err, sizeof err));
	assert_true(err[0] != '\0');
	http_workers_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(workers_should_run_every_job_once_in_order_with_one_thread),
	    cmocka_unit_test(workers_should_run_every_job_once_with_several_threads),
	    cmocka_unit_test(workers_should_refuse_zero_threads),
	    cmocka_unit_test(workers_should_keep_every_thread_through_a_delayed_trim),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
