/*
 * Batches, shared by solve, judge and validate: {"cases": [...]} in, one
 * slot per case out, in order (a result, or {"error": problem} for a case
 * that failed), each with the case's own "id" when it has one, then a
 * summary of how many were answered and how many failed.
 *
 * Two readers give the same bytes. route_respond_batch() answers from the
 * jansson tree of the whole body: the reference, and the path of every
 * body that is not well-formed or not a batch alone. route_respond_batch_body()
 * reads the body as it lies: a strict scanner finds each case's bytes
 * (strings and escapes respected, nesting counted), each case is decoded
 * alone (the problem's fast path, else jansson on those bytes), and the
 * answer is written a slot at a time, held when it is small and streamed
 * when it is not. Memory is then the body, one case's tree and one slot.
 */
#include <stdio.h>
#include <string.h>

#include "route/status.h"
#include "mem/alloc.h"
#include "route/handlers.h"

bool route_case_wants_trace(const json_t *case_obj, bool query_trace)
{
	const json_t *t = json_is_object(case_obj) ? json_object_get(case_obj, "trace") : NULL;
	return json_is_boolean(t) ? json_is_true(t) : query_trace;
}

/*
 * The "cases" array of a batch request, or NULL with err set: the root may
 * hold nothing but "cases", and at most max_batch of them.
 */
static json_t *batch_cases(json_t *root, const struct route_limits *limits, struct codec_error *err)
{
	const char *key;
	json_t *value;
	json_object_foreach(root, key, value)
	{
		if (strcmp(key, "cases") != 0) {
			char ptr[CODEC_POINTER_MAX] = "";
			codec_pointer_append(ptr, sizeof ptr, key);
			codec_error_at_pointer(err, CODEC_E_INVALID, ptr,
					       "unknown member (a batch holds only \"cases\")");
			return NULL;
		}
	}
	json_t *cases = json_object_get(root, "cases");
	if (!json_is_array(cases)) {
		codec_error_at_pointer(err, CODEC_E_INVALID, "/cases", "must be an array of cases");
		return NULL;
	}
	if (json_array_size(cases) > limits->max_batch) {
		codec_error_at_pointer(err, CODEC_E_TOO_LARGE, "/cases",
				       "%zu cases is over the limit of %lu in one batch",
				       json_array_size(cases), limits->max_batch);
		return NULL;
	}
	return cases;
}

bool route_trace_within_limit(const struct route_limits *limits, size_t steps, const char *pointer,
			      size_t *used, struct codec_error *err)
{
	static const char why[] = "the traces of this request pass %lu steps in all "
				  "(--max-trace-steps); ask fewer traces";
	*used += steps;
	if (!limits || limits->max_trace_steps == 0 || *used <= limits->max_trace_steps)
		return true;
	if (pointer)
		codec_error_at_pointer(err, CODEC_E_INVALID, pointer, why, limits->max_trace_steps);
	else
		codec_error_at_param(err, CODEC_E_INVALID, "trace", why, limits->max_trace_steps);
	return false;
}

/* route_trace_within_limit() for the trace of a result (its "steps"
 * member, when it has one). */
static bool trace_within_limit(const struct route_limits *limits, const json_t *result,
			       const char *pointer, size_t *used, struct codec_error *err)
{
	const json_t *steps = json_is_object(result) ? json_object_get(result, "steps") : NULL;
	return route_trace_within_limit(limits, json_array_size(steps), pointer, used, err);
}

bool route_is_batch(const json_t *root)
{
	return json_is_object(root) && json_object_get(root, "cases") != NULL;
}

json_t *route_error_slot(struct codec_error *err)
{
	codec_error_sort(err);
	return json_pack("{so}", "error", problem_json(err));
}

