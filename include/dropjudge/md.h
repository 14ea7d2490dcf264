/*
 * Monomino-Domino (Baekjoon 20061): the pure simulator.
 *
 * A block placed in the 4x4 red board slides down into the green board and
 * right into the blue board, the same "falling board" of 6 lines of 4 cells
 * seen from two sides: line 0 the lightest, line 5 the floor; green lines
 * are rows, blue lines columns. A board is a bitboard: cell c of line l is
 * bit 4*l + c. No allocation, no I/O, no global state.
 */
#ifndef DROPJUDGE_MD_H
#define DROPJUDGE_MD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MD_RED_SIZE    4 /* the red board is MD_RED_SIZE x MD_RED_SIZE */
#define MD_LINES       6 /* lines of a falling board (green rows, blue columns) */
#define MD_CELLS       4 /* cells of a line */
#define MD_LIGHT_LINES 2 /* lines 0 and 1 are the light area */

/* Green is MD_GREEN_ROWS x MD_GREEN_COLS, blue MD_BLUE_ROWS x MD_BLUE_COLS. */
#define MD_GREEN_ROWS MD_LINES
#define MD_GREEN_COLS MD_CELLS
#define MD_BLUE_ROWS  MD_CELLS
#define MD_BLUE_COLS  MD_LINES

/* Block types, the t of a placement `t x y`. */
enum md_type {
	MD_TYPE_MONO = 1,     /* 1x1 at (x, y) */
	MD_TYPE_DOMINO_H = 2, /* 1x2 at (x, y), (x, y+1) */
	MD_TYPE_DOMINO_V = 3, /* 2x1 at (x, y), (x+1, y) */
};

/* What is wrong with a placement, first fault in the order t, x, y. */
enum md_fault {
	MD_FAULT_NONE = 0,
	MD_FAULT_TYPE, /* t is not 1, 2 or 3 */
	MD_FAULT_X,    /* a cell's row is outside 0..3 */
	MD_FAULT_Y,    /* a cell's column is outside 0..3 */
};

/* One placement: block type t with its top-left cell at red (x, y). */
struct md_block {
	uint8_t t; /* enum md_type */
	uint8_t x; /* red row, 0..3 */
	uint8_t y; /* red column, 0..3 */
};

/* A game in progress. Caller-owned; start it with md_init() and change it
 * only through md_place() and md_play() (lines 0 and 1 stay empty). */
struct md_game {
	uint32_t green; /* falling board, lines = green rows, bits 0..23 */
	uint32_t blue;	/* falling board, lines = blue columns, bits 0..23 */
	uint64_t score; /* rows and columns cleared so far */
	uint64_t moves; /* placements made so far */
};

/* Starts an empty game with score 0. */
void md_init(struct md_game *game);

/* Checks a placement (as read, not narrowed): t in 1..3 and every cell
 * inside the red board. Returns MD_FAULT_NONE for a legal block. */
enum md_fault md_check(long long t, long long x, long long y);

/* Places a legal block (md_check() said MD_FAULT_NONE), then scores and
 * empties the light areas on both boards. Returns the points scored. */
unsigned md_place(struct md_game *game, struct md_block block);

/* Places the legal blocks blocks[0..n) exactly as n calls of md_place()
 * would, faster on long runs. Returns the points they scored. */
uint64_t md_play(struct md_game *game, const struct md_block *blocks, size_t n);

/* Tiles left in green and blue together. */
unsigned md_tiles(const struct md_game *game);

/* Green row `row` (0..5) as bits: bit c set when column c holds a tile. */
unsigned md_green_row(const struct md_game *game, unsigned row);

/* Blue row `row` (0..3) as bits: bit c set when column c holds a tile. */
unsigned md_blue_row(const struct md_game *game, unsigned row);

#endif
