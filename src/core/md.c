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

/* Every line (bit 4*l) of a board; times a line's mask spreads it to all lines. */
#define LINE_ONES 0x111111u

/* Bit 4*MD_LINES: one line past the floor, where a drop with no tile under it stops. */
#define PAST_FLOOR (1u << (LINE_BITS * MD_LINES))

/*
 * Removes the full lines `full` (bit 4*l for line l), lightest first: the
 * lines above each move one line towards the floor, line 0 becomes empty.
 * Removing the lightest first only moves lines above it, never a heavier
 * full line. Returns the lines removed. Off the hot path: few drops fill a
 * line.
 */
static __attribute__((noinline)) unsigned board_clear(uint32_t *board, uint32_t full)
{
	uint32_t b = *board;
	unsigned points = 0;
	for (; full; full &= full - 1u, points++) {
		unsigned line = (unsigned)__builtin_ctz(full) / LINE_BITS;
		uint32_t above_mask = (1u << (LINE_BITS * line)) - 1u;
		uint32_t below = b & ~((LINE_MASK << (LINE_BITS * line)) | above_mask);
		b = below | ((b & above_mask) << LINE_BITS);
	}
	*board = b;
	return points;
}

/*
 * Drops `piece` (given at lines 0.. of an empty board, `height` lines tall;
 * `spread` its cells repeated in every line of the board) until one more
 * step would hit a tile or the floor, then scores full lines and empties
 * the light area. Returns the lines scored.
 *
 * Mask arithmetic on the whole board, no loop over cells or lines: the
 * piece lands with its lowest line just above the lightest line that has a
 * tile under one of its cells (the line past the floor when none); a line
 * is full when the AND of its four cells, shifted onto its first bit, is
 * set; the light area is two sums.
 */
static inline __attribute__((always_inline)) unsigned board_drop(uint32_t *board, uint32_t piece,
								 uint32_t spread, unsigned height)
{
	uint32_t b = *board;
	unsigned hit = (unsigned)__builtin_ctz((b & spread) | PAST_FLOOR) & ~(LINE_BITS - 1u);
	unsigned lift = LINE_BITS * height;
	b |= piece << (hit >= lift ? hit - lift : 0);

	uint32_t full = b & (b >> 1) & (b >> 2) & (b >> 3) & LINE_ONES;
	unsigned points = 0;
	if (__builtin_expect(full != 0, 0))
		points = board_clear(&b, full);

	/* Light area, after scoring: lose as many floor lines as light lines hold tiles. */
	unsigned k = (((b & LINE_MASK) + LINE_MASK) >> LINE_BITS) +
		     ((((b >> LINE_BITS) & LINE_MASK) + LINE_MASK) >> LINE_BITS);
	*board = (b << (LINE_BITS * k)) & BOARD_MASK;
	return points;
}

/*
 * A block type as the piece it is on each board, at cell 0: its cells
 * repeated in every line of the board, its lines (as at lines 0..), its
 * height. Green cells are columns (y), blue cells rows (x): a domino lies
 * along the cells of one board and across the lines of the other. Indexed
 * by t.
 */
struct md_shape {
	uint32_t spread; /* cell mask of each covered line, in all MD_LINES lines */
	uint8_t piece;	 /* the piece on lines 0 and 1 */
	uint8_t height;	 /* 1 or 2 lines */
};

static const struct md_shape md_green_shape[4] = {
    {0, 0, 1},
    {0x1 * LINE_ONES, 0x01, 1},
    {0x3 * LINE_ONES, 0x03, 1},
    {0x1 * LINE_ONES, 0x11, 2},
};
static const struct md_shape md_blue_shape[4] = {
    {0, 0, 1},
    {0x1 * LINE_ONES, 0x01, 1},
    {0x1 * LINE_ONES, 0x11, 2},
    {0x3 * LINE_ONES, 0x03, 1},
};

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

