/*
 * Monomino-Domino Baekjoon text codec: a push parser of the input ("N",
 * then N lines "t x y"), a byte-at-a-time state machine with no line
 * buffer, and the writer of the output ("S\nT\n"). A token is judged when
 * it ends, a line when its newline arrives, and only then is its block
 * handed on. Lenient mode (solving) takes blanks and tabs, CRLF, a missing
 * final newline and blank lines at the end; strict mode (validation) wants
 * testlib's layout and 1 <= N <= 10000. Columns count bytes.
 */
#include "codec/md_codec.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "codec/decimal.h"
#include "mem/alloc.h"

#define TOKEN_VALUE_MAX	    1000000000000000000ULL /* larger magnitudes saturate here */
#define MD_TEXT_TOKEN_SHOWN 16			   /* bytes of a bad token quoted in its error */

struct md_text_reader {
	struct md_read_options opt;
	struct codec_error *err;  /* not owned; NULL: stop at the first fault */
	enum codec_status status; /* of this reader's first fault, CODEC_OK while none */
	unsigned line;		  /* 1-based line being read (saturates) */
	unsigned column;	  /* 1-based column of the next byte (saturates) */
	unsigned long declared;	  /* N from line 1, when have_n */
	unsigned long blocks;	  /* placement lines read so far, good or bad */
	bool have_n;		  /* line 1 gave a usable N: line counts are checked */
	bool stopped;		  /* callback asked to stop, or first-wins error */
	bool done;		  /* the rest of the input is ignored (extra line reported) */
	unsigned blank_from;	  /* lenient: first held-back blank line, 0 when none */
	unsigned long blanks;	  /* lenient: held-back blank lines from blank_from on */

	struct md_line {		/* the current line, cleared at its start */
		bool claimed;		/* lenient: this line was found to be a placement */
		bool bad;		/* a token of this line is not an integer */
		unsigned ntokens;	/* tokens so far (saturates) */
		unsigned extra_column;	/* column of the first token past the expected count */
		unsigned ws_column;	/* strict: start of the current blank run, 0 when none */
		unsigned ws_bad_column; /* strict: first wrong byte of that run, 0 when none */
	} cur;
	long long values[3]; /* the line's first three integers (saturated) */
	unsigned columns[3]; /* and their columns */
	char shown[3][4 * MD_TEXT_TOKEN_SHOWN + 4]; /* and their text, for messages */

	struct md_token {			/* the current token */
		bool in;			/* one is being read */
		unsigned column;		/* column of its first byte */
		unsigned len;			/* bytes (saturates) */
		unsigned digits;		/* decimal digits in it */
		bool plus, minus;		/* starts with '+', with '-' */
		bool zero_first;		/* first digit is '0' */
		bool bad;			/* holds a byte that cannot be in an integer */
		unsigned long long value;	/* magnitude, saturated at 10^18 */
		char text[MD_TEXT_TOKEN_SHOWN]; /* its first bytes, for messages */
	} tok;
};

/* Records a fault at (line, column); stops the reader unless errors are collected. */
static void __attribute__((format(printf, 5, 6)))
text_fault(struct md_text_reader *r, enum codec_status status, unsigned line, unsigned column,
	   const char *fmt, ...)
{
	const struct codec_where where = {.line = line, .column = column};
	va_list ap;
	if (r->stopped)
		return;
	va_start(ap, fmt);
	codec_error_vadd(r->err, status, &where, fmt, ap);
	va_end(ap);
	if (r->status == CODEC_OK)
		r->status = status;
	if (!r->err || r->err->max_faults <= 1)
		r->stopped = true;
}

/* Writes the bytes kept of the current token, printable ASCII as is and any
 * other byte as \xNN, with "..." when the token was longer. */
static void token_show(const struct md_text_reader *r, char *out, size_t size)
{
	size_t len = 0;
	unsigned kept = r->tok.len < MD_TEXT_TOKEN_SHOWN ? r->tok.len : MD_TEXT_TOKEN_SHOWN;
	for (unsigned i = 0; i < kept && len + 5 < size; i++) {
		unsigned char c = (unsigned char)r->tok.text[i];
		if (c >= 0x20 && c < 0x7f && c != '\\')
			out[len++] = (char)c;
		else
			len += (size_t)snprintf(out + len, size - len, "\\x%02X", c);
	}
	out[len] = '\0';
	if (r->tok.len > kept && len + 4 <= size)
		memcpy(out + len, "...", 4);
}

static unsigned saturating_inc(unsigned n)
{
	return n < UINT_MAX ? n + 1 : n;
}

