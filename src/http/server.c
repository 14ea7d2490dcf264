/* libmicrohttpd plumbing (server.h). Per-request state lives in the connection's con_cls and is
 * freed only by the request-completed callback, which also runs on errors, timeouts, aborts. */
#include "http/server.h"

#include <arpa/inet.h>
#include <malloc.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include "codec/error.h"
#include "http/auth.h"
#include "http/cache.h"
#include "http/clock.h"
#include "http/framing.h"
#include "http/guard.h"
#include "http/gzip.h"
#include "http/observe.h"
#include "http/ratelog.h"
#include "http/workers.h"
#include "mem/alloc.h"

/* First allocation for a body; it doubles from there as bytes arrive. */
#define HTTP_BODY_START 16384
/* A block up to KEEP_MAX bytes is kept for the thread's next body; a first is >= MIN. */
#define HTTP_BODY_KEEP_MAX HTTP_BODY_START
#define HTTP_BODY_MIN	   512
/* Unkept body bytes read and dropped (to answer at the end); past this the sender is cut off. */
#define HTTP_DISCARD_MAX ((size_t)64 << 20)
/* A body at least this large runs on the worker pool (http_is_heavy()). */
#define HTTP_HEAVY_BODY ((size_t)128 << 10)
/* glibc's heap thresholds, set once at start (why: PERFORMANCE.md). */
#define HTTP_MMAP_THRESHOLD (1024 * 1024)
#define HTTP_TRIM_THRESHOLD (256 * 1024)

/* Admission of heavy work: at most `total` queued or running on the pool, `per_client` from one
 * address, else 503 at once. One table, one lock, scanned whole; gone clients' places are free. */
struct http_heavy {
	pthread_mutex_t lock; /* guards places */
	unsigned total;	      /* places */
	unsigned per_client;  /* places one address may hold */
	struct {
		struct MHD_Connection *conn; /* NULL: the place is free */
		unsigned char addr[16];	     /* the address's bytes (4 for IPv4) */
		unsigned char len;	     /* bytes of addr; 0: unknown */
	} places[];
};

static struct http_heavy *http_heavy_new(unsigned total, unsigned per_client)
{
	struct http_heavy *h = dj_calloc(1, sizeof *h + total * sizeof h->places[0]);
	if (!h || pthread_mutex_init(&h->lock, NULL) != 0) {
		dj_free(h);
		return NULL;
	}
	h->total = total;
	h->per_client = per_client;
	return h;
}

/* Takes a place for conn until http_heavy_release(): false when the total or its share is full. */
static bool http_heavy_admit(struct http_heavy *h, struct MHD_Connection *conn)
{
	unsigned char addr[16];
	unsigned char len = http_client_address(conn, addr);
	pthread_mutex_lock(&h->lock);
	/* Past a limit, again once places of clients gone are given up (a syscall each). */
	for (int pass = 0; pass < 2; pass++) {
		unsigned free_place = h->total, mine = 0;
		for (unsigned i = 0; i < h->total; i++) {
			struct MHD_Connection *c = h->places[i].conn;
			if (pass == 1 && c && http_guard_client_gone(c))
				c = h->places[i].conn = NULL;
			if (!c)
				free_place = free_place < h->total ? free_place : i;
			else
				mine += len && h->places[i].len == len &&
					memcmp(h->places[i].addr, addr, len) == 0;
		}
		if (free_place < h->total && mine < h->per_client) {
			h->places[free_place].conn = conn;
			memcpy(h->places[free_place].addr, addr, len);
			h->places[free_place].len = len;
			pthread_mutex_unlock(&h->lock);
			return true;
		}
	}
	pthread_mutex_unlock(&h->lock);
	return false;
}

/* Gives back conn's place; nothing when it holds none. */
static void http_heavy_release(struct http_heavy *h, struct MHD_Connection *conn)
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

struct http_server {
	struct MHD_Daemon *daemon;     /* running daemon */
	unsigned port;		       /* port bound */
	struct route_limits limits;    /* read-only once started */
	struct http_auth *auth;	       /* bearer tokens or NULL; borrowed */
	struct http_heavy *heavy;      /* admission of heavy requests; owned */
	struct http_budget *budget;    /* answer bytes held; owned */
	struct http_cache *cache;      /* built packages; owned */
	struct MHD_Response *oom;      /* the 500 for out of memory, made at start */
	struct http_guard *guard;      /* admission and request deadlines */
	struct http_workers *workers;  /* runs the heavy requests */
	atomic_bool draining;	       /* shutdown has begun */
	struct http_observer observer; /* metrics and access log, not owned */
};

