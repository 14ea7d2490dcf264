/*
 * The straightforward Puyo search: the reference of the fast search
 * (src/core/puyo_search.c) in the differential unit test and its baseline in
 * `make bench`. Written from the rules of issue 47 and the Tsu score only,
 * with the C library alone: a char grid of 13 rows (row 0 the hidden row),
 * a breadth-first flood fill from every unvisited puyo, gravity column by
 * column, and every candidate tried as a copy of the grid run to its end.
 *
 * ref_search() writes its answer as canonical text (ref_answer_text's
 * format below), which the test writes from the fast answer too: the two
 * must be the same bytes.
 *
 *   fires_now CHAINS SCORE | fires_now none
 *   trigger COLUMN COLOR PUYOS CHAINS SCORE      (each trigger, ranked)
 *   examined N
 *   seq C,R C,R ... | CH,SC CH,SC ... | COLUMN COLOR PUYOS CHAINS SCORE | none
 *
 * Included as a source file by its users (one translation unit each).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REF_ROWS	  13 /* row 0 the hidden row, row 12 the floor */
#define REF_COLS	  6
#define REF_MAX_PAIRS	  3
#define REF_MAX_SEQUENCES (22 * 22 * 22)

/* A request, as the issue states it. */
struct ref_request {
	char field[REF_ROWS][REF_COLS]; /* '.', RGBPY, 'O'; a 12-row field has row 0 empty */
	int add;			/* 1..4: puyos a trigger may drop */
	int npairs;			/* 0..3 */
	char pairs[REF_MAX_PAIRS][2];	/* [axis, child] colour letters */
	int limit;			/* 1..100 sequences in the answer */
	char colors[6];			/* the trigger colours, a subset of "RGBPY" */
};

static const char ref_color_order[] = "RGBPY";

static int ref_is_color(char c)
{
	return c && strchr(ref_color_order, c) != NULL;
}

/* Every puyo falls to the lowest empty cell of its column. */
static void ref_gravity(char g[REF_ROWS][REF_COLS])
{
	for (int c = 0; c < REF_COLS; c++) {
		int dst = REF_ROWS - 1;
		for (int r = REF_ROWS - 1; r >= 0; r--) {
			if (g[r][c] != '.') {
				char v = g[r][c];
				g[r][c] = '.';
				g[dst--][c] = v;
			}
		}
	}
}

/* Tsu chain power by chain number 1..19 (later chains: the last). */
static const int ref_chain_power[] = {0,   8,	16,  32,  64,  96,  128, 160, 192, 224,
				      256, 288, 320, 352, 384, 416, 448, 480, 512};
static const int ref_color_bonus[] = {0, 0, 3, 6, 12, 24};

static int ref_group_bonus(int size)
{
	if (size <= 4)
		return 0;
	return size >= 11 ? 10 : size - 3;
}

/*
 * One chain step numbered `chain`: every group of four or more in the
 * visible rows 1..12 pops, garbage of the visible rows next to a popped
 * puyo goes, then gravity. Returns the step's score, or -1 if nothing popped.
 */
static long ref_step(char g[REF_ROWS][REF_COLS], int chain)
{
	static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
	int seen[REF_ROWS][REF_COLS] = {{0}};
	int pop[REF_ROWS][REF_COLS] = {{0}};
	int queue[REF_ROWS * REF_COLS][2];
	int popped = 0, bonus = 0, colors_seen[6] = {0}, colors = 0;

	for (int r = 1; r < REF_ROWS; r++) {
		for (int c = 0; c < REF_COLS; c++) {
			if (seen[r][c] || !ref_is_color(g[r][c]))
				continue;
			int head = 0, tail = 0;
			queue[tail][0] = r;
			queue[tail][1] = c;
			tail++;
			seen[r][c] = 1;
			while (head < tail) {
				int qr = queue[head][0], qc = queue[head][1];
				head++;
				for (int k = 0; k < 4; k++) {
					int nr = qr + dr[k], nc = qc + dc[k];
					if (nr < 1 || nr >= REF_ROWS || nc < 0 || nc >= REF_COLS)
						continue;
					if (seen[nr][nc] || g[nr][nc] != g[r][c])
						continue;
					seen[nr][nc] = 1;
					queue[tail][0] = nr;
					queue[tail][1] = nc;
					tail++;
				}
			}
			if (tail >= 4) {
				for (int i = 0; i < tail; i++)
					pop[queue[i][0]][queue[i][1]] = 1;
				popped += tail;
				bonus += ref_group_bonus(tail);
				int ci = (int)(strchr(ref_color_order, g[r][c]) - ref_color_order);
				if (!colors_seen[ci]++)
					colors++;
			}
		}
	}
	if (!popped)
		return -1;
	for (int r = 1; r < REF_ROWS; r++) {
		for (int c = 0; c < REF_COLS; c++) {
			if (g[r][c] != 'O')
				continue;
			for (int k = 0; k < 4; k++) {
				int nr = r + dr[k], nc = c + dc[k];
				if (nr >= 1 && nr < REF_ROWS && nc >= 0 && nc < REF_COLS &&
				    pop[nr][nc]) {
					g[r][c] = '.';
					break;
				}
			}
		}
	}
	for (int r = 1; r < REF_ROWS; r++)
		for (int c = 0; c < REF_COLS; c++)
			if (pop[r][c])
				g[r][c] = '.';
	ref_gravity(g);
	bonus += ref_chain_power[chain < 19 ? chain - 1 : 18] + ref_color_bonus[colors];
	if (bonus < 1)
		bonus = 1;
	if (bonus > 999)
		bonus = 999;
	return 10L * popped * bonus;
}

