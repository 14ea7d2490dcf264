/* Request ids (request_id.h): the check of a client's and the making of new ones. */
#include "http/request_id.h"

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

bool http_request_id_is_sane(const char *s)
{
	static const char ok[] =
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._:-";
	size_t n = s ? strspn(s, ok) : 0;
	return n > 0 && n <= HTTP_REQUEST_ID_MAX && s[n] == '\0';
}

/* A thread's generator: a 128-bit counter through a keyed permutation
 * (four Feistel rounds), key and start drawn from the kernel once. */
struct request_id_gen {
	uint64_t key[2];
	uint64_t hi, lo; /* the counter */
	bool seeded;
};

/* splitmix64's finaliser: the round function of the permutation. */
static uint64_t request_id_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* Draws key and counter start from the kernel, or should it refuse, from
 * the clock, a process-wide counter and the thread's own address. */
static void request_id_seed(struct request_id_gen *g)
{
	uint64_t seed[4];
	if (getrandom(seed, sizeof seed, GRND_NONBLOCK) != (ssize_t)sizeof seed) {
		static atomic_uint_fast64_t fallback_counter;
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		uint64_t t = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
		seed[0] = request_id_mix(t);
		seed[1] = request_id_mix((uint64_t)(uintptr_t)g ^ 0x9e3779b97f4a7c15u);
		seed[2] = atomic_fetch_add(&fallback_counter, 1) << 32;
		seed[3] = (uint64_t)(uintptr_t)g;
	}
	g->key[0] = seed[0];
	g->key[1] = seed[1];
	g->hi = seed[2];
	g->lo = seed[3];
	g->seeded = true;
}

/* The next 128 bits of the calling thread's generator. */
static void request_id_next(unsigned char bits[16])
{
	static _Thread_local struct request_id_gen gen;
	if (!gen.seeded)
		request_id_seed(&gen);
	uint64_t l = gen.lo, r = gen.hi;
	if (++gen.lo == 0)
		gen.hi++;
	/* A Feistel network is a permutation whatever its round function. */
	r ^= request_id_mix(l + gen.key[0]);
	l ^= request_id_mix(r + gen.key[1]);
	r ^= request_id_mix(l ^ gen.key[0]);
	l ^= request_id_mix(r ^ gen.key[1]);
	memcpy(bits, &l, 8);
	memcpy(bits + 8, &r, 8);
}

/* Eight nibbles, one in each byte of n (0 to 15), as eight lowercase hex
 * digits: '0' + n, and 39 more for 10 to 15 (from '9' + 1 to 'a'). */
static uint64_t request_id_hex8(uint64_t n)
{
	uint64_t letters = ((n + 0x0606060606060606u) & 0x1010101010101010u) >> 4;
	return n + 0x3030303030303030u + letters * 39u;
}

void http_request_id_generate(char out[HTTP_REQUEST_ID_GENERATED + 1])
{
	unsigned char bits[HTTP_REQUEST_ID_GENERATED / 2];
	request_id_next(bits);
	/* each half as its high nibbles, then its low ones */
	for (size_t i = 0; i < 2; i++) {
		uint64_t w;
		memcpy(&w, bits + 8 * i, sizeof w);
		uint64_t hi = request_id_hex8((w >> 4) & 0x0f0f0f0f0f0f0f0fu);
		uint64_t lo = request_id_hex8(w & 0x0f0f0f0f0f0f0f0fu);
		memcpy(out + 16 * i, &hi, sizeof hi);
		memcpy(out + 16 * i + 8, &lo, sizeof lo);
	}
	out[HTTP_REQUEST_ID_GENERATED] = '\0';
}

void http_request_id_take(const char *header, char out[HTTP_REQUEST_ID_MAX + 1])
{
	if (http_request_id_is_sane(header))
		memcpy(out, header, strlen(header) + 1);
	else
		http_request_id_generate(out);
}
