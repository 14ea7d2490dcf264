/*
 * Checking of Puyo rows, shared by the JSON and the text reader (private to
 * the codec layer): one row string against the alphabet and the width, and
 * the floating check of strict mode. What a fault says is decided here; where
 * it is (a JSON pointer, a text line) is decided by the reader, through a
 * callback that receives the row's 0-based index in the input.
 */
#ifndef DROPJUDGE_CODEC_PUYO_ROWS_H
#define DROPJUDGE_CODEC_PUYO_ROWS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dropjudge/puyo.h"

/*
 * Records a fault of input row `index` (0-based, top first) at character
 * `column` (1-based; 0 for the whole row), its message formatted from fmt
 * and ap (for codec_error_vadd()). Returns whether reading must stop now.
 */
typedef bool puyo_rows_fault_fn(void *ctx, unsigned index, unsigned column, const char *fmt,
				va_list ap);

/* The cells read so far. Caller-owned; set up with puyo_rows_init(). */
struct puyo_rows {
	puyo_rows_fault_fn *fault;	      /* where faults go */
	void *ctx;			      /* passed to fault, not owned */
	bool strict;			      /* validation mode: no garbage 'O' */
	struct puyo_field *field;	      /* not owned; receives the good cells */
	bool known[PUYO_ROWS_MAX][PUYO_COLS]; /* cell read from a good character */
};

/*
 * Prepares *rows to check rows into `field` (not owned, and not cleared
 * here: the reader sizes it with puyo_field_init()). No cell is known yet.
 */
void puyo_rows_init(struct puyo_rows *rows, struct puyo_field *field, bool strict,
		    puyo_rows_fault_fn *fault, void *ctx);

/* Characters in s[0..len): UTF-8 characters, a byte that is not UTF-8 counting as one. */
unsigned puyo_rows_chars(const char *s, size_t len);

/*
 * Checks s[0..len), input row `index`, as row `row` of the field (row >=
 * PUYO_ROWS_MAX: check only) and stores its good cells. Reports a width
 * other than PUYO_COLS, then each bad character, left to right. Returns
 * whether reading must stop.
 */
bool puyo_rows_check(struct puyo_rows *rows, const char *s, size_t len, unsigned index,
		     unsigned row);

/*
 * Strict mode: reports, for each column, the lowest puyo of the 12 visible
 * rows that has a known empty cell somewhere below it, at its row. Cells
 * whose character was bad are skipped.
 */
void puyo_rows_check_floating(struct puyo_rows *rows);

/*
 * Rows straight into bit planes, for the fast readers of canonical rows.
 * puyo_rows_cell_bits[byte] ^ PUYO_ROWS_CELL_BAD is what a byte adds to
 * the accumulator of its column: bit k of its cell value at bit 16 * k,
 * and bit 48 when the byte is not one of `.RGBPYO` (stored flipped, so
 * that the bytes left out of the table are the bad ones). A reader ORs
 * the cell of row r in at bit r (its column's accumulator shifted left by
 * r, r < 13), then puyo_rows_acc_planes() lays the columns out as planes.
 */
#define PUYO_ROWS_CELL_BAD ((uint64_t)1 << 48)
extern const uint64_t puyo_rows_cell_bits[256];

static inline uint64_t puyo_rows_cell_acc(unsigned char byte)
{
	return puyo_rows_cell_bits[byte] ^ PUYO_ROWS_CELL_BAD;
}

/*
 * The planes of a field of `rows` rows (12 or 13) whose column c has
 * acc[c] (row r of the field at bit r): false when a byte was bad.
 */
bool puyo_rows_acc_planes(const uint64_t acc[PUYO_COLS], unsigned rows, struct puyo_planes *planes);

#endif
