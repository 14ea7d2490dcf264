/*
 * Puyo Puyo chains (Baekjoon 11559) with the Puyo Puyo Tsu extensions: score,
 * garbage (ojama) puyos and the hidden 13th row. The pure simulator: no
 * allocation, no I/O, no global state.
 *
 * A field has 12 visible rows of 6 columns, optionally topped by the hidden
 * 13th row; row 0 is the top row as given (the hidden one when there are 13).
 */
#ifndef DROPJUDGE_PUYO_H
#define DROPJUDGE_PUYO_H

#include <stdbool.h>
#include <stdint.h>

#define PUYO_COLS     6
#define PUYO_ROWS     12 /* visible rows */
#define PUYO_ROWS_MAX 13 /* with the hidden row */
#define PUYO_POP_SIZE 4	 /* a group this large or larger pops */
#define PUYO_COLORS   5

/* Cell contents. Colours are 1..PUYO_COLORS. */
enum puyo_cell {
	PUYO_EMPTY = 0,
	PUYO_RED = 1,
	PUYO_GREEN = 2,
	PUYO_BLUE = 3,
	PUYO_PURPLE = 4,
	PUYO_YELLOW = 5,
	PUYO_GARBAGE = 6,
};

/* A field. Caller-owned; fill it with puyo_field_init() and cell writes. */
struct puyo_field {
	uint8_t rows;				/* 12, or 13 with the hidden row */
	uint8_t cell[PUYO_ROWS_MAX][PUYO_COLS]; /* enum puyo_cell, [row][col], row 0 on top */
};

/* What one chain step did. */
struct puyo_step {
	unsigned chain;	  /* 1 for the first step that pops */
	unsigned popped;  /* colour puyos popped (PC) */
	unsigned garbage; /* garbage puyos removed */
	unsigned groups;  /* groups of 4 or more that popped */
	unsigned colors;  /* distinct colours among them */
	unsigned score;	  /* points of this step */
};

/* The outcome of a whole run. */
struct puyo_result {
	unsigned chains; /* steps in which something popped */
	uint64_t score;	 /* sum of the steps' points */
	bool all_clear;	 /* the field ended empty after at least one chain */
};

/* Empties a field of `rows` rows (12 or 13). */
void puyo_field_init(struct puyo_field *field, unsigned rows);

/* Cell for a character of `.RGBPYO`; -1 for any other character. */
int puyo_cell_from_char(char c);

/* Character of a cell; '?' for a value outside enum puyo_cell. */
char puyo_cell_to_char(uint8_t cell);

/* Whether some puyo has an empty cell below it. */
bool puyo_field_is_floating(const struct puyo_field *field);

/* Lets every puyo fall straight down, keeping column order. */
void puyo_settle(struct puyo_field *field);

/* Runs chain step `chain` on a settled field: pops every group of four or more, removes the
 * garbage next to them, settles. True, *step (NULL allowed) filled, when something popped;
 * false, the field unchanged, when nothing did. */
bool puyo_step(struct puyo_field *field, unsigned chain, struct puyo_step *step);

/* Settles the field, then steps until nothing pops. */
void puyo_run(struct puyo_field *field, struct puyo_result *result);

/* A field as the chain loop's bit planes, for readers that build them faster than cell by
 * cell: bit k of the cell in column c at row h is bit 16 * (c % 4) + h of word[k][c / 4],
 * h = 0 the hidden row (empty in a 12-row field), h = 12 the floor row; other bits are 0. */
struct puyo_planes {
	uint64_t word[3][2]; /* [bit of the value][columns 0-3, columns 4-5] */
};

/* The planes of a field. */
void puyo_planes_from_field(struct puyo_planes *planes, const struct puyo_field *field);

/* Only the chain count puyo_run() gives for the field of these planes: the fast path. */
unsigned puyo_planes_chains(const struct puyo_planes *planes);

/* The field of `rows` rows (12 or 13) whose planes these are. */
void puyo_planes_to_field(const struct puyo_planes *planes, unsigned rows,
			  struct puyo_field *field);

/* puyo_run() on the field of `rows` rows (12 or 13) whose planes these are, without building
 * that field first: *field receives the field after the run. */
void puyo_planes_run(const struct puyo_planes *planes, unsigned rows, struct puyo_field *field,
		     struct puyo_result *result);

/* Told each step of a run and the field after it; false hears no more steps (the run goes on). */
typedef bool puyo_step_fn(void *ctx, const struct puyo_step *step, const struct puyo_field *field);

/* puyo_run(), telling every step to fn (NULL: none). */
void puyo_run_steps(struct puyo_field *field, struct puyo_result *result, puyo_step_fn *fn,
		    void *ctx);

/* Points of one step: 10 * popped * clamp(chain power + colour bonus + group bonus, 1, 999);
 * sizes[0..groups) are the popped groups' sizes. */
unsigned puyo_step_score(unsigned chain, unsigned popped, unsigned colors, const unsigned *sizes,
			 unsigned groups);

#endif
