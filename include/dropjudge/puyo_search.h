/*
 * Puyo search: which puyos, dropped where, fire the longest chain
 * (triggers), and where to place the next pairs (sequences), on the rules of
 * dropjudge/puyo.h. The field (a 12-row one topped by an empty hidden row)
 * is settled and run first (fires_now); the search starts from it at rest.
 *
 * Triggers: for each column 1..6 and each colour asked, the smallest k in
 * 1..add such that k puyos of that colour dropped on the column make the
 * field fire (none if the column has fewer than k free cells), with the
 * chains and score of the whole run; ranked by chains (desc), score (desc),
 * puyos (asc), column (asc), colour (R, G, B, P, Y).
 *
 * Placements of a pair [a, b]: the axis a in column 1..6, rotation 0 (b
 * above a), 1 (b right), 2 (b below), 3 (b left), both columns on the
 * field: 22, or 11 (rotations 0 and 1) when a == b. Vertical pairs stack,
 * horizontal ones fall separately; legal when no puyo lands above the 13th
 * row (the real game's reachability is not modelled). Each placement is
 * run; what it fired is kept. Sequences (one legal placement per pair, in
 * order) are ranked by the longest chain fired (desc), the total score
 * fired (desc), the end field's best trigger's chains (desc) and score
 * (desc, none ranking as 0 and 0), then the placements' (column, rotation)
 * in order, ascending.
 *
 * Pure: nothing allocates; the answer is the caller's.
 */
#ifndef DROPJUDGE_PUYO_SEARCH_H
#define DROPJUDGE_PUYO_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "dropjudge/puyo.h"

#define PUYO_SEARCH_MAX_ADD	 4   /* puyos a trigger may drop */
#define PUYO_SEARCH_MAX_PAIRS	 3   /* pairs placed in a sequence */
#define PUYO_SEARCH_MAX_LIMIT	 100 /* sequences an answer holds */
#define PUYO_SEARCH_MAX_TRIGGERS (PUYO_COLS * PUYO_COLORS)
#define PUYO_SEARCH_ALL_COLORS	 0x1Fu /* bit v - 1 for each colour v */

/* A search. Caller-owned. */
struct puyo_search_request {
	struct puyo_field field;		/* 12 or 13 rows, any content */
	unsigned add;				/* 1..PUYO_SEARCH_MAX_ADD */
	unsigned pairs;				/* 0..PUYO_SEARCH_MAX_PAIRS */
	uint8_t pair[PUYO_SEARCH_MAX_PAIRS][2]; /* [axis, child], colours 1..5 */
	unsigned limit;				/* 1..PUYO_SEARCH_MAX_LIMIT */
	unsigned colors;			/* trigger colours: bit v - 1 for colour v */
};

/* Where k puyos of one colour fire the field. */
struct puyo_trigger {
	uint8_t column;	 /* 1..6 */
	uint8_t color;	 /* enum puyo_cell, 1..5 */
	uint8_t puyos;	 /* 1..add */
	unsigned chains; /* >= 1 */
	uint64_t score;	 /* of the whole run */
};

/* One placement of a pair. */
struct puyo_placement {
	uint8_t column;	  /* of the axis, 1..6 */
	uint8_t rotation; /* 0 child above, 1 right, 2 below, 3 left */
};

/* A ranked sequence: its placements, what each fired, its end's best trigger. */
struct puyo_sequence {
	struct puyo_placement placement[PUYO_SEARCH_MAX_PAIRS]; /* request's pairs of them */
	struct puyo_result fired[PUYO_SEARCH_MAX_PAIRS];	/* chains 0: nothing fired */
	bool has_trigger;					/* false: no trigger */
	struct puyo_trigger trigger;				/* the best, if any */
};

/* The answer. Caller-owned (about 12 KB). */
struct puyo_search_answer {
	struct puyo_result fires_now; /* chains 0: the field was at rest */
	unsigned triggers;	      /* of the field at rest, ranked */
	struct puyo_trigger trigger[PUYO_SEARCH_MAX_TRIGGERS];
	uint32_t examined;  /* legal sequences (1 with no pairs: the empty one) */
	unsigned sequences; /* min(limit, examined), ranked */
	struct puyo_sequence sequence[PUYO_SEARCH_MAX_LIMIT];
};

/* Searches as the head of this file says: 0, *answer filled, or -1 (answer untouched) when
 * the request is out of its ranges (add, pairs, limit, colours, a pair colour not 1..5, a
 * cell not an enum puyo_cell). */
int puyo_search(const struct puyo_search_request *request, struct puyo_search_answer *answer);

#endif