enum codec_status route_respond_batch(const struct route_call *call, json_t *root,
				      route_case_fn *one, struct route_response *resp,
				      struct codec_error *err)
{
	json_t *cases = batch_cases(root, call->req->limits, err);
	if (!cases)
		return err->status;
	bool trace = route_arg(call, "trace") != 0;
	json_t *results = json_array();
	size_t i, failed = 0, steps = 0;
	json_t *c;
	json_array_foreach(cases, i, c)
	{
		char ptr[CODEC_POINTER_MAX];
		struct codec_error each;
		snprintf(ptr, sizeof ptr, "/cases/%zu", i);
		codec_error_init(&each, 1);
		json_t *slot = one(call, c, ptr, trace, &each);
		const json_t *id = json_is_object(c) ? json_object_get(c, "id") : NULL;
		if (slot && (json_is_string(id) || json_is_integer(id)) &&
		    json_object_set(slot, "id", (json_t *)id) != 0) {
			json_decref(slot);
			slot = NULL;
		}
		if (!trace_within_limit(call->req->limits, slot, ptr, &steps, err)) {
			json_decref(slot);
			json_decref(results);
			return err->status;
		}
		if (slot && json_object_get(slot, "error"))
			failed++;
		if (json_array_append_new(results, slot) != 0)
			break;
	}
	if (json_array_size(results) != json_array_size(cases)) {
		json_decref(results);
		codec_error_set(err, CODEC_E_INTERNAL, "out of memory");
		return CODEC_E_INTERNAL;
	}
	size_t n = json_array_size(cases);
	return route_respond_json(resp,
				  json_pack("{so s{sI sI sI}}", "results", results, "summary",
					    "cases", (json_int_t)n, "answered",
					    (json_int_t)(n - failed), "failed", (json_int_t)failed),
				  err);
}

/* --- the batch read from the body --- */

/* An answer up to this size, or half the body when that is more, is held
 * and sent whole (gzip then works on it as on any answer); a larger one is
 * streamed. */
#define BATCH_HOLD_MIN ((size_t)1 << 20)

static const char *batch_skip_ws(const char *p, const char *end)
{
	return json_span_ws(p, end);
}

/* A position among the cases of the body. */
struct batch_cursor {
	const char *p;	 /* next byte to read */
	const char *end; /* end of the body */
	size_t index;	 /* cases read so far */
};

/* Outcome of reading or answering one case. */
enum batch_step {
	BATCH_CASE = 0, /* a case read, or answered */
	BATCH_END,	/* the array is closed */
	BATCH_DOUBT,	/* not the shape this reader takes: the tree path decides */
	BATCH_FAULT,	/* a fault of the request, in err */
};

/*
 * Moves c to the first case of a body {"cases": [ ... that holds nothing
 * else; false for any other body.
 */
static bool batch_open(struct batch_cursor *c, const char *body, size_t len)
{
	const char *p = body, *end = body + len;
	p = batch_skip_ws(p, end);
	if (p == end || *p++ != '{')
		return false;
	p = batch_skip_ws(p, end);
	const char *ke = p < end && *p == '"' ? json_span_value(p, end) : NULL;
	if (!ke || !json_span_key_is(p, ke, "cases"))
		return false;
	p = batch_skip_ws(ke, end);
	if (p == end || *p++ != ':')
		return false;
	p = batch_skip_ws(p, end);
	if (p == end || *p++ != '[')
		return false;
	*c = (struct batch_cursor){.p = p, .end = end, .index = 0};
	return true;
}

/* Moves past what comes before the next case: BATCH_CASE with *v at its
 * first byte, BATCH_END past the array's close, or BATCH_DOUBT. */
static enum batch_step batch_next(struct batch_cursor *c, const char **v)
{
	const char *p = batch_skip_ws(c->p, c->end);
	if (p < c->end && *p == ']' && c->index == 0) {
		c->p = p + 1;
		return BATCH_END;
	}
	if (c->index > 0) {
		if (p == c->end || (*p != ',' && *p != ']'))
			return BATCH_DOUBT;
		if (*p++ == ']') {
			c->p = p;
			return BATCH_END;
		}
		p = batch_skip_ws(p, c->end);
	}
	*v = c->p = p;
	return BATCH_CASE;
}

