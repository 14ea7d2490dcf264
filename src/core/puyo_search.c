/*
 * The Puyo search of dropjudge/puyo_search.h on the simulator's bit planes
 * and their helpers (planes.h). The field searched is always at rest, so puyos
 * added to it make it fire exactly when a group holding one of them reaches
 * four: a flood fill within its colour decides, and only a candidate that
 * fires is run in full. Added puyos are written at the lowest free cells of
 * their columns, so the planes stay settled. Sequences are walked depth
 * first in the order of their placements; the answer keeps the best `limit`
 * by insertion. Pure: no allocation, no I/O, no global state.
 */
#include "dropjudge/puyo_search.h"

#include <string.h>

#include "planes.h"

/* Whether x has PUYO_POP_SIZE cells or more: the lowest cell cleared three
 * times (popcount is a library call on a baseline x86-64). */
static bool pops(plane_t x)
{
	uint64_t lo = half(x, 0), hi = half(x, 1);
	for (unsigned i = 1; i < PUYO_POP_SIZE; i++) {
		if (lo)
			lo &= lo - 1;
		else
			hi &= hi - 1;
	}
	return (lo | hi) != 0;
}

/* Puyos in column c (0-based) of settled planes. */
static unsigned height(const struct planes *p, unsigned c)
{
	uint64_t lane = (half(planes_occupied(p), c / 4) >> (16 * (c % 4))) & LANE_CELLS;
	return lane ? PUYO_ROWS_MAX - (unsigned)__builtin_ctzll(lane) : 0;
}

/* The one-cell plane of (c, h). */
static plane_t cell(unsigned c, unsigned h)
{
	uint64_t bit = 1ull << (16 * (c % 4) + h);
	return c < 4 ? from_halves(bit, 0) : from_halves(0, bit);
}

/* Writes colour v into the empty cells x. */
static void put(struct planes *p, plane_t x, unsigned v)
{
	for (unsigned k = 0; k < 3; k++)
		if (v >> k & 1)
			p->bit[k] |= x;
}

/* Whether the puyo just added in cell x, of colour v, makes the planes fire. */
static bool fires_from(const struct planes *p, plane_t x, unsigned v)
{
	return pops(grow(x & PLANE_SEEN, planes_value(p, v) & PLANE_SEEN));
}

/* Whether trigger a ranks before trigger b (puyo_search.h's order). */
static bool trigger_before(const struct puyo_trigger *a, const struct puyo_trigger *b)
{
	if (a->chains != b->chains)
		return a->chains > b->chains;
	if (a->score != b->score)
		return a->score > b->score;
	if (a->puyos != b->puyos)
		return a->puyos < b->puyos;
	if (a->column != b->column)
		return a->column < b->column;
	return a->color < b->color;
}

/* The run of planes t, at rest but for the popping group g just added, when nothing falls
 * once g and the garbage next to it go: that one step. False, *res untouched, otherwise. */
static bool run_one_step(const struct planes *t, plane_t g, struct puyo_result *res)
{
	plane_t gone = g | (planes_value(t, PUYO_GARBAGE) & PLANE_SEEN & neighbours(g));
	/* the cells above (at lower bits than) the lowest cell that goes, per column */
	plane_t above = gone >> 1;
	above |= above >> 1;
	above |= above >> 2;
	above |= above >> 4;
	above |= above >> 8;
	if (plane_any(planes_occupied(t) & ~gone & above))
		return false;
	unsigned n = count_cells(g);
	/* all_clear is not read by the search */
	*res = (struct puyo_result){1, puyo_step_score(1, n, 1, &n, 1), false};
	return true;
}

/* The triggers of planes at rest: with `all`, every one ranked into out, returning their
 * number; else the best into out[0], returning 1 (0 when there is none). */
static unsigned triggers(const struct planes *p, unsigned add, unsigned colors,
			 struct puyo_trigger *out, bool all)
{
	unsigned n = 0;
	plane_t colour[PUYO_YELLOW + 1];
	for (unsigned v = PUYO_RED; v <= PUYO_YELLOW; v++)
		colour[v] = planes_value(p, v) & PLANE_SEEN;
	for (unsigned c = 0; c < PUYO_COLS; c++) {
		unsigned room = PUYO_ROWS_MAX - height(p, c);
		unsigned h0 = room - 1; /* lowest free cell */
		for (unsigned v = PUYO_RED; v <= PUYO_YELLOW; v++) {
			if (!(colors >> (v - 1) & 1))
				continue;
			plane_t added = {0};
			for (unsigned k = 1; k <= add && k <= room; k++) {
				added |= cell(c, h0 - (k - 1));
				plane_t seed = added & PLANE_SEEN, g = grow(seed, colour[v] | seed);
				if (!pops(g))
					continue;
				struct planes t = *p;
				put(&t, added, v);
				struct puyo_result res;
				if (!run_one_step(&t, g, &res)) {
					/* a shorter chain than the best needs no score */
					struct planes u = t;
					if (!all && n > 0 && planes_chains(&u) < out[0].chains)
						break;
					planes_run(&t, &res, NULL, NULL, NULL);
				}
				struct puyo_trigger tr = {(uint8_t)(c + 1), (uint8_t)v, (uint8_t)k,
							  res.chains, res.score};
				if (all) {
					unsigned j = n++;
					while (j > 0 && trigger_before(&tr, &out[j - 1])) {
						out[j] = out[j - 1];
						j--;
					}
					out[j] = tr;
				} else if (n == 0 || trigger_before(&tr, &out[0])) {
					out[0] = tr;
					n = 1;
				}
				break;
			}
		}
	}
	return n;
}

/* The state of a walk through the sequences. */
struct walk {
	const struct puyo_search_request *req;
	struct puyo_search_answer *ans;
	struct puyo_sequence cur; /* the sequence being walked */
};

