/*
 * The worker pool: threads that run the requests whose work is large, so
 * that libmicrohttpd's event-loop threads keep reading and answering the
 * others (no head-of-line blocking). The server suspends such a request's
 * connection (MHD_suspend_connection), hands it here, and the job resumes
 * the connection when its answer is ready (libmicrohttpd's pattern for
 * long handlers). Workers run at a lower scheduling priority than the
 * event loops, so that on a busy machine small requests still go first.
 */
#ifndef DROPJUDGE_HTTP_WORKERS_H
#define DROPJUDGE_HTTP_WORKERS_H

#include <stdbool.h>
#include <stddef.h>

/* A unit of work, owned by the caller and embedded in its request state;
 * the pool only links it. run() is called once, on a worker thread. */
struct http_job {
	struct http_job *next; /* queue link, the pool's */
	void (*run)(struct http_job *job);
};

struct http_workers;

/*
 * Starts `threads` (>= 1) workers at a lower priority (nice +10). Returns
 * NULL with the reason in err (errlen bytes) on failure.
 */
struct http_workers *http_workers_new(unsigned threads, char *err, size_t errlen);

/*
 * Queues a job; jobs run in the order queued. Returns false (the job is
 * not taken) once the pool is stopping.
 */
bool http_workers_submit(struct http_workers *w, struct http_job *job);

/*
 * Asks a free worker to give the memory the heap no longer uses back to
 * the system (malloc_trim), once no job is waiting and no other call has
 * come for 100 ms: under a steady load the heap is kept. Cheap to call;
 * the trimming itself never runs on the caller's thread.
 */
void http_workers_trim(struct http_workers *w);

/*
 * Stops taking jobs, runs those still queued and joins the threads; later
 * submits return false. The pool stays valid until http_workers_free().
 * Idempotent; call from one thread.
 */
void http_workers_stop(struct http_workers *w);

/* Stops the pool (when not yet stopped) and frees it. NULL is ignored. */
void http_workers_free(struct http_workers *w);

#endif