/* Whether the body ends as the batch must after its array: "}" alone. */
static bool batch_closed(const struct batch_cursor *c)
{
	const char *p = batch_skip_ws(c->p, c->end);
	if (p == c->end || *p != '}')
		return false;
	return batch_skip_ws(p + 1, c->end) == c->end;
}

/* A batch being answered: the request's call, copied so that a streamed
 * answer can outlive route_handle(), and where the answer stands. */
struct batch {
	struct route_call call;	    /* the call; .req is &req, .faults &faults */
	struct route_request req;   /* the request (its body is borrowed) */
	struct codec_fault *faults; /* collect-mode storage, owned */
	struct route_tally tally;   /* what the first pass counted */
	route_case_fn *one;
	route_case_fast_fn *fast;   /* NULL: every case through jansson */
	route_case_write_fn *write; /* NULL: every parsed case through `one` */
	enum route_case_at at;	    /* where a case holds its blocks, to read lean */
	bool trace;		    /* the query's ?trace */
	struct batch_cursor first;  /* at the first case */
	struct batch_cursor cur;    /* at the next case */
	const char *span_from;	    /* where the first case starts, once read */
	const char *span_to;	    /* where the last well-formed case of an unbroken
				       run from the first ends; NULL: none */
	const char *doubt;	    /* where the case the first pass doubted starts */
	const char *tail;	    /* past the array, when more than "}" follows it */
	size_t cases;		    /* cases in the batch (after the first pass) */
	size_t failed;		    /* of them, answered with an error slot */
	size_t steps;		    /* trace steps so far */
	struct route_buf out;	    /* answer bytes not yet sent */
	size_t sent;		    /* of out, bytes already sent */
	int state;		    /* streaming: 0 head, 1 cases, 2 done */
};

/* The fast path on the case v[0..e): 1 with its slot in b->out (after a
 * comma) when `keep`, 0 when not taken (b->out as it was), -1 when out of
 * memory. */
static int batch_fast(struct batch *b, const char *v, const char *e, bool keep, size_t *steps)
{
	size_t mark = b->out.len;
	if (keep && b->cur.index > 0 && route_buf_put(",", 1, &b->out) != 0)
		return -1;
	int taken = b->fast(&b->call, v, (size_t)(e - v), b->trace, keep ? route_buf_put : NULL,
			    &b->out, steps);
	if (taken == 0)
		b->out.len = mark;
	return taken;
}

/* b->write on the parsed case c at ptr: 1 with its slot in b->out (after a
 * comma, its "id" last as json_object_set() puts it) when `keep`, 0 when
 * not taken (b->out as it was), -1 when out of memory. */
static int batch_write(struct batch *b, const struct route_call *call, const json_t *c,
		       const char *ptr, const json_t *id, bool keep, size_t *steps)
{
	size_t mark = b->out.len;
	if (keep && b->cur.index > 0 && route_buf_put(",", 1, &b->out) != 0)
		return -1;
	int taken = b->write(call, c, ptr, b->trace, keep ? route_buf_put : NULL, &b->out, steps);
	if (taken == 1 && keep && (json_is_string(id) || json_is_integer(id)) &&
	    (route_buf_put(",\"id\":", 6, &b->out) != 0 ||
	     json_dump_callback(id, route_buf_put, &b->out, JSON_COMPACT | JSON_ENCODE_ANY) != 0))
		taken = -1;
	if (taken == 1 && keep && route_buf_put("}", 1, &b->out) != 0)
		taken = -1;
	if (taken == 0)
		b->out.len = mark;
	return taken;
}

