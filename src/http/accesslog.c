/*
 * The access log of accesslog.h: lines formatted by hand (no printf on the
 * request path) straight into a ring of the request's own thread, and one
 * writer thread that lets lines gather for a moment and writes the rings
 * out together. A ring has one producer (its thread) and one consumer (the
 * writer, or an event that gathers lines before it), so a request takes no
 * lock and no atomic read-modify-write: it reads where the consumer is,
 * writes its line and publishes where it ends with a plain store. The
 * writer's cursor is read once a request, and written every few
 * milliseconds.
 */
#define _GNU_SOURCE /* F_GETPIPE_SZ, F_SETPIPE_SZ */

#include "http/accesslog.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mem/alloc.h"

#include "codec/decimal.h"
#include "codec/error.h"

/*
 * How long the writer lets lines gather once one has come: 20 ms. Under
 * load each wake of the writer (and of the reader of stdout) then carries
 * thousands of lines: fewer wakes, measured at 3% more requests/s of
 * GET /livez than at 2 ms. A quarter of a buffer waiting is written at once.
 */
static const struct timespec al_linger = {.tv_sec = 0, .tv_nsec = 20000000};

/* Longest line; a longer path or user agent is cut (at a character). */
#define AL_LINE_MAX 4096
/* Most bytes of one path or user agent, before escaping. */
#define AL_FIELD_MAX 1024
/* Bytes of a field copied one at a time before its length is worked out. */
#define AL_QUICK 64

/*
 * The lines of one thread, in a ring of `cap` bytes: byte i of the stream
 * is ring[i % cap]. Positions only grow (64 bits: they never wrap). Lines
 * are appended by that thread alone (head); the bytes up to `taken` are
 * claimed (by the writer, to write them; by an event, copied into the
 * queue), and those up to `tail` are done with, so their room is free. A
 * thread that ends leaves its ring to the next thread that logs.
 */
struct al_thread {
	/* The producer's: head written by the ring's thread alone. */
	atomic_uint_fast64_t head; /* end of the lines appended */
	char *ring;		   /* cap bytes */
	size_t cap;
	/* The consumer's, a cache line away: under the log's mu. */
	char apart[64];
	atomic_uint_fast64_t tail;     /* bytes before it may be overwritten */
	uint64_t taken;		       /* bytes before it are claimed */
	uint64_t claim_from, claim_to; /* what the writer writes now */
	bool writing;		       /* the writer holds a claim */
	bool orphan;		       /* its thread ended */
	struct al_thread *next;	       /* the log's list, newest first; never unlinked */
	struct http_accesslog *log;
};

struct http_accesslog {
	enum http_log_format format;
	int fd;			      /* written by the writer thread only */
	size_t cap;		      /* bytes of each thread's buffer, and of the queue */
	pthread_key_t key;	      /* each thread's al_thread */
	pthread_mutex_t mu;	      /* guards threads, queue, stopping */
	pthread_cond_t ready;	      /* lines wait, or stopping */
	pthread_cond_t room;	      /* the queue was taken */
	struct al_thread *threads;    /* every buffer, newest first */
	char *queue;		      /* events and the lines logged before them */
	size_t queue_len;	      /* bytes in queue */
	size_t queue_cap;	      /* bytes allocated for queue */
	char *queue_spare;	      /* the writer's while it writes it */
	size_t queue_spare_len;	      /* bytes of queue_spare to write */
	size_t queue_spare_cap;	      /* bytes allocated for queue_spare */
	atomic_bool idle;	      /* the writer waits on `ready` (seq_cst: see al_wake) */
	bool stopping;		      /* free has begun: write what is left, end */
	atomic_uint_fast64_t dropped; /* request lines that did not fit */
	pthread_t thread;	      /* the writer */
};

bool http_log_format_parse(const char *text, enum http_log_format *format)
{
	static const enum http_log_format all[] = {HTTP_LOG_JSON, HTTP_LOG_TEXT, HTTP_LOG_OFF};
	for (size_t i = 0; text && i < sizeof all / sizeof all[0]; i++)
		if (strcmp(text, http_log_format_name(all[i])) == 0) {
			*format = all[i];
			return true;
		}
	return false;
}

const char *http_log_format_name(enum http_log_format format)
{
	switch (format) {
	case HTTP_LOG_JSON:
		return "json";
	case HTTP_LOG_TEXT:
		return "text";
	case HTTP_LOG_OFF:
		return "off";
	}
	return "json";
}

/* --- one line ------------------------------------------------------------- */

/* A line being formatted into `cap` bytes at s; `full` once it ran out. */
struct al_line {
	char *s;
	size_t len;
	size_t cap; /* at most AL_LINE_MAX */
	bool full;
};

