/*
 * Requests/s of two HTTP servers measured in turns of a fraction of a
 * second, for scripts/bench-http.sh on a machine whose speed drifts from
 * second to second (a shared virtual machine): the same closed-loop load
 * as wrk (CONNECTIONS keep-alive connections on THREADS threads, each
 * sending its next request when its answer is in), pointed at server A for
 * one slice, then at B, in the order A B B A A B ..., so that every slice
 * of A has a slice of B next to it. Side by side in time, the two see the
 * same machine; the ratio of each such pair drifts far less than the ratio
 * of runs seconds apart.
 *
 *   ab_load --a PORT --b PORT --path PATH [--body FILE --type TYPE]
 *           [--accept TYPE] [--connections 64] [--threads 2]
 *           [--slice-ms 100] [--seconds 20] [--warmup-ms 1000]
 *
 * Prints one line: "ab_load A_RPS B_RPS SUM_RATIO PAIRED_MEDIAN PAIRS
 * ERRORS": requests/s of each over its own slices, their ratio A/B, the
 * median of the per-pair ratios, the number of pairs, and the answers that
 * were not 2xx or could not be read (any error exits 1).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define AB_BUF	     65536
#define AB_MAX_CONNS 1024

struct ab_conn {
	int fd;
	int target; /* 0: A, 1: B */
	bool busy;  /* a request is out, its answer not yet read whole */
	size_t len; /* bytes in buf */
	char buf[AB_BUF];
};

struct ab_thread {
	pthread_t th;
	struct ab_conn *conns;
	int nconns;
	unsigned long *count[2]; /* answers of each target completed in each slice */
	unsigned long errors;
};

static struct {
	int port[2];
	char *request; /* the whole request, sent as it is */
	size_t request_len;
	int connections;
	int threads;
	int slice_ms;
	int seconds;
	int warmup_ms;
	int nslices;
	atomic_int slice; /* current slice; -1 during warm-up */
	atomic_int phase; /* target being loaded */
	atomic_bool stop;
} ab;

/* Target of slice s: A B B A, A B B A, ... */
static int ab_target_of(int s)
{
	int k = s % 4;
	return k == 1 || k == 2;
}

static int ab_connect(int port)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
		close(fd);
		return -1;
	}
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	return fd;
}

static bool ab_send(struct ab_conn *c)
{
	size_t off = 0;
	while (off < ab.request_len) {
		ssize_t n = send(c->fd, ab.request + off, ab.request_len - off, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		off += (size_t)n;
	}
	c->busy = true;
	return true;
}

/*
 * Whether buf holds a whole answer; sets *used to its length and *ok to
 * whether its status is 2xx. Returns false while more bytes are needed.
 */
static bool ab_answer(const char *buf, size_t len, size_t *used, bool *ok)
{
	const char *end = memmem(buf, len, "\r\n\r\n", 4);
	if (!end)
		return false;
	size_t head = (size_t)(end - buf) + 4;
	size_t body = 0;
	for (const char *p = buf; p && p < end; p = memchr(p, '\n', (size_t)(end - p))) {
		if (*p == '\n')
			p++;
		if ((size_t)(end - p) > 15 && strncasecmp(p, "Content-Length:", 15) == 0)
			body = strtoul(p + 15, NULL, 10);
	}
	if (len < head + body)
		return false;
	*used = head + body;
	*ok = len > 9 && buf[9] == '2';
	return true;
}

static double ab_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *ab_run(void *p)
{
	struct ab_thread *t = p;
	int ep = epoll_create1(0);
	for (int i = 0; i < t->nconns; i++) {
		struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &t->conns[i]};
		epoll_ctl(ep, EPOLL_CTL_ADD, t->conns[i].fd, &ev);
	}
	int seen_phase = -1;
	struct epoll_event evs[64];
	while (!atomic_load(&ab.stop)) {
		int phase = atomic_load(&ab.phase);
		if (phase != seen_phase) {
			seen_phase = phase;
			for (int i = 0; i < t->nconns; i++)
				if (t->conns[i].target == phase && !t->conns[i].busy &&
				    !ab_send(&t->conns[i]))
					t->errors++;
		}
		int n = epoll_wait(ep, evs, 64, 5);
		for (int e = 0; e < n; e++) {
			struct ab_conn *c = evs[e].data.ptr;
			ssize_t r = recv(c->fd, c->buf + c->len, AB_BUF - c->len, 0);
			if (r <= 0) {
				if (r < 0 && (errno == EINTR || errno == EAGAIN))
					continue;
				t->errors++;
				epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
				c->busy = true; /* never again */
				continue;
			}
			c->len += (size_t)r;
			size_t used;
			bool ok;
			if (!ab_answer(c->buf, c->len, &used, &ok)) {
				if (c->len == AB_BUF) {
					t->errors++;
					c->len = 0;
				}
				continue;
			}
			memmove(c->buf, c->buf + used, c->len - used);
			c->len -= used;
			c->busy = false;
			if (!ok)
				t->errors++;
			int s = atomic_load(&ab.slice);
			if (s >= 0 && s < ab.nslices)
				t->count[c->target][s]++;
			if (c->target == atomic_load(&ab.phase) && !ab_send(c))
				t->errors++;
		}
	}
	close(ep);
	return NULL;
}

