/* The cache of cache.h: a list in order of last use under one lock, scanned whole (a few dozen
 * packages fill it); the budget: one atomic count, raised by a compare-and-swap so that two
 * threads cannot both pass it with the last bytes. */
#include "http/cache.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#include "mem/alloc.h"

/* One kept answer, its key and body in the same block. */
struct cache_entry {
	TAILQ_ENTRY(cache_entry) link; /* in order of last use, most recent first */
	struct route_response resp;    /* body after the key; no stream */
	char key[];
};

struct http_cache {
	pthread_mutex_t lock;			  /* guards everything below */
	size_t cap;				  /* bytes of bodies kept at most */
	size_t bytes;				  /* bytes of bodies kept now */
	uint64_t hits;				  /* answers found */
	uint64_t misses;			  /* answers looked for and not found */
	TAILQ_HEAD(cache_list, cache_entry) used; /* most recently used first */
};

struct http_cache *http_cache_new(size_t bytes)
{
	struct http_cache *c = dj_calloc(1, sizeof *c);
	if (!c || pthread_mutex_init(&c->lock, NULL) != 0) {
		dj_free(c);
		return NULL;
	}
	c->cap = bytes;
	TAILQ_INIT(&c->used);
	return c;
}

/* Frees every entry of `list`, which is left empty. */
static void cache_list_free(struct cache_list *list)
{
	for (struct cache_entry *e; (e = TAILQ_FIRST(list));) {
		TAILQ_REMOVE(list, e, link);
		dj_free(e);
	}
}

void http_cache_free(struct http_cache *c)
{
	if (!c)
		return;
	cache_list_free(&c->used);
	pthread_mutex_destroy(&c->lock);
	dj_free(c);
}

/* Appends s to buf at *at, escaping the separators; false when it does not fit. */
static bool cache_key_put(char *buf, size_t size, size_t *at, const char *s)
{
	for (; *s; s++) {
		bool esc = *s == '\n' || *s == '&' || *s == '=' || *s == '\\';
		if (*at + (esc ? 2 : 1) >= size)
			return false;
		if (esc)
			buf[(*at)++] = '\\';
		buf[(*at)++] = *s;
	}
	buf[*at] = '\0';
	return true;
}

/* qsort order of parameters: by key, then value. */
static int cache_param_cmp(const void *a, const void *b)
{
	const struct route_param *x = a, *y = b;
	int d = strcmp(x->key, y->key);
	return d ? d : strcmp(x->value, y->value);
}

bool http_cache_key(const struct route_request *req, const char *accept, char *buf, size_t size)
{
	struct route_param params[ROUTE_MAX_PARAMS];
	size_t at = 0;
	if (!req->entry || size < 1)
		return false;
	buf[0] = '\0';
	memcpy(params, req->params, req->nparams * sizeof params[0]);
	qsort(params, req->nparams, sizeof params[0], cache_param_cmp);
	const char *head[] = {req->entry->name, accept ? accept : "",
			      req->origin ? req->origin : ""};
	for (size_t i = 0; i < 3; i++)
		if (!cache_key_put(buf, size, &at, head[i]) || !cache_key_put(buf, size, &at, "\n"))
			return false;
	for (size_t i = 0; i < req->nparams; i++)
		if (!cache_key_put(buf, size, &at, params[i].key) ||
		    !cache_key_put(buf, size, &at, "=") ||
		    !cache_key_put(buf, size, &at, params[i].value) ||
		    !cache_key_put(buf, size, &at, "&"))
			return false;
	return true;
}

/* The entry under key, or NULL. Under the lock. */
static struct cache_entry *cache_find(struct http_cache *c, const char *key)
{
	struct cache_entry *e;
	TAILQ_FOREACH(e, &c->used, link)
		if (strcmp(e->key, key) == 0)
			return e;
	return NULL;
}

bool http_cache_get(struct http_cache *c, const char *key, struct route_response *resp)
{
	pthread_mutex_lock(&c->lock);
	struct cache_entry *e = cache_find(c, key);
	char *body = e ? dj_malloc(e->resp.body_len) : NULL;
	if (!e || !body) {
		c->misses++;
		pthread_mutex_unlock(&c->lock);
		return false;
	}
	c->hits++;
	TAILQ_REMOVE(&c->used, e, link);
	TAILQ_INSERT_HEAD(&c->used, e, link);
	*resp = e->resp;
	memcpy(body, e->resp.body, e->resp.body_len);
	resp->body = body;
	pthread_mutex_unlock(&c->lock);
	return true;
}

void http_cache_put(struct http_cache *c, const char *key, const struct route_response *resp)
{
	if (resp->status != 200 || !resp->body || resp->body_static || resp->stream.read ||
	    resp->body_len > c->cap)
		return;
	size_t key_len = strlen(key) + 1;
	struct cache_entry *e = dj_malloc(sizeof *e + key_len + resp->body_len);
	if (!e)
		return;
	memcpy(e->key, key, key_len);
	e->resp = *resp;
	e->resp.body = e->key + key_len;
	memcpy(e->resp.body, resp->body, resp->body_len);
	pthread_mutex_lock(&c->lock);
	if (cache_find(c, key)) { /* another request built it meanwhile */
		pthread_mutex_unlock(&c->lock);
		dj_free(e);
		return;
	}
	struct cache_list gone = TAILQ_HEAD_INITIALIZER(gone); /* freed outside the lock */
	struct cache_entry *last;
	while ((last = TAILQ_LAST(&c->used, cache_list)) && c->bytes + resp->body_len > c->cap) {
		TAILQ_REMOVE(&c->used, last, link);
		c->bytes -= last->resp.body_len;
		TAILQ_INSERT_TAIL(&gone, last, link);
	}
	TAILQ_INSERT_HEAD(&c->used, e, link);
	c->bytes += resp->body_len;
	pthread_mutex_unlock(&c->lock);
	cache_list_free(&gone);
}

void http_cache_figures(struct http_cache *c, struct http_metrics_held *h)
{
	pthread_mutex_lock(&c->lock);
	h->cache_hits = c->hits;
	h->cache_misses = c->misses;
	h->cache_bytes = c->bytes;
	pthread_mutex_unlock(&c->lock);
}

struct http_budget {
	atomic_size_t held; /* bytes of answers kept now */
	size_t total;	    /* the budget, bytes, >= 1 */
};

struct http_budget *http_budget_new(size_t bytes)
{
	struct http_budget *b = dj_calloc(1, sizeof *b);
	if (!b)
		return NULL;
	atomic_init(&b->held, 0);
	b->total = bytes;
	return b;
}

void http_budget_free(struct http_budget *b)
{
	dj_free(b);
}

bool http_budget_take(struct http_budget *b, size_t n)
{
	size_t held = atomic_load_explicit(&b->held, memory_order_relaxed);
	do {
		if (n >= HTTP_BUDGET_SMALL && (n > b->total || held > b->total - n))
			return false;
	} while (!atomic_compare_exchange_weak_explicit(
	    &b->held, &held, held + n, memory_order_relaxed, memory_order_relaxed));
	return true;
}

void http_budget_give(struct http_budget *b, size_t n)
{
	atomic_fetch_sub_explicit(&b->held, n, memory_order_relaxed);
}

size_t http_budget_held(struct http_budget *b)
{
	return atomic_load_explicit(&b->held, memory_order_relaxed);
}

size_t http_budget_total(const struct http_budget *b)
{
	return b->total;
}
