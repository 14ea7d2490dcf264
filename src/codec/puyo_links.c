/*
 * puyop.com and Puyo Nexus field strings and URLs <-> Puyo fields.
 * - puyop.com (http://www.puyop.com/s/FIELD, moves may follow '_'): one
 *   character of "0-9a-zA-Z[]" per column pair worth left * 8 + right
 *   (0 empty, 1 red, 2 green, 3 blue, 4 yellow, 5 purple, 6 garbage), rows
 *   from the hidden one down, the empty pairs before the first puyo left
 *   out, as puyoai's makePuyopURL writes them.
 * - Puyo Nexus (https://puyonexus.com/chainsim/?w=6&h=12&chain=CHAIN): one
 *   character per cell, rows from the hidden one down, PuyoSim's PuyoType
 *   in its URL alphabet "0475681BCA32"; leading empty cells may be left out.
 */
#include "codec/puyo_links.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "codec/puyo_codec.h"

#define BOARD_ROWS  PUYO_ROWS_MAX	     /* the hidden row and 12 visible */
#define PAIRS	    (PUYO_COLS / 2)	     /* column pairs of a row */
#define PUYOP_CHARS (BOARD_ROWS * PAIRS)     /* 39 */
#define NEXUS_CHARS (BOARD_ROWS * PUYO_COLS) /* 78 */

static const char puyop_alphabet[] =
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ[]";

/* Both sites number the colours alike (puyop.com's colour, Puyo Nexus's
 * PuyoType): that number of each enum puyo_cell, and back. */
static const unsigned char number_of_cell[] = {0, 1, 2, 3, 5, 4, 6};
static const unsigned char cell_of_number[] = {PUYO_EMPTY,  PUYO_RED,	 PUYO_GREEN,  PUYO_BLUE,
					       PUYO_YELLOW, PUYO_PURPLE, PUYO_GARBAGE};

/* Puyo Nexus's URL character of each PuyoType, and their names. */
static const char nexus_alphabet[] = "0475681BCA32";
static const char *const nexus_names[] = {"none",    "red",   "green", "blue", "yellow", "purple",
					  "garbage", "point", "sun",   "hard", "iron",	 "block"};

/* The colour number of cell (r, c) of the 13-row board, r = 0 the hidden row. */
static unsigned board_number(const struct puyo_field *f, unsigned r, unsigned c)
{
	uint8_t v = f->rows == PUYO_ROWS_MAX ? f->cell[r][c]
		    : r == 0		     ? PUYO_EMPTY
					     : f->cell[r - 1][c];
	return number_of_cell[v <= PUYO_GARBAGE ? v : PUYO_EMPTY];
}

/* What each site's field string is: its alphabet, cells a character, and its faults' words. */
static const struct site {
	const char *alphabet;
	size_t max_chars, cells;
	const char *name, *size, *chars;
} sites[2] = {
    {puyop_alphabet, PUYOP_CHARS, 2, "a puyop.com field", "13 rows of 3 column pairs",
     "puyop.com field character (0-9a-zA-Z[])"},
    {nexus_alphabet, NEXUS_CHARS, 1, "a Puyo Nexus chain", "6 columns, 12 rows and the hidden row",
     "Puyo Nexus chain character (0-8, A-C)"},
};

/* Writes `prefix` and the field string of `site`, its leading empty cells left out. */
static int write_cells(const struct site *site, const char *prefix, const struct puyo_field *field,
		       char *buf, size_t size)
{
	char text[NEXUS_CHARS];
	size_t n = 0;
	for (unsigned i = 0; i < site->max_chars; i++) {
		unsigned v = 0; /* puyop.com: a column pair's number, left * 8 + right */
		for (unsigned k = 0; k < site->cells; k++) {
			unsigned at = i * (unsigned)site->cells + k;
			v = v * 8 + board_number(field, at / PUYO_COLS, at % PUYO_COLS);
		}
		if (n > 0 || v > 0)
			text[n++] = site->alphabet[v];
	}
	if (n == 0 && site == &sites[1])
		text[n++] = '0'; /* as Puyo Nexus writes an empty board */
	return snprintf(buf, size, "%s%.*s", prefix, (int)n, text);
}

int puyo_links_puyop(const struct puyo_field *field, char *buf, size_t size)
{
	return write_cells(&sites[0], "", field, buf, size);
}

int puyo_links_nexus(const struct puyo_field *field, char *buf, size_t size)
{
	return write_cells(&sites[1], "", field, buf, size);
}

int puyo_links_puyop_url(const struct puyo_field *field, char *buf, size_t size)
{
	return write_cells(&sites[0], PUYO_LINKS_PUYOP_URL, field, buf, size);
}

int puyo_links_nexus_url(const struct puyo_field *field, char *buf, size_t size)
{
	return write_cells(&sites[1], PUYO_LINKS_NEXUS_URL, field, buf, size);
}

