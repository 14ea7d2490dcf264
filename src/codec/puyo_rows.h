/*
 * The checks of Puyo rows the readers share (private to the codec): width,
 * alphabet and strict mode's floating check. What a fault says is decided
 * here, where it is by the reader's callback.
 */
#ifndef DROPJUDGE_CODEC_PUYO_ROWS_H
#define DROPJUDGE_CODEC_PUYO_ROWS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dropjudge/puyo.h"

/* Records a fault of input row `index` (0-based) at character `column`
 * (1-based; 0: the whole row). Returns whether reading must stop. */
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

/* Prepares *rows to check rows into `field` (not owned, not cleared). */
void puyo_rows_init(struct puyo_rows *rows, struct puyo_field *field, bool strict,
		    puyo_rows_fault_fn *fault, void *ctx);

/* Characters in s[0..len): UTF-8 characters, a byte that is not UTF-8 counting as one. */
unsigned puyo_rows_chars(const char *s, size_t len);

/* Checks s[0..len), input row `index`, as row `row` of the field (row >=
 * PUYO_ROWS_MAX: check only), storing its good cells. Returns whether
 * reading must stop. */
bool puyo_rows_check(struct puyo_rows *rows, const char *s, size_t len, unsigned index,
		     unsigned row);

/* Strict mode: reports in each column the lowest puyo above a known empty
 * cell. */
void puyo_rows_check_floating(struct puyo_rows *rows);

/*
 * Rows straight into bit planes, for the fast readers: what a byte adds to
 * its column's accumulator, bit k of its cell at bit 16 * k and bit 48 for
 * a byte not of `.RGBPYO` (stored flipped). A reader ORs row r in at bit r.
 */
#define PUYO_ROWS_CELL_BAD ((uint64_t)1 << 48)
extern const uint64_t puyo_rows_cell_bits[256];

static inline uint64_t puyo_rows_cell_acc(unsigned char byte)
{
	return puyo_rows_cell_bits[byte] ^ PUYO_ROWS_CELL_BAD;
}

/* The planes of a field of `rows` rows from its columns' accumulators:
 * false when a byte was bad. */
bool puyo_rows_acc_planes(const uint64_t acc[PUYO_COLS], unsigned rows, struct puyo_planes *planes);

#endif
