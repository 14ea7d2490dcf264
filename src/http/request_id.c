/*
 * Request ids (see request_id.h): the check of a client's token and the
 * generation of a random one.
 */
#include "http/request_id.h"

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

static bool http_request_id_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == ':' || c == '-';
}

bool http_request_id_is_sane(const char *s)
{
	if (!s || !s[0])
		return false;
	size_t n = 0;
	for (; s[n]; n++)
		if (n >= HTTP_REQUEST_ID_MAX || !http_request_id_char_ok(s[n]))
			return false;
	return true;
}

/* Random bytes fetched from the kernel at once, per thread: one getrandom()
 * call serves this many bytes' worth of ids (a power of two times an id). */
#define REQUEST_ID_POOL 1024

/* A thread's store of kernel random bytes, used up from the front. */
struct request_id_pool {
	size_t used;			      /* bytes of bytes[] handed out */
	unsigned char bytes[REQUEST_ID_POOL]; /* from getrandom() */
};

/*
 * Fills bits (n <= REQUEST_ID_POOL) from the calling thread's pool,
 * refilled from getrandom() when spent. Returns false when the kernel has
 * no random bytes to give (the pool is left empty).
 */
static bool request_id_random(unsigned char *bits, size_t n)
{
	static _Thread_local struct request_id_pool pool = {.used = REQUEST_ID_POOL};
	if (REQUEST_ID_POOL - pool.used < n) {
		if (getrandom(pool.bytes, sizeof pool.bytes, GRND_NONBLOCK) !=
		    (ssize_t)sizeof pool.bytes)
			return false;
		pool.used = 0;
	}
	memcpy(bits, pool.bytes + pool.used, n);
	/* Bytes handed out are wiped: an id is never given twice. */
	memset(pool.bytes + pool.used, 0, n);
	pool.used += n;
	return true;
}

/* "00" to "ff": each byte's two hex digits at once. */
#define HEX_PAIR(h, l) "0123456789abcdef"[h], "0123456789abcdef"[l]
#define HEX_ROW(h)                                                                                 \
	HEX_PAIR(h, 0), HEX_PAIR(h, 1), HEX_PAIR(h, 2), HEX_PAIR(h, 3), HEX_PAIR(h, 4),            \
	    HEX_PAIR(h, 5), HEX_PAIR(h, 6), HEX_PAIR(h, 7), HEX_PAIR(h, 8), HEX_PAIR(h, 9),        \
	    HEX_PAIR(h, 10), HEX_PAIR(h, 11), HEX_PAIR(h, 12), HEX_PAIR(h, 13), HEX_PAIR(h, 14),   \
	    HEX_PAIR(h, 15)
static const char hex_pairs[512] = {
    HEX_ROW(0),	 HEX_ROW(1),  HEX_ROW(2),  HEX_ROW(3),	HEX_ROW(4),  HEX_ROW(5),
    HEX_ROW(6),	 HEX_ROW(7),  HEX_ROW(8),  HEX_ROW(9),	HEX_ROW(10), HEX_ROW(11),
    HEX_ROW(12), HEX_ROW(13), HEX_ROW(14), HEX_ROW(15),
};
#undef HEX_ROW
#undef HEX_PAIR

void http_request_id_generate(char out[HTTP_REQUEST_ID_GENERATED + 1])
{
	static atomic_uint_fast64_t fallback_counter;
	unsigned char bits[HTTP_REQUEST_ID_GENERATED / 2];

	if (!request_id_random(bits, sizeof bits)) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		uint64_t a = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
		uint64_t b = atomic_fetch_add(&fallback_counter, 1);
		for (size_t i = 0; i < 8; i++) {
			bits[i] = (unsigned char)(a >> (8 * i));
			bits[8 + i] = (unsigned char)(b >> (8 * i));
		}
	}
	for (size_t i = 0; i < sizeof bits; i++)
		memcpy(out + 2 * i, hex_pairs + 2 * bits[i], 2);
	out[HTTP_REQUEST_ID_GENERATED] = '\0';
}

void http_request_id_take(const char *header, char out[HTTP_REQUEST_ID_MAX + 1])
{
	if (http_request_id_is_sane(header))
		memcpy(out, header, strlen(header) + 1);
	else
		http_request_id_generate(out);
}