/* Records a fault at `pointer` (NULL: none); returns CODEC_E_INVALID. */
static enum codec_status __attribute__((format(printf, 3, 4)))
fault(struct codec_error *err, const char *pointer, const char *fmt, ...)
{
	const struct codec_where where = {.pointer = pointer};
	va_list ap;
	va_start(ap, fmt);
	codec_error_vadd(err, CODEC_E_INVALID, pointer ? &where : NULL, fmt, ap);
	va_end(ap);
	return CODEC_E_INVALID;
}

/* Whether s[0..len) starts with `prefix`; advances past it when so. */
static bool eat(const char **s, size_t *len, const char *prefix)
{
	size_t n = strlen(prefix);
	if (*len < n || memcmp(*s, prefix, n) != 0)
		return false;
	*s += n;
	*len -= n;
	return true;
}

/* Skips "http://" or "https://" and "www."; true when a scheme was there. */
static bool eat_scheme(const char **s, size_t *len)
{
	bool url = eat(s, len, "https://") || eat(s, len, "http://");
	eat(s, len, "www.");
	return url;
}

/* Reads the field string s[0..len) of `site` (leading empty cells may be left out) into
 * *field, 13 rows only when the hidden row holds a puyo; faults are CODEC_E_INVALID. */
static enum codec_status read_cells(const struct site *site, const char *s, size_t len,
				    const char *pointer, struct puyo_field *field,
				    struct codec_error *err)
{
	if (len > site->max_chars)
		return fault(err, pointer, "%s has at most %zu characters (%s), this one has %zu",
			     site->name, site->max_chars, site->size, len);
	uint8_t board[BOARD_ROWS * PUYO_COLS] = {0};
	size_t first = (site->max_chars - len) * site->cells; /* cell of s[0] */
	for (size_t i = 0; i < len; i++) {
		const char *at = s[i] ? strchr(site->alphabet, s[i]) : NULL;
		char ch[8]; /* as a message shows it: 'x', or its byte value */
		unsigned char b = (unsigned char)s[i];
		snprintf(ch, sizeof ch, b > 0x20 && b < 0x7f && b != '\'' ? "'%c'" : "0x%02x", b);
		if (!at)
			return fault(err, pointer, "character %zu, %s, is not a %s", i + 1, ch,
				     site->chars);
		unsigned v = (unsigned)(at - site->alphabet);
		/* Puyo Nexus: one cell's number; puyop.com: a column pair's, left * 8 + right */
		unsigned number[2] = {site->cells == 1 ? v : v / 8, v % 8};
		if (site->cells == 1 && v > 6)
			return fault(
			    err, pointer,
			    "character %zu, %s, is a %s puyo, which Puyo Puyo Tsu does not "
			    "have",
			    i + 1, ch, nexus_names[v]);
		if (number[0] > 6 || number[1] > 6)
			return fault(err, pointer,
				     "character %zu, %s, holds colour 7, which puyop.com does not "
				     "use (0 empty, 1-5 colours, 6 garbage)",
				     i + 1, ch);
		for (size_t k = 0; k < site->cells; k++)
			board[first + i * site->cells + k] = cell_of_number[number[k]];
	}
	bool hidden = false;
	for (unsigned c = 0; c < PUYO_COLS; c++)
		hidden = hidden || board[c] != PUYO_EMPTY;
	puyo_field_init(field, hidden ? PUYO_ROWS_MAX : PUYO_ROWS);
	memcpy(field->cell, board + (hidden ? 0 : PUYO_COLS), (size_t)field->rows * PUYO_COLS);
	return CODEC_OK;
}

enum codec_status puyo_links_read_puyop(const char *s, size_t len, const char *pointer,
					struct puyo_field *field, struct codec_error *err)
{
	puyo_field_init(field, PUYO_ROWS);
	bool url = eat_scheme(&s, &len);
	if (eat(&s, &len, "puyop.com/")) {
		if (!eat(&s, &len, "s/"))
			return fault(err, pointer,
				     "a puyop.com link to a field is puyop.com/s/FIELD");
	} else if (url) {
		return fault(err, pointer, "not a puyop.com link (expected %sFIELD)",
			     PUYO_LINKS_PUYOP_URL);
	}
	const char *moves = memchr(s, '_', len);
	if (moves) {
		if (moves + 1 < s + len)
			return fault(err, pointer,
				     "the link holds moves after '_'; only a field can be "
				     "solved: leave them out");
		len = (size_t)(moves - s);
	}
	return read_cells(&sites[0], s, len, pointer, field, err);
}

/* The parameters of a Puyo Nexus link other than chain: the one value each may have. */
static const struct {
	const char *key, *value, *fault;
} nexus_fixed[] = {
    {"w=", "6", "w must be 6: the field is 6 columns wide"},
    {"h=", "12", "h must be 12: the field is 12 rows high"},
    {"hr=", "1", "hr must be 1: one hidden row"},
};

