/*
 * Monomino-Domino (Baekjoon 20061): the pure simulator behind md.h.
 *
 * Green and blue are the same "falling board" seen from two sides, so one
 * routine drops a piece, scores full lines and empties the light area for
 * both. A piece on a falling board is either one line holding a mask of
 * cells (height 1) or two lines holding the same single cell (height 2):
 * a horizontal domino is the first kind in green and the second in blue, a
 * vertical domino the reverse, a monomino both.
 */
#include "dropjudge/md.h"

#define LINE_BITS  MD_CELLS
#define LINE_MASK  ((1u << LINE_BITS) - 1u) /* the cells of line 0 */
#define BOARD_MASK ((1u << (LINE_BITS * MD_LINES)) - 1u)

/* The cells of line `line`. */
static uint32_t line_mask(unsigned line)
{
	return (uint32_t)LINE_MASK << (LINE_BITS * line);
}

/*
 * Removes line `line`: the lines above it (lighter, lower bits) move one
 * line towards the floor, line 0 becomes empty.
 */
static uint32_t board_remove_line(uint32_t board, unsigned line)
{
	uint32_t above_mask = (1u << (LINE_BITS * line)) - 1u;
	uint32_t above = board & above_mask;
	uint32_t below = board & ~(line_mask(line) | above_mask);
	return below | (above << LINE_BITS);
}

/*
 * Drops `piece` (given at lines 0.. of an empty board, `height` lines tall)
 * until one more step would hit a tile or the floor, then scores full lines
 * and empties the light area. Returns the lines scored.
 */
static unsigned board_drop(uint32_t *board, uint32_t piece, unsigned height)
{
	uint32_t b = *board;
	unsigned top = 0;
	while (top + height < MD_LINES && !(b & (piece << (LINE_BITS * (top + 1)))))
		top++;
	b |= piece << (LINE_BITS * top);

	/*
	 * Scoring, lightest line first: removing a line only moves the lines
	 * above it, which were already found not full.
	 */
	unsigned points = 0;
	for (unsigned line = 0; line < MD_LINES; line++) {
		if ((b & line_mask(line)) == line_mask(line)) {
			b = board_remove_line(b, line);
			points++;
		}
	}

	/* Light area, after scoring: lose as many floor lines as light lines hold tiles. */
	unsigned k = 0;
	for (unsigned line = 0; line < MD_LIGHT_LINES; line++)
		k += (b & line_mask(line)) != 0;
	b = (b << (LINE_BITS * k)) & BOARD_MASK;

	*board = b;
	return points;
}

void md_init(struct md_game *game)
{
	game->green = 0;
	game->blue = 0;
	game->score = 0;
	game->moves = 0;
}

enum md_fault md_check(long long t, long long x, long long y)
{
	if (t < MD_TYPE_MONO || t > MD_TYPE_DOMINO_V)
		return MD_FAULT_TYPE;
	long long last_x = MD_RED_SIZE - 1 - (t == MD_TYPE_DOMINO_V);
	long long last_y = MD_RED_SIZE - 1 - (t == MD_TYPE_DOMINO_H);
	if (x < 0 || x > last_x)
		return MD_FAULT_X;
	if (y < 0 || y > last_y)
		return MD_FAULT_Y;
	return MD_FAULT_NONE;
}

const char *md_fault_text(enum md_fault fault)
{
	switch (fault) {
	case MD_FAULT_NONE:
		return "no fault";
	case MD_FAULT_TYPE:
		return "t must be 1, 2 or 3";
	case MD_FAULT_X:
		return "x must be 0..3 (0..2 for a vertical domino, t = 3)";
	case MD_FAULT_Y:
		return "y must be 0..3 (0..2 for a horizontal domino, t = 2)";
	}
	return "unknown fault";
}

unsigned md_place(struct md_game *game, struct md_block block)
{
	/*
	 * Green lines are rows and its cells are columns (y); blue lines are
	 * columns and its cells are rows (x). A domino lies along the cells of
	 * one board and across the lines of the other.
	 */
	uint32_t green_cell = 1u << block.y;
	uint32_t blue_cell = 1u << block.x;
	uint32_t green_piece = green_cell, blue_piece = blue_cell;
	unsigned green_height = 1, blue_height = 1;

	if (block.t == MD_TYPE_DOMINO_H) {
		green_piece = green_cell | green_cell << 1;
		blue_height = 2;
		blue_piece = blue_cell | blue_cell << LINE_BITS;
	} else if (block.t == MD_TYPE_DOMINO_V) {
		green_height = 2;
		green_piece = green_cell | green_cell << LINE_BITS;
		blue_piece = blue_cell | blue_cell << 1;
	}

	unsigned points = board_drop(&game->green, green_piece, green_height);
	points += board_drop(&game->blue, blue_piece, blue_height);
	game->score += points;
	game->moves++;
	return points;
}

/* Tiles on one falling board. */
static unsigned board_tiles(uint32_t board)
{
	unsigned n = 0;
	for (; board; board &= board - 1u)
		n++;
	return n;
}

unsigned md_tiles(const struct md_game *game)
{
	return board_tiles(game->green) + board_tiles(game->blue);
}

bool md_green_has(const struct md_game *game, unsigned row, unsigned col)
{
	if (row >= MD_GREEN_ROWS || col >= MD_GREEN_COLS)
		return false;
	return (game->green >> (LINE_BITS * row + col)) & 1u;
}

bool md_blue_has(const struct md_game *game, unsigned row, unsigned col)
{
	if (row >= MD_BLUE_ROWS || col >= MD_BLUE_COLS)
		return false;
	return (game->blue >> (LINE_BITS * col + row)) & 1u;
}
