/*
 * Monomino-Domino codecs: the JSON case and the Baekjoon input text in, the
 * result (JSON or Baekjoon output text) out. Decoders hand each legal block
 * to a callback as it is read (constant memory); the text reader is a push
 * parser fed in chunks of any size. In collect mode a decoder records every
 * fault and hands on no block after the first.
 */
#ifndef DROPJUDGE_CODEC_MD_CODEC_H
#define DROPJUDGE_CODEC_MD_CODEC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/error.h"
#include "dropjudge/md.h"

/* Called once per legal block, in order (index 0-based); nonzero stops the
 * read, which then returns CODEC_OK. md_run_fn: the next n blocks at once. */
typedef int (*md_block_fn)(void *ctx, struct md_block block, unsigned long index);
typedef int (*md_run_fn)(void *ctx, const struct md_block *blocks, size_t n);

/* The Baekjoon limits, checked only in strict (validation) mode. */
#define MD_BAEKJOON_MIN_N 1
#define MD_BAEKJOON_MAX_N 10000

struct md_read_options {
	unsigned long max_blocks; /* more is CODEC_E_INVALID ("too many blocks"); 0: no limit */
	bool strict;		  /* validation: Baekjoon's 1 <= N <= 10000 and, for text,
				     testlib-strict layout (single spaces, final newline) */
};

/* Reads a case object {"blocks": [[t,x,y] or {"t":..,"x":..,"y":..}, ...], "trace": bool,
 * "id": ...}, `pointer` its place in the request; every fault is CODEC_E_INVALID below it
 * ("/blocks/17/0"). NULL is allowed for pointer, opt (no limit, lenient), err and fn.
 * Returns the first error's status. */
enum codec_status md_json_read(const json_t *case_obj, const char *pointer,
			       const struct md_read_options *opt, struct codec_error *err,
			       md_block_fn fn, void *ctx);

/* The fast reader of a JSON body: true when body[0..len) is exactly {"blocks": [[t, x, y],
 * ...]} of one or more legal single-digit blocks, at most max_blocks (0: no limit), JSON
 * whitespace allowed, having handed them in order to play() in runs held in buf[0..cap).
 * False, reporting nothing, for any other body or when play() returns nonzero: the caller
 * starts again through jansson, which decides every other answer. */
bool md_json_fast_runs(const char *body, size_t len, unsigned long max_blocks, struct md_block *buf,
		       size_t cap, md_run_fn play, void *ctx);

/* md_json_fast_runs() block by block: its reference for the tests. */
bool md_json_fast_read(const char *body, size_t len, unsigned long max_blocks, md_block_fn fn,
		       void *ctx);

/* The legal blocks md_json_fast_runs() knows: bit t << 4 | x << 2 | y. */
uint64_t md_json_fast_legal(void);

/* Push parser of the Baekjoon input text ("N", then N lines "t x y"). */
struct md_text_reader;

/* A new reader, faults into `err` (not owned, NULL allowed), opt NULL: no
 * limit, lenient; NULL when out of memory. md_text_free() ignores NULL. */
struct md_text_reader *md_text_new(const struct md_read_options *opt, struct codec_error *err);
void md_text_free(struct md_text_reader *r);

/* The reader's status so far (CODEC_OK while no fault: no block is handed
 * on after one); whether line 1 gave a usable N, and then N in *n. */
enum codec_status md_text_status(const struct md_text_reader *r);
bool md_text_declared(const struct md_text_reader *r, unsigned long *n);

/* Feeds the next chunk. Returns the status so far (CODEC_OK while none). */
enum codec_status md_text_feed(struct md_text_reader *r, const char *data, size_t len,
			       md_block_fn fn, void *ctx);

/* The fast path of md_text_feed() for a caller that plays blocks in batches: takes canonical
 * placement lines ("t x y\n" of a legal block) from the start of data[0..len), as
 * md_text_feed() would and at most `cap`, into blocks[0..*taken). Stops before the first
 * other line and the last 8 bytes, which the caller feeds to md_text_feed(). Returns the
 * bytes taken. md_text_canonical(): its line reader without a reader. */
size_t md_text_take(struct md_text_reader *r, const char *data, size_t len, struct md_block *blocks,
		    size_t cap, size_t *taken);
size_t md_text_canonical(const char *data, size_t len, struct md_block *blocks, size_t cap,
			 size_t *taken);

/* Ends the input: checks the last line and N lines read. Returns the status; again adds nothing. */
enum codec_status md_text_finish(struct md_text_reader *r, md_block_fn fn, void *ctx);

/* Validates a whole Baekjoon text strictly: every fault into err. */
void md_text_validate(const char *text, size_t len, struct codec_error *err);

/* The detail of a placement fault for a block of type t ("x must be
 * 0..3"): a static string. */
const char *md_fault_detail(enum md_fault fault, long long t);

/* Adds "green" (6 strings of 4) and "blue" (4 strings of 6) to obj, '#' for
 * a tile, '.' for empty. Returns 0, or -1 when out of memory. */
int md_json_add_boards(json_t *obj, const struct md_game *game);

/* New {"score", "tiles", "green", "blue"}, or NULL when out of memory. */
json_t *md_json_result(const struct md_game *game);

/* Write the compact dump of md_json_result() and a newline, or the
 * Baekjoon output "S\nT\n", into buf without allocating; return the length
 * as snprintf does. */
int md_json_write_result(const struct md_game *game, char *buf, size_t size);
int md_text_result(const struct md_game *game, char *buf, size_t size);

#endif
