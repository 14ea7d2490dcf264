/*
 * The fast path of the Monomino-Domino text reader: the canonical line
 * "t x y\n" XORed with "0 0 0\n" leaves the digits in the low two bits of
 * bytes 0, 2 and 4 and zeros elsewhere, so one load, one XOR and one mask
 * test recognise it. Any other line is left to md_text.c, so every fault
 * comes from one place.
 */
#include "codec/md_text_state.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

/* "0 0 0\n" little-endian, and the bits that must then be zero. */
#define LINE_PATTERN 0x0A3020302030ull
#define LINE_ZEROS   0xFFFCFFFCFFFCull
#define LINE_BYTES   6
#define LOAD_BYTES   8 /* one load covers a line; the last bytes of a chunk go slowly */

/* Loads bytes p[0..6) little-endian into the low 48 bits (reads p[0..8)). */
static uint64_t load_line(const char *p)
{
	uint64_t w;
	memcpy(&w, p, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w & 0xFFFFFFFFFFFFull;
}

/* Bit t | x << 2 | y << 4 is set when the block is legal: t nonzero, a
 * vertical domino not in row 3, a horizontal one not in column 3. */
#define LEGAL_KEYS 0x2AAA6EEE6EEE6EEEULL

/*
 * Reads the canonical line at p (p[0..8) readable) into *block; false when
 * the line is not one, or its block is not legal.
 */
static inline __attribute__((always_inline)) bool line_take(const char *p, struct md_block *block)
{
	uint64_t v = load_line(p) ^ LINE_PATTERN;
	if (v & LINE_ZEROS)
		return false;
	unsigned key = (unsigned)(v | v >> 14 | v >> 28) & 63u;
	if (!((LEGAL_KEYS >> key) & 1u))
		return false;
	block->t = (uint8_t)(key & 3u);
	block->x = (uint8_t)((key >> 2) & 3u);
	block->y = (uint8_t)(key >> 4);
	return true;
}

size_t md_text_canonical(const char *data, size_t len, struct md_block *blocks, size_t cap,
			 size_t *taken)
{
	size_t n = 0, used = 0;
	if (len < LOAD_BYTES)
		cap = 0;
	else if (cap > (len - LOAD_BYTES) / LINE_BYTES + 1)
		cap = (len - LOAD_BYTES) / LINE_BYTES + 1;
	while (n < cap && line_take(data + used, &blocks[n])) {
		n++;
		used += LINE_BYTES;
	}
	*taken = n;
	return used;
}

size_t md_text_take(struct md_text_reader *r, const char *data, size_t len, struct md_block *blocks,
		    size_t cap, size_t *taken)
{
	/* only at the start of a placement line, as many as N and the line count leave */
	size_t room = 0;
	if (r->column == 1 && r->line >= 2 && r->have_n && !r->failed && !r->stopped && !r->done &&
	    !r->blanks)
		room = r->declared - r->blocks < UINT_MAX - r->line ? r->declared - r->blocks
								    : UINT_MAX - r->line;
	size_t used = md_text_canonical(data, len, blocks, cap < room ? cap : room, taken);
	r->blocks += *taken;
	r->line += (unsigned)*taken;
	return used;
}

size_t md_text_fast_lines(struct md_text_reader *r, const char *data, size_t len, md_block_fn fn,
			  void *ctx)
{
	struct md_block blocks[64];
	size_t used = 0, taken;
	do {
		unsigned long first = r->blocks;
		used += md_text_take(r, data + used, len - used, blocks, 64, &taken);
		for (size_t i = 0; fn && i < taken; i++) {
			if (fn(ctx, blocks[i], first + i) != 0) {
				r->stopped = true; /* the lines after it are never read */
				return used;
			}
		}
	} while (taken == 64);
	return used;
}
