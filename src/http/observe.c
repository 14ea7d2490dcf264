/* Request observation (observe.h); ids from a per-thread counter through a keyed permutation. */
#define _GNU_SOURCE /* memmem */

#include "http/observe.h"

#include "dropjudge/judge.h"
#include "codec/decimal.h"
#include "route/status.h"
#include "http/clock.h"
#include "mem/alloc.h"
#include "codec/text.h"

#include <arpa/inet.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/random.h>
#include <time.h>
#include <stdio.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

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
	*g = (struct request_id_gen){
	    .key = {seed[0], seed[1]}, .hi = seed[2], .lo = seed[3], .seeded = true};
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
	/* each half as its high nibbles, then its low ones */
	for (size_t i = 0; i < 2; i++) {
		uint64_t w = i == 0 ? l : r;
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

void http_observe_begin(const struct http_observer *ob, struct http_observed *o, const char *url,
			const char *method, const char *request_id, const char *user_agent)
{
	http_request_id_take(request_id, o->request_id);
	o->start_ns = http_clock_ns();
	o->line = (struct http_access_entry){.start = http_clock_wall_at(o->start_ns),
					     .request_id = o->request_id,
					     .method = method,
					     .path = url,
					     .user_agent = user_agent};
	memset(&o->tally, 0, sizeof o->tally);
	if (ob->metrics)
		http_metrics_request_started(ob->metrics);
}

void http_observe_stamp(const struct http_observed *o, struct route_response *resp)
{
	static const char key[] = ",\"request_id\":\"";
	if (!resp->content_type || strcmp(resp->content_type, PROBLEM_MEDIA_TYPE) != 0 ||
	    !resp->body || resp->body_static)
		return;
	size_t end = resp->body_len;
	while (end > 0 && (resp->body[end - 1] == '\n' || resp->body[end - 1] == ' '))
		end--;
	if (end < 2 || resp->body[end - 1] != '}' ||
	    memmem(resp->body, resp->body_len, key + 1, sizeof key - 2))
		return;
	/* The id is [A-Za-z0-9._:-] only: nothing to escape. */
	size_t idlen = strlen(o->request_id);
	size_t add = sizeof key - 1 + idlen + 1;
	char *body = dj_realloc(resp->body, resp->body_len + add);
	if (!body)
		return;
	memmove(body + end - 1 + add, body + end - 1, resp->body_len - (end - 1));
	memcpy(body + end - 1, key, sizeof key - 1);
	memcpy(body + end - 1 + sizeof key - 1, o->request_id, idlen);
	body[end - 1 + add - 1] = '"';
	resp->body = body;
	resp->body_len += add;
}

void http_observe_answer(struct http_observed *o, unsigned status, const char *route,
			 size_t body_len)
{
	o->line.status = status;
	o->line.route = route;
	/* libmicrohttpd sends no body for HEAD. */
	o->line.bytes_out = o->line.method && codec_text_is(o->line.method, "HEAD") ? 0 : body_len;
}

unsigned char http_client_address(struct MHD_Connection *conn, unsigned char p[16])
{
	const union MHD_ConnectionInfo *info =
	    MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	const struct sockaddr *sa = info ? info->client_addr : NULL;
	if (sa && sa->sa_family == AF_INET) {
		memcpy(p, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, 4);
		return 4;
	}
	if (sa && sa->sa_family == AF_INET6) {
		memcpy(p, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, 16);
		return 16;
	}
	return 0;
}

/* The client's address as text, "-" when unknown; a thread keeps the last
 * it wrote, as the next request most often comes from the same address. */
static void http_observe_client(struct MHD_Connection *conn, char out[INET6_ADDRSTRLEN])
{
	static _Thread_local struct {
		unsigned char len;	     /* bytes of addr; 0: none yet */
		unsigned char addr[16];	     /* the address's bytes */
		char text[INET6_ADDRSTRLEN]; /* as written below */
	} last;
	unsigned char addr[16];
	unsigned char len = http_client_address(conn, addr);
	if (len && last.len == len && memcmp(last.addr, addr, len) == 0) {
		memcpy(out, last.text, sizeof last.text);
		return;
	}
	if (len == 4) { /* dotted decimal, as inet_ntop() writes it, without its cost */
		size_t n = 0;
		for (int i = 0; i < 4; i++) {
			if (i > 0)
				out[n++] = '.';
			n += codec_decimal_write(addr[i], out + n);
		}
		out[n] = '\0';
	} else if (len == 0 || !inet_ntop(AF_INET6, addr, out, INET6_ADDRSTRLEN)) {
		snprintf(out, INET6_ADDRSTRLEN, "-");
		return;
	}
	last.len = len;
	memcpy(last.addr, addr, len);
	memcpy(last.text, out, sizeof last.text);
}

void http_observe_end(const struct http_observer *ob, struct http_observed *o,
		      struct MHD_Connection *conn, uint64_t bytes_in, long long now_ns)
{
	long long ns = now_ns - o->start_ns;
	o->line.duration_ns = ns > 0 ? (uint64_t)ns : 0;
	o->line.bytes_in = bytes_in;
	if (ob->metrics) {
		http_metrics_request_done(ob->metrics, &o->line);
		const struct route_tally *t = &o->tally;
		if (t->problem) {
			http_metrics_cases(ob->metrics, t->problem, "solved", t->solved);
			http_metrics_cases(ob->metrics, t->problem, "rejected", t->rejected);
			for (unsigned v = 0; v < ROUTE_VERDICTS; v++)
				http_metrics_verdicts(ob->metrics, t->problem,
						      judge_verdict_name((enum judge_verdict)v),
						      t->verdicts[v]);
		}
	}
	if (ob->log && http_accesslog_format(ob->log) != HTTP_LOG_OFF) {
		char client[INET6_ADDRSTRLEN];
		http_observe_client(conn, client);
		o->line.client = client;
		http_accesslog_request(ob->log, &o->line);
	}
}