static void __attribute__((format(printf, 2, 3))) al_printf(struct al_line *l, const char *fmt, ...)
{
	if (l->full)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(l->s + l->len, l->cap - l->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= l->cap - l->len)
		l->full = true;
	else
		l->len += (size_t)n;
}

/* Appends n bytes as they are; the line is full when they do not fit. */
static void al_put(struct al_line *l, const char *s, size_t n)
{
	if (l->full || n >= l->cap - l->len) {
		l->full = true;
		return;
	}
	memcpy(l->s + l->len, s, n);
	l->len += n;
}

/* Appends a string literal. */
#define AL_LIT(l, lit) al_put((l), (lit), sizeof(lit) - 1)

/* Appends v in decimal, at least `width` (<= 3) digits, zeros in front. */
static void al_uint(struct al_line *l, uint64_t v, unsigned width)
{
	if (l->full || l->cap - l->len <= CODEC_DECIMAL_MAX + 3) {
		char digits[CODEC_DECIMAL_MAX];
		size_t n = codec_decimal_write(v, digits);
		if (n < width)
			al_put(l, "000", width - n);
		al_put(l, digits, n);
		return;
	}
	/* Room for any number: its digits go straight into the line. */
	char *out = l->s + l->len;
	if (width == 3 && v < 1000) { /* milliseconds: three digits at once */
		unsigned u = (unsigned)v;
		out[0] = (char)('0' + u / 100);
		out[1] = (char)('0' + u / 10 % 10);
		out[2] = (char)('0' + u % 10);
		l->len += 3;
		return;
	}
	if (width > 1 && v < 10)
		*out++ = '0';
	if (width > 2 && v < 100)
		*out++ = '0';
	out += codec_decimal_write(v, out);
	l->len = (size_t)(out - l->s);
}

/* Appends a duration in milliseconds with three decimals: "1.234". */
static void al_millis(struct al_line *l, uint64_t ns)
{
	al_uint(l, ns / 1000000u, 1);
	AL_LIT(l, ".");
	al_uint(l, ns / 1000u % 1000u, 3);
}

/* Whether byte c goes into a line as it is, in either format: printable
 * ASCII other than '"' and '\\' (a table: one load a byte). */
/* clang-format off */
static const unsigned char al_plain[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};
/* clang-format on */

/* Whether the word x holds a control, '"', '\\', DEL or a byte past
 * ASCII (exact tests of a whole word for a byte below a value or equal to
 * one). */
static bool al_word_unplain(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
	uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');
	uint64_t control = (x - ones * 0x20) & ~x & high; /* a byte below 0x20 */
	uint64_t top = (((x & ~high) + ones) | x) & high; /* a byte 0x7f or above */
	uint64_t quote = (q - ones) & ~q & high;	  /* a '"' */
	uint64_t backslash = (b - ones) & ~b & high;	  /* a '\\' */
	return (control | top | quote | backslash) != 0;
}

static uint64_t al_load8(const unsigned char *u)
{
	uint64_t x;
	memcpy(&x, u, sizeof x);
	return x;
}

/*
 * How many of the n bytes at u go into a line as they are (al_plain), from
 * the first: eight at a time while none of the eight is to be escaped,
 * then byte by byte.
 */
static size_t al_plain_run(const unsigned char *u, size_t n)
{
	size_t i = 0;
	for (; n - i >= 8; i += 8)
		if (al_word_unplain(al_load8(u + i)))
			break;
	while (i < n && al_plain[u[i]])
		i++;
	return i;
}

/* Whether all n bytes at u go into a line as they are: al_plain_run() ==
 * n, the last bytes read as a word ending at the last byte (four bytes,
 * twice, for a string of four to seven; one by one below four). */
static bool al_all_plain(const unsigned char *u, size_t n)
{
	if (n >= 8) {
		size_t i = 0;
		for (; n - i >= 8; i += 8)
			if (al_word_unplain(al_load8(u + i)))
				return false;
		return i == n || !al_word_unplain(al_load8(u + n - 8));
	}
	if (n >= 4) {
		uint32_t a, b;
		memcpy(&a, u, sizeof a);
		memcpy(&b, u + n - 4, sizeof b);
		return !al_word_unplain((uint64_t)a << 32 | b);
	}
	for (size_t i = 0; i < n; i++)
		if (!al_plain[u[i]])
			return false;
	return true;
}

/*
 * Appends at most AL_FIELD_MAX bytes of s: for JSON as the inside of a
 * string (", \ and controls escaped, a byte that is not UTF-8 as U+FFFD),
 * for text with ", \, controls and non-UTF-8 bytes as \xHH.
 */
