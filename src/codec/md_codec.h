/*
 * Monomino-Domino codecs: the JSON case and the Baekjoon input text in, the
 * result (JSON or Baekjoon output text) out.
 *
 * Decoders do not build a list of blocks: they hand each legal block to a
 * callback as soon as it is read, so that a case streams through the
 * simulator in constant memory. The text reader is a push parser: feed it
 * the body in chunks of any size (one byte at a time works), then finish.
 *
 * Errors follow codec/error.h: in first-wins mode a decoder stops at the
 * first fault; in collect mode (validation) it reads on and records every
 * fault, and calls the callback for no block after the first fault.
 */
#ifndef DROPJUDGE_CODEC_MD_CODEC_H
#define DROPJUDGE_CODEC_MD_CODEC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/error.h"
#include "dropjudge/md.h"

/* Called once per legal block, in order; index is 0-based. Return 0 to go
 * on, anything else to stop reading (the decoder then returns CODEC_OK
 * without reading further; the caller knows why it stopped). */
typedef int (*md_block_fn)(void *ctx, struct md_block block, unsigned long index);

/* The Baekjoon limits, checked only in strict (validation) mode. */
#define MD_BAEKJOON_MIN_N 1
#define MD_BAEKJOON_MAX_N 10000

struct md_read_options {
	unsigned long max_blocks; /* more blocks is CODEC_E_INVALID ("too many blocks");
				     0: no limit */
	bool strict;		  /* validation: Baekjoon's 1 <= N <= 10000 and, for text,
				     testlib-strict layout (single spaces, final newline) */
};

/*
 * Reads a case object {"blocks": [[t,x,y] or {"t":..,"x":..,"y":..}, ...],
 * "trace": bool (optional)}. `pointer` is the JSON pointer of the case in the
 * request ("" for the root, "/cases/3" in a batch); faults are reported at
 * pointer + "/blocks/17/0" and so on. Unknown members are CODEC_E_INVALID.
 * Every fault here is CODEC_E_INVALID (jansson already parsed the text).
 * NULL is allowed for pointer (""), opt (no limit, lenient), err and fn.
 * Nothing is owned or kept. Returns the status of the first error, CODEC_OK
 * when none.
 */
enum codec_status md_json_read(const json_t *case_obj, const char *pointer,
			       const struct md_read_options *opt, struct codec_error *err,
			       md_block_fn fn, void *ctx);

/* Called with the next n blocks read, in order; return 0 to go on. */
typedef int (*md_run_fn)(void *ctx, const struct md_block *blocks, size_t n);

/*
 * The fast reader of a JSON request body (codec/md_json_fast.c): returns
 * true when body[0..len) is exactly a case {"blocks": [[t, x, y], ...]} of
 * one or more legal single-digit blocks, at most max_blocks (0: no limit),
 * with JSON whitespace where JSON allows it and nothing else, having handed
 * every block in order to play(), in runs held in buf[0..cap) (each time
 * buf is full and once at the end). Such a body means to jansson and
 * md_json_read() exactly these blocks. Compact blocks "[t,x,y]," are read
 * eight bytes at a time. Returns false for any other body, or when play()
 * returns nonzero, reporting nothing: play() may have been called, so the
 * caller starts its game again and reads the body through jansson, whose
 * path decides every other answer and every error. Nothing is allocated.
 */
bool md_json_fast_runs(const char *body, size_t len, unsigned long max_blocks, struct md_block *buf,
		       size_t cap, md_run_fn play, void *ctx);

/* md_json_fast_runs() block by block, each handed to fn (nonzero stops
 * it: false): its straightforward reference, for the differential tests. */
bool md_json_fast_read(const char *body, size_t len, unsigned long max_blocks, md_block_fn fn,
		       void *ctx);

/* The legal blocks of single digits 0..3 as md_json_fast_runs() knows
 * them: bit (t << 4 | x << 2 | y) set for each (for its test). */
uint64_t md_json_fast_legal(void);

/* Push parser for the Baekjoon input text ("N", then N lines "t x y"); its
 * state is private to md_text.c. Columns count bytes. */
struct md_text_reader;

#define MD_TEXT_TOKEN_SHOWN 16 /* bytes of a bad token quoted in its error */

