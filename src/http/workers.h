/* The worker pool: threads at a lower priority (nice +10) that run the requests whose work is
 * large, so that the event loops keep answering the others. The server suspends such a request's
 * connection and hands it here; its job resumes the connection when the answer is ready. */
#ifndef DROPJUDGE_HTTP_WORKERS_H
#define DROPJUDGE_HTTP_WORKERS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/queue.h>

/* A unit of work, owned by the caller and embedded in its request state;
 * the pool only links it. run() is called once, on a worker thread. */
struct http_job {
	STAILQ_ENTRY(http_job) next; /* queue link, the pool's */
	void (*run)(struct http_job *job);
};

struct http_workers;

/* Starts `threads` (>= 1) workers; NULL with the reason in err on failure. */
struct http_workers *http_workers_new(unsigned threads, char *err, size_t errlen);

/* Queues a job (run in order); false, not taken, once stopping. */
bool http_workers_submit(struct http_workers *w, struct http_job *job);

/* Asks a free worker to malloc_trim() once no job waits and no other call
 * has come for 100 ms (a steady load keeps its heap); cheap. */
void http_workers_trim(struct http_workers *w);

/* Stops taking jobs, runs those queued and joins the threads; the pool
 * stays valid until http_workers_free(). Idempotent; one thread. */
void http_workers_stop(struct http_workers *w);

/* Stops the pool (when not yet stopped) and frees it. NULL is ignored. */
void http_workers_free(struct http_workers *w);

#endif