/* What one request accumulates between the calls of the access handler. */
struct http_request {
	struct http_target target;   /* the raw request target, seen before decoding */
	bool begun;		     /* the headers call has been made */
	bool heavy;		     /* holds a place of srv->heavy, for the worker pool */
	struct http_job job;	     /* the worker pool's link, when heavy */
	struct MHD_Connection *conn; /* resumed by the job */
	size_t held;		     /* bytes of the answer taken from srv->budget */
	atomic_bool answered;	     /* the job has filled resp */
	char *body;		     /* body kept so far, dj_malloc'ed, NULL while empty */
	size_t len;		     /* bytes in body */
	size_t cap;		     /* bytes allocated for body */
	size_t limit;		     /* most body bytes kept: the declared length, else max */
	size_t dropped;		     /* bytes of body read and not kept */
	enum route_status refused;   /* route_match() verdict; ROUTE_OK: keep the body */
	size_t max;		     /* bytes the body may have (route_body_limit()) */
	enum codec_status fault;     /* CODEC_OK, TOO_LARGE (past max), INTERNAL (no memory) */
	bool unread;		     /* answered before its body was read: closes, lingers */
	struct http_gunzip *gunzip;  /* inflater of a gzip body, or NULL */
	struct route_intake *intake; /* takes the body as it arrives, or NULL: kept */
	struct http_server *srv;     /* for the job */
	struct http_observed seen;   /* id, clock and answer, for metrics and the log */
	struct http_fields fields;   /* the header fields read, from the framing pass */
	/* Not zeroed when the state is set up: each is filled before it is read. */
	struct route_request req;   /* made by http_begin(), completed by http_finish() */
	struct route_response resp; /* the job's answer, owned until sent: only when heavy */
	/* Kept across the thread's requests: an earlier body's block, or NULL; owned. */
	char *body_block;
	size_t body_block_cap;
};

/* The thread's spare per-request state for its next request, freed when the thread ends. */
static pthread_key_t http_spare_key;
static pthread_once_t http_spare_once = PTHREAD_ONCE_INIT;

static void http_spare_free(void *rq)
{
	dj_free(((struct http_request *)rq)->body_block);
	dj_free(rq);
}

static void http_spare_create(void)
{
	if (pthread_key_create(&http_spare_key, http_spare_free) != 0)
		http_spare_key = (pthread_key_t)-1; /* nothing is kept */
}

/* Per-request state with its head zeroed: the thread's spare, or new. */
static struct http_request *http_request_new(void)
{
	struct http_request *rq = pthread_getspecific(http_spare_key);
	if (rq) {
		pthread_setspecific(http_spare_key, NULL);
	} else {
		rq = dj_malloc(sizeof *rq);
		if (!rq)
			return NULL;
		rq->body_block = NULL;
		rq->body_block_cap = 0;
	}
	memset(rq, 0, offsetof(struct http_request, req));
	return rq;
}

/* Keeps rq (whose parts are released) as the thread's spare, or frees it. */
static void http_request_free(struct http_request *rq)
{
	if (pthread_getspecific(http_spare_key) || pthread_setspecific(http_spare_key, rq) != 0)
		http_spare_free(rq);
}

/* libmicrohttpd's own messages (bind failures, resource limits) to stderr. */
static void __attribute__((format(printf, 2, 0))) http_log(void *cls, const char *fmt, va_list ap)
{
	(void)cls;
	char line[480];
	vsnprintf(line, sizeof line, fmt, ap); /* its final newline is dropped there */
	http_ratelog_event("libmicrohttpd", "libmicrohttpd: %s", line);
}

/* Content-Length when present without Transfer-Encoding, else -1; too large: LLONG_MAX. */
static long long http_content_length(const struct http_fields *f)
{
	const char *text = f->transfer_encoding ? NULL : f->content_length;
	if (!text)
		return -1;
	text += strspn(text, " \t");
	return *text >= '0' && *text <= '9' ? strtoll(text, NULL, 10) : -1;
}

/* MHD_KeyValueIterator: appends a query parameter, stops after ROUTE_MAX_PARAMS. */
static enum MHD_Result http_add_param(void *cls, enum MHD_ValueKind kind, const char *key,
				      const char *value)
{
	struct route_request *req = cls;
	(void)kind;
	if (req->nparams >= ROUTE_MAX_PARAMS)
		return MHD_NO;
	req->params[req->nparams].key = key;
	req->params[req->nparams].value = value ? value : "";
	req->nparams++;
	return MHD_YES;
}

/* route_request.metrics: the exposition text, with the log's, cache's and budget's figures. */
static char *http_metrics_text(void *ctx, size_t *len)
{
	struct http_server *srv = ctx;
	struct http_metrics_held h;
	http_cache_figures(srv->cache, &h);
	h.answer_bytes = http_budget_held(srv->budget);
	return http_metrics_render(srv->observer.metrics, http_accesslog_dropped(srv->observer.log),
				   &h, len);
}

/* Fills rq->req but for its body: header fields, query parameters, metrics and tally. */
static void http_route_request(struct http_server *srv, struct MHD_Connection *conn,
			       struct http_request *rq, const char *url, const char *method)
{
	struct route_request *req = &rq->req;
	const struct http_fields *f = &rq->fields;
	memset(req, 0, sizeof *req);
	req->method = method;
	req->path = url;
	req->content_type = f->content_type;
	req->accept = f->accept;
	req->content_encoding = f->content_encoding;
	req->origin = f->origin;
	req->limits = &srv->limits;
	req->draining = atomic_load(&srv->draining);
	req->auth = http_auth_check(srv->auth, f->authorization, f->authorizations);
	req->metrics = srv->observer.metrics ? http_metrics_text : NULL;
	req->metrics_ctx = srv;
	req->tally = &rq->seen.tally;
	MHD_get_connection_values(conn, MHD_GET_ARGUMENT_KIND, http_add_param, req);
}

/* The headers every answer carries: no type sniffing, never framed; an SVG
 * picture runs no script and loads nothing. False when out of memory. */