static void token_byte(struct md_text_reader *r, unsigned char c)
{
	if (r->tok.len < MD_TEXT_TOKEN_SHOWN)
		r->tok.text[r->tok.len] = (char)c;
	if (c >= '0' && c <= '9') {
		unsigned d = (unsigned)(c - '0');
		if (r->tok.digits == 0)
			r->tok.zero_first = d == 0;
		r->tok.digits = saturating_inc(r->tok.digits);
		unsigned long long v = r->tok.value; /* saturates at TOKEN_VALUE_MAX */
		r->tok.value = v > (TOKEN_VALUE_MAX - d) / 10 ? TOKEN_VALUE_MAX : v * 10 + d;
	} else if ((c == '+' || c == '-') && r->tok.len == 0) {
		r->tok.plus = c == '+';
		r->tok.minus = c == '-';
	} else {
		r->tok.bad = true;
	}
	r->tok.len = saturating_inc(r->tok.len);
}

/* Judges the token that just ended and adds it to the line. */
static void token_end(struct md_text_reader *r)
{
	char spare[sizeof r->shown[0]];
	unsigned index = r->cur.ntokens;
	char *shown = index < 3 ? r->shown[index] : spare; /* the first three kept for the line */
	r->tok.in = false;
	r->cur.ntokens = saturating_inc(r->cur.ntokens);
	token_show(r, shown, sizeof spare);
	if (r->tok.bad || r->tok.digits == 0) {
		r->cur.bad = true;
		text_fault(r, CODEC_E_SYNTAX, r->line, r->tok.column,
			   "expected an integer, found '%s'", shown);
	} else if (r->opt.strict && (r->tok.plus || (r->tok.zero_first && r->tok.digits > 1) ||
				     (r->tok.minus && r->tok.value == 0))) {
		text_fault(r, CODEC_E_SYNTAX, r->line, r->tok.column,
			   "expected an integer without '+', leading zeros or '-0', found '%s'",
			   shown);
	}
	if (index < 3) {
		long long v = (long long)r->tok.value;
		r->values[index] = r->tok.minus ? -v : v;
		r->columns[index] = r->tok.column;
	}
}

/* Line 1 has ended: take N. */
static void line_first_end(struct md_text_reader *r)
{
	if (r->cur.ntokens == 0) {
		text_fault(r, CODEC_E_SYNTAX, 1, 0, "expected N, the number of placements");
		return;
	}
	if (r->cur.ntokens > 1)
		text_fault(r, CODEC_E_SYNTAX, 1, r->cur.extra_column,
			   "expected 1 integer, found %u", r->cur.ntokens);
	if (r->cur.bad || r->cur.ntokens > 1)
		return;

	long long n = r->values[0];
	unsigned col = r->columns[0];
	if (n < 0)
		text_fault(r, CODEC_E_INVALID, 1, col, "N must be 0 or more, got %s", r->shown[0]);
	else if (r->opt.max_blocks && (unsigned long long)n > r->opt.max_blocks)
		text_fault(r, CODEC_E_INVALID, 1, col,
			   "too many blocks: more than the limit of %lu", r->opt.max_blocks);
	else if (r->opt.strict && (n < MD_BAEKJOON_MIN_N || n > MD_BAEKJOON_MAX_N))
		text_fault(r, CODEC_E_INVALID, 1, col, "N must be %d..%d, got %s",
			   MD_BAEKJOON_MIN_N, MD_BAEKJOON_MAX_N, r->shown[0]);
	else {
		r->have_n = true;
		r->declared = (unsigned long)n;
	}
}

/* A placement line has ended: judge it and hand its block on. */
static void line_block_end(struct md_text_reader *r, md_block_fn fn, void *ctx)
{
	unsigned long index = r->blocks++;
	if (r->cur.ntokens != 3) {
		text_fault(r, CODEC_E_SYNTAX, r->line, r->cur.ntokens > 3 ? r->cur.extra_column : 0,
			   "expected 3 integers, found %u", r->cur.ntokens);
		return;
	}
	if (r->cur.bad)
		return;

	long long t = r->values[0];
	bool t_ok = md_check(t, 0, 0) == MD_FAULT_NONE;
	long long tt = t_ok ? t : MD_TYPE_MONO;
	enum md_fault fault[3] = {
	    t_ok ? MD_FAULT_NONE : MD_FAULT_TYPE,
	    md_check(tt, r->values[1], 0),
	    md_check(tt, 0, r->values[2]),
	};
	for (unsigned k = 0; k < 3; k++)
		if (fault[k] != MD_FAULT_NONE)
			text_fault(r, CODEC_E_INVALID, r->line, r->columns[k], "%s, got %s",
				   md_fault_detail(fault[k], t), r->shown[k]);
	if (r->status != CODEC_OK || !fn)
		return;
	struct md_block block = {(uint8_t)t, (uint8_t)r->values[1], (uint8_t)r->values[2]};
	if (fn(ctx, block, index) != 0)
		r->stopped = true;
}

