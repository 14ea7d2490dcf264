/*
 * Monomino-Domino with labelled tiles: the rules of md.h applied to boards
 * whose cells hold the placement that put a tile there, beside the core's
 * game, which must agree on every cell.
 */
#include "render.h"

#include <string.h>

typedef uint32_t board_t[MD_LINES][MD_CELLS];

/* Tiles on line `line`. */
static unsigned line_tiles(const board_t board, unsigned line)
{
	unsigned n = 0;
	for (unsigned c = 0; c < MD_CELLS; c++)
		n += board[line][c] != 0;
	return n;
}

/* Removes line `line`; the lighter lines move one towards the floor. */
static void remove_line(board_t board, unsigned line)
{
	memmove(board[1], board[0], sizeof board[0] * line);
	memset(board[0], 0, sizeof board[0]);
}

/* Lands the block on a falling board (green, or blue), scores, empties the
 * light area: *landed gets the board as landed, *cleared and *pushed the
 * lines (landed numbering) scoring and the light area remove. Returns the points. */
static unsigned board_place(board_t board, struct md_block block, bool blue, uint32_t id,
			    board_t landed, uint8_t *cleared, uint8_t *pushed)
{
	/* Its cells (0, c) and (dl, c + dc) as (line offset, cell), the same cell
	 * twice for a monomino: a horizontal domino spans two green cells but two
	 * blue lines, a vertical one the reverse. */
	bool two = block.t != MD_TYPE_MONO, across = (block.t == MD_TYPE_DOMINO_H) != blue;
	unsigned c = blue ? block.x : block.y, dl = two && !across, dc = two && across;
	unsigned top = 0; /* lines 0 and 1 are always empty between placements */
	while (top + 1 + dl < MD_LINES && board[top + 1][c] == 0 &&
	       board[top + 1 + dl][c + dc] == 0)
		top++;
	board[top][c] = id;
	board[top + dl][c + dc] = id;
	memcpy(landed, board, sizeof(board_t));

	/* Lines move whole, so the lines full now are all that will score. */
	*cleared = 0;
	unsigned kept[MD_LINES], nkept = 0; /* landed numbers of the lines left, lightest first */
	for (unsigned l = 0; l < MD_LINES; l++) {
		if (line_tiles(board, l) == MD_CELLS) {
			*cleared |= (uint8_t)(1u << l);
			remove_line(board, l);
		} else {
			kept[nkept++] = l;
		}
	}
	unsigned k = 0;
	for (unsigned l = 0; l < MD_LIGHT_LINES; l++)
		k += line_tiles(board, l) != 0;
	*pushed = 0;
	for (unsigned i = 0; i < k; i++) {
		*pushed |= (uint8_t)(1u << kept[nkept - 1 - i]);
		remove_line(board, MD_LINES - 1);
	}
	return (unsigned)__builtin_popcount(*cleared); /* a point a line */
}

void render_md_scene_init(struct render_md_scene *scene)
{
	memset(scene, 0, sizeof *scene);
	md_init(&scene->game);
}

void render_md_scene_place(struct render_md_scene *scene, struct md_block block,
			   struct render_md_step *step)
{
	struct render_md_step local;
	struct render_md_step *s = step ? step : &local;
	uint32_t id = (uint32_t)(scene->game.moves + 1);
	s->block = block;
	s->index = id;
	unsigned points = board_place(scene->green, block, false, id, s->green, &s->green_cleared,
				      &s->green_pushed);
	points +=
	    board_place(scene->blue, block, true, id, s->blue, &s->blue_cleared, &s->blue_pushed);
	s->gained = md_place(&scene->game, block);
	if (s->gained != points)
		scene->broken = true;
	for (unsigned l = 0; l < MD_LINES; l++) {
		for (unsigned c = 0; c < MD_CELLS; c++) {
			/* green (row l, col c); blue (row c, col l) */
			bool green = (md_green_row(&scene->game, l) >> c) & 1u;
			bool blue = (md_blue_row(&scene->game, c) >> l) & 1u;
			if ((scene->green[l][c] != 0) != green || (scene->blue[l][c] != 0) != blue)
				scene->broken = true;
		}
	}
}
