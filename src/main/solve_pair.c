/*
 * The second thread of `solve puyo --lines` (solve_pair.h): one helper
 * thread, woken for each batch by a condition variable, answers the second
 * half while the caller answers the first.
 */
#include "main/solve_pair.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codec/puyo_codec.h"
#include "dropjudge/puyo.h"
#include "mem/alloc.h"

/* Half a batch and its answers. */
struct solve_half {
	const char *s; /* whole lines, each ended by '\n' */
	size_t len;
	char *out; /* answers go to out[0..cap) */
	size_t cap;
	size_t out_len; /* bytes of answers written */
	unsigned lines; /* lines answered */
	bool ok;	/* every line read and its answer fitted */
};

struct solve_pair {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;   /* a job, or stop */
	pthread_cond_t done;   /* the job is answered */
	bool has_job;	       /* under lock: job waits or runs */
	bool stop;	       /* under lock: the thread must end */
	struct solve_half job; /* the helper's half */
	char *out;	       /* its answers, out_cap bytes, owned */
	size_t out_cap;
};

/* Answers the lines of h, stopping at the first that does not read. */
static void half_answer(struct solve_half *h)
{
	size_t at = 0;
	h->out_len = 0;
	h->lines = 0;
	h->ok = false;
	while (at < h->len) {
		const char *s = h->s + at;
		const char *nl = memchr(s, '\n', h->len - at);
		if (!nl)
			return;
		size_t len = (size_t)(nl - s);
		size_t line_len = len > 0 && s[len - 1] == '\r' ? len - 1 : len;
		struct puyo_planes planes;
		if (puyo_lines_read(s, line_len, 0, &planes, NULL) != CODEC_OK ||
		    h->out_len + 3 > h->cap)
			return;
		unsigned chains = puyo_planes_chains(&planes);
		/* at most PUYO_MAX_CHAINS (19): one or two digits */
		if (chains >= 10)
			h->out[h->out_len++] = (char)('0' + chains / 10);
		h->out[h->out_len++] = (char)('0' + chains % 10);
		h->out[h->out_len++] = '\n';
		h->lines++;
		at += len + 1;
	}
	h->ok = true;
}

static void *pair_main(void *arg)
{
	struct solve_pair *p = arg;
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->has_job && !p->stop)
			pthread_cond_wait(&p->wake, &p->lock);
		if (p->stop)
			break;
		pthread_mutex_unlock(&p->lock);
		half_answer(&p->job);
		pthread_mutex_lock(&p->lock);
		p->has_job = false;
		pthread_cond_signal(&p->done);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

struct solve_pair *solve_pair_new(size_t max_batch)
{
	const char *env = getenv("DROPJUDGE_SOLVE_THREADS");
	if ((env && strcmp(env, "1") == 0) || sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return NULL;
	struct solve_pair *p = dj_calloc(1, sizeof *p);
	if (!p)
		return NULL;
	/* A good line is 83 bytes or more and its answer 3 at most. */
	p->out_cap = max_batch / 16 + 64;
	p->out = dj_malloc(p->out_cap);
	if (!p->out)
		goto out_p;
	if (pthread_mutex_init(&p->lock, NULL) != 0)
		goto out_out;
	if (pthread_cond_init(&p->wake, NULL) != 0)
		goto out_lock;
	if (pthread_cond_init(&p->done, NULL) != 0)
		goto out_wake;
	if (pthread_create(&p->thread, NULL, pair_main, p) != 0)
		goto out_done;
	return p;
out_done:
	pthread_cond_destroy(&p->done);
out_wake:
	pthread_cond_destroy(&p->wake);
out_lock:
	pthread_mutex_destroy(&p->lock);
out_out:
	dj_free(p->out);
out_p:
	dj_free(p);
	return NULL;
}

bool solve_pair_answer(struct solve_pair *p, const char *s, size_t len, char *out, size_t cap,
		       size_t *out_len, unsigned *lines)
{
	/* The second half starts after the line end nearest past the middle. */
	const char *nl = memchr(s + len / 2, '\n', len - len / 2);
	if (!nl || (size_t)(nl + 1 - s) == len)
		return false;
	size_t mid = (size_t)(nl + 1 - s);

	pthread_mutex_lock(&p->lock);
	p->job =
	    (struct solve_half){.s = s + mid, .len = len - mid, .out = p->out, .cap = p->out_cap};
	p->has_job = true;
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->lock);

	struct solve_half first = {.s = s, .len = mid, .out = out, .cap = cap};
	half_answer(&first);

	pthread_mutex_lock(&p->lock);
	while (p->has_job)
		pthread_cond_wait(&p->done, &p->lock);
	pthread_mutex_unlock(&p->lock);

	const struct solve_half *second = &p->job;
	if (!first.ok || !second->ok || first.out_len + second->out_len > cap)
		return false;
	memcpy(out + first.out_len, second->out, second->out_len);
	*out_len = first.out_len + second->out_len;
	*lines = first.lines + second->lines;
	return true;
}

void solve_pair_free(struct solve_pair *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	pthread_cond_destroy(&p->done);
	pthread_cond_destroy(&p->wake);
	pthread_mutex_destroy(&p->lock);
	dj_free(p->out);
	dj_free(p);
}
