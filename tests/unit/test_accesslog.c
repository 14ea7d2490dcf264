/*
 * Unit tests of the access log (src/http/accesslog.c): the exact JSON and
 * text lines for a known request, escaping of hostile paths and user
 * agents into valid JSON, whole lines only under concurrent writers, every
 * line of every thread before an event logged after it, lines whole and in
 * order however they fall around the queue, a line either whole or not at
 * all, and a writer stuck on a full pipe that never blocks the requests
 * (their lines are dropped and counted instead, never cut).
 */
#define _GNU_SOURCE /* F_GETPIPE_SZ */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "http/accesslog.h"

/* The whole content written to a fresh temporary file by `log_some`. */
static char *capture(enum http_log_format format,
		     void (*log_some)(struct http_accesslog *log, void *arg), void *arg)
{
	char path[] = "/tmp/dropjudge-accesslog-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	struct http_accesslog *log = http_accesslog_new(format, fd, HTTP_ACCESSLOG_BUFFER);
	assert_non_null(log);
	log_some(log, arg);
	http_accesslog_free(log);
	off_t size = lseek(fd, 0, SEEK_END);
	char *text = calloc(1, (size_t)size + 1);
	assert_int_equal(pread(fd, text, (size_t)size, 0), size);
	close(fd);
	return text;
}

static const struct http_access_entry known = {
    .start = {.tv_sec = 1764578659, .tv_nsec = 123999999}, /* 2025-12-01T08:44:19.123Z */
    .request_id = "abc-1",
    .client = "127.0.0.1",
    .method = "POST",
    .route = "puyo.solve",
    .path = "/v1/puyo",
    .user_agent = "curl/7.88.1",
    .status = 200,
    .bytes_in = 120,
    .bytes_out = 2,
    .duration_ns = 1234567,
};

static void log_known(struct http_accesslog *log, void *arg)
{
	const struct http_access_entry *e = arg;
	http_accesslog_request(log, e);
}

static void accesslog_should_write_the_json_line_of_a_request(void **state)
{
	(void)state;
	char *t = capture(HTTP_LOG_JSON, log_known, (void *)&known);
	assert_string_equal(t,
			    "{\"time\":\"2025-12-01T08:44:19.123Z\",\"request_id\":\"abc-1\","
			    "\"client\":\"127.0.0.1\",\"method\":\"POST\",\"route\":\"puyo.solve\","
			    "\"path\":\"/v1/puyo\",\"status\":200,\"bytes_in\":120,\"bytes_out\":2,"
			    "\"duration_ms\":1.234,\"user_agent\":\"curl/7.88.1\"}\n");
	free(t);
}

static void accesslog_should_write_the_text_line_of_a_request(void **state)
{
	(void)state;
	char *t = capture(HTTP_LOG_TEXT, log_known, (void *)&known);
	assert_string_equal(t,
			    "2025-12-01T08:44:19.123Z abc-1 127.0.0.1 \"POST /v1/puyo\" 200 120 2 "
			    "1.234ms puyo.solve \"curl/7.88.1\"\n");
	free(t);
}