/* A new reader; `err` (not owned, NULL allowed) receives the faults; opt
 * NULL means no limit, lenient. NULL when out of memory. Freed with
 * md_text_free(). */
struct md_text_reader *md_text_new(const struct md_read_options *opt, struct codec_error *err);

/* Frees a reader; NULL is ignored. */
void md_text_free(struct md_text_reader *r);

/* The reader's status so far (CODEC_OK while no fault). */
enum codec_status md_text_status(const struct md_text_reader *r);

/* Whether some fault was recorded (no block is handed on after one). */
bool md_text_failed(const struct md_text_reader *r);

/* Whether line 1 gave a usable N, and then N in *n. */
bool md_text_declared(const struct md_text_reader *r, unsigned long *n);

/* Feeds the next chunk. Returns the status so far (CODEC_OK while none). */
enum codec_status md_text_feed(struct md_text_reader *r, const char *data, size_t len,
			       md_block_fn fn, void *ctx);

/*
 * The fast path of md_text_feed() without the callback, for a caller that
 * plays blocks in batches: takes whole canonical placement lines ("t x y\n",
 * single digits, a legal block) from the start of data[0..len), as many as
 * md_text_feed() would take and at most `cap`, storing them in
 * blocks[0..*taken) instead of handing them on one by one. Takes nothing
 * unless the reader is at the start of a placement line with N read, no
 * fault and no held-back blank line. Stops before the first line it does
 * not take (and before the last 8 bytes' partial line, which it cannot look
 * at whole); the caller feeds that line to md_text_feed(), which decides
 * it and every fault, and may then call this again. Returns the bytes taken.
 */
size_t md_text_take(struct md_text_reader *r, const char *data, size_t len, struct md_block *blocks,
		    size_t cap, size_t *taken);

/*
 * The line reader of md_text_take() on its own, with no reader: takes the
 * canonical placement lines of legal blocks from the start of
 * data[0..len), at most `cap`, into blocks[0..*taken), and stops before
 * the first other line or the last 8 bytes. Returns the bytes taken. For
 * reading a stretch of a file on another thread; md_text_skip() then
 * tells the reader.
 */
size_t md_text_canonical(const char *data, size_t len, struct md_block *blocks, size_t cap,
			 size_t *taken);

/* Ends the input: checks the last line and that N lines were read.
 * Returns the reader's status; calling it again adds nothing. */
enum codec_status md_text_finish(struct md_text_reader *r, md_block_fn fn, void *ctx);

/*
 * Checks a whole Baekjoon text strictly, with no block limit: every fault
 * into err (which decides how many are kept), no block simulated. Out of
 * memory is CODEC_E_INTERNAL. What validation of a test's input reads.
 */
void md_text_validate(const char *text, size_t len, struct codec_error *err);

/*
 * The detail text of a placement fault, which for x and y depends on the
 * block type: "t must be 1, 2 or 3", "x must be 0..3", "x must be 0..2 for
 * a vertical domino (t = 3)", "y must be 0..3", "y must be 0..2 for a
 * horizontal domino (t = 2)". A static string.
 */
const char *md_fault_detail(enum md_fault fault, long long t);

/* Adds "green" (6 strings of 4) and "blue" (4 strings of 6) to obj, '#' for
 * a tile, '.' for empty. Returns 0, or -1 when out of memory. */
int md_json_add_boards(json_t *obj, const struct md_game *game);

/* New {"score", "tiles", "green", "blue"}, or NULL when out of memory. */
json_t *md_json_result(const struct md_game *game);

/*
 * Writes into buf exactly the bytes of the compact dump of md_json_result()
 * followed by a newline: {"score":S,"tiles":T,"green":[..],"blue":[..]}\n.
 * No allocation. Returns the length as snprintf does: at most size - 1
 * bytes and a NUL are written (nothing when size is 0), and a return value
 * of size or more means the output was cut.
 */
int md_json_write_result(const struct md_game *game, char *buf, size_t size);

/* Writes the Baekjoon output "S\nT\n" into buf; returns its length as
 * snprintf does. */
int md_text_result(const struct md_game *game, char *buf, size_t size);

#endif
