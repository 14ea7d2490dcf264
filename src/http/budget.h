/*
 * The budget of answer bytes held in memory: every answer body the server
 * has built and not yet sent whole (a picture, a trace, a batch, a
 * package) holds its bytes against one global count, from the moment it
 * is ready until libmicrohttpd is done with it. Readers that never read
 * keep their answers for as long as they stay, so without a bound a few
 * hundred connections could make the server hold gigabytes. Past the
 * budget a large answer is not kept: the request gets 503 with
 * Retry-After, as the busy answer (heavy.h). Small answers (under
 * HTTP_BUDGET_SMALL bytes) are counted but always kept, so that probes and
 * errors are never refused for memory others hold.
 */
#ifndef DROPJUDGE_HTTP_BUDGET_H
#define DROPJUDGE_HTTP_BUDGET_H

#include <stdbool.h>
#include <stddef.h>

/* Answers smaller than this are always kept (their bytes still count). */
#define HTTP_BUDGET_SMALL ((size_t)65536)

struct http_budget;

/* A budget of `bytes` (>= 1). NULL when out of memory. */
struct http_budget *http_budget_new(size_t bytes);

/* Frees b; NULL is ignored. Nothing may hold bytes of it any more. */
void http_budget_free(struct http_budget *b);

/*
 * Takes n bytes: true, or false (nothing taken) when n is at least
 * HTTP_BUDGET_SMALL and the bytes held would pass the budget. Any thread.
 */
bool http_budget_take(struct http_budget *b, size_t n);

/* Gives back n bytes taken by http_budget_take(). Any thread. */
void http_budget_give(struct http_budget *b, size_t n);

/* Bytes held now, and the budget. */
size_t http_budget_held(struct http_budget *b);
size_t http_budget_total(const struct http_budget *b);

#endif
