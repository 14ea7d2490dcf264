/*
 * The fast path of the Monomino-Domino JSON decoder: a request body that is
 * exactly the canonical case {"blocks": [[t, x, y], ...]} (JSON whitespace
 * anywhere JSON allows it, single-digit legal blocks, nothing else), read
 * once, byte by byte, each block handed on as it is read. See
 * md_json_fast_read() in md_codec.h.
 *
 * It never reports anything: whatever it does not recognise, the caller
 * reads again through jansson and md_json_read(), so every answer to an
 * unusual body and every error comes from that one path.
 */
#include <string.h>

#include "codec/md_codec.h"

static bool is_ws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A cursor over the body. */
struct scan {
	const unsigned char *p;
	const unsigned char *end;
};

static void skip_ws(struct scan *s)
{
	while (s->p < s->end && is_ws(*s->p))
		s->p++;
}

/* Skips whitespace, then takes byte c; false when the next byte is another. */
static bool take(struct scan *s, unsigned char c)
{
	skip_ws(s);
	if (s->p == s->end || *s->p != c)
		return false;
	s->p++;
	return true;
}

/* Skips whitespace, then takes one digit 0..max that is a whole number. */
static bool take_digit(struct scan *s, unsigned max, unsigned *out)
{
	skip_ws(s);
	if (s->p == s->end || *s->p < '0' || *s->p > '0' + max)
		return false;
	*out = (unsigned)(*s->p++ - '0');
	/* "1.5", "1e3" or "12" are numbers too, but not this path's */
	return s->p == s->end || *s->p == ',' || *s->p == ']' || is_ws(*s->p);
}

/* The compact block "[t,x,y]" at s->p, when the body has it: one compare. */
static bool take_compact(struct scan *s, struct md_block *b)
{
	if (s->end - s->p < 7)
		return false;
	const unsigned char *q = s->p;
	if (q[0] != '[' || q[2] != ',' || q[4] != ',' || q[6] != ']')
		return false;
	unsigned t = (unsigned)q[1] - '0', x = (unsigned)q[3] - '0', y = (unsigned)q[5] - '0';
	if (t < 1 || t > 3 || x > 3 || y > 3 || md_check(t, x, y) != MD_FAULT_NONE)
		return false;
	*b = (struct md_block){(uint8_t)t, (uint8_t)x, (uint8_t)y};
	s->p += 7;
	return true;
}

/* One block, compact or with whitespace; false when it is not a legal one. */
static bool take_block(struct scan *s, struct md_block *b)
{
	if (take_compact(s, b))
		return true;
	unsigned t, x, y;
	if (!take(s, '[') || !take_digit(s, 3, &t) || !take(s, ',') || !take_digit(s, 3, &x) ||
	    !take(s, ',') || !take_digit(s, 3, &y) || !take(s, ']'))
		return false;
	if (md_check(t, x, y) != MD_FAULT_NONE)
		return false;
	*b = (struct md_block){(uint8_t)t, (uint8_t)x, (uint8_t)y};
	return true;
}

bool md_json_fast_read(const char *body, size_t len, unsigned long max_blocks, md_block_fn fn,
		       void *ctx)
{
	static const char key[] = "\"blocks\"";
	struct scan s = {(const unsigned char *)body, (const unsigned char *)body + len};
	unsigned long n = 0;

	if (!take(&s, '{'))
		return false;
	skip_ws(&s);
	if ((size_t)(s.end - s.p) < sizeof key - 1 || memcmp(s.p, key, sizeof key - 1) != 0)
		return false;
	s.p += sizeof key - 1;
	if (!take(&s, ':') || !take(&s, '['))
		return false;
	/* an empty list is left to the full path */
	for (;;) {
		struct md_block b;
		skip_ws(&s);
		if (!take_block(&s, &b))
			return false;
		if (max_blocks && n >= max_blocks)
			return false;
		if (fn && fn(ctx, b, n) != 0)
			return false;
		n++;
		if (s.p < s.end && *s.p == ',') {
			s.p++;
			continue;
		}
		if (!take(&s, ',')) {
			if (!take(&s, ']'))
				return false;
			break;
		}
	}
	if (!take(&s, '}'))
		return false;
	skip_ws(&s);
	return s.p == s.end;
}
