/*
 * The fast path of the Puyo JSON decoder: a request body that is exactly
 * the canonical case {"field": ["......", ...]} (12 or 13 strings of 6
 * characters of `.RGBPYO`, JSON whitespace where JSON allows it, nothing
 * else), read once straight into the field. See puyo_json_fast_read() in
 * puyo_codec.h.
 *
 * It never reports anything: whatever it does not recognise (an escape, a
 * "trace" member, a bad row, a batch), the caller reads again through
 * jansson and puyo_json_read(), so every answer to an unusual body and
 * every error comes from that one path.
 */
#include <string.h>

#include "codec/puyo_codec.h"

static bool is_ws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Cell value + 1 of each byte of `.RGBPYO`, 0 for any other byte. */
static const unsigned char cell_plus_one[256] = {
    ['.'] = 1 + PUYO_EMPTY,   ['R'] = 1 + PUYO_RED,    ['G'] = 1 + PUYO_GREEN,
    ['B'] = 1 + PUYO_BLUE,    ['P'] = 1 + PUYO_PURPLE, ['Y'] = 1 + PUYO_YELLOW,
    ['O'] = 1 + PUYO_GARBAGE,
};

struct scan {
	const unsigned char *p;
	const unsigned char *end;
};

static void skip_ws(struct scan *s)
{
	while (s->p < s->end && is_ws(*s->p))
		s->p++;
}

static bool take(struct scan *s, unsigned char c)
{
	skip_ws(s);
	if (s->p == s->end || *s->p != c)
		return false;
	s->p++;
	return true;
}

/* A row string "......" into cells[0..6); false for anything else. */
static bool take_row(struct scan *s, uint8_t cells[PUYO_COLS])
{
	skip_ws(s);
	if (s->end - s->p < PUYO_COLS + 2 || s->p[0] != '"' || s->p[PUYO_COLS + 1] != '"')
		return false;
	unsigned bad = 0;
	for (unsigned c = 0; c < PUYO_COLS; c++) {
		unsigned v = cell_plus_one[s->p[1 + c]];
		bad |= v == 0;
		cells[c] = (uint8_t)(v - 1u);
	}
	s->p += PUYO_COLS + 2;
	return !bad;
}

bool puyo_json_fast_read(const char *body, size_t len, struct puyo_field *field)
{
	static const char key[] = "\"field\"";
	struct scan s = {(const unsigned char *)body, (const unsigned char *)body + len};
	uint8_t rows[PUYO_ROWS_MAX][PUYO_COLS];
	unsigned n = 0;

	if (!take(&s, '{'))
		return false;
	skip_ws(&s);
	if ((size_t)(s.end - s.p) < sizeof key - 1 || memcmp(s.p, key, sizeof key - 1) != 0)
		return false;
	s.p += sizeof key - 1;
	if (!take(&s, ':') || !take(&s, '['))
		return false;
	for (;;) {
		if (n == PUYO_ROWS_MAX || !take_row(&s, rows[n]))
			return false;
		n++;
		if (take(&s, ','))
			continue;
		if (!take(&s, ']'))
			return false;
		break;
	}
	if (n != PUYO_ROWS && n != PUYO_ROWS_MAX)
		return false;
	if (!take(&s, '}'))
		return false;
	skip_ws(&s);
	if (s.p != s.end)
		return false;
	puyo_field_init(field, n);
	memcpy(field->cell, rows, n * sizeof rows[0]);
	return true;
}
