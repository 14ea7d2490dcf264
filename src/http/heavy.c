/* Admission of heavy work (heavy.h): a small table of the places held,
 * each with its client's address, under one lock, scanned whole. */
#include "http/heavy.h"

#include <netinet/in.h>
#include <pthread.h>
#include <string.h>
#include <sys/socket.h>

#include "http/guard.h"
#include "mem/alloc.h"

/* A place: the request's connection and its client's address. */
struct heavy_place {
	struct MHD_Connection *conn; /* NULL: the place is free */
	unsigned char addr[16];	     /* the address's bytes (4 for IPv4) */
	unsigned char len;	     /* bytes of addr; 0: unknown */
};

struct http_heavy {
	pthread_mutex_t lock;	    /* guards places */
	unsigned total;		    /* places */
	unsigned per_client;	    /* places one address may hold */
	struct heavy_place *places; /* total of them */
};

struct http_heavy *http_heavy_new(unsigned total, unsigned per_client)
{
	struct http_heavy *h = dj_calloc(1, sizeof *h);
	if (!h)
		return NULL;
	h->places = dj_calloc(total, sizeof *h->places);
	if (!h->places || pthread_mutex_init(&h->lock, NULL) != 0) {
		dj_free(h->places);
		dj_free(h);
		return NULL;
	}
	h->total = total;
	h->per_client = per_client;
	return h;
}

void http_heavy_free(struct http_heavy *h)
{
	if (!h)
		return;
	pthread_mutex_destroy(&h->lock);
	dj_free(h->places);
	dj_free(h);
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

bool http_heavy_admit(struct http_heavy *h, struct MHD_Connection *conn)
{
	unsigned char addr[16];
	unsigned char len = http_client_address(conn, addr);
	pthread_mutex_lock(&h->lock);
	/* First without asking the sockets; past a limit, again once the
	 * places of clients that have gone are given up (a syscall each). */
	for (int pass = 0; pass < 2; pass++) {
		struct heavy_place *free_place = NULL;
		unsigned held = 0, mine = 0;
		for (unsigned i = 0; i < h->total; i++) {
			struct heavy_place *p = &h->places[i];
			if (pass == 1 && p->conn && http_guard_client_gone(p->conn))
				p->conn = NULL;
			if (!p->conn) {
				if (!free_place)
					free_place = p;
				continue;
			}
			held++;
			if (len && p->len == len && memcmp(p->addr, addr, len) == 0)
				mine++;
		}
		if (free_place && held < h->total && mine < h->per_client) {
			free_place->conn = conn;
			memcpy(free_place->addr, addr, len);
			free_place->len = len;
			pthread_mutex_unlock(&h->lock);
			return true;
		}
	}
	pthread_mutex_unlock(&h->lock);
	return false;
}

void http_heavy_release(struct http_heavy *h, struct MHD_Connection *conn)
{
	pthread_mutex_lock(&h->lock);
	for (unsigned i = 0; i < h->total; i++) {
		if (h->places[i].conn == conn) {
			h->places[i].conn = NULL;
			break;
		}
	}
	pthread_mutex_unlock(&h->lock);
}

unsigned http_heavy_total(const struct http_heavy *h)
{
	return h->total;
}

unsigned http_heavy_per_client(const struct http_heavy *h)
{
	return h->per_client;
}