static bool http_add_defensive_headers(struct MHD_Response *r, const char *content_type)
{
	if (MHD_add_response_header(r, "X-Content-Type-Options", "nosniff") != MHD_YES ||
	    MHD_add_response_header(r, "X-Frame-Options", "DENY") != MHD_YES)
		return false;
	if (content_type && strncmp(content_type, "image/svg+xml", 13) == 0)
		return MHD_add_response_header(r, "Content-Security-Policy",
					       "default-src 'none'; style-src 'unsafe-inline'; "
					       "img-src data:; sandbox") == MHD_YES;
	return true;
}

/* The 500 for out of memory, made at start so that it is sent when nothing can be allocated. */
static struct MHD_Response *http_oom_response_new(void)
{
	size_t len;
	const char *body = route_oom_body(&len);
	struct MHD_Response *r =
	    MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_PERSISTENT);
	if (r && (MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
					  "application/problem+json") != MHD_YES ||
		  !http_add_defensive_headers(r, NULL))) {
		MHD_destroy_response(r);
		r = NULL;
	}
	return r;
}

/* Fills *resp with the problem answer of `status` (fmt: its detail), with
 * `request_id` (NULL: none) in its body, under `route_name` (NULL: unknown). */
static void __attribute__((format(printf, 5, 6)))
http_problem(struct route_response *resp, unsigned status, const char *request_id,
	     const char *route_name, const char *fmt, ...)
{
	struct codec_error err;
	va_list ap;
	codec_error_init(&err);
	va_start(ap, fmt);
	codec_error_vadd(&err, status, NULL, fmt, ap);
	va_end(ap);
	route_error_response_id(&err, request_id, resp);
	if (route_name)
		resp->route_name = route_name;
}

/* The route table's name of the request's resource; NULL when unknown. */
static const char *http_entry_name(const struct http_request *rq)
{
	return rq->req.entry ? rq->req.entry->name : NULL;
}

/* Bytes of a streamed answer asked of the route at a time. */
#define HTTP_STREAM_BLOCK ((size_t)65536)

/* What an answer's MHD response owns until libmicrohttpd is done with it: a stream and the
 * request body it reads, or a built body and its bytes of the budget. */
struct http_owned {
	struct route_stream s;	    /* the stream; .read NULL: none */
	char *body;		    /* dj_malloc'ed, freed with the record */
	uint64_t *sent;		    /* the request's count of body bytes sent, added to */
	struct http_budget *budget; /* given back `bytes` */
	size_t bytes;
};

/* MHD_ContentReaderCallback of a streamed answer. */
static ssize_t http_stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct http_owned *o = cls;
	(void)pos;
	long n = o->s.read(o->s.ctx, buf, max);
	if (n > 0) {
		*o->sent += (uint64_t)n;
		return (ssize_t)n;
	}
	return n == 0 ? MHD_CONTENT_READER_END_OF_STREAM : MHD_CONTENT_READER_END_WITH_ERROR;
}

/* MHD_ContentReaderFreeCallback: also runs when the client goes away. */
static void http_owned_free(void *cls)
{
	struct http_owned *o = cls;
	if (o->s.free)
		o->s.free(o->s.ctx);
	if (o->bytes)
		http_budget_give(o->budget, o->bytes);
	dj_free(o->body);
	dj_free(o);
}

/* The MHD response of resp's stream, taking it and rq->body, or of its dynamic body, taking it
 * (resp->body NULL) and `held` bytes of the budget; NULL when out of memory, nothing taken. */
static struct MHD_Response *http_owned_response(struct http_server *srv, struct http_request *rq,
						struct route_response *resp, size_t held)
{
	struct http_owned *o = dj_malloc(sizeof *o);
	if (!o)
		return NULL;
	bool stream = resp->stream.read != NULL;
	*o = (struct http_owned){.s = resp->stream,
				 .body = stream ? rq->body : resp->body,
				 .sent = &rq->seen.line.bytes_out,
				 .budget = srv->budget,
				 .bytes = held};
	struct MHD_Response *r =
	    stream ? MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, HTTP_STREAM_BLOCK,
						       http_stream_read, o, http_owned_free)
		   : MHD_create_response_from_buffer_with_free_callback_cls(
			 resp->body_len, resp->body, http_owned_free, o);
	if (!r) {
		dj_free(o);
		return NULL;
	}
	if (stream) {
		resp->stream = (struct route_stream){.read = NULL};
		rq->body = NULL;
		rq->cap = 0;
	} else {
		resp->body = NULL;
	}
	return r;
}

/* MHD_ContentReaderCallback of a HEAD answer, which has no body to send. */
static ssize_t http_head_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	(void)cls;
	(void)pos;
	(void)buf;
	(void)max;
	return MHD_CONTENT_READER_END_WITH_ERROR;
}

static bool http_method_is(const struct route_request *req, const char *method)
{
	return req->method && strcmp(req->method, method) == 0;
}

/* Whether the request's answer is kept by the package cache. */
static bool http_cacheable(const struct route_request *req)
{
	return req->entry && req->entry->cached &&
	       (http_method_is(req, "GET") || http_method_is(req, "HEAD")) &&
	       (req->auth == ROUTE_AUTH_OK || !req->entry->auth) && !req->draining;
}

/* Makes resp ready to send on the thread that built it (a worker when heavy): caches a built
 * package, gzips for a client that takes it, takes the body's bytes from the budget (into
 * rq->held) or past it answers 503 instead. */
