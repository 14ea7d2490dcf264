/*
 * The budget of answer bytes held in memory: every answer body built and
 * not yet sent whole holds its bytes against one count, so that clients
 * that never read cannot make the server hold gigabytes. Past the budget a
 * large answer is replaced by 503; answers under HTTP_BUDGET_SMALL bytes
 * are counted but always kept.
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

/* Takes n bytes: false (nothing taken) when n is at least
 * HTTP_BUDGET_SMALL and the bytes held would pass the budget. */
bool http_budget_take(struct http_budget *b, size_t n);

/* Gives back n bytes taken by http_budget_take(). Any thread. */
void http_budget_give(struct http_budget *b, size_t n);

/* Bytes held now, and the budget. */
size_t http_budget_held(struct http_budget *b);
size_t http_budget_total(const struct http_budget *b);

#endif