/* Whether sequence a ranks strictly before b on all but the placements: longest chain fired,
 * total score fired, then its end's best trigger. */
static bool sequence_before(const struct puyo_sequence *a, const struct puyo_sequence *b,
			    unsigned pairs)
{
	unsigned ca = 0, cb = 0;
	uint64_t sa = 0, sb = 0;
	for (unsigned i = 0; i < pairs; i++) {
		ca = a->fired[i].chains > ca ? a->fired[i].chains : ca;
		cb = b->fired[i].chains > cb ? b->fired[i].chains : cb;
		sa += a->fired[i].score;
		sb += b->fired[i].score;
	}
	if (ca != cb)
		return ca > cb;
	if (sa != sb)
		return sa > sb;
	/* a sequence without a trigger has its trigger zeroed (walk_from()) */
	if (a->trigger.chains != b->trigger.chains)
		return a->trigger.chains > b->trigger.chains;
	return a->trigger.score > b->trigger.score;
}

/* Keeps the finished sequence among the best `limit`, after every kept one it does not beat. */
static void keep(struct walk *w)
{
	struct puyo_search_answer *ans = w->ans;
	unsigned n = ans->sequences, limit = w->req->limit, pairs = w->req->pairs;
	ans->examined++;
	if (n == limit && !sequence_before(&w->cur, &ans->sequence[n - 1], pairs))
		return;
	unsigned j = n < limit ? n++ : n - 1;
	while (j > 0 && sequence_before(&w->cur, &ans->sequence[j - 1], pairs)) {
		ans->sequence[j] = ans->sequence[j - 1];
		j--;
	}
	ans->sequence[j] = w->cur;
	ans->sequences = n;
}

/* Places pair [a, b] at column c (0-based), rotation r on planes at rest and runs them
 * (*fired); false, planes untouched, when a puyo would be off the field or above row 13. */
static bool place(struct planes *p, unsigned c, unsigned r, unsigned a, unsigned b,
		  struct puyo_result *fired)
{
	unsigned c2 = r == 1 ? c + 1 : r == 3 ? c - 1 : c; /* c - 1 wraps past 5 when c is 0 */
	if (c2 >= PUYO_COLS)
		return false;
	unsigned room = PUYO_ROWS_MAX - height(p, c), room2 = PUYO_ROWS_MAX - height(p, c2);
	if (room2 == 0 || room < 1u + (c2 == c))
		return false;
	/* the lowest free cell of column c; the one above it, or column c2's lowest */
	unsigned low = room - 1, other = room2 - 1 - (c2 == c);
	unsigned ha = r == 2 ? other : low, hb = r == 2 ? low : other;
	plane_t xa = cell(c, ha), xb = cell(c2, hb);
	put(p, xa, a);
	put(p, xb, b);
	memset(fired, 0, sizeof *fired);
	if (fires_from(p, xa, a) || fires_from(p, xb, b))
		planes_run(p, fired, NULL, NULL, NULL);
	return true;
}

/* Walks every legal sequence from planes at rest, from pair `depth` on. */
static void walk_from(struct walk *w, const struct planes *p, unsigned depth)
{
	const struct puyo_search_request *req = w->req;
	if (depth >= req->pairs || depth >= PUYO_SEARCH_MAX_PAIRS) {
		w->cur.trigger = (struct puyo_trigger){0}; /* what a sequence without one keeps */
		w->cur.has_trigger = triggers(p, req->add, req->colors, &w->cur.trigger, false) > 0;
		keep(w);
		return;
	}
	unsigned a = req->pair[depth][0], b = req->pair[depth][1];
	for (unsigned c = 0; c < PUYO_COLS; c++) {
		for (unsigned r = 0; r < (a == b ? 2u : 4u); r++) {
			struct planes t = *p;
			if (!place(&t, c, r, a, b, &w->cur.fired[depth]))
				continue;
			w->cur.placement[depth] =
			    (struct puyo_placement){(uint8_t)(c + 1), (uint8_t)r};
			walk_from(w, &t, depth + 1);
		}
	}
}

/* Whether the request is within its ranges. */
static bool request_is_valid(const struct puyo_search_request *req)
{
	const struct puyo_field *f = &req->field;
	if (f->rows != PUYO_ROWS && f->rows != PUYO_ROWS_MAX)
		return false;
	for (unsigned r = 0; r < f->rows; r++)
		for (unsigned c = 0; c < PUYO_COLS; c++)
			if (f->cell[r][c] > PUYO_GARBAGE)
				return false;
	if (req->add < 1 || req->add > PUYO_SEARCH_MAX_ADD || req->pairs > PUYO_SEARCH_MAX_PAIRS ||
	    req->limit < 1 || req->limit > PUYO_SEARCH_MAX_LIMIT ||
	    (req->colors & ~PUYO_SEARCH_ALL_COLORS) != 0)
		return false;
	for (unsigned i = 0; i < req->pairs; i++)
		for (unsigned j = 0; j < 2; j++)
			if (req->pair[i][j] < PUYO_RED || req->pair[i][j] > PUYO_YELLOW)
				return false;
	return true;
}

int puyo_search(const struct puyo_search_request *request, struct puyo_search_answer *answer)
{
	if (!request_is_valid(request))
		return -1;
	struct planes p;
	planes_from_field(&p, &request->field);
	planes_run(&p, &answer->fires_now, NULL, NULL, NULL);
	answer->triggers = triggers(&p, request->add, request->colors, answer->trigger, true);
	answer->examined = 0;
	answer->sequences = 0;
	struct walk w = {.req = request, .ans = answer}; /* cur: all zero */
	walk_from(&w, &p, 0);
	return 0;
}