static void http_prepare(struct http_server *srv, struct http_request *rq,
			 struct route_response *resp)
{
	char key[1024];
	rq->held = 0;
	/* Built on a worker (rq->req whole): a package the cache keeps. */
	if (rq->heavy && resp->status == 200 && http_cacheable(&rq->req) &&
	    http_method_is(&rq->req, "GET") && !resp->head_only &&
	    http_cache_key(&rq->req, rq->fields.accept, key, sizeof key))
		http_cache_put(srv->cache, key, resp);
	http_gzip_response(resp, rq->fields.accept_encoding);
	if (!resp->body || resp->body_static || resp->stream.read || resp->body_len == 0)
		return;
	if (http_budget_take(srv->budget, resp->body_len)) {
		rq->held = resp->body_len;
		return;
	}
	const char *route_name = resp->route_name;
	size_t asked = resp->body_len;
	route_response_free(resp);
	http_problem(resp, ROUTE_E_BUSY, rq->seen.request_id, route_name,
		     "the answer is %zu bytes and the server holds %zu bytes of answers not "
		     "yet read, of %zu (--answer-memory); retry after 1 s",
		     asked, http_budget_held(srv->budget), http_budget_total(srv->budget));
	if (resp->body && !resp->body_static && http_budget_take(srv->budget, resp->body_len))
		rq->held = resp->body_len; /* small: always taken */
}

/* Sends `resp` (body taken over) with its headers, "Connection: close" when `closing` or
 * draining, or the preallocated 500 when out of memory. Releases *resp in every case. */
static enum MHD_Result http_send(struct http_server *srv, struct MHD_Connection *conn,
				 struct http_request *rq, struct route_response *resp, bool closing)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	if (resp != &rq->resp) /* the job's answer is prepared on its worker */
		http_prepare(srv, rq, resp);
	size_t held = rq->held; /* given back by the response, or below */
	http_observe_stamp(&rq->seen, resp);
	http_observe_answer(&rq->seen, resp->status, resp->route_name, resp->body_len);
	if (resp->body && resp->body_len > 0 && resp->body_static) {
		r = MHD_create_response_from_buffer(resp->body_len, resp->body,
						    MHD_RESPMEM_PERSISTENT);
	} else if (resp->stream.read || (resp->body && resp->body_len > 0)) {
		r = http_owned_response(srv, rq, resp, held);
		if (r)
			held = 0; /* given back when r is freed */
	} else if (resp->head_only) {
		r = MHD_create_response_from_callback(resp->head_length ? resp->head_length
									: MHD_SIZE_UNKNOWN,
						      4096, http_head_read, NULL, NULL);
	} else {
		r = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
	}
	bool ok = r && MHD_add_response_header(r, "X-Request-Id", rq->seen.request_id) == MHD_YES &&
		  http_add_defensive_headers(r, resp->content_type) &&
		  (!resp->content_type || MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
								  resp->content_type) == MHD_YES);
	for (size_t i = 0; ok && i < resp->nheaders && i < ROUTE_MAX_HEADERS; i++)
		ok = MHD_add_response_header(r, resp->headers[i].name, resp->headers[i].value) ==
		     MHD_YES;
	if (ok && (closing || atomic_load(&srv->draining)))
		ok = MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close") == MHD_YES;
	if (ok) {
		ret = MHD_queue_response(conn, resp->status, r);
	} else {
		http_observe_answer(&rq->seen, MHD_HTTP_INTERNAL_SERVER_ERROR, resp->route_name, 0);
		ret = MHD_queue_response(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, srv->oom);
	}
	if (r)
		MHD_destroy_response(r);
	if (held)
		http_budget_give(srv->budget, held);
	route_response_free(resp);
	return ret;
}

/* Sends the problem answer for a fault of the body found here rather than
 * by the route: too large, not gzip (syntax), out of memory (internal). */
static enum MHD_Result http_send_error(struct http_server *srv, struct MHD_Connection *conn,
				       struct http_request *rq, enum codec_status status)
{
	struct route_response resp;
	const char *name = http_entry_name(rq);
	enum route_body kind = route_request_body(&rq->req); /* whose flag sets the limit */

	if (status == CODEC_E_TOO_LARGE)
		http_problem(&resp, status, NULL, name,
			     "the request body is larger than the limit of %zu bytes%s", rq->max,
			     kind == ROUTE_BODY_NDJSON ? " (--max-stream-body)"
			     : kind == ROUTE_BODY_JSON ? " (--max-json-body, --max-body; send more "
							 "cases as a stream, application/x-ndjson)"
						       : " (--max-body)");
	else if (status == CODEC_E_SYNTAX)
		http_problem(&resp, status, NULL, name,
			     "the body says Content-Encoding: gzip but is not a whole gzip "
			     "stream (corrupt, cut short, or with bytes after its end)");
	else
		http_problem(&resp, status, NULL, name,
			     "out of memory while reading the request body");
	return http_send(srv, conn, rq, &resp, false);
}

/* Takes a chunk of body: kept while the route took the headers and within rq->max, else dropped
 * and marked 413 (500 when out of memory). False when too much was dropped: cut off. */
