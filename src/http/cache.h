/*
 * The cache of built packages: the answers of GET on a resource the route table marks `cached`
 * (a function of the request, up to a second of CPU) kept whole under a key of the resource, its
 * query parameters and the headers that choose the answer, bounded by bytes, least recently used
 * first out. A hit answers GET and HEAD; only GET fills it.
 *
 * And the budget of answer bytes held in memory: every answer body built and not yet sent whole
 * holds its bytes against one count, so that clients that never read cannot make the server hold
 * gigabytes. Past the budget a large answer is replaced by 503; answers under HTTP_BUDGET_SMALL
 * bytes are counted but always kept.
 */
#ifndef DROPJUDGE_HTTP_CACHE_H
#define DROPJUDGE_HTTP_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "http/metrics.h"
#include "route/route.h"

struct http_cache;

/* A cache of at most `bytes` of answer bodies; 0: nothing is kept. NULL when out of memory. */
struct http_cache *http_cache_new(size_t bytes);

/* Frees c and every answer it keeps; NULL is ignored. */
void http_cache_free(struct http_cache *c);

/* The key of req into buf (size bytes, NUL-terminated): false when it does not fit (not cached). */
bool http_cache_key(const struct route_request *req, const char *accept, char *buf, size_t size);

/* Fills *resp with a copy of the answer kept under key, its body owned by
 * resp: false on a miss or out of memory (resp untouched). Counted. */
bool http_cache_get(struct http_cache *c, const char *key, struct route_response *resp);

/* Keeps a copy of resp (a 200 with a plain body) under key, dropping the least recently used to
 * make room; nothing when it does not fit, memory runs out or the key is there already. */
void http_cache_put(struct http_cache *c, const char *key, const struct route_response *resp);

/* Fills the cache's figures of *h: hits and misses since the start, bytes kept now. */
void http_cache_figures(struct http_cache *c, struct http_metrics_held *h);

/* Answers smaller than this are always kept (their bytes still count). */
#define HTTP_BUDGET_SMALL ((size_t)65536)

struct http_budget;

/* A budget of `bytes` (>= 1). NULL when out of memory. */
struct http_budget *http_budget_new(size_t bytes);

/* Frees b; NULL is ignored. Nothing may hold bytes of it any more. */
void http_budget_free(struct http_budget *b);

/* Takes n bytes: false (none taken) when n >= HTTP_BUDGET_SMALL and held would pass the budget. */
bool http_budget_take(struct http_budget *b, size_t n);

/* Gives back n bytes taken by http_budget_take(). Any thread. */
void http_budget_give(struct http_budget *b, size_t n);

/* Bytes held now, and the budget. */
size_t http_budget_held(struct http_budget *b);
size_t http_budget_total(const struct http_budget *b);

#endif