/* Settles, then steps until nothing pops: the chains and the total score. */
static void ref_run(char g[REF_ROWS][REF_COLS], int *chains, long *score)
{
	long s;
	*chains = 0;
	*score = 0;
	ref_gravity(g);
	while ((s = ref_step(g, *chains + 1)) >= 0) {
		++*chains;
		*score += s;
	}
}

/* Empty cells of column c. */
static int ref_free(char g[REF_ROWS][REF_COLS], int c)
{
	int n = 0;
	for (int r = 0; r < REF_ROWS; r++)
		n += g[r][c] == '.';
	return n;
}

/* Drops one puyo into column c of a settled grid (it must have room). */
static void ref_drop(char g[REF_ROWS][REF_COLS], int c, char v)
{
	for (int r = REF_ROWS - 1; r >= 0; r--) {
		if (g[r][c] == '.') {
			g[r][c] = v;
			return;
		}
	}
}

struct ref_trigger {
	int column; /* 1..6; 0: none */
	char color;
	int puyos;
	int chains;
	long score;
};

/* Whether trigger a ranks before b (chains, score, puyos, column, colour). */
static int ref_trigger_before(const struct ref_trigger *a, const struct ref_trigger *b)
{
	if (a->chains != b->chains)
		return a->chains > b->chains;
	if (a->score != b->score)
		return a->score > b->score;
	if (a->puyos != b->puyos)
		return a->puyos < b->puyos;
	if (a->column != b->column)
		return a->column < b->column;
	return strchr(ref_color_order, a->color) < strchr(ref_color_order, b->color);
}

/* Every trigger of a field at rest, ranked; returns how many (at most 30). */
static int ref_triggers(char g[REF_ROWS][REF_COLS], const struct ref_request *rq,
			struct ref_trigger *out)
{
	int n = 0;
	for (int c = 0; c < REF_COLS; c++) {
		for (const char *x = rq->colors; *x; x++) {
			for (int k = 1; k <= rq->add; k++) {
				if (ref_free(g, c) < k)
					break;
				char t[REF_ROWS][REF_COLS];
				memcpy(t, g, sizeof t);
				for (int i = 0; i < k; i++)
					ref_drop(t, c, *x);
				int chains;
				long score;
				ref_run(t, &chains, &score);
				if (chains > 0) {
					out[n++] =
					    (struct ref_trigger){c + 1, *x, k, chains, score};
					break;
				}
			}
		}
	}
	/* insertion sort by rank */
	for (int i = 1; i < n; i++) {
		struct ref_trigger t = out[i];
		int j = i;
		while (j > 0 && ref_trigger_before(&t, &out[j - 1])) {
			out[j] = out[j - 1];
			j--;
		}
		out[j] = t;
	}
	return n;
}

struct ref_sequence {
	int column[REF_MAX_PAIRS], rotation[REF_MAX_PAIRS];
	int chains[REF_MAX_PAIRS];
	long score[REF_MAX_PAIRS];
	struct ref_trigger trigger; /* column 0: none */
};

struct ref_state {
	const struct ref_request *rq;
	struct ref_sequence *seq; /* every sequence found */
	int n;
	struct ref_sequence cur;
};

/*
 * Places pair [a, b] with its axis in column c (0-based) and rotation r
 * (0 b above a, 1 b right, 2 b below, 3 b left) and runs the field. Returns
 * 0 when the placement is illegal (off the field, or a puyo above the 13
 * rows), leaving g unchanged.
 */
static int ref_place(char g[REF_ROWS][REF_COLS], int c, int r, char a, char b, int *chains,
		     long *score)
{
	int c2 = c + (r == 1) - (r == 3);
	if (c2 < 0 || c2 >= REF_COLS)
		return 0;
	if (c2 == c) {
		if (ref_free(g, c) < 2)
			return 0;
		ref_drop(g, c, r == 0 ? a : b);
		ref_drop(g, c, r == 0 ? b : a);
	} else {
		if (ref_free(g, c) < 1 || ref_free(g, c2) < 1)
			return 0;
		ref_drop(g, c, a);
		ref_drop(g, c2, b);
	}
	ref_run(g, chains, score);
	return 1;
}

