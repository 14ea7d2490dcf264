/*
 * The state, the row checks and the fault path the Puyo readers share
 * (private to the codec): width, alphabet and strict mode's floating check.
 */
#ifndef DROPJUDGE_CODEC_PUYO_ROWS_H
#define DROPJUDGE_CODEC_PUYO_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/error.h"
#include "dropjudge/puyo.h"

/* The state of one Puyo reader: the cells read so far and where faults go.
 * Caller-owned, zeroed before use. */
struct puyo_rows {
	struct codec_error *err;	      /* not owned; NULL allowed */
	const char *pointer;		      /* JSON: the case's pointer; NULL for text */
	bool lines;			      /* --lines: every row on line `line` */
	unsigned line;			      /* --lines: the line read */
	unsigned start[PUYO_ROWS_MAX + 1];    /* --lines: character column before each row */
	bool strict;			      /* validation mode: no garbage 'O' */
	bool failed;			      /* some fault was found */
	struct puyo_field *field;	      /* not owned; receives the good cells */
	bool known[PUYO_ROWS_MAX][PUYO_COLS]; /* cell read from a good character */
};

/* Records a fault, CODEC_E_INVALID: for JSON at the case's pointer followed
 * by `suffix` ("/field"), for text at `line` and `column` (0: none).
 * Returns whether reading must stop. */
bool puyo_rows_fault(struct puyo_rows *rows, const char *suffix, unsigned line, unsigned column,
		     const char *fmt, ...) __attribute__((format(printf, 5, 6)));

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
