/*
 * The drawing of a Puyo field shared by the pictures of src/render (private
 * to it): puyo_svg.c's field, its layout and colours, which the search's
 * picture (puyo_search_svg.c) draws too.
 */
#ifndef DROPJUDGE_RENDER_PUYO_DRAW_H
#define DROPJUDGE_RENDER_PUYO_DRAW_H

#include <stdbool.h>

#include "dropjudge/puyo.h"
#include "svg.h"

/* Fill and edge of each cell value, enum puyo_cell order. */
extern const char *const puyo_fill[];
extern const char *const puyo_edge[];

/* What pops in a step, on the visible rows (0 = top visible row). */
struct puyo_pops {
	bool cell[PUYO_ROWS][PUYO_COLS];    /* colour puyo in a group of 4 or more */
	bool garbage[PUYO_ROWS][PUYO_COLS]; /* garbage next to one */
	unsigned popped;		    /* colour puyos */
	unsigned garbage_count;
	unsigned groups;
};

/* The sizes of a field's frame, from its cell size. */
struct puyo_layout {
	unsigned s;	  /* cell */
	unsigned m;	  /* margin, also the top of the hidden row */
	unsigned w, h;	  /* frame */
	unsigned radius;  /* puyo */
	unsigned link;	  /* thickness of a link */
	unsigned stroke;  /* outline of a popping group */
	unsigned font;	  /* caption */
	unsigned label;	  /* row and column numbers */
	unsigned numbers; /* height of the band of column numbers under the field */
};

/* The layout of a frame of `s` pixels a cell. */
struct puyo_layout puyo_layout_of(unsigned s);

/* Screen position of drawn row d (0: hidden row, 1..12 visible) and column c. */
unsigned puyo_cx(const struct puyo_layout *l, unsigned c);
unsigned puyo_cy(const struct puyo_layout *l, unsigned d);
/* Baseline of line `row` of the caption under the field. */
unsigned puyo_caption_y(const struct puyo_layout *l, unsigned row);

/* Draws the field: background, links, puyos, then the outlines of `pops` (NULL: none). */
void puyo_draw_field(struct svg_out *o, const struct puyo_layout *l, const struct puyo_field *f,
		     const struct puyo_pops *pops);

#endif
