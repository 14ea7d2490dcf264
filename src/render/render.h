/*
 * Pictures of both puzzles as SVG 1.1, drawn from the core's structs.
 *
 * Monomino-Domino is drawn as the problem statement lays it out: red 4x4 at
 * the top left, blue 4x6 to its right, green 6x4 below it, numbered from 0
 * as the statement numbers rows (x) and columns (y), the light areas in the
 * lighter tint, each block in its own colour with the halves of a domino
 * joined, the score and tile count in the free corner over a legend of the
 * marks. Puyo is drawn as the 6x12 field, columns 1-6 and rows 1-12 from
 * the floor, under the dimmed hidden 13th row (named so), puyos of one
 * colour linked where they touch, garbage grey. Captions never leave the
 * picture.
 *
 * A case has steps: the placements of Monomino-Domino, the chain steps of
 * Puyo. A picture is one of
 *   RENDER_FINAL  the answer: the state after the last step;
 *   RENDER_STEP   step k: for Monomino-Domino the block just landed, the
 *                 lines it completes (cleared) and the floor lines the light
 *                 area pushes out marked; for Puyo the field before chain
 *                 step k with its popping groups outlined, and the step's
 *                 score;
 *   RENDER_STRIP  every step frame, then the final one; with `animate`, all
 *                 in one place, each shown in turn and looping (SMIL), so
 *                 that an <img> plays the case.
 * Each frame is a nested <svg class="frame"> with id "step-K" or "final",
 * positioned by its x, y, width and height, so that a page can show one
 * frame at a time by setting the outer viewBox.
 *
 * Pure: the C library only, no allocation, no I/O, no global state. The
 * writers fill a caller's buffer and return the length as snprintf does, so
 * a caller that got a length of size or more calls again with a larger
 * buffer. The same input gives the same bytes.
 */
#ifndef DROPJUDGE_RENDER_RENDER_H
#define DROPJUDGE_RENDER_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dropjudge/md.h"
#include "dropjudge/puyo.h"
#include "dropjudge/puyo_search.h"

#define RENDER_CELL_MIN	    8  /* pixels of a cell, smallest ?cell= */
#define RENDER_CELL_MAX	    96 /* largest ?cell= */
#define RENDER_CELL_DEFAULT 32
#define RENDER_STRIP_MAX    500 /* steps a strip draws at most; ask for steps one by one beyond */

enum render_view {
	RENDER_FINAL = 0, /* the state after the last step */
	RENDER_STEP,	  /* step `step` */
	RENDER_STRIP,	  /* every step, then the final state */
};

struct render_options {
	unsigned cell; /* pixels per cell, RENDER_CELL_MIN..RENDER_CELL_MAX */
	enum render_view view;
	unsigned long step; /* RENDER_STEP: 1-based step, at most the case's steps */
	bool animate;	    /* RENDER_STRIP: frames shown in turn, not side by side */
};

/* ---- Monomino-Domino ------------------------------------------------- */

/*
 * A game whose tiles remember their block: the core's game plus, for each
 * cell of the two falling boards (md.h: line 0 the lightest), the 1-based
 * index of the placement whose tile it holds, 0 when empty. The rules are
 * applied here a second time on labels; after every placement the labels'
 * occupancy must equal the core's bitboards, else `broken` is set and the
 * picture is refused (a bug, never an input's fault).
 */
struct render_md_scene {
	struct md_game game;		    /* the core's game, advanced by md_place() */
	uint32_t green[MD_LINES][MD_CELLS]; /* [line = row][cell = column] */
	uint32_t blue[MD_LINES][MD_CELLS];  /* [line = column][cell = row] */
	bool broken;			    /* labels and core disagreed */
};

/* What one placement did, on the boards as they were when it landed. */
struct render_md_step {
	struct md_block block;		    /* the placement */
	uint32_t index;			    /* 1-based */
	uint32_t green[MD_LINES][MD_CELLS]; /* after landing, before scoring */
	uint32_t blue[MD_LINES][MD_CELLS];  /* after landing, before scoring */
	uint8_t green_cleared;		    /* bit l: green row l (landed) scores */
	uint8_t blue_cleared;		    /* bit l: blue column l (landed) scores */
	uint8_t green_pushed;		    /* bit l: green row l is pushed out by the light area */
	uint8_t blue_pushed;		    /* bit l: blue column l is pushed out */
	unsigned gained;		    /* points of this placement */
};

/* Starts an empty scene. */
void render_md_scene_init(struct render_md_scene *scene);

/*
 * Places a legal block (md_check() said MD_FAULT_NONE) on both the labels
 * and the core's game; fills *step (NULL allowed) with what it did.
 */
void render_md_scene_place(struct render_md_scene *scene, struct md_block block,
			   struct render_md_step *step);

/*
 * Writes the picture of the case blocks[0..n) (legal blocks) into buf.
 * Returns the length as snprintf does, or -1 when the options are out of
 * range (cell, step not in 1..n, a strip of more than RENDER_STRIP_MAX
 * steps) or the scene broke.
 */
int render_md_svg(const struct md_block *blocks, size_t n, const struct render_options *opt,
		  char *buf, size_t size);

/* ---- Puyo ------------------------------------------------------------ */

/*
 * Writes the picture of `field` (settled first, as the solver does) and its
 * chain into buf. Step k is in 1..chains. Returns the length as snprintf
 * does, or -1 when the options are out of range or the drawing disagrees
 * with the core about what pops.
 */
int render_puyo_svg(const struct puyo_field *field, const struct render_options *opt, char *buf,
		    size_t size);

/*
 * Writes the picture of a search's answer (puyo_search() on `req`) into
 * buf, `cell` pixels a cell: the field its best sequence leaves with the
 * sequence's puyos marked and the trigger drawn, beside a heat map of the
 * chains of the field's triggers (6 columns by the colours searched).
 * Returns the length as snprintf does, or -1 when cell is out of range or
 * the placements do not replay as the answer says.
 */
int render_puyo_search_svg(const struct puyo_search_request *req,
			   const struct puyo_search_answer *ans, unsigned cell, char *buf,
			   size_t size);
#endif
