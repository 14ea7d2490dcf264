/* The pool of workers.h: a FIFO of jobs under one mutex and condvar, and a fixed set of threads. */
#define _GNU_SOURCE /* syscall(SYS_gettid) */
#include "http/workers.h"
#include "mem/alloc.h"

#include <malloc.h>
#include <pthread.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "codec/error.h"
#include "http/clock.h"

/* How much nicer than the event loops a worker is. */
#define WORKERS_NICE 10

/* How long after the last request asking for a trim the pool trims. */
#define WORKERS_TRIM_DELAY_MS 100

struct http_workers {
	pthread_mutex_t lock;	       /* guards the queue and stopping */
	pthread_cond_t ready;	       /* a job was queued, or stopping was set */
	STAILQ_HEAD(, http_job) queue; /* jobs in the order they run */
	bool stopping;		       /* http_workers_stop() was called: no more jobs */
	bool trim;		       /* memory should be given back when a worker is free */
	long long trim_at;	       /* ... at this http_clock_ns(), if still asked */
	unsigned nthreads;	       /* threads started */
	pthread_t threads[];	       /* nthreads entries */
};

static void *workers_main(void *arg)
{
	struct http_workers *w = arg;
	/* Linux: the nice value of one thread (its own task). */
	setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), WORKERS_NICE);
	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (STAILQ_EMPTY(&w->queue) && !w->stopping && !w->trim)
			pthread_cond_wait(&w->ready, &w->lock);
		struct http_job *job = STAILQ_FIRST(&w->queue);
		if (!job && w->trim && !w->stopping && http_clock_ns() < w->trim_at) {
			struct timespec at = {.tv_sec = (time_t)(w->trim_at / 1000000000),
					      .tv_nsec = (long)(w->trim_at % 1000000000)};
			pthread_cond_timedwait(&w->ready, &w->lock, &at); /* the same clock */
			continue;
		}
		if (job)
			STAILQ_REMOVE_HEAD(&w->queue, next);
		else if (w->trim)
			w->trim = false; /* no job waits: the heap is trimmed now */
		else
			break; /* stopping and nothing left */
		pthread_mutex_unlock(&w->lock);
		if (job)
			job->run(job);
		else
			malloc_trim(0);
		pthread_mutex_lock(&w->lock);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

struct http_workers *http_workers_new(unsigned threads, char *err, size_t errlen)
{
	pthread_condattr_t attr;
	if (threads < 1) {
		codec_format(err, errlen, "no worker threads");
		return NULL;
	}
	struct http_workers *w = dj_calloc(1, sizeof *w + threads * sizeof w->threads[0]);
	if (!w || pthread_condattr_init(&attr) != 0)
		goto out_nomem;
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	int rc = pthread_cond_init(&w->ready, &attr);
	pthread_condattr_destroy(&attr);
	if (rc != 0)
		goto out_nomem;
	if (pthread_mutex_init(&w->lock, NULL) != 0) {
		pthread_cond_destroy(&w->ready);
		goto out_nomem;
	}
	STAILQ_INIT(&w->queue);
	for (; w->nthreads < threads; w->nthreads++) {
		rc = pthread_create(&w->threads[w->nthreads], NULL, workers_main, w);
		if (rc != 0) {
			codec_format(err, errlen, "cannot start worker threads: %s", strerror(rc));
			http_workers_free(w);
			return NULL;
		}
	}
	return w;

out_nomem:
	dj_free(w);
	codec_format(err, errlen, "out of memory");
	return NULL;
}

bool http_workers_submit(struct http_workers *w, struct http_job *job)
{
	pthread_mutex_lock(&w->lock);
	bool taken = !w->stopping;
	if (taken) {
		STAILQ_INSERT_TAIL(&w->queue, job, next);
		pthread_cond_signal(&w->ready);
	}
	pthread_mutex_unlock(&w->lock);
	return taken;
}

void http_workers_trim(struct http_workers *w)
{
	long long at = http_clock_ns() + WORKERS_TRIM_DELAY_MS * 1000000LL;
	pthread_mutex_lock(&w->lock);
	if (!w->stopping) {
		w->trim_at = at;
		if (!w->trim) {
			w->trim = true;
			pthread_cond_signal(&w->ready);
		}
	}
	pthread_mutex_unlock(&w->lock);
}

void http_workers_stop(struct http_workers *w)
{
	pthread_mutex_lock(&w->lock);
	bool joined = w->stopping; /* by an earlier call */
	w->stopping = true;
	pthread_cond_broadcast(&w->ready);
	pthread_mutex_unlock(&w->lock);
	if (joined)
		return;
	for (unsigned i = 0; i < w->nthreads; i++)
		pthread_join(w->threads[i], NULL);
}

void http_workers_free(struct http_workers *w)
{
	if (!w)
		return;
	http_workers_stop(w);
	pthread_cond_destroy(&w->ready);
	pthread_mutex_destroy(&w->lock);
	dj_free(w);
}
