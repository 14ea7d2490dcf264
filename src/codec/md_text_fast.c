/*
 * The fast path of the Monomino-Domino text reader: see md_text_fast.h.
 *
 * A canonical line is six bytes, "t x y\n". XORed with "0 0 0\n" it leaves
 * the three digits in the low two bits of bytes 0, 2 and 4 and zeros
 * everywhere else, so one load, one XOR and one mask test recognise a line
 * of digits 0..3; t must then be nonzero and the domino stay inside red.
 * Any other line (a fault, CRLF, tabs, more digits) is left to the slow
 * path, so errors and their wording come from one place.
 */
#include "codec/md_text_fast.h"

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

size_t md_text_fast_lines(struct md_text_reader *r, const char *data, size_t len, md_block_fn fn,
			  void *ctx)
{
	size_t used = 0;

	if (r->column != 1 || r->line < 2 || !r->have_n || r->failed || r->stopped || r->done ||
	    r->blanks)
		return 0;
	/* Kept in locals: the callback could, as far as the compiler knows, write *r. */
	unsigned long blocks = r->blocks, declared = r->declared;
	unsigned line = r->line;
	while (len - used >= LOAD_BYTES && blocks < declared && line < UINT_MAX) {
		uint64_t v = load_line(data + used) ^ LINE_PATTERN;
		if (v & LINE_ZEROS)
			break;
		unsigned t = (unsigned)(v & 3u);
		unsigned x = (unsigned)(v >> 16) & 3u;
		unsigned y = (unsigned)(v >> 32) & 3u;
		if (t == 0 || (t == MD_TYPE_DOMINO_V && x == 3) ||
		    (t == MD_TYPE_DOMINO_H && y == 3))
			break;
		unsigned long index = blocks++;
		line++;
		used += LINE_BYTES;
		if (fn) {
			struct md_block block = {(uint8_t)t, (uint8_t)x, (uint8_t)y};
			r->blocks = blocks;
			r->line = line;
			if (fn(ctx, block, index) != 0) {
				r->stopped = true;
				break;
			}
		}
	}
	r->blocks = blocks;
	r->line = line;
	return used;
}