static void al_string(struct al_line *l, const char *s, bool json)
{
	const unsigned char *u = (const unsigned char *)s;
	if (l->full)
		return;
	/*
	 * Most fields are short and plain: their first AL_QUICK bytes are
	 * copied one at a time while plain, with no length worked out first
	 * (al_put's rule: a field leaves a byte of the line free). The rest of
	 * a longer field, or of one with a byte to escape, goes the way below.
	 */
	size_t room = l->cap - l->len;
	size_t quick = room > AL_QUICK ? AL_QUICK : room - (room > 0);
	char *out = l->s + l->len;
	size_t i = 0;
	while (i < quick && al_plain[u[i]]) {
		out[i] = (char)u[i];
		i++;
	}
	l->len += i;
	if (u[i] == '\0')
		return;
	u += i;
	size_t len = strnlen((const char *)u, AL_FIELD_MAX - i); /* bytes that may be taken */
	size_t taken = 0;
	while (*u && taken < len && !l->full) {
		size_t n = al_plain_run(u, len - taken);
		if (n > 0) { /* a run of plain bytes, copied at once */
			al_put(l, (const char *)u, n);
			u += n;
			taken += n;
			continue;
		}
		n = codec_utf8_char_len(u);
		if (n == 0) {
			if (json)
				al_printf(l, "\\ufffd");
			else
				al_printf(l, "\\x%02x", *u);
			n = 1;
		} else if (*u == '"' || *u == '\\') {
			al_printf(l, "\\%c", *u);
		} else if (*u < 0x20 || *u == 0x7f) {
			if (json)
				al_printf(l, "\\u%04x", *u);
			else
				al_printf(l, "\\x%02x", *u);
		} else if (l->len + n < l->cap) {
			memcpy(l->s + l->len, u, n);
			l->len += n;
		} else {
			l->full = true;
		}
		u += n;
		taken += n;
	}
}

/* The text of one second, "2026-01-31T12:34:56". */
struct al_second {
	time_t sec;    /* the second formatted; -1: none yet */
	size_t len;    /* bytes of text */
	char text[64]; /* its text, NUL-terminated (room for any year) */
};

/* RFC 3339 UTC time with milliseconds: 2026-01-31T12:34:56.789Z. Each
 * thread keeps the text of the last second it wrote: requests come many a
 * second, and the calendar is worked out once a second. */
static const struct al_second *al_second_of(time_t sec)
{
	static _Thread_local struct al_second last = {.sec = -1};
	if (sec != last.sec || last.sec == -1) {
		struct tm tm;
		gmtime_r(&sec, &tm);
		int n = snprintf(last.text, sizeof last.text, "%04d-%02d-%02dT%02d:%02d:%02d",
				 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
				 tm.tm_min, tm.tm_sec);
		last.len = n > 0 && (size_t)n < sizeof last.text ? (size_t)n : 0;
		last.sec = sec;
	}
	return &last;
}

static void al_time(struct al_line *l, const struct timespec *ts)
{
	const struct al_second *second = al_second_of(ts->tv_sec);
	al_put(l, second->text, second->len);
	AL_LIT(l, ".");
	al_uint(l, (uint64_t)ts->tv_nsec / 1000000u, 3);
	AL_LIT(l, "Z");
}

/* A string literal and its length. */
struct al_text {
	const char *s;
	size_t n;
};
#define AL_TEXT(lit)                                                                               \
	{                                                                                          \
		(lit), sizeof(lit) - 1                                                             \
	}

/* What comes before each figure of a line, and after the last. */
struct al_figures {
	struct al_text status;
	struct al_text bytes_in;
	struct al_text bytes_out;
	struct al_text duration_ms;
	struct al_text after;
};

/* Appends status, bytes in, bytes out and duration, each after its text.
 * Inlined where `f` is a constant, so that each text is copied as one. */
static inline __attribute__((always_inline)) void
al_put_figures(struct al_line *l, const struct http_access_entry *e, const struct al_figures *f)
{
	al_put(l, f->status.s, f->status.n);
	al_uint(l, e->status, 1);
	al_put(l, f->bytes_in.s, f->bytes_in.n);
	al_uint(l, e->bytes_in, 1);
	al_put(l, f->bytes_out.s, f->bytes_out.n);
	al_uint(l, e->bytes_out, 1);
	al_put(l, f->duration_ms.s, f->duration_ms.n);
	al_millis(l, e->duration_ns);
	al_put(l, f->after.s, f->after.n);
}

/* Appends a field that never needs escaping, in either format (the id,
 * the address, the route: accesslog.h), as it is; NULL as "-". */
static void al_word(struct al_line *l, const char *s)
{
	s = s ? s : "-";
	al_put(l, s, strlen(s));
}