static char *ab_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *s = malloc(cap);
	size_t r;
	while (s && (r = fread(s + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap)
			s = realloc(s, cap *= 2);
	}
	fclose(f);
	*len = n;
	return s;
}

static int ab_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	const char *path = "/", *body_file = NULL, *type = NULL, *accept = NULL;
	ab.port[0] = ab.port[1] = 0;
	ab.connections = 64;
	ab.threads = 2;
	ab.slice_ms = 100;
	ab.seconds = 20;
	ab.warmup_ms = 1000;
	for (int i = 1; i + 1 < argc; i += 2) {
		const char *k = argv[i], *v = argv[i + 1];
		if (!strcmp(k, "--a"))
			ab.port[0] = atoi(v);
		else if (!strcmp(k, "--b"))
			ab.port[1] = atoi(v);
		else if (!strcmp(k, "--path"))
			path = v;
		else if (!strcmp(k, "--body"))
			body_file = v;
		else if (!strcmp(k, "--type"))
			type = v;
		else if (!strcmp(k, "--accept"))
			accept = v;
		else if (!strcmp(k, "--connections"))
			ab.connections = atoi(v);
		else if (!strcmp(k, "--threads"))
			ab.threads = atoi(v);
		else if (!strcmp(k, "--slice-ms"))
			ab.slice_ms = atoi(v);
		else if (!strcmp(k, "--seconds"))
			ab.seconds = atoi(v);
		else if (!strcmp(k, "--warmup-ms"))
			ab.warmup_ms = atoi(v);
		else {
			fprintf(stderr, "ab_load: unknown option %s\n", k);
			return 2;
		}
	}
	if (ab.port[0] <= 0 || ab.port[1] <= 0 || ab.connections < 1 ||
	    ab.connections > AB_MAX_CONNS || ab.threads < 1 || ab.threads > ab.connections ||
	    ab.slice_ms < 10 || ab.seconds < 1) {
		fprintf(stderr, "ab_load: usage: ab_load --a PORT --b PORT --path PATH [--body "
				"FILE --type TYPE] [--accept TYPE] [--connections N] [--threads N] "
				"[--slice-ms MS] [--seconds S] [--warmup-ms MS]\n");
		return 2;
	}
	size_t body_len = 0;
	char *body = NULL;
	if (body_file && !(body = ab_read_file(body_file, &body_len))) {
		fprintf(stderr, "ab_load: cannot read %s\n", body_file);
		return 2;
	}
	size_t cap = body_len + 1024;
	ab.request = malloc(cap);
	int h = snprintf(ab.request, cap, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n",
			 body ? "POST" : "GET", path);
	if (type)
		h += snprintf(ab.request + h, cap - (size_t)h, "Content-Type: %s\r\n", type);
	if (accept)
		h += snprintf(ab.request + h, cap - (size_t)h, "Accept: %s\r\n", accept);
	if (body)
		h += snprintf(ab.request + h, cap - (size_t)h, "Content-Length: %zu\r\n", body_len);
	h += snprintf(ab.request + h, cap - (size_t)h, "\r\n");
	if (body)
		memcpy(ab.request + h, body, body_len);
	ab.request_len = (size_t)h + body_len;

	ab.nslices = ab.seconds * 1000 / ab.slice_ms;
	ab.nslices -= ab.nslices % 4;
	if (ab.nslices < 4)
		ab.nslices = 4;
	atomic_init(&ab.slice, -1);
	atomic_init(&ab.phase, 0);
	atomic_init(&ab.stop, false);

	struct ab_thread *th = calloc((size_t)ab.threads, sizeof *th);
	for (int i = 0; i < ab.threads; i++) {
		int per = ab.connections / ab.threads + (i < ab.connections % ab.threads);
		th[i].nconns = 2 * per;
		th[i].conns = calloc((size_t)th[i].nconns, sizeof *th[i].conns);
		for (int j = 0; j < th[i].nconns; j++) {
			th[i].conns[j].target = j % 2;
			th[i].conns[j].fd = ab_connect(ab.port[j % 2]);
			if (th[i].conns[j].fd < 0) {
				fprintf(stderr, "ab_load: cannot connect to port %d\n",
					ab.port[j % 2]);
				return 1;
			}
		}
		for (int k = 0; k < 2; k++)
			th[i].count[k] = calloc((size_t)ab.nslices, sizeof(unsigned long));
	}
	for (int i = 0; i < ab.threads; i++)
		pthread_create(&th[i].th, NULL, ab_run, &th[i]);

	/* Warm-up: both, in turns of a slice, not counted. */
	double t0 = ab_now();
	for (int s = 0; (ab_now() - t0) * 1000 < ab.warmup_ms; s++) {
		atomic_store(&ab.phase, ab_target_of(s));
		usleep((useconds_t)ab.slice_ms * 1000);
	}
	double *secs = calloc((size_t)ab.nslices, sizeof(double));
	for (int s = 0; s < ab.nslices; s++) {
		double start = ab_now();
		atomic_store(&ab.slice, s);
		atomic_store(&ab.phase, ab_target_of(s));
		struct timespec d = {.tv_sec = ab.slice_ms / 1000,
				     .tv_nsec = (long)(ab.slice_ms % 1000) * 1000000};
		nanosleep(&d, NULL);
		secs[s] = ab_now() - start;
	}
	atomic_store(&ab.slice, ab.nslices);
	atomic_store(&ab.stop, true);
	unsigned long errors = 0;
	for (int i = 0; i < ab.threads; i++) {
		pthread_join(th[i].th, NULL);
		errors += th[i].errors;
	}

	/* Rates of each slice's own target; pairs (0,1), (2,3), ... */
	double total[2] = {0, 0}, time[2] = {0, 0};
	int npairs = ab.nslices / 2;
	double *ratios = calloc((size_t)npairs, sizeof(double));
	for (int s = 0; s < ab.nslices; s++) {
		int k = ab_target_of(s);
		unsigned long n = 0;
		for (int i = 0; i < ab.threads; i++)
			n += th[i].count[k][s];
		total[k] += (double)n;
		time[k] += secs[s];
		secs[s] = (double)n / secs[s]; /* now its rate */
	}
	for (int p = 0; p < npairs; p++) {
		int s = 2 * p;
		double a = ab_target_of(s) == 0 ? secs[s] : secs[s + 1];
		double b = ab_target_of(s) == 0 ? secs[s + 1] : secs[s];
		ratios[p] = b > 0 ? a / b : 0;
	}
	qsort(ratios, (size_t)npairs, sizeof(double), ab_cmp);
	double median =
	    npairs % 2 ? ratios[npairs / 2] : (ratios[npairs / 2 - 1] + ratios[npairs / 2]) / 2;
	double ra = total[0] / time[0], rb = total[1] / time[1];
	printf("ab_load %.0f %.0f %.4f %.4f %d %lu\n", ra, rb, rb > 0 ? ra / rb : 0, median, npairs,
	       errors);
	return errors ? 1 : 0;
}
