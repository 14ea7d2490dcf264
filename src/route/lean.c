/*
 * Large cases read lean. A Monomino-Domino case of a million blocks is a
 * few megabytes of text but, as one jansson tree, thirty times that. Here
 * the one array that can be long (the problem's lean_member) is checked
 * element by element, each element's tree built and freed at once, and
 * left in the body: the case is parsed with that array read as empty, and
 * the decoder reads the elements from the body (call->lean). Large
 * arrays and objects beside it, which no decoder looks into (an unknown
 * member is refused by its name, a wrong type by its type), are checked
 * piece by piece and read as empty too.
 *
 * Every answer and every fault stays the one jansson gives for the whole
 * body: what is masked is known to be well-formed, so jansson meets the
 * first fault in the same place, at the same line and column
 * (route_parse_json_masks()). An element that may not be well-formed stops
 * the scan there: the elements before it are masked as one value and
 * jansson reads from there on, so even a broken body costs no tree of
 * what came before its fault.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mem/alloc.h"
#include "route/handlers.h"

/* An array or object beside the lean array at least this long is checked
 * piece by piece and masked; a shorter one is simply parsed. */
#define LEAN_MASK_MIN 4096
/* A value shorter than this is checked by one parse; a longer array or
 * object is checked an element or member at a time. */
#define LEAN_PIECE 65536

/* The scan of one body. */
struct lean_scan {
	const char *body;
	const char *end;
	const char *const *path;  /* member names from the root to the lean array */
	size_t depth;		  /* names in path */
	struct route_mask *masks; /* dj_malloc'ed, in order */
	size_t nmasks;
	size_t cap;
	const char *elems;     /* the lean array's elements, once checked */
	const char *elems_end; /* end of them */
	size_t count;	       /* elements */
	bool found;	       /* the lean array is checked and masked */
	bool broken;	       /* masks end with the elements before a doubtful one */
	bool stop;	       /* the scan ended early: jansson reads the rest */
};

static void add_mask(struct lean_scan *s, const char *from, const char *to, bool zero)
{
	if (from >= to || s->stop)
		return;
	if (s->nmasks == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		struct route_mask *m = dj_realloc(s->masks, cap * sizeof *m);
		if (!m) {
			s->stop = true;
			return;
		}
		s->masks = m;
		s->cap = cap;
	}
	s->masks[s->nmasks++] = (struct route_mask){
	    .from = (size_t)(from - s->body), .to = (size_t)(to - s->body), .zero = zero};
}

/* FNV-1a, for telling member names apart. */
static uint64_t name_hash(const char *p, size_t n)
{
	uint64_t h = 14695981039346656037u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 1099511628211u;
	return h;
}