/*
 * Answers the case that starts at v, b->cur.index of the batch, its slot
 * written to b->out when `keep`, and sets *e to the case's end.
 * BATCH_DOUBT when the case is not well-formed JSON (the tree path then
 * tells the fault); BATCH_FAULT with err set for a fault of the request
 * (the traces over the limit, out of memory).
 */
static enum batch_step batch_answer(struct batch *b, const char *v, const char **e, bool keep,
				    struct codec_error *err)
{
	char ptr[CODEC_POINTER_MAX];
	const char *end = b->cur.end, *tried = NULL;
	size_t steps = 0;
	int taken = 0;
	if (b->fast && v < end && *v == '{') {
		/* A canonical case holds no other object: when it is one, it ends
		 * at the first "}" (a value ends where it ends), found without
		 * reading the case twice. Only an object case is tried: a
		 * well-formed one holds its "}", so no search passes its end. */
		const char *close = memchr(v, '}', (size_t)(end - v));
		if (close) {
			tried = close + 1;
			taken = batch_fast(b, v, tried, keep, &steps);
			if (taken != 0) {
				*e = tried;
				goto out_fast;
			}
		}
	}
	*e = json_span_value(v, end);
	if (!*e)
		return BATCH_DOUBT;
	size_t vlen = (size_t)(*e - v);
	if (b->fast && *e != tried) {
		taken = batch_fast(b, v, *e, keep, &steps);
		if (taken != 0)
			goto out_fast;
	}
	/* An object case read lean when it is large, as a body alone would be:
	 * its fault, if any, is the tree path's to tell (in the body's lines). */
	struct route_lean_call lc;
	const struct route_call *call = &b->call;
	json_t *c;
	if (*v == '{' || *v == '[') {
		struct codec_error scratch;
		codec_error_init(&scratch, 1);
		c = route_parse_case(&b->call, v, vlen, b->at, &lc, &call, &scratch);
	} else {
		json_error_t jerr;
		c = json_loadb(v, vlen, JSON_DECODE_ANY | JSON_SPAN_FLAGS, &jerr);
	}
	if (!c)
		return BATCH_DOUBT;
	snprintf(ptr, sizeof ptr, "/cases/%zu", b->cur.index);
	const json_t *id = json_is_object(c) ? json_object_get(c, "id") : NULL;
	if (b->write) {
		taken = batch_write(b, call, c, ptr, id, keep, &steps);
		if (taken != 0) {
			json_decref(c);
			goto out_fast;
		}
	}
	struct codec_error each;
	codec_error_init(&each, 1);
	json_t *slot = b->one(call, c, ptr, b->trace, &each);
	if (slot && (json_is_string(id) || json_is_integer(id)) &&
	    json_object_set(slot, "id", (json_t *)id) != 0) {
		json_decref(slot);
		slot = NULL;
	}
	json_decref(c);
	if (!slot)
		goto out_oom;
	if (!trace_within_limit(b->req.limits, slot, ptr, &b->steps, err)) {
		json_decref(slot);
		return BATCH_FAULT;
	}
	if (json_object_get(slot, "error"))
		b->failed++;
	bool ok = !keep || ((b->cur.index == 0 || route_buf_put(",", 1, &b->out) == 0) &&
			    json_dump_callback(slot, route_buf_put, &b->out, JSON_COMPACT) == 0);
	json_decref(slot);
	if (ok)
		return BATCH_CASE;
	goto out_oom;
out_fast:
	if (taken < 0)
		goto out_oom;
	if (steps == 0)
		return BATCH_CASE;
	snprintf(ptr, sizeof ptr, "/cases/%zu", b->cur.index);
	return route_trace_within_limit(b->req.limits, steps, ptr, &b->steps, err) ? BATCH_CASE
										   : BATCH_FAULT;
out_oom:
	codec_error_set(err, CODEC_E_INTERNAL, "out of memory");
	return BATCH_FAULT;
}