static void al_format_json(struct al_line *l, const struct http_access_entry *e)
{
	static const struct al_figures json = {
	    .status = AL_TEXT("\",\"status\":"),
	    .bytes_in = AL_TEXT(",\"bytes_in\":"),
	    .bytes_out = AL_TEXT(",\"bytes_out\":"),
	    .duration_ms = AL_TEXT(",\"duration_ms\":"),
	    .after = AL_TEXT(""),
	};
	AL_LIT(l, "{\"time\":\"");
	al_time(l, &e->start);
	AL_LIT(l, "\",\"request_id\":\"");
	al_word(l, e->request_id ? e->request_id : "");
	AL_LIT(l, "\",\"client\":\"");
	al_word(l, e->client);
	AL_LIT(l, "\",\"method\":\"");
	al_string(l, e->method ? e->method : "", true);
	AL_LIT(l, "\",\"route\":\"");
	al_word(l, e->route);
	AL_LIT(l, "\",\"path\":\"");
	al_string(l, e->path ? e->path : "", true);
	al_put_figures(l, e, &json);
	if (e->user_agent) {
		AL_LIT(l, ",\"user_agent\":\"");
		al_string(l, e->user_agent, true);
		AL_LIT(l, "\"");
	} else {
		AL_LIT(l, ",\"user_agent\":null");
	}
	AL_LIT(l, "}\n");
}

static void al_format_text(struct al_line *l, const struct http_access_entry *e)
{
	static const struct al_figures text = {
	    .status = AL_TEXT("\" "),
	    .bytes_in = AL_TEXT(" "),
	    .bytes_out = AL_TEXT(" "),
	    .duration_ms = AL_TEXT(" "),
	    .after = AL_TEXT("ms "),
	};
	al_time(l, &e->start);
	AL_LIT(l, " ");
	al_word(l, e->request_id);
	AL_LIT(l, " ");
	al_word(l, e->client);
	AL_LIT(l, " \"");
	al_string(l, e->method ? e->method : "", false);
	AL_LIT(l, " ");
	al_string(l, e->path ? e->path : "", false);
	al_put_figures(l, e, &text);
	al_word(l, e->route);
	AL_LIT(l, " \"");
	al_string(l, e->user_agent ? e->user_agent : "-", false);
	AL_LIT(l, "\"\n");
}

/*
 * The fast way of a line: when the longest line its fields could make fits
 * (al_fields_fit()), it is written with no check of the room on the way;
 * else the checked way above writes it (and drops it when it does not
 * fit). Both give the same bytes, which a test holds on random fields:
 * here the strings are measured once, a plain one is copied at once, and
 * one with a byte to escape goes through al_string() with room to spare.
 */
struct al_fields {
	const char *id, *client, *method, *route, *path, *agent; /* NULL made "" or "-" */
	size_t n_id, n_client, n_method, n_route, n_path, n_agent;
};

/* Bytes of a line besides its six strings: the names and punctuation, four
 * numbers of at most 20 digits, the time (at most 63 + 5). */
#define AL_FIXED_MAX 512

static void al_fields_of(const struct http_access_entry *e, bool json, struct al_fields *f)
{
	f->id = e->request_id ? e->request_id : json ? "" : "-";
	f->client = e->client ? e->client : "-";
	f->method = e->method ? e->method : "";
	f->route = e->route ? e->route : "-";
	f->path = e->path ? e->path : "";
	f->agent = e->user_agent ? e->user_agent : json ? NULL : "-";
	f->n_id = strlen(f->id);
	f->n_client = strlen(f->client);
	f->n_route = strlen(f->route);
	f->n_method = strnlen(f->method, AL_FIELD_MAX);
	f->n_path = strnlen(f->path, AL_FIELD_MAX);
	f->n_agent = f->agent ? strnlen(f->agent, AL_FIELD_MAX) : 0;
}

/* Whether the longest line of these fields fits in cap bytes, with a byte
 * to spare: an escaped string takes at most 6 bytes a byte, of at most
 * AL_FIELD_MAX bytes and the rest of a character cut there. */
static bool al_fields_fit(const struct al_fields *f, size_t cap)
{
	size_t escaped = f->n_method + f->n_path + f->n_agent + 3 * 4;
	return AL_FIXED_MAX + f->n_id + f->n_client + f->n_route + 6 * escaped < cap;
}

#define AF_LIT(p, lit) ((p) = (char *)memcpy((p), (lit), sizeof(lit) - 1) + sizeof(lit) - 1)