static bool http_take_body(struct http_request *rq, const char *data, size_t size)
{
	if (rq->refused != ROUTE_OK || rq->fault != CODEC_OK)
		goto out_drop;
	if (size > rq->max - rq->len) {
		rq->fault = CODEC_E_TOO_LARGE;
		goto out_free;
	}
	if (rq->intake) { /* read through, nothing kept */
		route_intake_feed(rq->intake, data, size);
		rq->len += size;
		return true;
	}
	if (!rq->body && rq->body_block && size <= rq->body_block_cap) {
		rq->body = rq->body_block; /* an earlier body's block, taken whole */
		rq->cap = rq->body_block_cap;
		rq->body_block = NULL;
		rq->body_block_cap = 0;
	}
	if (size > rq->cap - rq->len) {
		size_t cap = rq->cap ? rq->cap : HTTP_BODY_START;
		while (cap - rq->len < size)
			cap = cap > SIZE_MAX / 2 ? SIZE_MAX : cap * 2;
		if (cap > rq->limit)
			cap = rq->limit;
		if (cap < HTTP_BODY_MIN)
			cap = HTTP_BODY_MIN;
		if (cap - rq->len < size) /* more than announced: never from MHD */
			cap = rq->len + size;
		char *p = dj_realloc(rq->body, cap);
		if (!p) {
			rq->fault = CODEC_E_INTERNAL;
			goto out_free;
		}
		rq->body = p;
		rq->cap = cap;
	}
	memcpy(rq->body + rq->len, data, size);
	rq->len += size;
	return true;
out_free:
	dj_free(rq->body);
	rq->body = NULL;
	rq->len = 0;
	rq->cap = 0;
out_drop:
	rq->dropped =
	    size > HTTP_DISCARD_MAX - rq->dropped ? HTTP_DISCARD_MAX + 1 : rq->dropped + size;
	return rq->dropped <= HTTP_DISCARD_MAX;
}

/* http_gunzip_sink: keeps inflated bytes as http_take_body() keeps others. */
static bool http_keep_inflated(void *ctx, const char *data, size_t size)
{
	struct http_request *rq = ctx;
	http_take_body(rq, data, size);
	return rq->fault == CODEC_OK;
}

/* Takes a chunk of gzip body, inflated within the body limit (a compression bomb: 413). */
static bool http_take_gzip(struct http_request *rq, const char *data, size_t size)
{
	if (rq->fault != CODEC_OK || http_gunzip_failed(rq->gunzip))
		return http_take_body(rq, data, size); /* dropped and counted */
	http_gunzip_feed(rq->gunzip, data, size, http_keep_inflated, rq);
	return true;
}

/* First call, the headers: checks the framing and asks the route whether it takes a body. A
 * declared length over the limit (413), and a body the answer does not depend on (a refusal,
 * a redirect, OPTIONS, a GET), are answered before any of the body is read. */
static enum MHD_Result http_begin(struct http_server *srv, struct MHD_Connection *conn,
				  const char *url, const char *method, const char *version,
				  struct http_request *rq)
{
	struct codec_error err;
	struct route_match m;
	struct route_response resp;
	struct route_request *req = &rq->req;
	rq->begun = true;
	codec_error_init(&err);
	enum route_status framing =
	    http_framing_check(conn, version, &rq->target, &rq->fields, &err);
	http_observe_begin(&srv->observer, &rq->seen, url, method, rq->fields.request_id,
			   rq->fields.user_agent);
	http_guard_headers_in(conn, rq->seen.start_ns / 1000000);
	/* Completed by http_finish(); made here so that a body read as it arrives counts too. */
	http_route_request(srv, conn, rq, url, method);
	if (framing != ROUTE_OK) {
		rq->refused = err.status;
		rq->unread = true;
		route_error_response_id(&err, NULL, &resp);
		return http_send(srv, conn, rq, &resp, true);
	}
	long long length = http_content_length(&rq->fields);
	route_match(req, length, &m);
	req->entry = m.entry; /* route_handle() needs not find it again */
	rq->refused = m.refusal;
	rq->max = route_body_limit(req);
	bool over = length > 0 && (unsigned long long)length > rq->max;
	rq->unread = over;
	if (rq->refused == ROUTE_E_TOO_LARGE || (rq->refused == ROUTE_OK && m.takes_body && over))
		return http_send_error(srv, conn, rq, CODEC_E_TOO_LARGE);
	bool has_body = length > 0 || (length < 0 && rq->fields.transfer_encoding);
	if (has_body && (rq->refused != ROUTE_OK || !m.takes_body)) {
		rq->unread = true;
		route_handle(req, &resp); /* the route's refusal, without the body */
		return http_send(srv, conn, rq, &resp, false);
	}
	/* Memory follows the bytes that arrive, not the length announced. */
	rq->limit = length >= 0 ? (size_t)length : rq->max;
	if (rq->refused == ROUTE_OK && http_gzip_named(req->content_encoding)) {
		rq->limit = rq->max; /* the inflated size is not announced */
		rq->gunzip = http_gunzip_new();
		rq->fault = rq->gunzip ? CODEC_OK : CODEC_E_INTERNAL;
	}
	/* A text case is judged as it arrives; NULL: the body is kept. */
	if (rq->refused == ROUTE_OK && rq->fault == CODEC_OK)
		rq->intake = route_intake_new(req);
	/* A stream is never kept whole: without its reader it is a 500. */
	if (rq->refused == ROUTE_OK && !rq->intake && m.takes_body &&
	    route_request_body(req) == ROUTE_BODY_NDJSON)
		rq->fault = CODEC_E_INTERNAL;
	return MHD_YES;
}