static int hash_order(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* The hash of the member name whose string is [k, ke), as jansson decodes
 * it; false when it cannot be a name (not a string, or \u0000 in it). */
static bool member_name(const char *k, const char *ke, uint64_t *h)
{
	if (!json_span_valid(k, ke))
		return false;
	if (!memchr(k, '\\', (size_t)(ke - k))) {
		*h = name_hash(k + 1, (size_t)(ke - k - 2));
		return true;
	}
	json_error_t jerr;
	json_t *name = json_loadb(k, (size_t)(ke - k), JSON_DECODE_ANY | JSON_SPAN_FLAGS, &jerr);
	const char *text = json_string_value(name);
	size_t n = json_string_length(name);
	bool ok = text && strlen(text) == n;
	if (ok)
		*h = name_hash(text, n);
	json_decref(name);
	return ok;
}

static bool check_piece(const char *p, const char *e, size_t depth);

/* Whether the array [p, e) is well-formed, an element at a time. */
static bool check_elements(const char *p, const char *e, size_t depth)
{
	const char *q = json_span_ws(p + 1, e);
	if (q < e && *q == ']')
		return q + 1 == e;
	for (;;) {
		const char *ve = json_span_value(q, e);
		if (!ve || !check_piece(q, ve, depth + 1))
			return false;
		q = json_span_ws(ve, e);
		if (q == e)
			return false;
		if (*q == ']')
			return q + 1 == e;
		if (*q != ',')
			return false;
		q = json_span_ws(q + 1, e);
	}
}

/* Whether the object [p, e) is well-formed, a member at a time, no name
 * twice (names whose hashes meet are left to jansson, which decides). */
static bool check_members(const char *p, const char *e, size_t depth)
{
	uint64_t *hashes = NULL;
	size_t n = 0, cap = 0;
	bool ok = false;
	const char *q = json_span_ws(p + 1, e);
	if (q < e && *q == '}')
		return q + 1 == e;
	for (;;) {
		const char *ke = json_span_value(q, e);
		uint64_t h;
		if (!ke || *q != '"' || !member_name(q, ke, &h))
			goto out;
		if (n == cap) {
			size_t c = cap ? cap * 2 : 64;
			uint64_t *more = dj_realloc(hashes, c * sizeof *more);
			if (!more)
				goto out;
			hashes = more;
			cap = c;
		}
		hashes[n++] = h;
		q = json_span_ws(ke, e);
		if (q == e || *q != ':')
			goto out;
		q = json_span_ws(q + 1, e);
		const char *ve = json_span_value(q, e);
		if (!ve || !check_piece(q, ve, depth + 1))
			goto out;
		q = json_span_ws(ve, e);
		if (q == e || (*q != ',' && *q != '}'))
			goto out;
		if (*q == '}')
			break;
		q = json_span_ws(q + 1, e);
	}
	if (q + 1 != e)
		goto out;
	qsort(hashes, n, sizeof *hashes, hash_order);
	ok = true;
	for (size_t i = 1; i < n && ok; i++)
		ok = hashes[i] != hashes[i - 1];
out:
	dj_free(hashes);
	return ok;
}

/*
 * Whether the value [p, e), inside `depth` arrays and objects, is one
 * jansson reads there: parsed whole when short, else piece by piece. Its
 * span came from json_span_value(), so it nests at most JSON_SPAN_NEST_MAX
 * deep, each piece inside it too: with the few levels around it, within
 * jansson's 2048, which a piece parsed alone then meets the same way.
 */
static bool check_piece(const char *p, const char *e, size_t depth)
{
	if ((size_t)(e - p) < LEAN_PIECE || (*p != '[' && *p != '{'))
		return json_span_valid(p, e);
	return *p == '[' ? check_elements(p, e, depth) : check_members(p, e, depth);
}

/* The lean array [v, ve): every element checked, then masked; or the
 * elements before the first doubtful one masked as one value. ve NULL: the
 * array is not closed, and its elements are read up to the fault. */
static void scan_elements(struct lean_scan *s, const char *v, const char *ve)
{
	const char *limit = ve ? ve : s->end;
	const char *q = json_span_ws(v + 1, limit), *first = q, *last = NULL;
	size_t count = 0;
	if (ve && q < ve && *q == ']' && q + 1 == ve)
		goto out_found;
	for (;;) {
		const char *e = json_span_value(q, limit);
		if (!e || !json_span_valid(q, e))
			goto out_broken;
		count++;
		last = e;
		q = json_span_ws(e, limit);
		if (q == limit || (*q != ',' && *q != ']'))
			goto out_broken;
		if (*q == ']')
			break;
		q = json_span_ws(q + 1, limit);
	}
	if (!ve || q + 1 != ve)
		goto out_broken;
out_found:
	add_mask(s, v + 1, ve - 1, false);
	if (s->stop)
		return;
	s->elems = v + 1;
	s->elems_end = ve - 1;
	s->count = count;
	s->found = true;
	return;
out_broken:
	if (last)
		add_mask(s, first, last, true);
	s->broken = last != NULL;
	s->stop = true;
}

static void scan_object(struct lean_scan *s, const char *p, size_t level);

/* The members from q on of an object at `level` names down the path (no
 * path: large members masked, nothing read lean); stops the scan
 * (s->stop) unless the object is read to its "}". */
static void scan_members(struct lean_scan *s, const char *q, size_t level)
{
	const char *name = s->path ? s->path[level] : NULL;
	bool seen = false;
	while (!s->stop && q < s->end && *q == '"') {
		const char *ke = json_span_value(q, s->end);
		if (!ke)
			break;
		const char *v = json_span_ws(ke, s->end);
		if (v == s->end || *v != ':')
			break;
		v = json_span_ws(v + 1, s->end);
		if (v == s->end)
			break;
		/* NULL when not closed: the path is still scanned, up to its fault */
		const char *ve = json_span_value(v, s->end);
		if (name && !seen && json_span_key_is(q, ke, name)) {
			seen = true;
			if (level + 1 < s->depth && *v == '{')
				scan_object(s, v, level + 1);
			else if (level + 1 == s->depth && *v == '[')
				scan_elements(s, v, ve);
			else
				break;
			if (!ve)
				break;
		} else if (!ve) {
			break;
		} else if ((*v == '[' || *v == '{') && (size_t)(ve - v) >= LEAN_MASK_MIN) {
			if (!check_piece(v, ve, level + 1))
				break;
			add_mask(s, v + 1, ve - 1, false);
		}
		q = json_span_ws(ve, s->end);
		if (q < s->end && *q == '}')
			return; /* the object is read to its end */
		if (q == s->end || *q != ',')
			break;
		q = json_span_ws(q + 1, s->end);
	}
	s->stop = true; /* the rest is jansson's */
}

/* The members of the object at p, as scan_members() reads them. */
static void scan_object(struct lean_scan *s, const char *p, size_t level)
{
	const char *q = json_span_ws(p + 1, s->end);
	if (q < s->end && *q == '}')
		return;
	scan_members(s, q, level);
}

/* The placeholder of the lean array in the tree, or NULL. */
static const json_t *placeholder(const json_t *root, const struct lean_scan *s)
{
	const json_t *v = root;
	for (size_t i = 0; i < s->depth && v; i++)
		v = json_object_get(v, s->path[i]);
	return json_is_array(v) && json_array_size(v) == 0 ? v : NULL;
}

/* route_parse_json() of the body, the lean array at `path` left in it when
 * there is one (lean->placeholder NULL when not). */
static json_t *parse_lean(const char *body, size_t len, const char *const *path, size_t depth,
			  struct json_lean *lean, struct codec_error *err)
{
	struct lean_scan s = {.body = body, .end = body + len, .path = path, .depth = depth};
	*lean = (struct json_lean){.placeholder = NULL};
	const char *p = json_span_ws(body, s.end);
	if (p < s.end && *p == '{') {
		scan_object(&s, p, 0);
	} else if (p < s.end && *p == '[') {
		/* not a case, which every decoder says by its type alone */
		const char *pe = json_span_value(p, s.end);
		if (pe && (size_t)(pe - p) >= LEAN_MASK_MIN && check_piece(p, pe, 0))
			add_mask(&s, p + 1, pe - 1, false);
	}
	json_t *root = route_parse_json_masks(body, len, s.masks, s.nmasks, err);
	const json_t *ph = root && s.found ? placeholder(root, &s) : NULL;
	if (root && (s.broken || (s.found && !ph))) {
		/* jansson took what the scan doubted: its whole tree decides */
		json_decref(root);
		root = route_parse_json(body, len, err);
	} else if (ph) {
		*lean = (struct json_lean){.placeholder = ph,
					   .text = s.elems,
					   .len = (size_t)(s.elems_end - s.elems),
					   .count = s.count};
	}
	dj_free(s.masks);
	return root;
}

json_t *route_parse_lean(const struct problem *p, const struct route_limits *limits,
			 const char *body, size_t len, enum route_case_at at,
			 struct json_lean *lean, struct codec_error *err)
{
	*lean = (struct json_lean){.placeholder = NULL};
	if (!p || !p->lean_member || !limits || limits->tree_only || len < limits->lean_from)
		return route_parse_json(body, len, err);
	const char *const path[2] = {at == ROUTE_CASE_INPUT ? "input" : p->lean_member,
				     p->lean_member};
	return parse_lean(body, len, path, at == ROUTE_CASE_INPUT ? 2 : 1, lean, err);
}

json_t *route_parse_case(const struct route_call *call, const char *body, size_t len,
			 enum route_case_at at, struct route_lean_call *lc,
			 const struct route_call **used, struct codec_error *err)
{
	const struct problem *p = call->entry ? route_entry_problem(call->entry) : NULL;
	const struct route_limits *limits = call->req->limits;
	*used = call;
	json_t *root = route_parse_lean(p, limits, body, len, at, &lc->lean, err);
	if (root && lc->lean.placeholder) {
		lc->call = *call;
		lc->call.lean = &lc->lean;
		*used = &lc->call;
	}
	return root;
}

size_t route_lean_masks(const struct route_call *call, const char *body, size_t len,
			enum route_case_at at, struct route_mask **masks)
{
	const struct problem *p = call->entry ? route_entry_problem(call->entry) : NULL;
	const struct route_limits *limits = call->req->limits;
	*masks = NULL;
	if (!p || !p->lean_member || !limits || limits->tree_only || len < limits->lean_from)
		return 0;
	const char *const path[2] = {at == ROUTE_CASE_INPUT ? "input" : p->lean_member,
				     p->lean_member};
	struct lean_scan s = {
	    .body = body, .end = body + len, .path = path, .depth = at == ROUTE_CASE_INPUT ? 2 : 1};
	const char *q = json_span_ws(body, s.end);
	if (q < s.end && *q == '{')
		scan_object(&s, q, 0);
	*masks = s.masks;
	return s.nmasks;
}

size_t route_lean_members(const char *body, size_t len, size_t from, struct route_mask **masks)
{
	struct lean_scan s = {.body = body, .end = body + len, .path = NULL, .depth = 0};
	const char *q = json_span_ws(body + from, s.end);
	if (q < s.end && *q == ',')
		scan_members(&s, json_span_ws(q + 1, s.end), 0);
	*masks = s.masks;
	return s.nmasks;
}
