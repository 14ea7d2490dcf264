/*
 * The fast path of the Monomino-Domino JSON decoder: a body that is exactly
 * the canonical case {"blocks": [[t, x, y], ...]}, read once, each block
 * handed on as it is read. It reports nothing: whatever it does not
 * recognise goes through jansson and md_json_read(), which decide every
 * other answer and every error.
 */
#include <stdint.h>
#include <string.h>

#include "codec/json_scan.h"
#include "codec/md_codec.h"

/* Skips whitespace, then takes one digit 0..max that is a whole number. */
static bool take_digit(struct codec_scan *s, unsigned max, unsigned *out)
{
	codec_scan_ws(s);
	if (s->p == s->end || *s->p < '0' || *s->p > '0' + max)
		return false;
	*out = (unsigned)(*s->p++ - '0');
	/* "1.5", "1e3" or "12" are numbers too, but not this path's */
	return s->p == s->end || *s->p == ',' || *s->p == ']' || codec_scan_is_ws(*s->p);
}

/* One block; false when it is not a legal one of single digits. */
static bool take_block(struct codec_scan *s, struct md_block *b)
{
	unsigned t, x, y;
	if (!codec_scan_take(s, '[') || !take_digit(s, 3, &t) || !codec_scan_take(s, ',') ||
	    !take_digit(s, 3, &x) || !codec_scan_take(s, ',') || !take_digit(s, 3, &y) ||
	    !codec_scan_take(s, ']'))
		return false;
	if (md_check(t, x, y) != MD_FAULT_NONE)
		return false;
	*b = (struct md_block){(uint8_t)t, (uint8_t)x, (uint8_t)y};
	return true;
}

/*
 * The legal blocks (t, x, y) of single digits 0..3, as bit (t << 4 | x << 2
 * | y): t 1..3, a vertical domino (3) with x <= 2, a horizontal one (2)
 * with y <= 2. md_check() says the same; test_md_codec.c compares them.
 */
#define MD_LEGAL_DIGITS ((0xFFFFull << 16) | (0x7777ull << 32) | (0x0FFFull << 48))

uint64_t md_json_fast_legal(void)
{
	return MD_LEGAL_DIGITS;
}

/*
 * Takes compact blocks "[t,x,y]," (8 bytes, single digits, legal) from
 * s->p into out[0..cap), eight bytes a block read at once; stops before
 * the first other bytes (the last block of a list, which a "]" follows,
 * among them), which take_block() then reads. Returns the blocks taken.
 */
static size_t take_compact_run(struct codec_scan *s, struct md_block *out, size_t cap)
{
	size_t n = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* '[' ',' ',' ']' ',' at bytes 0, 2, 4, 6 and 7; digits '0'..'3' at 1, 3, 5 */
	const uint64_t frame = 0xFFFF00FF00FF00FFull, framed = 0x2C5D002C002C005Bull;
	const uint64_t digit = 0x0000FC00FC00FC00ull, digits = 0x0000300030003000ull;
	const unsigned char *p = s->p;
	while (n < cap && s->end - p >= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		if ((w & frame) != framed || (w & digit) != digits)
			break;
		unsigned t = (unsigned)(w >> 8) & 3, x = (unsigned)(w >> 24) & 3,
			 y = (unsigned)(w >> 40) & 3;
		if (!((MD_LEGAL_DIGITS >> (t << 4 | x << 2 | y)) & 1))
			break;
		out[n++] = (struct md_block){(uint8_t)t, (uint8_t)x, (uint8_t)y};
		p += 8;
	}
	s->p = p;
#else
	(void)s;
	(void)out;
	(void)cap;
#endif
	return n;
}

bool md_json_fast_runs(const char *body, size_t len, unsigned long max_blocks, struct md_block *buf,
		       size_t cap, md_run_fn play, void *ctx)
{
	struct codec_scan s = {(const unsigned char *)body, (const unsigned char *)body + len};
	unsigned long n = 0; /* blocks read */
	size_t held = 0;     /* of them, in buf[0..held) */
	bool end = false;

	if (cap == 0 || !codec_scan_head(&s, "\"blocks\""))
		return false;
	/* an empty list is left to the full path */
	for (;;) {
		if (held == cap) {
			if (play(ctx, buf, held) != 0)
				return false;
			held = 0;
		}
		size_t run = take_compact_run(&s, buf + held, cap - held);
		held += run;
		n += run;
		if (max_blocks && n > max_blocks)
			return false;
		if (run > 0)
			continue; /* each took its ",": at the next block, or buf is full */
		codec_scan_ws(&s);
		if (!take_block(&s, &buf[held]))
			return false;
		held++;
		n++;
		if (max_blocks && n > max_blocks)
			return false;
		if (!codec_scan_next(&s, &end))
			break;
	}
	if (!end || !codec_scan_tail(&s))
		return false;
	return held == 0 || play(ctx, buf, held) == 0;
}

bool md_json_fast_read(const char *body, size_t len, unsigned long max_blocks, md_block_fn fn,
		       void *ctx)
{
	struct codec_scan s = {(const unsigned char *)body, (const unsigned char *)body + len};
	unsigned long n = 0;
	bool end = false;

	if (!codec_scan_head(&s, "\"blocks\""))
		return false;
	do {
		struct md_block b;
		codec_scan_ws(&s);
		if (!take_block(&s, &b) || (max_blocks && n >= max_blocks) ||
		    (fn && fn(ctx, b, n) != 0))
			return false;
		n++;
	} while (codec_scan_next(&s, &end));
	return end && codec_scan_tail(&s);
}
