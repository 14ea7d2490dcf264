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
	unsigned long max_blocks; /* more blocks is CODEC_E_INVALID ("too many blocks") */
	bool strict;              /* validation: Baekjoon's 1 <= N <= 10000 and, for text,
				     testlib-strict layout (single spaces, final newline) */
};

/*
 * Reads a case object {"blocks": [[t,x,y] or {"t":..,"x":..,"y":..}, ...],
 * "trace": bool (optional)}. `pointer` is the JSON pointer of the case in the
 * request ("" for the root, "/cases/3" in a batch); faults are reported at
 * pointer + "/blocks/17/0" and so on. Unknown members are CODEC_E_INVALID.
 * Returns the status of the first error, CODEC_OK when none.
 */
enum codec_status md_json_read(const json_t *case_obj, const char *pointer,
			       const struct md_read_options *opt,
			       struct codec_error *err, md_block_fn fn, void *ctx);

/* Push parser state for the Baekjoon input text ("N", then N lines "t x y"). */
struct md_text_reader {
	struct md_read_options opt;
	struct codec_error *err;  /* not owned */
	unsigned line;            /* 1-based line being read */
	unsigned long declared;   /* N from line 1 */
	unsigned long blocks;     /* block lines read so far */
	bool have_n;              /* line 1 was read */
	bool stopped;             /* callback asked to stop, or first-wins error */
	bool failed;              /* some fault was recorded */
	size_t len;               /* bytes of the current line held in buf */
	char buf[80];             /* the current line, if it fits */
	bool overlong;            /* current line did not fit in buf */
	bool last_was_cr;
};

/* Starts a reader; `err` (not owned) receives the faults. */
void md_text_init(struct md_text_reader *r, const struct md_read_options *opt,
		  struct codec_error *err);

/* Feeds the next chunk. Returns the status so far (CODEC_OK while none). */
enum codec_status md_text_feed(struct md_text_reader *r, const char *data,
			       size_t len, md_block_fn fn, void *ctx);

/* Ends the input: checks the last line and that N lines were read. */
enum codec_status md_text_finish(struct md_text_reader *r, md_block_fn fn,
				 void *ctx);

/* Adds "green" (6 strings of 4) and "blue" (4 strings of 6) to obj, '#' for
 * a tile, '.' for empty. Returns 0, or -1 when out of memory. */
int md_json_add_boards(json_t *obj, const struct md_game *game);

/* New {"score", "tiles", "green", "blue"}, or NULL when out of memory. */
json_t *md_json_result(const struct md_game *game);

/* Writes the Baekjoon output "S\nT\n" into buf; returns its length as
 * snprintf does. */
int md_text_result(const struct md_game *game, char *buf, size_t size);

#endif