/* Whether the work may be large, for the worker pool: by body size or a picture asked for
 * (neither for an intake, judged as it arrived), a trace, or its route table row. */
static bool http_is_heavy(const struct http_request *rq)
{
	const struct route_request *req = &rq->req;
	const char *accept = rq->fields.accept;
	bool svg = accept && http_method_is(req, "POST") && strstr(accept, "svg") != NULL;
	return (!rq->intake && (req->body_len >= HTTP_HEAVY_BODY || svg)) ||
	       (req->entry && req->entry->heavy) || route_param(req, "trace") != NULL;
}

/* http_job.run: answers a heavy request on a worker thread, then hands the
 * connection back to its event loop, which sends the answer. */
static void http_run_job(struct http_job *job)
{
	struct http_request *rq =
	    (struct http_request *)((char *)job - offsetof(struct http_request, job));
	if (http_guard_client_gone(rq->conn)) /* nobody will read it: no work done */
		http_problem(&rq->resp, ROUTE_E_BUSY, NULL, http_entry_name(rq),
			     "the client closed the connection before the work began");
	else
		route_handle(&rq->req, &rq->resp);
	http_prepare(rq->srv, rq, &rq->resp); /* compressed here, not in the loop */
	atomic_store(&rq->answered, true);
	MHD_resume_connection(rq->conn);
}

/* Last call: the whole request is in; answer it, here or on a worker. */
static enum MHD_Result http_finish(struct http_server *srv, struct MHD_Connection *conn,
				   struct http_request *rq)
{
	struct route_request *req = &rq->req; /* its headers made by http_begin() */
	struct route_response resp;

	http_guard_request_in(conn);
	/* Drain and tokens as they are now (a reload may have come meanwhile). */
	req->draining = atomic_load(&srv->draining);
	req->auth = http_auth_check(srv->auth, rq->fields.authorization, rq->fields.authorizations);
	if (rq->refused != ROUTE_OK) {
		route_handle(req, &resp); /* the route's refusal */
		return http_send(srv, conn, rq, &resp, false);
	}
	if (rq->fault != CODEC_OK)
		return http_send_error(srv, conn, rq, rq->fault);
	if (rq->gunzip && !http_gunzip_done(rq->gunzip))
		return http_send_error(srv, conn, rq, CODEC_E_SYNTAX);
	req->body = rq->body;
	req->body_len = rq->len;
	req->intake = rq->intake;
	req->gone = http_guard_client_gone;
	req->gone_ctx = conn;
	/* HEAD on heavy work answers what it can without building the body;
	 * a package built before answers GET and HEAD whole, at once. */
	req->headers_only = req->entry && req->entry->heavy && http_method_is(req, "HEAD");
	if (http_cacheable(req)) {
		char key[1024];
		if (http_cache_key(req, rq->fields.accept, key, sizeof key) &&
		    http_cache_get(srv->cache, key, &resp)) {
			resp.route_name = req->entry->name;
			return http_send(srv, conn, rq, &resp, false);
		}
	}
	if (http_is_heavy(rq)) {
		if (!http_heavy_admit(srv->heavy, conn)) {
			http_problem(&resp, ROUTE_E_BUSY, rq->seen.request_id, http_entry_name(rq),
				     "%u heavy requests are queued or running (--max-heavy-queue), "
				     "or %u from this address (--max-heavy-per-client); retry "
				     "after 1 s",
				     srv->heavy->total, srv->heavy->per_client);
			return http_send(srv, conn, rq, &resp, false);
		}
		rq->heavy = true;
		rq->conn = conn;
		rq->srv = srv;
		rq->job.run = http_run_job;
		memset(&rq->resp, 0, sizeof rq->resp);
		MHD_suspend_connection(conn);
		if (http_workers_submit(srv->workers, &rq->job))
			return MHD_YES; /* answered when the job resumes the connection */
		MHD_resume_connection(conn);
	}
	route_handle(req, &resp); /* fills resp whole */
	return http_send(srv, conn, rq, &resp, false);
}

/* MHD_AccessHandlerCallback: headers, then body chunks, then the end (and,
 * for a heavy request, once more when its worker has answered). */
static enum MHD_Result http_access(void *cls, struct MHD_Connection *conn, const char *url,
				   const char *method, const char *version, const char *upload_data,
				   size_t *upload_data_size, void **con_cls)
{
	struct http_server *srv = cls;
	struct http_request *rq = *con_cls;

	if (!rq) /* the URI log callback could not allocate */
		return MHD_queue_response(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, srv->oom);
	if (!rq->begun)
		return http_begin(srv, conn, url, method, version, rq);
	if (*upload_data_size > 0) {
		bool go_on = rq->gunzip ? http_take_gzip(rq, upload_data, *upload_data_size)
					: http_take_body(rq, upload_data, *upload_data_size);
		*upload_data_size = 0;
		return go_on ? MHD_YES : MHD_NO;
	}
	if (rq->heavy)
		return atomic_load(&rq->answered) ? http_send(srv, conn, rq, &rq->resp, false)
						  : MHD_YES;
	return http_finish(srv, conn, rq);
}