static char *af_put(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

static char *af_uint(char *p, uint64_t v)
{
	return p + codec_decimal_write(v, p);
}

/* v < 1000 as three digits, zeros in front. */
static char *af_three(char *p, unsigned v)
{
	p[0] = (char)('0' + v / 100);
	p[1] = (char)('0' + v / 10 % 10);
	p[2] = (char)('0' + v % 10);
	return p + 3;
}

/* A status: three digits at once (every status an HTTP answer has). */
static char *af_status(char *p, unsigned status)
{
	return status >= 100 && status <= 999 ? af_three(p, status) : af_uint(p, status);
}

static char *af_time(char *p, const struct timespec *ts)
{
	const struct al_second *second = al_second_of(ts->tv_sec);
	p = af_put(p, second->text, second->len);
	*p++ = '.';
	p = af_three(p, (unsigned)(ts->tv_nsec / 1000000));
	*p++ = 'Z';
	return p;
}

static char *af_millis(char *p, uint64_t ns)
{
	p = af_uint(p, ns / 1000000u);
	*p++ = '.';
	return af_three(p, (unsigned)(ns / 1000u % 1000u));
}

/* A string with a byte to escape, as al_string() writes it. */
static __attribute__((noinline)) char *af_escaped(char *p, const char *s, bool json)
{
	struct al_line sub = {.s = p, .len = 0, .cap = 6 * (AL_FIELD_MAX + 4) + 1};
	al_string(&sub, s, json);
	return p + sub.len;
}

/* The n bytes of s measured by al_fields_of(), as al_string() writes them. */
static char *af_string(char *p, const char *s, size_t n, bool json)
{
	if (al_all_plain((const unsigned char *)s, n))
		return af_put(p, s, n);
	return af_escaped(p, s, json);
}

static char *af_json(char *p, const struct http_access_entry *e, const struct al_fields *f)
{
	AF_LIT(p, "{\"time\":\"");
	p = af_time(p, &e->start);
	AF_LIT(p, "\",\"request_id\":\"");
	p = af_put(p, f->id, f->n_id);
	AF_LIT(p, "\",\"client\":\"");
	p = af_put(p, f->client, f->n_client);
	AF_LIT(p, "\",\"method\":\"");
	p = af_string(p, f->method, f->n_method, true);
	AF_LIT(p, "\",\"route\":\"");
	p = af_put(p, f->route, f->n_route);
	AF_LIT(p, "\",\"path\":\"");
	p = af_string(p, f->path, f->n_path, true);
	AF_LIT(p, "\",\"status\":");
	p = af_status(p, e->status);
	AF_LIT(p, ",\"bytes_in\":");
	p = af_uint(p, e->bytes_in);
	AF_LIT(p, ",\"bytes_out\":");
	p = af_uint(p, e->bytes_out);
	AF_LIT(p, ",\"duration_ms\":");
	p = af_millis(p, e->duration_ns);
	if (f->agent) {
		AF_LIT(p, ",\"user_agent\":\"");
		p = af_string(p, f->agent, f->n_agent, true);
		AF_LIT(p, "\"}\n");
	} else {
		AF_LIT(p, ",\"user_agent\":null}\n");
	}
	return p;
}

static char *af_text(char *p, const struct http_access_entry *e, const struct al_fields *f)
{
	p = af_time(p, &e->start);
	*p++ = ' ';
	p = af_put(p, f->id, f->n_id);
	*p++ = ' ';
	p = af_put(p, f->client, f->n_client);
	AF_LIT(p, " \"");
	p = af_string(p, f->method, f->n_method, false);
	*p++ = ' ';
	p = af_string(p, f->path, f->n_path, false);
	AF_LIT(p, "\" ");
	p = af_status(p, e->status);
	*p++ = ' ';
	p = af_uint(p, e->bytes_in);
	*p++ = ' ';
	p = af_uint(p, e->bytes_out);
	*p++ = ' ';
	p = af_millis(p, e->duration_ns);
	AF_LIT(p, "ms ");
	p = af_put(p, f->route, f->n_route);
	AF_LIT(p, " \"");
	p = af_string(p, f->agent, f->n_agent, false);
	AF_LIT(p, "\"\n");
	return p;
}

size_t http_accesslog_line(enum http_log_format format, const struct http_access_entry *e,
			   char *buf, size_t cap, bool checked)
{
	if (format != HTTP_LOG_JSON && format != HTTP_LOG_TEXT)
		return 0;
	bool json = format == HTTP_LOG_JSON;
	cap = cap < AL_LINE_MAX ? cap : AL_LINE_MAX;
	if (!checked) {
		struct al_fields f;
		al_fields_of(e, json, &f);
		if (al_fields_fit(&f, cap))
			return (size_t)((json ? af_json(buf, e, &f) : af_text(buf, e, &f)) - buf);
	}
	struct al_line l = {.s = buf, .len = 0, .cap = cap};
	if (json)
		al_format_json(&l, e);
	else
		al_format_text(&l, e);
	return l.full ? 0 : l.len;
}

/* --- the buffers and their writer ---------------------------------------- */

/* Writes all n bytes, unless fd fails (then the rest is lost). */
static void al_write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

/* Bytes waiting in the queue and, unclaimed, in every thread's ring.
 * Holds log->mu. */
static size_t al_pending_locked(struct http_accesslog *log)
{
	size_t n = log->queue_len;
	for (struct al_thread *t = log->threads; t; t = t->next)
		n += (size_t)(atomic_load_explicit(&t->head, memory_order_acquire) - t->taken);
	return n;
}

/* The bytes of ring t from `from` to `to` (at most its cap), as one or two
 * spans: *a of *na bytes, then *b of *nb (0 when it does not wrap). */
static void al_ring_spans(const struct al_thread *t, uint64_t from, uint64_t to, const char **a,
			  size_t *na, const char **b, size_t *nb)
{
	size_t at = (size_t)(from % t->cap), n = (size_t)(to - from);
	size_t first = n < t->cap - at ? n : t->cap - at;
	*a = t->ring + at;
	*na = first;
	*b = t->ring;
	*nb = n - first;
}

/* Room for n more bytes in the queue (grown as needed). Holds log->mu. */
static bool al_queue_reserve(struct http_accesslog *log, size_t n)
{
	if (n <= log->queue_cap - log->queue_len)
		return true;
	if (n > SIZE_MAX - log->queue_len - log->cap)
		return false;
	size_t cap = log->queue_len + n + log->cap;
	char *q = dj_realloc(log->queue, cap);
	if (!q)
		return false;
	log->queue = q;
	log->queue_cap = cap;
	return true;
}

/* Appends n bytes to the queue; false (nothing appended) when it cannot
 * grow. Holds log->mu. */
static bool al_queue_put(struct http_accesslog *log, const char *s, size_t n)
{
	if (n == 0)
		return true;
	if (!al_queue_reserve(log, n))
		return false;
	memcpy(log->queue + log->queue_len, s, n);
	log->queue_len += n;
	return true;
}

/*
 * Copies every thread's unclaimed lines to the end of the queue, so that
 * what is appended to the queue next is written after them. Holds log->mu.
 * Lines that cannot be copied for want of memory stay where they are.
 */
static void al_gather_locked(struct http_accesslog *log)
{
	for (struct al_thread *t = log->threads; t; t = t->next) {
		uint64_t head = atomic_load_explicit(&t->head, memory_order_acquire);
		const char *a, *b;
		size_t na, nb;
		al_ring_spans(t, t->taken, head, &a, &na, &b, &nb);
		if (!al_queue_reserve(log, na + nb))
			continue;
		al_queue_put(log, a, na);
		al_queue_put(log, b, nb);
		t->taken = head;
		if (!t->writing) /* else the writer frees the room when it is done */
			atomic_store_explicit(&t->tail, head, memory_order_release);
	}
}

/*
 * Takes what waits for the writer: the queue, then each thread's lines
 * (claimed up to the ring's head). Holds log->mu; returns the newest ring
 * claimed, from which the writer walks the list without the lock (the list
 * only grows at its head).
 */
static struct al_thread *al_take_locked(struct http_accesslog *log)
{
	char *q = log->queue_spare;
	size_t qcap = log->queue_spare_cap;
	log->queue_spare = log->queue;
	log->queue_spare_len = log->queue_len;
	log->queue_spare_cap = log->queue_cap;
	log->queue = q;
	log->queue_len = 0;
	log->queue_cap = qcap;
	for (struct al_thread *t = log->threads; t; t = t->next) {
		t->claim_from = t->taken;
		t->claim_to = atomic_load_explicit(&t->head, memory_order_acquire);
		t->taken = t->claim_to;
		t->writing = true;
	}
	pthread_cond_broadcast(&log->room);
	return log->threads;
}

/* The writer is done with its claims: their room is free. Holds log->mu. */
static void al_release_locked(struct al_thread *threads)
{
	for (struct al_thread *t = threads; t; t = t->next) {
		t->writing = false;
		atomic_store_explicit(&t->tail, t->taken, memory_order_release);
	}
}

/* Writes what al_take_locked() took, queue first. Without log->mu. */
static void al_write_taken(struct http_accesslog *log, struct al_thread *threads)
{
	al_write_all(log->fd, log->queue_spare, log->queue_spare_len);
	log->queue_spare_len = 0;
	for (struct al_thread *t = threads; t; t = t->next) {
		/* the claim is the writer's alone: no one writes there until tail passes it */
		const char *a, *b;
		size_t na, nb;
		al_ring_spans(t, t->claim_from, t->claim_to, &a, &na, &b, &nb);
		al_write_all(log->fd, a, na);
		al_write_all(log->fd, b, nb);
	}
}

/*
 * Waits, idle, for `ready`, or AL_IDLE_WAKE at most. A thread that
 * appends to an empty ring wakes the writer (al_wake); the wake is only
 * skipped when that thread saw the ring's last claim late, and the lines
 * then wait for the next line or the next of these wakes. Holds log->mu.
 */
#define AL_IDLE_WAKE_NS 100000000L
static void al_wait_idle(struct http_accesslog *log)
{
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += AL_IDLE_WAKE_NS;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_nsec -= 1000000000L;
		until.tv_sec++;
	}
	pthread_cond_timedwait(&log->ready, &log->mu, &until);
}