/* Whether a case's bytes are well-formed JSON, read for nothing else. */
static bool batch_well_formed(const char *v, size_t vlen)
{
	json_error_t jerr;
	json_t *c =
	    json_loadb(v, vlen, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &jerr);
	json_decref(c);
	return c != NULL;
}

static bool batch_head(struct batch *b)
{
	return route_buf_put("{\"results\":[", 12, &b->out) == 0;
}

static bool batch_tail(struct batch *b)
{
	char tail[160];
	int n = snprintf(tail, sizeof tail,
			 "],\"summary\":{\"cases\":%zu,\"answered\":%zu,\"failed\":%zu}}\n",
			 b->cases, b->cases - b->failed, b->failed);
	return n > 0 && (size_t)n < sizeof tail && route_buf_put(tail, (size_t)n, &b->out) == 0;
}

static void batch_free(void *ctx)
{
	struct batch *b = ctx;
	if (!b)
		return;
	dj_free(b->out.data);
	dj_free(b->faults);
	dj_free(b);
}

/* route_stream.read: the answer's next bytes, each case solved again as
 * its turn comes (the first pass found them all answerable). */
static long batch_read(void *ctx, char *buf, size_t size)
{
	struct batch *b = ctx;
	size_t done = 0;
	while (done < size) {
		if (b->sent < b->out.len) {
			size_t n = b->out.len - b->sent;
			if (n > size - done)
				n = size - done;
			memcpy(buf + done, b->out.data + b->sent, n);
			b->sent += n;
			done += n;
			continue;
		}
		b->out.len = b->sent = 0;
		if (b->state == 2)
			break;
		if (b->state == 0) {
			if (!batch_head(b))
				return -1;
			b->state = 1;
			continue;
		}
		const char *v = NULL, *e = NULL;
		struct codec_error err;
		codec_error_init(&err, 1);
		enum batch_step st = batch_next(&b->cur, &v);
		if (st == BATCH_END) {
			if (!batch_tail(b))
				return -1;
			b->state = 2;
			continue;
		}
		if (st != BATCH_CASE || batch_answer(b, v, &e, true, &err) != BATCH_CASE)
			return -1; /* the first pass read the same bytes: out of memory */
		b->cur.p = e;
		b->cur.index++;
	}
	return (long)done;
}

/* Adds what the first pass counted to the request's tally. */
static void batch_count(const struct batch *b, struct route_tally *t)
{
	if (!t)
		return;
	if (b->tally.problem)
		t->problem = b->tally.problem;
	t->solved += b->tally.solved;
	t->rejected += b->tally.rejected;
	for (size_t i = 0; i < ROUTE_VERDICTS; i++)
		t->verdicts[i] += b->tally.verdicts[i];
}

/*
 * The first pass: every case read and answered in order (held in b->out
 * while the answer stays under `hold`), then the rest of the body checked
 * for well-formed JSON once a fault of the request is found. Returns
 * BATCH_END (every case answered; b->out holds the answer when *held),
 * BATCH_FAULT with err set, or BATCH_DOUBT.
 */
static enum batch_step batch_first_pass(struct batch *b, size_t hold, bool *held,
					struct codec_error *err)
{
	unsigned long max_batch = b->req.limits ? b->req.limits->max_batch : 0;
	bool over = false; /* more cases than --max-batch: the count is the fault */
	enum batch_step fault = BATCH_CASE;
	const char *v = NULL, *e = NULL;
	enum batch_step st;