/* Lenient: the held-back blank lines turn out to lie among the placements (a non-blank line
 * follows, or the input ends early). Each one that still falls within N is a placement line
 * with no integers. */
static void blanks_flush(struct md_text_reader *r)
{
	for (unsigned long i = 0; i < r->blanks && !r->stopped && r->blocks < r->declared; i++) {
		r->blocks++;
		text_fault(r, CODEC_E_SYNTAX, (unsigned)(r->blank_from + i), 0,
			   "expected 3 integers, found 0");
	}
	r->blanks = 0;
	r->blank_from = 0;
}

/* The current line has ended (newline or end of input). */
static void line_end(struct md_text_reader *r, md_block_fn fn, void *ctx)
{
	if (r->tok.in)
		token_end(r);
	if (r->opt.strict && r->cur.ws_column && !r->stopped)
		text_fault(r, CODEC_E_SYNTAX, r->line, r->cur.ws_column, "trailing whitespace");
	if (r->stopped)
		return;
	if (r->line == 1) {
		line_first_end(r);
	} else if (r->opt.strict || r->cur.claimed) {
		line_block_end(r, fn, ctx);
	} else if (r->have_n) {
		/* lenient blank line: judged once we know what follows */
		if (r->blanks == 0)
			r->blank_from = r->line;
		r->blanks++;
	}
}

/* Lenient, first non-blank byte of a line after line 1: a placement or one too many. */
static void line_claim(struct md_text_reader *r)
{
	r->cur.claimed = true;
	if (!r->have_n)
		return;
	if (r->blanks)
		blanks_flush(r);
	if (r->stopped || r->blocks < r->declared)
		return;
	text_fault(r, CODEC_E_SYNTAX, r->line, r->column, "more than %lu placement%s", r->declared,
		   r->declared == 1 ? "" : "s");
	r->done = true;
}

/* Moves to the start of the next line. */
static void line_next(struct md_text_reader *r)
{
	r->cur = (struct md_line){0};
	r->line = saturating_inc(r->line);
	r->column = 1;
}

/* A blank: ends a token; strict mode remembers where the blank run began
 * and its first byte out of place (a tab, a second space). */
static void byte_blank(struct md_text_reader *r, unsigned char c)
{
	if (r->tok.in)
		token_end(r);
	if (!r->opt.strict || r->stopped)
		return;
	if (!r->cur.ws_column)
		r->cur.ws_column = r->column;
	if (!r->cur.ws_bad_column && (c == '\t' || r->column != r->cur.ws_column))
		r->cur.ws_bad_column = r->column;
}

/* The first byte of a token: judges the blanks before it (strict) and
 * claims the line (lenient). Returns false when reading stops here. */
static bool token_begin(struct md_text_reader *r)
{
	bool strict = r->opt.strict;
	if (!strict && r->line > 1 && !r->cur.claimed) {
		line_claim(r);
		if (r->done || r->stopped)
			return false;
	}
	if (strict && r->cur.ws_column && !r->stopped) {
		if (r->cur.ntokens == 0)
			text_fault(r, CODEC_E_SYNTAX, r->line, r->cur.ws_column,
				   "leading whitespace");
		else if (r->cur.ws_bad_column)
			text_fault(r, CODEC_E_SYNTAX, r->line, r->cur.ws_bad_column,
				   "expected a single space between integers");
	}
	r->cur.ws_column = 0;
	r->cur.ws_bad_column = 0;
	if (r->cur.ntokens == (r->line == 1 ? 1u : 3u)) /* the first token too many */
		r->cur.extra_column = r->column;
	r->tok = (struct md_token){.in = true, .column = r->column};
	return true;
}