static void *al_writer(void *arg)
{
	struct http_accesslog *log = arg;
	pthread_mutex_lock(&log->mu);
	for (;;) {
		size_t pending = al_pending_locked(log);
		if (pending == 0 && !log->stopping) {
			/*
			 * Idle, announced before looking once more: a thread that
			 * appends after that look sees the flag and signals, and
			 * its signal waits for this wait (it takes log->mu).
			 */
			atomic_store(&log->idle, true);
			pending = al_pending_locked(log);
			if (pending == 0)
				al_wait_idle(log);
			atomic_store(&log->idle, false);
			continue;
		}
		if (pending == 0)
			break; /* stopping, and all written */
		if (!log->stopping && pending < log->cap / 4) {
			/*
			 * Let more lines gather before writing: under load one
			 * write then carries hundreds of lines, and the requests
			 * meanwhile never wake this thread.
			 */
			pthread_mutex_unlock(&log->mu);
			nanosleep(&al_linger, NULL);
			pthread_mutex_lock(&log->mu);
		}
		struct al_thread *taken = al_take_locked(log);
		pthread_mutex_unlock(&log->mu);
		al_write_taken(log, taken);
		pthread_mutex_lock(&log->mu);
		al_release_locked(taken);
	}
	pthread_mutex_unlock(&log->mu);
	return NULL;
}