/* One placement on a pair of boards; returns the points. */
static inline __attribute__((always_inline)) unsigned boards_place(uint32_t *green, uint32_t *blue,
								   struct md_block block)
{
	const struct md_shape *g = &md_green_shape[block.t & 3u];
	const struct md_shape *b = &md_blue_shape[block.t & 3u];
	unsigned points =
	    board_drop(green, (uint32_t)g->piece << block.y, g->spread << block.y, g->height);
	points += board_drop(blue, (uint32_t)b->piece << block.x, b->spread << block.x, b->height);
	return points;
}

unsigned md_place(struct md_game *game, struct md_block block)
{
	unsigned points = boards_place(&game->green, &game->blue, block);
	game->score += points;
	game->moves++;
	return points;
}

/*
 * md_play() in lanes. One game is a chain: each placement needs the boards
 * the previous one left, so a single game runs at the latency of a
 * placement, not at the machine's width. But boards forget: the light area
 * and full lines drop what lies under them, so two games fed the same
 * blocks from different boards soon hold the same boards, and from then on
 * score alike. md_play() therefore cuts the blocks into MD_LANES stretches
 * and plays them side by side, the first from the game's boards, the others
 * from empty boards (a guess). Then, stretch by stretch, it replays the
 * start of each guessed stretch from the boards the stretch before really
 * left, beside the guess, until both hold the same boards (usually within
 * a few placements), and adds the difference in points. A stretch that
 * never meets its guess is simply replayed whole: the answer is always
 * that of md_place() one block after another.
 */
#define MD_LANES    4
#define MD_LANE_MIN 64 /* shorter stretches are played one block after another */

struct md_lane {
	uint32_t green;
	uint32_t blue;
	uint64_t score;
};

/* Replays blocks[0..n) from `real` beside `guess` (which lane already
 * played to *lane); fixes *lane up to what `real` gives. */
static void lane_fix(struct md_lane *lane, struct md_lane real, const struct md_block *blocks,
		     size_t n)
{
	struct md_lane guess = {0, 0, 0};
	for (size_t i = 0; i < n; i++) {
		if (real.green == guess.green && real.blue == guess.blue) {
			lane->score += real.score - guess.score;
			return;
		}
		real.score += boards_place(&real.green, &real.blue, blocks[i]);
		guess.score += boards_place(&guess.green, &guess.blue, blocks[i]);
	}
	lane->green = real.green;
	lane->blue = real.blue;
	lane->score += real.score - guess.score;
}

uint64_t md_play(struct md_game *game, const struct md_block *blocks, size_t n)
{
	struct md_lane lane[MD_LANES] = {{game->green, game->blue, 0}};
	size_t len = n / MD_LANES;

	if (len < MD_LANE_MIN) {
		for (size_t i = 0; i < n; i++)
			lane[0].score += boards_place(&lane[0].green, &lane[0].blue, blocks[i]);
		goto out;
	}
	for (size_t i = 0; i < len; i++)
		for (unsigned k = 0; k < MD_LANES; k++)
			lane[k].score +=
			    boards_place(&lane[k].green, &lane[k].blue, blocks[k * len + i]);
	for (size_t i = MD_LANES * len; i < n; i++)
		lane[MD_LANES - 1].score +=
		    boards_place(&lane[MD_LANES - 1].green, &lane[MD_LANES - 1].blue, blocks[i]);
	for (unsigned k = 1; k < MD_LANES; k++) {
		struct md_lane real = {lane[k - 1].green, lane[k - 1].blue, 0};
		size_t stretch = k == MD_LANES - 1 ? n - k * len : len;
		lane_fix(&lane[k], real, blocks + k * len, stretch);
		lane[0].score += lane[k].score;
	}
	lane[0].green = lane[MD_LANES - 1].green;
	lane[0].blue = lane[MD_LANES - 1].blue;
out:
	game->green = lane[0].green;
	game->blue = lane[0].blue;
	game->score += lane[0].score;
	game->moves += n;
	return lane[0].score;
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