/* One byte of input, handed to the function of its kind. */
static void text_byte(struct md_text_reader *r, unsigned char c, md_block_fn fn, void *ctx)
{
	if (r->opt.strict && r->have_n && r->line > r->declared + 1) {
		text_fault(r, CODEC_E_SYNTAX, r->line, r->column,
			   "expected the end of the input after line %lu", r->declared + 1);
		r->done = true;
		return;
	}
	if (c == '\n') {
		line_end(r, fn, ctx);
		line_next(r);
		return;
	}
	if (c == ' ' || c == '\t' || (c == '\r' && !r->opt.strict)) {
		byte_blank(r, c);
	} else if (c == '\r') { /* strict only: lenient counts it a blank */
		if (r->tok.in)
			token_end(r);
		text_fault(r, CODEC_E_SYNTAX, r->line, r->column,
			   "unexpected carriage return (lines must end with \\n alone)");
	} else if (r->tok.in || token_begin(r))
		token_byte(r, c);
	r->column = saturating_inc(r->column);
}

/* The fast path: the canonical line "t x y\n" XORed with "0 0 0\n" (LINE_PATTERN, little-endian)
 * leaves the digits in the low two bits of bytes 0, 2 and 4 and zeros elsewhere (LINE_ZEROS),
 * so one load, one XOR and one mask test recognise it. Any other line is left to the
 * byte-at-a-time reader above, so every fault comes from one place. */
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

/* Reads the canonical line at p (p[0..8) readable) into *block; false if not one or not legal. */
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
	if (r->column == 1 && r->line >= 2 && r->have_n && r->status == CODEC_OK && !r->stopped &&
	    !r->done && !r->blanks)
		room = r->declared - r->blocks < UINT_MAX - r->line ? r->declared - r->blocks
								    : UINT_MAX - r->line;
	size_t used = md_text_canonical(data, len, blocks, cap < room ? cap : room, taken);
	r->blocks += *taken;
	r->line += (unsigned)*taken;
	return used;
}

/* Takes whole canonical lines at the start of a placement line, each handed to fn
 * (NULL allowed); returns the bytes consumed, 0 when it took nothing. */
static size_t fast_lines(struct md_text_reader *r, const char *data, size_t len, md_block_fn fn,
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

struct md_text_reader *md_text_new(const struct md_read_options *opt, struct codec_error *err)
{
	struct md_text_reader *r = dj_malloc(sizeof *r);
	if (!r)
		return NULL;
	*r = (struct md_text_reader){
	    .opt = opt ? *opt : (struct md_read_options){0}, .err = err, .line = 1, .column = 1};
	return r;
}

void md_text_free(struct md_text_reader *r)
{
	dj_free(r);
}

enum codec_status md_text_status(const struct md_text_reader *r)
{
	return r->status;
}

bool md_text_declared(const struct md_text_reader *r, unsigned long *n)
{
	if (r->have_n)
		*n = r->declared;
	return r->have_n;
}

enum codec_status md_text_feed(struct md_text_reader *r, const char *data, size_t len,
			       md_block_fn fn, void *ctx)
{
	for (size_t i = 0; i < len && !r->stopped && !r->done;) {
		size_t fast = r->column == 1 ? fast_lines(r, data + i, len - i, fn, ctx) : 0;
		if (fast)
			i += fast;
		else
			text_byte(r, (unsigned char)data[i++], fn, ctx);
	}
	return r->status;
}

enum codec_status md_text_finish(struct md_text_reader *r, md_block_fn fn, void *ctx)
{
	bool partial = r->column > 1, open = !r->stopped && !r->done;
	if (open && (partial || r->line == 1)) {
		/* The last line had no newline (or the input was empty). */
		line_end(r, fn, ctx);
		if (partial && r->opt.strict)
			text_fault(r, CODEC_E_SYNTAX, r->line, r->column,
				   "missing newline at the end of the input");
		line_next(r);
	}
	if (open && !r->stopped && r->have_n && r->blocks < r->declared)
		text_fault(r, CODEC_E_SYNTAX, r->blanks ? r->blank_from : r->line, 0,
			   "expected %lu placement%s, found %lu", r->declared,
			   r->declared == 1 ? "" : "s", r->blocks);
	r->done = true;
	return r->status;
}

int md_text_result(const struct md_game *game, char *buf, size_t size)
{
	char text[2 * (CODEC_DECIMAL_MAX + 1)];
	size_t n = codec_decimal_write(game->score, text);
	text[n++] = '\n';
	n += codec_decimal_write(md_tiles(game), text + n);
	text[n++] = '\n';
	return codec_text_copy(buf, size, text, n);
}

void md_text_validate(const char *text, size_t len, struct codec_error *err)
{
	struct md_text_reader *reader = md_text_new(&(struct md_read_options){.strict = true}, err);
	if (!reader) {
		codec_error_set(err, CODEC_E_INTERNAL, "out of memory");
		return;
	}
	md_text_feed(reader, text, len, NULL, NULL);
	md_text_finish(reader, NULL, NULL);
	md_text_free(reader);
}