/* The key's destructor: the thread ends; its buffer waits for another. */
static void al_thread_orphan(void *p)
{
	struct al_thread *t = p;
	pthread_mutex_lock(&t->log->mu);
	t->orphan = true;
	pthread_mutex_unlock(&t->log->mu);
}

/* The calling thread's buffer: its own, one a thread that ended left, or
 * a new one. NULL when out of memory. */
static struct al_thread *al_thread_of_caller(struct http_accesslog *log)
{
	struct al_thread *t = pthread_getspecific(log->key);
	if (t)
		return t;
	pthread_mutex_lock(&log->mu);
	for (t = log->threads; t && !t->orphan; t = t->next)
		;
	if (t) {
		t->orphan = false;
	} else {
		t = dj_malloc(sizeof *t);
		char *ring = dj_malloc(log->cap);
		if (!t || !ring) {
			dj_free(ring);
			dj_free(t);
			pthread_mutex_unlock(&log->mu);
			return NULL;
		}
		memset(t, 0, sizeof *t);
		atomic_init(&t->head, 0);
		atomic_init(&t->tail, 0);
		t->ring = ring;
		t->cap = log->cap;
		t->log = log;
		t->next = log->threads;
		log->threads = t;
	}
	pthread_mutex_unlock(&log->mu);
	if (pthread_setspecific(log->key, t) != 0) {
		al_thread_orphan(t);
		return NULL;
	}
	return t;
}

/* Wakes the writer if it waits: after lines were added to an empty ring.
 * The fence orders the head just published before the read of `idle`, as
 * the writer's store of `idle` comes before its look at the heads: one of
 * the two sees the other. */
static void al_wake(struct http_accesslog *log)
{
	atomic_thread_fence(memory_order_seq_cst);
	if (!atomic_load(&log->idle))
		return;
	pthread_mutex_lock(&log->mu);
	pthread_cond_signal(&log->ready);
	pthread_mutex_unlock(&log->mu);
}

/*
 * When fd is a pipe (a container runtime's, a log collector's), asks the
 * kernel for a pipe that holds AL_PIPE bytes, so that a writer's batch of
 * lines goes in one write rather than in turns with the reader every 64
 * KiB. Best effort: the pipe stays as it is when the kernel says no.
 */
#define AL_PIPE (1 << 20)
static void al_grow_pipe(int fd)
{
#ifdef F_SETPIPE_SZ
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode))
		return;
	int size = fcntl(fd, F_GETPIPE_SZ);
	if (size >= 0 && size < AL_PIPE)
		(void)fcntl(fd, F_SETPIPE_SZ, AL_PIPE);
#else
	(void)fd;
#endif
}