	/* Room for an answer of about twice the body (a Puyo batch answers
	 * with 1.5 times its bytes), up to BATCH_HOLD_MIN, so that a small
	 * answer is not copied as it grows. */
	size_t body = (size_t)(b->cur.end - b->cur.p);
	size_t room = hold < BATCH_HOLD_MIN ? hold : BATCH_HOLD_MIN;
	route_buf_reserve(&b->out, body < room / 2 ? 2 * body : room);
	*held = batch_head(b);
	if (!*held)
		goto out_oom;
	while ((st = batch_next(&b->cur, &v)) == BATCH_CASE) {
		if (b->cur.index == 0)
			b->span_from = v;
		if (max_batch && b->cur.index == max_batch)
			over = true;
		if (!over && fault == BATCH_CASE) {
			st = batch_answer(b, v, &e, *held, err);
			if (st == BATCH_DOUBT) {
				b->doubt = v;
				return BATCH_DOUBT;
			}
			if (st == BATCH_FAULT)
				fault = BATCH_FAULT;
		} else {
			e = json_span_value(v, b->cur.end);
			if (!e || !batch_well_formed(v, (size_t)(e - v)))
				return BATCH_DOUBT;
		}
		b->cur.p = b->span_to = e;
		if (*held && b->out.len > hold) {
			*held = false; /* too large to hold: streamed */
			dj_free(b->out.data);
			b->out = (struct route_buf){.data = NULL};
		}
		b->cur.index++;
	}
	if (st != BATCH_END || !batch_closed(&b->cur)) {
		if (st == BATCH_END)
			b->tail = b->cur.p;
		return BATCH_DOUBT;
	}
	b->cases = b->cur.index;
	if (over) {
		codec_error_init(err, 1);
		codec_error_at_pointer(err, CODEC_E_TOO_LARGE, "/cases",
				       "%zu cases is over the limit of %lu in one batch", b->cases,
				       max_batch);
		return BATCH_FAULT;
	}
	if (fault == BATCH_FAULT)
		return BATCH_FAULT;
	if (*held && !batch_tail(b))
		goto out_oom;
	return BATCH_END;
out_oom:
	codec_error_set(err, CODEC_E_INTERNAL, "out of memory");
	return BATCH_FAULT;
}

/*
 * The fault of a body the first pass doubted, found with its run of
 * well-formed cases masked and, in the doubted case, what a lean read of
 * it knows to be well-formed (route_lean_masks()), so that a large case
 * broken at its end costs no tree of its good part: true with the fault in
 * err, as the whole tree would tell it. False when those masks find none
 * (the tree they give holds the masked parts as empty, so it is dropped).
 */
static bool batch_lean_fault(const struct batch *b, const char *body, size_t len,
			     struct codec_error *err)
{
	struct route_mask *lean = NULL;
	size_t off = (size_t)(b->doubt ? b->doubt - body : 0);
	size_t n = b->doubt ? route_lean_masks(&b->call, b->doubt, len - off, b->at, &lean) : 0;
	struct route_mask *masks = n ? dj_malloc((n + 1) * sizeof *masks) : NULL;
	bool found = false;
	if (masks) {
		size_t k = 0;
		if (b->span_to)
			masks[k++] = (struct route_mask){.from = (size_t)(b->span_from - body),
							 .to = (size_t)(b->span_to - body),
							 .zero = true};
		for (size_t i = 0; i < n; i++, k++)
			masks[k] = (struct route_mask){.from = lean[i].from + off,
						       .to = lean[i].to + off,
						       .zero = lean[i].zero};
		json_t *root = route_parse_json_masks(body, len, masks, k, err);
		found = root == NULL;
		json_decref(root);
	}
	dj_free(lean);
	dj_free(masks);
	return found;
}

/*
 * A body the first pass doubted: parsed with its run of well-formed cases
 * masked (route_parse_json_masked()), so that a fault after them costs no
 * tree of them. A fault of the JSON, or a member beside "cases", is then
 * answered as the tree path answers it; true with *st set. False when the
 * body needs its whole tree (the caller parses it).
 */