static void accesslog_should_write_milliseconds_with_three_digits(void **state)
{
	(void)state;
	static const struct {
		long start_ns;
		uint64_t duration_ns;
		const char *time, *duration;
	} cases[] = {
	    {0, 0, "19.000Z", "0.000ms"},
	    {7000000, 5000, "19.007Z", "0.005ms"},
	    {70000000, 45999, "19.070Z", "0.045ms"},
	    {999999999, 999999, "19.999Z", "0.999ms"},
	    {100000000, 1000000, "19.100Z", "1.000ms"},
	    {10000000, 12345678901ull, "19.010Z", "12345.678ms"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct http_access_entry e = known;
		e.start.tv_nsec = cases[i].start_ns;
		e.duration_ns = cases[i].duration_ns;
		char *t = capture(HTTP_LOG_TEXT, log_known, &e);
		char want[256];
		snprintf(want, sizeof want,
			 "2025-12-01T08:44:%s abc-1 127.0.0.1 \"POST /v1/puyo\" 200 120 2 %s "
			 "puyo.solve \"curl/7.88.1\"\n",
			 cases[i].time, cases[i].duration);
		assert_string_equal(t, want);
		free(t);
	}
}

static void accesslog_should_write_nothing_when_off(void **state)
{
	(void)state;
	char *t = capture(HTTP_LOG_OFF, log_known, (void *)&known);
	assert_string_equal(t, "");
	free(t);
}

static void accesslog_should_escape_hostile_fields_into_valid_json(void **state)
{
	(void)state;
	struct http_access_entry e = known;
	e.path = "/a\"b\\c\n\x01\xff\xc3\xa9";
	e.user_agent = NULL;
	e.route = NULL;
	char *t = capture(HTTP_LOG_JSON, log_known, &e);
	assert_non_null(strstr(t, "\"path\":\"/a\\\"b\\\\c\\u000a\\u0001\\ufffd\xc3\xa9\""));
	assert_non_null(strstr(t, "\"route\":\"-\""));
	assert_non_null(strstr(t, "\"user_agent\":null}\n"));
	free(t);
	t = capture(HTTP_LOG_TEXT, log_known, &e);
	assert_non_null(strstr(t, "\"POST /a\\\"b\\\\c\\x0a\\x01\\xff\xc3\xa9\""));
	free(t);
}

/* Pieces of the random paths below: plain runs of every length, each byte
 * the log escapes, and UTF-8 that is kept or refused. */
static const char *const path_pieces[] = {
    "a",    "/v1/puyo", "0123456789abcdef", " ", "~", "\"", "\\", "\x01", "\x1f", "\x7f", "\x80",
    "\xff", "\xc3\xa9", "\xe2\x82\xac",
};

/* The path as the JSON line must show it, escaped byte by byte: what goes
 * in as it is, and what is escaped, by the rules of the log. */
static void escape_reference(const char *path, char *out)
{
	size_t n = 0;
	for (const unsigned char *u = (const unsigned char *)path; *u; u++) {
		if (*u == '"' || *u == '\\') {
			n += (size_t)sprintf(out + n, "\\%c", *u);
		} else if (*u < 0x20 || *u == 0x7f) {
			n += (size_t)sprintf(out + n, "\\u%04x", *u);
		} else if (*u == 0xc3 && u[1] == 0xa9) {
			n += (size_t)sprintf(out + n, "\xc3\xa9");
			u++;
		} else if (*u == 0xe2 && u[1] == 0x82 && u[2] == 0xac) {
			n += (size_t)sprintf(out + n, "\xe2\x82\xac");
			u += 2;
		} else if (*u >= 0x80) {
			n += (size_t)sprintf(out + n, "\\ufffd");
		} else {
			out[n++] = (char)*u;
		}
	}
	out[n] = '\0';
}

static void accesslog_should_escape_random_paths_as_the_rules_say(void **state)
{
	(void)state;
	uint64_t x = 0x2545f4914f6cdd1dull;
	for (int round = 0; round < 3000; round++) {
		char path[400] = "";
		size_t len = 0;
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		int pieces = (int)(x % 24);
		for (int k = 0; k < pieces; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			/* mostly plain: the escapes then fall anywhere in an 8-byte word */
			size_t i =
			    x % 4 ? x % 3 : (x >> 8) % (sizeof path_pieces / sizeof *path_pieces);
			size_t m = strlen(path_pieces[i]);
			memcpy(path + len, path_pieces[i], m + 1);
			len += m;
		}
		struct http_access_entry e = known;
		e.path = path;
		char want[2600], *line = malloc(3000);
		escape_reference(path, want);
		snprintf(line, 3000, "\"path\":\"%s\",\"status\":200,", want);
		char *t = capture(HTTP_LOG_JSON, log_known, &e);
		if (!strstr(t, line))
			fail_msg("path %d: %s\nwanted %s", round, t, line);
		free(line);
		free(t);
	}
}

/* A random string of pieces (path_pieces and long plain or hostile runs),
 * up to about `most` bytes, into out. */
static void random_field(uint64_t *x, char *out, size_t most)
{
	size_t n = 0;
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	size_t want = (size_t)(*x % (most + 1));
	while (n < want) {
		*x ^= *x << 13;
		*x ^= *x >> 7;
		*x ^= *x << 17;
		if (*x % 16 == 0) { /* a long run of one byte */
			size_t run = (size_t)(*x >> 8) % 300;
			char c = "a/\"\\\x01\xff"[(*x >> 20) % 6];
			for (size_t i = 0; i < run && n < want; i++)
				out[n++] = c;
			continue;
		}
		const char *piece =
		    path_pieces[(*x >> 8) % (sizeof path_pieces / sizeof path_pieces[0])];
		size_t k = strlen(piece);
		if (n + k > want)
			break;
		memcpy(out + n, piece, k);
		n += k;
	}
	out[n] = '\0';
}

/*
 * A line on random fields, numbers, times and room: either whole, the same
 * bytes as with all the room a line may take, shorter than the room and
 * nothing written past it, or not at all (0), in both formats.
 */
static void accesslog_line_should_be_whole_or_not_at_all(void **state)
{
	(void)state;
	static char method[1400], path[2200], agent[2200], id[140], route[40];
	static char whole[8192], tight[8192];
	uint64_t x = 0x9e3779b97f4a7c15ull;
	size_t fitted = 0, refused = 0;
	for (int round = 0; round < 20000; round++) {
		struct http_access_entry e = known;
		random_field(&x, method, round % 7 == 0 ? 1300 : 12);
		random_field(&x, path, round % 5 == 0 ? 2100 : 80);
		random_field(&x, agent, round % 5 == 1 ? 2100 : 60);
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		size_t idn = 1 + (size_t)(x % 128);
		for (size_t i = 0; i < idn; i++)
			id[i] = "abcXYZ019._:-"[(x >> (i % 50)) % 13];
		id[idn] = '\0';
		snprintf(route, sizeof route, "route_%u", (unsigned)(x % 1000));
		e.method = (x >> 3) % 9 ? method : NULL;
		e.path = (x >> 5) % 9 ? path : NULL;
		e.user_agent = (x >> 7) % 3 ? agent : NULL;
		e.request_id = (x >> 9) % 9 ? id : NULL;
		e.route = (x >> 11) % 5 ? route : NULL;
		e.client = (x >> 13) % 7 ? "2001:db8::1" : NULL;
		e.status = (unsigned)((x >> 15) % 600);
		e.bytes_in = (x >> 17) % 4 ? (x >> 20) % 100000 : x;
		e.bytes_out = (x >> 19) % 4 ? (x >> 24) % 1000 : ~x;
		e.duration_ns = (x >> 21) % 4 ? (x >> 30) % 100000000 : x >> 1;
		e.start.tv_sec = (time_t)((x >> 23) % 4000000000u);
		e.start.tv_nsec = (long)((x >> 26) % 1000000000u);
		size_t cap = (x >> 33) % 3 ? 4096 : 64 + (size_t)((x >> 40) % 5000);
		for (int f = 0; f < 2; f++) {
			enum http_log_format format = f ? HTTP_LOG_TEXT : HTTP_LOG_JSON;
			memset(tight, 0x55, sizeof tight);
			size_t a = http_accesslog_line(format, &e, whole, sizeof whole);
			size_t b = http_accesslog_line(format, &e, tight, cap);
			assert_true(a < HTTP_ACCESSLOG_LINE_MAX);
			if (a > 0)
				assert_int_equal(whole[a - 1], '\n');
			if (b > 0) {
				assert_int_equal(a, b);
				assert_memory_equal(whole, tight, b);
				assert_true(b < cap);
				assert_int_equal((unsigned char)tight[b], 0x55);
			} else {
				assert_true(a == 0 || a >= cap);
			}
			fitted += b > 0;
			refused += a == 0;
		}
	}
	assert_true(fitted > 20000); /* most lines fit */
	assert_true(refused > 0);    /* and some are too long for any room */
}

static void accesslog_should_cut_a_huge_path_and_keep_the_line_whole(void **state)
{
	(void)state;
	static char path[20000];
	memset(path, 'p', sizeof path - 1);
	struct http_access_entry e = known;
	e.path = path;
	e.user_agent = path;
	char *t = capture(HTTP_LOG_JSON, log_known, &e);
	assert_true(strlen(t) < 4096);
	assert_int_equal(t[strlen(t) - 1], '\n');
	assert_non_null(strstr(t, "\"status\":200"));
	free(t);
}

/* A long field keeps its first 1024 bytes, whatever the length or the
 * place of the bytes it escapes; every length around the first 64 bytes
 * (copied one at a time) and around the cut. */
static void accesslog_should_keep_the_first_kibibyte_of_a_long_field(void **state)
{
	(void)state;
	static const size_t lengths[] = {0, 1, 62, 63, 64, 65, 66, 127, 1023, 1024, 1025, 3000};
	for (size_t k = 0; k < sizeof lengths / sizeof lengths[0]; k++) {
		for (int quote_at = -1; quote_at < 3; quote_at++) {
			size_t n = lengths[k];
			char *path = malloc(n + 2);
			assert_non_null(path);
			memset(path, 'p', n);
			path[n] = '\0';
			/* one '"' at the start, just before 64, or just after it */
			size_t q = quote_at == 0 ? 0 : quote_at == 1 ? 63 : 64;
			bool quoted = quote_at >= 0 && q < n;
			if (quoted)
				path[q] = '"';
			struct http_access_entry e = known;
			e.path = path;
			char *t = capture(HTTP_LOG_JSON, log_known, &e);
			size_t kept = n < 1024 ? n : 1024;
			char *want = malloc(kept + 32);
			assert_non_null(want);
			size_t w = (size_t)sprintf(want, "\"path\":\"");
			for (size_t i = 0; i < kept; i++) {
				if (quoted && i == q)
					want[w++] = '\\';
				want[w++] = path[i];
			}
			strcpy(want + w, "\",\"status\":");
			if (!strstr(t, want))
				fail_msg("length %zu, quote %d: %s", n, quote_at, t);
			free(want);
			free(t);
			free(path);
		}
	}
}

static void log_events(struct http_accesslog *log, void *arg)
{
	(void)arg;
	http_accesslog_event(log, "start", "dropjudge listening on \"x\"", 2);
	http_accesslog_request(log, &known);
	http_accesslog_event(log, "stop", "stopped", 2);
}

static void accesslog_should_write_events_as_json_lines_in_order(void **state)
{
	(void)state;
	char *t = capture(HTTP_LOG_JSON, log_events, NULL);
	char *second = strchr(t, '\n') + 1;
	char *third = strchr(second, '\n') + 1;
	assert_true(strncmp(t, "{\"time\":\"", 9) == 0);
	assert_non_null(strstr(t, "\",\"level\":\"info\",\"event\":\"start\",\"msg\":\"dropjudge "
				  "listening on \\\"x\\\"\"}\n"));
	assert_true(strncmp(second,
			    "{\"time\":\"2025-12-01T08:44:19.123Z\",\"request_id\":\"abc-1\"",
			    55) == 0);
	assert_non_null(strstr(third, "\"event\":\"stop\",\"msg\":\"stopped\"}\n"));
	assert_string_equal(strchr(third, '\n'), "\n");
	free(t);
}

#define WRITERS 8
#define LINES	3000

struct writer_arg {
	struct http_accesslog *log;
	int id;
};

static void *write_lines(void *p)
{
	struct writer_arg *a = p;
	char rid[32], path[600];
	snprintf(rid, sizeof rid, "w%d", a->id);
	/* A long path, so that lines are big and a torn write would show. */
	memset(path, 'a' + a->id, sizeof path - 1);
	path[0] = '/';
	path[sizeof path - 1] = '\0';
	struct http_access_entry e = known;
	e.request_id = rid;
	e.path = path;
	for (int i = 0; i < LINES; i++) {
		e.bytes_in = (uint64_t)i;
		http_accesslog_request(a->log, &e);
	}
	return NULL;
}

static void log_concurrently(struct http_accesslog *log, void *arg)
{
	pthread_t th[WRITERS];
	struct writer_arg args[WRITERS];
	for (int i = 0; i < WRITERS; i++) {
		args[i] = (struct writer_arg){log, i};
		assert_int_equal(pthread_create(&th[i], NULL, write_lines, &args[i]), 0);
	}
	for (int i = 0; i < WRITERS; i++)
		pthread_join(th[i], NULL);
	*(uint64_t *)arg = http_accesslog_dropped(log);
}

static void accesslog_should_never_interleave_lines_of_concurrent_requests(void **state)
{
	(void)state;
	uint64_t dropped = 0;
	char *t = capture(HTTP_LOG_JSON, log_concurrently, &dropped);
	int lines = 0;
	for (char *line = t, *end; *line; line = end + 1) {
		end = strchr(line, '\n');
		assert_non_null(end);
		*end = '\0';
		int id = -1;
		assert_int_equal(
		    sscanf(line, "{\"time\":\"2025-12-01T08:44:19.123Z\",\"request_id\":\"w%d\"",
			   &id),
		    1);
		assert_in_range(id, 0, WRITERS - 1);
		/* The path is the writer's own letter, whole. */
		char want[700];
		want[0] = '/';
		memset(want + 1, 'a' + id, 598);
		want[599] = '\0';
		char *p = strstr(line, "\"path\":\"");
		assert_non_null(p);
		assert_memory_equal(p + 8, want, 599);
		assert_int_equal(p[8 + 599], '"');
		assert_non_null(strstr(line, "\"user_agent\":\"curl/7.88.1\"}"));
		lines++;
	}
	assert_int_equal((uint64_t)lines + dropped, (uint64_t)WRITERS * LINES);
	free(t);
}

/* Lines of one thread, bytes_in counting from 0: SINGLE_LINES of about
 * 250 bytes, many times what a thread formats into before its lines join
 * the rest, less than its buffer holds even if the writer never ran. */
#define SINGLE_LINES 3000

static void log_one_thread(struct http_accesslog *log, void *arg)
{
	struct http_access_entry e = known;
	for (int i = 0; i < SINGLE_LINES; i++) {
		e.bytes_in = (uint64_t)i;
		http_accesslog_request(log, &e);
	}
	*(uint64_t *)arg = http_accesslog_dropped(log);
}

static void accesslog_should_write_every_line_of_a_thread_once_and_in_order(void **state)
{
	(void)state;
	uint64_t dropped = 1;
	char *t = capture(HTTP_LOG_JSON, log_one_thread, &dropped);
	assert_int_equal(dropped, 0);
	int lines = 0;
	for (char *line = t, *end; *line; line = end + 1) {
		end = strchr(line, '\n');
		assert_non_null(end);
		*end = '\0';
		static const char head[] = "{\"time\":\"2025-12-01T08:44:19.123Z\",";
		assert_memory_equal(line, head, sizeof head - 1);
		char *b = strstr(line, "\"bytes_in\":");
		assert_non_null(b);
		int n = -1;
		assert_int_equal(sscanf(b, "\"bytes_in\":%d,", &n), 1);
		assert_int_equal(n, lines);
		assert_non_null(strstr(line, "\"user_agent\":\"curl/7.88.1\"}"));
		lines++;
	}
	assert_int_equal(lines, SINGLE_LINES);
	free(t);
}

struct phase_arg {
	struct http_accesslog *log;
	char rid[16];
	int n;
};

/* Logs a->n lines as a->rid, bytes_in counting from 0. */
static void *phase_lines(void *p)
{
	struct phase_arg *a = p;
	struct http_access_entry e = known;
	e.request_id = a->rid;
	for (int i = 0; i < a->n; i++) {
		e.bytes_in = (uint64_t)i;
		http_accesslog_request(a->log, &e);
	}
	return NULL;
}

/* A pipe's whole content, read by a thread until it closes. */
struct pipe_text {
	int fd;
	char *text;
	size_t len;
};

static void *read_pipe(void *p)
{
	struct pipe_text *pt = p;
	char buf[65536];
	ssize_t n;
	while ((n = read(pt->fd, buf, sizeof buf)) > 0) {
		pt->text = realloc(pt->text, pt->len + (size_t)n + 1);
		assert_non_null(pt->text);
		memcpy(pt->text + pt->len, buf, (size_t)n);
		pt->len += (size_t)n;
		pt->text[pt->len] = '\0';
	}
	return NULL;
}

/*
 * What `log_some` logs through a pipe that nobody reads until it returns
 * (the lines wait in the pipe and in the log's queue meanwhile), read once
 * the log is freed.
 */
static char *capture_stuck(void (*log_some)(struct http_accesslog *log, void *arg), void *arg)
{
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	struct http_accesslog *log =
	    http_accesslog_new(HTTP_LOG_JSON, fds[1], HTTP_ACCESSLOG_BUFFER);
	assert_non_null(log);
	log_some(log, arg);
	struct pipe_text pt = {.fd = fds[0]};
	pthread_t reader;
	assert_int_equal(pthread_create(&reader, NULL, read_pipe, &pt), 0);
	http_accesslog_free(log);
	close(fds[1]);
	pthread_join(reader, NULL);
	close(fds[0]);
	assert_non_null(pt.text);
	return pt.text;
}

/* Lines through a queue of QUEUE_BYTES (a ring of bytes): QUEUE_LINES of
 * 200 to 500 bytes go round it about forty times, ending at every offset of
 * the ring. */
#define QUEUE_BYTES 16384
#define QUEUE_LINES 2000

/* The path of line i: "/" and (i * 37) % 300 letters of its own. */
static size_t queue_path(int i, char *out)
{
	size_t n = (size_t)(i * 37 % 300);
	out[0] = '/';
	memset(out + 1, 'a' + i % 26, n);
	out[n + 1] = '\0';
	return n + 1;
}

static void accesslog_should_keep_lines_whole_and_in_order_around_its_queue(void **state)
{
	(void)state;
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	struct pipe_text pt = {.fd = fds[0]};
	pthread_t reader;
	assert_int_equal(pthread_create(&reader, NULL, read_pipe, &pt), 0);
	struct http_accesslog *log = http_accesslog_new(HTTP_LOG_JSON, fds[1], QUEUE_BYTES);
	assert_non_null(log);
	struct http_access_entry e = known;
	char path[320];
	e.path = path;
	uint64_t dropped = 0;
	for (int i = 0; i < QUEUE_LINES; i++) {
		queue_path(i, path);
		e.bytes_in = (uint64_t)i;
		/* A line that finds the queue full is dropped: it is logged
		 * again once the writer has made room, so that all arrive. */
		for (;;) {
			http_accesslog_request(log, &e);
			if (http_accesslog_dropped(log) == dropped)
				break;
			dropped = http_accesslog_dropped(log);
			nanosleep(&(struct timespec){.tv_sec = 0, .tv_nsec = 1000000}, NULL);
		}
	}
	http_accesslog_free(log);
	close(fds[1]);
	pthread_join(reader, NULL);
	close(fds[0]);
	assert_non_null(pt.text);
	int lines = 0;
	size_t bytes = 0;
	for (char *line = pt.text, *end; *line; line = end + 1) {
		end = strchr(line, '\n');
		assert_non_null(end);
		*end = '\0';
		bytes += (size_t)(end - line) + 1;
		static const char head[] =
		    "{\"time\":\"2025-12-01T08:44:19.123Z\",\"request_id\":\"abc-1\",";
		assert_memory_equal(line, head, sizeof head - 1);
		char want[400];
		int n =
		    snprintf(want, sizeof want, "\"path\":\"%s\",\"status\":200,\"bytes_in\":%d,",
			     (queue_path(lines, path), path), lines);
		assert_true(n > 0 && (size_t)n < sizeof want);
		assert_non_null(strstr(line, want));
		assert_non_null(strstr(line, "\"user_agent\":\"curl/7.88.1\"}"));
		lines++;
	}
	assert_int_equal(lines, QUEUE_LINES);
	assert_true(bytes > 30 * QUEUE_BYTES); /* round the queue many times */
	free(pt.text);
}

/* Lines of WRITERS threads (rid "<tag><thread>", bytes_in 0..n-1), all
 * ended before the call returns. */
static void log_phase(struct http_accesslog *log, char tag, int n)
{
	pthread_t th[WRITERS];
	struct phase_arg args[WRITERS];
	for (int i = 0; i < WRITERS; i++) {
		args[i].log = log;
		snprintf(args[i].rid, sizeof args[i].rid, "%c%d", tag, i);
		args[i].n = n;
		assert_int_equal(pthread_create(&th[i], NULL, phase_lines, &args[i]), 0);
	}
	for (int i = 0; i < WRITERS; i++)
		pthread_join(th[i], NULL);
}

/* 2 x 8 x 250 lines of about 220 bytes: less than the log's queue holds
 * (HTTP_ACCESSLOG_BUFFER), so that none is dropped however the threads and
 * the writer are scheduled. */
#define PHASE_LINES 250

static void log_phases(struct http_accesslog *log, void *arg)
{
	(void)arg;
	log_phase(log, 'w', PHASE_LINES);
	http_accesslog_event(log, "mark", "between", 2);
	log_phase(log, 'v', PHASE_LINES);
	http_accesslog_event(log, "stop", "stopped", 2);
}

static void accesslog_should_write_the_lines_of_every_thread_before_a_later_event(void **state)
{
	(void)state;
	char *t = capture_stuck(log_phases, NULL);
	int seen[2][WRITERS] = {{0}}; /* lines of each phase and thread so far */
	int events = 0;
	for (char *line = t, *end; *line; line = end + 1) {
		end = strchr(line, '\n');
		assert_non_null(end);
		*end = '\0';
		if (strstr(line, "\"event\":\"mark\"")) {
			assert_int_equal(events, 0);
			for (int i = 0; i < WRITERS; i++)
				assert_int_equal(seen[0][i], PHASE_LINES); /* every earlier line */
			events++;
			continue;
		}
		if (strstr(line, "\"event\":\"stop\"")) {
			assert_int_equal(events, 1);
			for (int i = 0; i < WRITERS; i++)
				assert_int_equal(seen[1][i], PHASE_LINES);
			assert_int_equal(end[1], '\0'); /* the last line */
			events++;
			continue;
		}
		char tag = 0;
		int id = -1, n = -1;
		assert_int_equal(
		    sscanf(line, "{\"time\":\"2025-12-01T08:44:19.123Z\",\"request_id\":\"%c%d\"",
			   &tag, &id),
		    2);
		char *b = strstr(line, "\"bytes_in\":");
		assert_non_null(b);
		assert_int_equal(sscanf(b, "\"bytes_in\":%d", &n), 1);
		assert_in_range(id, 0, WRITERS - 1);
		int phase = tag == 'w' ? 0 : 1;
		assert_true(tag == 'w' || tag == 'v');
		assert_int_equal(phase, events);      /* after the event that came before it */
		assert_int_equal(n, seen[phase][id]); /* a thread's lines in order */
		seen[phase][id]++;
	}
	assert_int_equal(events, 2);
	free(t);
}

/* Lines logged while nobody reads the pipe: many times what the pipe and
 * the queue hold together. */
#define STUCK_LINES 20000

/*
 * The writer stuck on a pipe nobody reads until every line was logged:
 * the queue fills, the lines that find no room are counted as dropped, and
 * what comes out once the pipe is read is whole lines only, in the order
 * they were logged, as many as were not dropped, and no more than the pipe
 * and the queue hold.
 */
static void accesslog_should_count_the_lines_a_full_queue_drops_and_cut_none(void **state)
{
	(void)state;
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	struct http_accesslog *log = http_accesslog_new(HTTP_LOG_JSON, fds[1], QUEUE_BYTES);
	assert_non_null(log);
	int pipe_bytes = fcntl(fds[1], F_GETPIPE_SZ);
	assert_true(pipe_bytes > 0);
	struct http_access_entry e = known;
	char path[320];
	e.path = path;
	for (int i = 0; i < STUCK_LINES; i++) {
		queue_path(i, path);
		e.bytes_in = (uint64_t)i;
		http_accesslog_request(log, &e);
	}
	uint64_t dropped = http_accesslog_dropped(log);
	struct pipe_text pt = {.fd = fds[0]};
	pthread_t reader;
	assert_int_equal(pthread_create(&reader, NULL, read_pipe, &pt), 0);
	http_accesslog_free(log);
	close(fds[1]);
	pthread_join(reader, NULL);
	close(fds[0]);
	assert_non_null(pt.text);
	assert_int_equal(pt.text[pt.len - 1], '\n');
	int lines = 0, last = -1;
	for (char *line = pt.text, *end; *line; line = end + 1) {
		end = strchr(line, '\n');
		assert_non_null(end);
		*end = '\0';
		int n = -1;
		char *b = strstr(line, "\"bytes_in\":");
		assert_non_null(b);
		assert_int_equal(sscanf(b, "\"bytes_in\":%d,", &n), 1);
		assert_true(n > last); /* in the order logged */
		last = n;
		/* the whole line of request n, byte for byte */
		char want[HTTP_ACCESSLOG_LINE_MAX];
		queue_path(n, path);
		e.bytes_in = (uint64_t)n;
		size_t len = http_accesslog_line(HTTP_LOG_JSON, &e, want, sizeof want);
		assert_true(len > 0);
		assert_int_equal(strlen(line) + 1, len);
		assert_memory_equal(line, want, len - 1);
		lines++;
	}
	assert_true(dropped > STUCK_LINES / 2);
	assert_int_equal((uint64_t)lines + dropped, STUCK_LINES);
	assert_true(pt.len <= (size_t)pipe_bytes + QUEUE_BYTES);
	assert_true(pt.len > QUEUE_BYTES - HTTP_ACCESSLOG_LINE_MAX); /* the queue filled */
	free(pt.text);
}

/* Reads and discards a pipe until it closes. */
static void *drain_pipe(void *p)
{
	int fd = *(int *)p;
	char buf[65536];
	while (read(fd, buf, sizeof buf) > 0)
		;
	return NULL;
}

static void accesslog_should_drop_rather_than_block_when_the_reader_stalls(void **state)
{
	(void)state;
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	/* A small buffer, and nobody reads the pipe: the writer blocks on it. */
	struct http_accesslog *log = http_accesslog_new(HTTP_LOG_JSON, fds[1], 16384);
	assert_non_null(log);
	for (int i = 0; i < 100000; i++)
		http_accesslog_request(log, &known);
	uint64_t dropped = http_accesslog_dropped(log);
	/* 100000 lines of ~250 bytes cannot fit 16 KiB + a 64 KiB pipe. */
	assert_true(dropped > 90000);
	/* Every call returned although the writer is stuck (a blocking log
	 * would never get here); reading the pipe lets free() finish. */
	pthread_t reader;
	assert_int_equal(pthread_create(&reader, NULL, drain_pipe, &fds[0]), 0);
	http_accesslog_free(log);
	close(fds[1]);
	pthread_join(reader, NULL);
	close(fds[0]);
}

/* A pipe on the log's fd holds a mebibyte once the log is made (where the
 * kernel allows pipes that large), and stays as it was with the log off. */
static void accesslog_should_grow_its_pipe_to_a_mebibyte(void **state)
{
	(void)state;
	long max = 0;
	FILE *f = fopen("/proc/sys/fs/pipe-max-size", "r");
	if (f) {
		if (fscanf(f, "%ld", &max) != 1)
			max = 0;
		fclose(f);
	}
	for (int off = 0; off < 2; off++) {
		int fds[2];
		assert_int_equal(pipe(fds), 0);
		int before = fcntl(fds[1], F_GETPIPE_SZ);
		struct http_accesslog *log = http_accesslog_new(off ? HTTP_LOG_OFF : HTTP_LOG_JSON,
								fds[1], HTTP_ACCESSLOG_BUFFER);
		assert_non_null(log);
		int after = fcntl(fds[1], F_GETPIPE_SZ);
		if (off)
			assert_int_equal(after, before);
		else if (max >= 1 << 20)
			assert_int_equal(after, 1 << 20);
		http_accesslog_free(log);
		close(fds[0]);
		close(fds[1]);
	}
}

static void accesslog_should_parse_its_three_formats(void **state)
{
	(void)state;
	enum http_log_format f = HTTP_LOG_OFF;
	assert_true(http_log_format_parse("json", &f));
	assert_int_equal(f, HTTP_LOG_JSON);
	assert_true(http_log_format_parse("text", &f));
	assert_int_equal(f, HTTP_LOG_TEXT);
	assert_true(http_log_format_parse("off", &f));
	assert_int_equal(f, HTTP_LOG_OFF);
	assert_false(http_log_format_parse("JSON", &f));
	assert_false(http_log_format_parse("", &f));
	assert_false(http_log_format_parse(NULL, &f));
	assert_int_equal(f, HTTP_LOG_OFF);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(accesslog_should_write_the_json_line_of_a_request),
	    cmocka_unit_test(accesslog_should_write_the_text_line_of_a_request),
	    cmocka_unit_test(accesslog_should_write_milliseconds_with_three_digits),
	    cmocka_unit_test(accesslog_should_write_nothing_when_off),
	    cmocka_unit_test(accesslog_line_should_be_whole_or_not_at_all),
	    cmocka_unit_test(accesslog_should_escape_hostile_fields_into_valid_json),
	    cmocka_unit_test(accesslog_should_escape_random_paths_as_the_rules_say),
	    cmocka_unit_test(accesslog_should_cut_a_huge_path_and_keep_the_line_whole),
	    cmocka_unit_test(accesslog_should_keep_the_first_kibibyte_of_a_long_field),
	    cmocka_unit_test(accesslog_should_write_events_as_json_lines_in_order),
	    cmocka_unit_test(accesslog_should_never_interleave_lines_of_concurrent_requests),
	    cmocka_unit_test(accesslog_should_write_every_line_of_a_thread_once_and_in_order),
	    cmocka_unit_test(accesslog_should_write_the_lines_of_every_thread_before_a_later_event),
	    cmocka_unit_test(accesslog_should_keep_lines_whole_and_in_order_around_its_queue),
	    cmocka_unit_test(accesslog_should_drop_rather_than_block_when_the_reader_stalls),
	    cmocka_unit_test(accesslog_should_count_the_lines_a_full_queue_drops_and_cut_none),
	    cmocka_unit_test(accesslog_should_grow_its_pipe_to_a_mebibyte),
	    cmocka_unit_test(accesslog_should_parse_its_three_formats),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
