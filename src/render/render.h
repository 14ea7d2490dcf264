/*
 * Pictures of both puzzles as SVG 1.1, drawn from the core's structs (their
 * layouts: md_svg.c, puyo_svg.c). A case has steps (the placements, the chain
 * steps); a picture is the final state, one step, or a strip of every step
 * then the final state (animated: each shown in turn, looping, with SMIL).
 * Each frame is a nested <svg class="frame"> with id "step-K" or "final".
 * Pure: no allocation, no I/O, no global state. The writers fill a caller's
 * buffer and return the length as snprintf does; the same input gives the
 * same bytes.
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

/* A game whose tiles remember their block: the core's game and, in each cell
 * of the falling boards, the 1-based placement whose tile it holds (0: empty).
 * Labels and core disagreeing after a placement sets `broken` (no picture). */
struct render_md_scene {
	struct md_game game;		    /* the core's game, advanced by md_place() */
	uint32_t green[MD_LINES][MD_CELLS]; /* [line = row][cell = column] */
	uint32_t blue[MD_LINES][MD_CELLS];  /* [line = column][cell = row] */
	bool broken;			    /* labels and core disagreed */
};

/* What one placement did, on the boards as they were when it landed. */
struct render_md_step {
	struct md_block block; /* the placement */
	uint32_t index;	       /* 1-based */
	/* the boards after landing, before scoring, as in render_md_scene */
	uint32_t green[MD_LINES][MD_CELLS], blue[MD_LINES][MD_CELLS];
	uint8_t green_cleared, blue_cleared; /* bit l: green row, blue column l (landed) scores */
	uint8_t green_pushed, blue_pushed;   /* bit l: that line is pushed out by the light area */
	unsigned gained;		     /* points of this placement */
};

/* Starts an empty scene. */
void render_md_scene_init(struct render_md_scene *scene);

/* Places a legal block on the labels and the core's game; *step (NULL allowed) gets what it did. */
void render_md_scene_place(struct render_md_scene *scene, struct md_block block,
			   struct render_md_step *step);

/* Writes the picture of the case blocks[0..n) (legal blocks) into buf. Returns the length,
 * or -1 when the options are out of range or the scene broke. */
int render_md_svg(const struct md_block *blocks, size_t n, const struct render_options *opt,
		  char *buf, size_t size);

/* ---- Puyo ------------------------------------------------------------ */

/* Writes the picture of `field` (settled first) and its chain into buf. Returns the length, or
 * -1 when the options are out of range or the drawing disagrees with the core about what pops. */
int render_puyo_svg(const struct puyo_field *field, const struct render_options *opt, char *buf,
		    size_t size);

/* Writes the picture of a search's answer (puyo_search() on `req`) into buf:
 * the field its best sequence leaves beside a heat map of its triggers' chains.
 * The length, or -1 when cell is out of range or the placements do not replay
 * as the answer says. */
int render_puyo_search_svg(const struct puyo_search_request *req,
			   const struct puyo_search_answer *ans, unsigned cell, char *buf,
			   size_t size);
#endif