/* MHD_OPTION_URI_LOG_CALLBACK: each request's start, target undecoded; returns its con_cls. */
static void *http_uri_seen(void *cls, const char *uri, struct MHD_Connection *conn)
{
	(void)cls;
	(void)conn;
	struct http_request *rq = http_request_new();
	if (!rq)
		return NULL;
	http_target_note(&rq->target, uri);
	atomic_init(&rq->answered, false);
	return rq;
}

/* MHD_NotifyConnectionCallback: the guard's bookkeeping, then the count of connections. */
static void http_notify_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
				   enum MHD_ConnectionNotificationCode toe)
{
	struct http_server *srv = cls;
	http_guard_notify(srv->guard, conn, socket_context, toe);
	if (srv->observer.metrics)
		http_metrics_connection(srv->observer.metrics,
					toe == MHD_CONNECTION_NOTIFY_STARTED ? 1 : -1);
}

/* MHD_RequestCompletedCallback: the one place per-request state is freed. */
static void http_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
			   enum MHD_RequestTerminationCode toe)
{
	struct http_server *srv = cls;
	struct http_request *rq = *con_cls;

	long long now_ns = http_clock_ns(); /* one reading for the deadline and the log */
	http_guard_request_done(conn, now_ns / 1000000);
	if (!rq)
		return;
	bool heavy = rq->heavy;
	if (rq->unread && toe == MHD_REQUEST_TERMINATED_COMPLETED_OK)
		http_guard_linger(conn);
	if (heavy) {
		http_heavy_release(srv->heavy, conn);
		route_response_free(&rq->resp);
	}
	if (rq->begun)
		http_observe_end(&srv->observer, &rq->seen, conn, rq->len + rq->dropped, now_ns);
	http_gunzip_free(rq->gunzip);
	route_intake_free(rq->intake);
	if (rq->body && rq->cap <= HTTP_BODY_KEEP_MAX && !rq->body_block) {
		rq->body_block = rq->body; /* for the next body of this thread */
		rq->body_block_cap = rq->cap;
	} else {
		dj_free(rq->body);
	}
	http_request_free(rq);
	*con_cls = NULL;
	if (heavy) /* a large request leaves large free blocks: give them back */
		http_workers_trim(srv->workers);
}

/* Stops the daemon (when started) and frees what srv holds, any part of which may be NULL. */
static void http_server_free(struct http_server *srv)
{
	if (srv->daemon)
		MHD_stop_daemon(srv->daemon);
	http_workers_free(srv->workers);
	if (srv->heavy)
		pthread_mutex_destroy(&srv->heavy->lock);
	dj_free(srv->heavy);
	http_cache_free(srv->cache);
	http_budget_free(srv->budget);
	http_guard_free(srv->guard);
	if (srv->oom)
		MHD_destroy_response(srv->oom);
	dj_free(srv);
}

struct http_server *http_server_start(const struct http_config *cfg, char *err, size_t errlen)
{
	struct sockaddr_in in4 = {.sin_family = AF_INET, .sin_port = htons((uint16_t)cfg->port)};
	struct sockaddr_in6 in6 = {.sin6_family = AF_INET6,
				   .sin6_port = htons((uint16_t)cfg->port)};
	/* The socket: the inherited one (socket activation) as it is, or one of ours. */
	struct MHD_OptionItem listen_opts[2] = {
	    {MHD_OPTION_LISTEN_SOCKET, (intptr_t)cfg->listen_fd, NULL},
	    {MHD_OPTION_END, 0, NULL},
	};
	/* HTTPS: what cfg->tls holds (it outlives the daemon); none, the array ends at once. */
	struct MHD_OptionItem tls_opts[4] = {{MHD_OPTION_END, 0, NULL}};
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC |
			 MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME;
	bool handed = false; /* cfg->listen_fd given to libmicrohttpd */

	if (cfg->port > 65535 || cfg->threads < 1 || cfg->timeout < 1 ||
	    cfg->max_connections < cfg->threads || cfg->limits.max_body < 1 ||
	    cfg->header_timeout < 1 || cfg->body_timeout < 1 ||
	    (cfg->connection_memory != 0 && cfg->connection_memory < HTTP_CONNECTION_MEMORY_MIN)) {
		codec_format(err, errlen, "invalid server configuration");
		goto out_fd;
	}
	bool ours = cfg->listen_fd <= 0;
	if (ours && inet_pton(AF_INET, cfg->host, &in4.sin_addr) == 1) {
		listen_opts[0] = (struct MHD_OptionItem){MHD_OPTION_SOCK_ADDR, 0, &in4};
	} else if (ours && inet_pton(AF_INET6, cfg->host, &in6.sin6_addr) == 1) {
		listen_opts[0] = (struct MHD_OptionItem){MHD_OPTION_SOCK_ADDR, 0, &in6};
		flags |= MHD_USE_DUAL_STACK;
	} else if (ours) {
		codec_format(err, errlen, "'%s' is not an IPv4 or IPv6 address", cfg->host);
		return NULL;
	}