/* Reads the query of a Puyo Nexus link into *chain; checks w, h, hr. */
static enum codec_status nexus_query(const char *q, size_t n, const char *pointer,
				     const char **chain, size_t *chain_len, struct codec_error *err)
{
	*chain = NULL;
	const char *end = q + n;
	while (q < end) {
		const char *amp = memchr(q, '&', (size_t)(end - q));
		size_t len = (size_t)((amp ? amp : end) - q);
		if (!memchr(q, '=', len))
			return fault(err, pointer, "the link's query has a parameter without '='");
		size_t k = 0;
		while (k < 3 && !eat(&q, &len, nexus_fixed[k].key))
			k++;
		if (k < 3 && (len != strlen(nexus_fixed[k].value) ||
			      memcmp(q, nexus_fixed[k].value, len) != 0))
			return fault(err, pointer, "%s", nexus_fixed[k].fault);
		if (k == 3 && !eat(&q, &len, "chain="))
			return fault(err, pointer,
				     "the link's query takes w, h, hr and chain only");
		if (k == 3 && *chain)
			return fault(err, pointer, "the link's query gives chain= twice");
		if (k == 3) {
			*chain = q;
			*chain_len = len;
		}
		q += len + (amp ? 1 : 0);
	}
	if (!*chain)
		return fault(err, pointer, "the link has no chain= parameter");
	return CODEC_OK;
}

enum codec_status puyo_links_read_nexus(const char *s, size_t len, const char *pointer,
					struct puyo_field *field, struct codec_error *err)
{
	puyo_field_init(field, PUYO_ROWS);
	bool url = eat_scheme(&s, &len);
	if (eat(&s, &len, "puyonexus.com/chainsim/") || eat(&s, &len, "puyonexus.net/chainsim/")) {
		if (eat(&s, &len, "chain/"))
			return fault(err, pointer,
				     "a saved chain (/chainsim/chain/ID) is kept by the site; "
				     "open it there and share its ?chain= link instead");
		eat(&s, &len, "index.php");
		if (!eat(&s, &len, "?"))
			return fault(err, pointer, "the link has no query (?w=6&h=12&chain=...)");
		const char *chain;
		size_t chain_len = 0;
		enum codec_status st = nexus_query(s, len, pointer, &chain, &chain_len, err);
		if (st != CODEC_OK)
			return st;
		s = chain;
		len = chain_len;
	} else if (url) {
		return fault(err, pointer, "not a Puyo Nexus chain simulator link (expected %s...)",
			     PUYO_LINKS_NEXUS_URL);
	}
	return read_cells(&sites[1], s, len, pointer, field, err);
}

enum codec_status puyo_links_read_case(const json_t *case_obj, const char *pointer,
				       struct puyo_field *field, struct codec_error *err)
{
	const char *base = pointer ? pointer : "";
	const json_t *puyop = json_object_get(case_obj, "puyop");
	const json_t *nexus = json_object_get(case_obj, "puyo_nexus");
	if (!json_is_object(case_obj) || (!puyop && !nexus))
		return puyo_json_read(case_obj, pointer, false, field, err);

	char at[CODEC_POINTER_MAX];
	const char *key;
	json_t *value;
	puyo_field_init(field, PUYO_ROWS);
	json_object_foreach((json_t *)case_obj, key, value)
	{
		if (strcmp(key, "puyop") == 0 || strcmp(key, "puyo_nexus") == 0 ||
		    strcmp(key, "trace") == 0)
			continue;
		snprintf(at, sizeof at, "%s", base);
		codec_pointer_append(at, sizeof at, key);
		if (strcmp(key, "field") == 0)
			return fault(err, at,
				     "give the field one way only: field, puyop or puyo_nexus");
		return fault(err, at, "unknown member");
	}
	const json_t *trace = json_object_get(case_obj, "trace");
	if (trace && !json_is_boolean(trace)) {
		snprintf(at, sizeof at, "%s/trace", base);
		return fault(err, at, "expected a boolean");
	}
	if (puyop && nexus) {
		snprintf(at, sizeof at, "%s/puyo_nexus", base);
		return fault(err, at, "give the field one way only: field, puyop or puyo_nexus");
	}
	const json_t *link = puyop ? puyop : nexus;
	snprintf(at, sizeof at, "%s/%s", base, puyop ? "puyop" : "puyo_nexus");
	if (!json_is_string(link))
		return fault(err, at, "expected a string: the field string or the link");
	return (puyop ? puyo_links_read_puyop : puyo_links_read_nexus)(
	    json_string_value(link), json_string_length(link), at, field, err);
}

json_t *puyo_links_json(const struct puyo_field *field)
{
	char puyop[PUYO_LINKS_URL_MAX], nexus[PUYO_LINKS_URL_MAX];
	puyo_links_puyop_url(field, puyop, sizeof puyop);
	puyo_links_nexus_url(field, nexus, sizeof nexus);
	return json_pack("{ss ss}", "puyop", puyop, "puyo_nexus", nexus);
}