static bool batch_doubted(const struct route_call *call, const struct batch *b, const char *body,
			  size_t len, struct route_response *resp, struct codec_error *err,
			  enum codec_status *st)
{
	struct codec_error found;
	codec_error_init(&found, 1);
	if (batch_lean_fault(b, body, len, &found)) {
		codec_error_copy(err, &found);
		*st = err->status;
		return true;
	}
	if (!b->span_to && !b->tail)
		return false;
	/* The good cases masked, and large members after the array read as
	 * empty ones: a batch holds nothing beside "cases", so such a member
	 * is refused by its name alone. */
	struct route_mask *tail = NULL, *masks;
	size_t n = b->tail ? route_lean_members(body, len, (size_t)(b->tail - body), &tail) : 0;
	masks = dj_malloc((n + 1) * sizeof *masks);
	if (!masks) {
		dj_free(tail);
		return false; /* the tree path tells it */
	}
	size_t k = 0;
	if (b->span_to)
		masks[k++] = (struct route_mask){.from = (size_t)(b->span_from - body),
						 .to = (size_t)(b->span_to - body),
						 .zero = true};
	for (size_t i = 0; i < n; i++)
		masks[k++] = tail[i];
	codec_error_init(&found, 1);
	json_t *root = route_parse_json_masks(body, len, masks, k, &found);
	dj_free(tail);
	dj_free(masks);
	if (!root) {
		codec_error_copy(err, &found);
		*st = err->status;
		return true;
	}
	bool other = json_object_size(root) != 1 || !json_object_get(root, "cases");
	if (other)
		*st = route_respond_batch(call, root, b->one, resp, err);
	json_decref(root);
	return other;
}

bool route_respond_batch_body(const struct route_call *call, const char *body, size_t len,
			      enum route_case_at at, route_case_fn *one, route_case_fast_fn *fast,
			      route_case_write_fn *write, struct route_response *resp,
			      struct codec_error *err, enum codec_status *st)
{
	struct batch_cursor first;
	if ((call->req->limits && call->req->limits->tree_only) || !batch_open(&first, body, len))
		return false;
	struct batch *b = dj_calloc(1, sizeof *b);
	if (!b)
		return false; /* the tree path tells it, as it always has */
	b->call = *call;
	b->req = *call->req;
	b->call.req = &b->req;
	b->call.faults = &b->faults;
	b->req.tally = &b->tally;
	b->one = one;
	b->fast = fast;
	b->write = write;
	b->at = at;
	b->trace = route_arg(call, "trace") != 0;
	b->first = b->cur = first;

	size_t hold = len / 2 > BATCH_HOLD_MIN ? len / 2 : BATCH_HOLD_MIN;
	bool held = false;
	struct codec_error found;
	codec_error_init(&found, 1);
	enum batch_step step = batch_first_pass(b, hold, &held, &found);
	if (step == BATCH_DOUBT) {
		bool taken = batch_doubted(call, b, body, len, resp, err, st);
		batch_free(b);
		return taken;
	}
	/* Over --max-batch the tree path solves nothing: nothing is counted. */
	if (step != BATCH_FAULT || found.status != CODEC_E_TOO_LARGE)
		batch_count(b, call->req->tally);
	if (step == BATCH_FAULT) {
		codec_error_copy(err, &found);
		*st = err->status;
		batch_free(b);
		return true;
	}
	resp->status = problem_http_status(CODEC_OK);
	resp->content_type = "application/json";
	if (held) {
		route_response_free(resp);
		resp->body = b->out.data;
		resp->body_len = b->out.len;
		b->out = (struct route_buf){.data = NULL};
		batch_free(b);
	} else {
		/* The second pass, as the answer is sent: nothing more to count,
		 * and nothing of the request but its body and limits is read. */
		b->req.tally = NULL;
		b->req.nparams = 0;
		b->cur = b->first;
		b->failed = 0;
		b->steps = 0;
		b->state = 0;
		route_response_free(resp);
		resp->stream =
		    (struct route_stream){.read = batch_read, .free = batch_free, .ctx = b};
	}
	*st = CODEC_OK;
	return true;
}
