/* The budget of budget.h: one atomic count, raised by a compare-and-swap
 * so that two threads cannot both pass it with the last bytes. */
#include "http/budget.h"

#include <stdatomic.h>

#include "mem/alloc.h"

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