struct http_accesslog *http_accesslog_new(enum http_log_format format, int fd, size_t buffer)
{
	struct http_accesslog *log = dj_calloc(1, sizeof *log);
	if (!log)
		return NULL;
	log->format = format;
	log->fd = fd;
	if (format != HTTP_LOG_OFF)
		al_grow_pipe(fd);
	log->cap = buffer < AL_LINE_MAX ? AL_LINE_MAX : buffer;
	atomic_init(&log->dropped, 0);
	atomic_init(&log->idle, false);
	if (pthread_key_create(&log->key, al_thread_orphan) != 0)
		goto out_log;
	if (pthread_mutex_init(&log->mu, NULL) != 0)
		goto out_key;
	if (pthread_cond_init(&log->ready, NULL) != 0)
		goto out_mutex;
	if (pthread_cond_init(&log->room, NULL) != 0)
		goto out_ready;
	if (pthread_create(&log->thread, NULL, al_writer, log) != 0)
		goto out_room;
	return log;

out_room:
	pthread_cond_destroy(&log->room);
out_ready:
	pthread_cond_destroy(&log->ready);
out_mutex:
	pthread_mutex_destroy(&log->mu);
out_key:
	pthread_key_delete(log->key);
out_log:
	dj_free(log);
	return NULL;
}

enum http_log_format http_accesslog_format(const struct http_accesslog *log)
{
	return log ? log->format : HTTP_LOG_OFF;
}

void http_accesslog_request(struct http_accesslog *log, const struct http_access_entry *e)
{
	if (!log || log->format == HTTP_LOG_OFF)
		return;
	struct al_thread *t = al_thread_of_caller(log);
	if (!t) {
		atomic_fetch_add_explicit(&log->dropped, 1, memory_order_relaxed);
		return;
	}
	/* This thread alone writes head; the consumer's cursor only grows, so
	 * the room seen here is there. */
	uint64_t head = atomic_load_explicit(&t->head, memory_order_relaxed);
	uint64_t tail = atomic_load_explicit(&t->tail, memory_order_acquire);
	size_t room = t->cap - (size_t)(head - tail);
	size_t at = (size_t)(head % t->cap);
	size_t len;
	if (room <= t->cap - at || t->cap - at >= AL_LINE_MAX) {
		/* room, up to a line's most, without the ring's end: in place */
		size_t cap = room < t->cap - at ? room : t->cap - at;
		len = http_accesslog_line(log->format, e, t->ring + at, cap, false);
	} else {
		/* near the ring's end: formatted aside, then copied around it */
		char line[AL_LINE_MAX];
		len = http_accesslog_line(log->format, e, line, room, false);
		size_t first = len < t->cap - at ? len : t->cap - at;
		memcpy(t->ring + at, line, first);
		memcpy(t->ring, line + first, len - first);
	}
	if (len == 0) {
		atomic_fetch_add_explicit(&log->dropped, 1, memory_order_relaxed);
		return;
	}
	atomic_store_explicit(&t->head, head + len, memory_order_release);
	if (head == tail) /* the ring was empty, as far as this thread saw */
		al_wake(log);
}

void http_accesslog_event(struct http_accesslog *log, const char *event, const char *message,
			  int text_fd)
{
	if (!log || log->format != HTTP_LOG_JSON) {
		al_write_all(text_fd, message, strlen(message));
		al_write_all(text_fd, "\n", 1);
		return;
	}
	char text[AL_LINE_MAX];
	struct al_line l = {.s = text, .len = 0, .cap = sizeof text};
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	al_printf(&l, "{\"time\":\"");
	al_time(&l, &now);
	al_printf(&l, "\",\"level\":\"%s\",\"event\":\"",
		  strcmp(event, "error") == 0 ? "error" : "info");
	al_string(&l, event, true);
	al_printf(&l, "\",\"msg\":\"");
	al_string(&l, message, true);
	al_printf(&l, "\"}\n");
	if (l.full)
		return;
	/*
	 * After every line logged before it: the threads' lines go to the
	 * queue first. Waits while the writer has not taken a full queue.
	 */
	pthread_mutex_lock(&log->mu);
	while (log->queue_len > log->cap && !log->stopping)
		pthread_cond_wait(&log->room, &log->mu);
	al_gather_locked(log);
	al_queue_put(log, l.s, l.len);
	pthread_cond_signal(&log->ready);
	pthread_mutex_unlock(&log->mu);
}

uint64_t http_accesslog_dropped(struct http_accesslog *log)
{
	return log ? atomic_load_explicit(&log->dropped, memory_order_relaxed) : 0;
}

void http_accesslog_free(struct http_accesslog *log)
{
	if (!log)
		return;
	pthread_mutex_lock(&log->mu);
	log->stopping = true;
	pthread_mutex_unlock(&log->mu);
	pthread_cond_broadcast(&log->ready);
	pthread_cond_broadcast(&log->room);
	pthread_join(log->thread, NULL);
	/* No destructor of the key runs after this: no thread may log now. */
	pthread_key_delete(log->key);
	pthread_cond_destroy(&log->room);
	pthread_cond_destroy(&log->ready);
	pthread_mutex_destroy(&log->mu);
	for (struct al_thread *t = log->threads, *next; t; t = next) {
		next = t->next;
		dj_free(t->ring);
		dj_free(t);
	}
	dj_free(log->queue);
	dj_free(log->queue_spare);
	dj_free(log);
}