static void ref_walk(struct ref_state *st, char g[REF_ROWS][REF_COLS], int depth)
{
	const struct ref_request *rq = st->rq;
	if (depth >= rq->npairs || depth >= REF_MAX_PAIRS) {
		struct ref_trigger t[30];
		int n = ref_triggers(g, rq, t);
		st->cur.trigger = n ? t[0] : (struct ref_trigger){0, 0, 0, 0, 0};
		st->seq[st->n++] = st->cur;
		return;
	}
	char a = rq->pairs[depth][0], b = rq->pairs[depth][1];
	for (int c = 0; c < REF_COLS; c++) {
		for (int r = 0; r < 4; r++) {
			if (a == b && r >= 2)
				continue;
			char t[REF_ROWS][REF_COLS];
			memcpy(t, g, sizeof t);
			int chains;
			long score;
			if (!ref_place(t, c, r, a, b, &chains, &score))
				continue;
			st->cur.column[depth] = c + 1;
			st->cur.rotation[depth] = r;
			st->cur.chains[depth] = chains;
			st->cur.score[depth] = score;
			ref_walk(st, t, depth + 1);
		}
	}
}

static int ref_npairs; /* for the comparison below (qsort has no context) */

/* qsort order of sequences: the ranking of the issue. */
static int ref_sequence_cmp(const void *pa, const void *pb)
{
	const struct ref_sequence *a = pa, *b = pb;
	int ca = 0, cb = 0;
	long sa = 0, sb = 0;
	for (int i = 0; i < ref_npairs; i++) {
		ca = a->chains[i] > ca ? a->chains[i] : ca;
		cb = b->chains[i] > cb ? b->chains[i] : cb;
		sa += a->score[i];
		sb += b->score[i];
	}
	if (ca != cb)
		return ca > cb ? -1 : 1;
	if (sa != sb)
		return sa > sb ? -1 : 1;
	if (a->trigger.chains != b->trigger.chains)
		return a->trigger.chains > b->trigger.chains ? -1 : 1;
	if (a->trigger.score != b->trigger.score)
		return a->trigger.score > b->trigger.score ? -1 : 1;
	for (int i = 0; i < ref_npairs; i++) {
		if (a->column[i] != b->column[i])
			return a->column[i] < b->column[i] ? -1 : 1;
		if (a->rotation[i] != b->rotation[i])
			return a->rotation[i] < b->rotation[i] ? -1 : 1;
	}
	return 0;
}

/* Appends printf-formatted text at *len of out (size cap), truncating. */
static void ref_put(char *out, size_t cap, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void ref_put(char *out, size_t cap, size_t *len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = *len < cap ? vsnprintf(out + *len, cap - *len, fmt, ap) : 0;
	va_end(ap);
	if (n > 0)
		*len += (size_t)n;
	if (*len >= cap)
		*len = cap - 1;
}

static void ref_put_trigger(char *out, size_t cap, size_t *len, const struct ref_trigger *t)
{
	if (t->column == 0)
		ref_put(out, cap, len, "none");
	else
		ref_put(out, cap, len, "%d %c %d %d %ld", t->column, t->color, t->puyos, t->chains,
			t->score);
}

/*
 * The search of issue 47 on request rq, its answer written to out (cap
 * bytes, NUL-terminated) in the canonical text above. Returns 0, or -1 when
 * memory ran out.
 */
static int ref_search(const struct ref_request *rq, char *out, size_t cap)
{
	struct ref_state st = {rq,
			       malloc(sizeof(struct ref_sequence) * REF_MAX_SEQUENCES),
			       0,
			       {{0}, {0}, {0}, {0}, {0, 0, 0, 0, 0}}};
	char g[REF_ROWS][REF_COLS];
	size_t len = 0;
	int chains;
	long score;

	if (!st.seq)
		return -1;
	out[0] = '\0';
	memcpy(g, rq->field, sizeof g);
	ref_run(g, &chains, &score);
	if (chains > 0)
		ref_put(out, cap, &len, "fires_now %d %ld\n", chains, score);
	else
		ref_put(out, cap, &len, "fires_now none\n");

	struct ref_trigger t[30];
	int nt = ref_triggers(g, rq, t);
	for (int i = 0; i < nt; i++) {
		ref_put(out, cap, &len, "trigger ");
		ref_put_trigger(out, cap, &len, &t[i]);
		ref_put(out, cap, &len, "\n");
	}

	ref_walk(&st, g, 0);
	ref_npairs = rq->npairs;
	qsort(st.seq, (size_t)st.n, sizeof *st.seq, ref_sequence_cmp);
	ref_put(out, cap, &len, "examined %d\n", st.n);
	for (int i = 0; i < st.n && i < rq->limit; i++) {
		const struct ref_sequence *s = &st.seq[i];
		ref_put(out, cap, &len, "seq");
		for (int p = 0; p < rq->npairs; p++)
			ref_put(out, cap, &len, " %d,%d", s->column[p], s->rotation[p]);
		ref_put(out, cap, &len, " |");
		for (int p = 0; p < rq->npairs; p++)
			ref_put(out, cap, &len, " %d,%ld", s->chains[p], s->score[p]);
		ref_put(out, cap, &len, " | ");
		ref_put_trigger(out, cap, &len, &s->trigger);
		ref_put(out, cap, &len, "\n");
	}
	free(st.seq);
	return 0;
}