	pthread_once(&http_spare_once, http_spare_create);
	mallopt(M_MMAP_THRESHOLD, HTTP_MMAP_THRESHOLD);
	mallopt(M_TRIM_THRESHOLD, HTTP_TRIM_THRESHOLD);
	mallopt(M_MXFAST, 0);
	struct http_server *srv = dj_calloc(1, sizeof *srv);
	if (!srv) {
		codec_format(err, errlen, "out of memory");
		goto out_fd;
	}
	srv->limits = cfg->limits;
	srv->observer.metrics = cfg->metrics;
	srv->observer.log = cfg->log;
	srv->auth = cfg->auth;
	if (cfg->tls) {
		tls_opts[0] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_CERT, 0, cfg->tls->cert};
		tls_opts[1] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_KEY, 0, cfg->tls->key};
		tls_opts[2] =
		    (struct MHD_OptionItem){MHD_OPTION_HTTPS_PRIORITIES, 0, cfg->tls->priorities};
		flags |= MHD_USE_TLS;
	}
	atomic_init(&srv->draining, false);
	srv->guard = http_guard_new(cfg, err, errlen);
	if (!srv->guard)
		goto out_srv;
	srv->workers = http_workers_new(cfg->threads, err, errlen);
	if (!srv->workers)
		goto out_srv;
	srv->heavy = http_heavy_new(cfg->max_heavy ? cfg->max_heavy : 64,
				    cfg->max_heavy_per_client ? cfg->max_heavy_per_client : 8);
	srv->budget =
	    http_budget_new(cfg->answer_memory ? cfg->answer_memory : HTTP_ANSWER_MEMORY_DEFAULT);
	srv->cache = http_cache_new(cfg->package_cache);
	srv->oom = http_oom_response_new();
	if (!srv->heavy || !srv->budget || !srv->cache || !srv->oom) {
		codec_format(err, errlen, "out of memory");
		goto out_srv;
	}

	/* The logger first, to catch what the other options say. The total limit is the guard's
	 * (at accept); the daemon's is past it by the threads that may accept at once. From here
	 * the inherited socket is the daemon's to close. Client discipline 1 from libmicrohttpd
	 * 0.9.77: docs/OPERATING.md; 0.9.75's strict mode would answer a missing Host in HTML. */
	handed = true;
	srv->daemon = MHD_start_daemon(
	    flags, (uint16_t)cfg->port, http_guard_accept, srv->guard, http_access, srv,
	    MHD_OPTION_EXTERNAL_LOGGER, http_log, NULL, MHD_OPTION_ARRAY, listen_opts,
	    MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)cfg->threads, MHD_OPTION_CONNECTION_TIMEOUT,
	    (unsigned int)cfg->timeout, MHD_OPTION_CONNECTION_LIMIT,
	    (unsigned int)(cfg->max_connections + cfg->threads), MHD_OPTION_PER_IP_CONNECTION_LIMIT,
	    (unsigned int)cfg->max_per_ip, MHD_OPTION_NOTIFY_CONNECTION, http_notify_connection,
	    srv, MHD_OPTION_URI_LOG_CALLBACK, http_uri_seen, NULL, MHD_OPTION_NOTIFY_COMPLETED,
	    http_completed, srv, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
	    cfg->connection_memory ? cfg->connection_memory : HTTP_CONNECTION_MEMORY_DEFAULT,
	    MHD_OPTION_ARRAY, tls_opts,
#if MHD_VERSION >= 0x00097701
	    MHD_OPTION_CLIENT_DISCIPLINE_LVL, 1,
#endif
	    MHD_OPTION_END);
	if (!srv->daemon) {
		if (cfg->listen_fd > 0)
			codec_format(err, errlen,
				     "cannot serve on the inherited socket %d (see the message "
				     "above)",
				     cfg->listen_fd);
		else
			codec_format(err, errlen,
				     "cannot listen on %s port %u (see the message above)",
				     cfg->host, cfg->port);
		goto out_srv;
	}
	/* From the socket itself: MHD_DAEMON_INFO_BIND_PORT may not know a socket it was given. */
	const union MHD_DaemonInfo *info =
	    MHD_get_daemon_info(srv->daemon, MHD_DAEMON_INFO_LISTEN_FD);
	struct sockaddr_storage bound;
	socklen_t blen = sizeof bound;
	if (!info || getsockname(info->listen_fd, (struct sockaddr *)&bound, &blen) != 0 ||
	    (bound.ss_family != AF_INET && bound.ss_family != AF_INET6)) {
		codec_format(err, errlen, "cannot read back the port listened on");
		goto out_srv;
	}
	srv->port = ntohs(bound.ss_family == AF_INET ? ((struct sockaddr_in *)&bound)->sin_port
						     : ((struct sockaddr_in6 *)&bound)->sin6_port);
	return srv;

out_srv:
	http_server_free(srv);
out_fd:
	if (cfg->listen_fd > 0 && !handed) /* ours until the daemon has taken it */
		close(cfg->listen_fd);
	return NULL;
}

unsigned http_server_port(const struct http_server *srv)
{
	return srv->port;
}

void http_server_begin_drain(struct http_server *srv)
{
	/* Closed at accept by the guard, not MHD_quiesce_daemon() (docs/OPERATING.md). */
	if (!atomic_exchange(&srv->draining, true))
		http_guard_close_new(srv->guard);
}

bool http_server_is_idle(struct http_server *srv)
{
	if (srv->observer.metrics && http_metrics_in_flight(srv->observer.metrics) == 0)
		return true;
	const union MHD_DaemonInfo *info =
	    MHD_get_daemon_info(srv->daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
	return info && info->num_connections == 0;
}

void http_server_stop(struct http_server *srv)
{
	if (!srv)
		return;
	/* Running jobs resume their connections first: no stop with one suspended. */
	http_workers_stop(srv->workers);
	http_server_free(srv);
}
