/*
 * The fast path of the Monomino-Domino text reader (md_text.c): whole
 * placement lines of the one layout nearly every case uses, "t x y\n" with
 * single digits and single spaces, read eight bytes at a time.
 *
 * Private to md_text.c, its only caller; the reader's state is in
 * md_text_state.h.
 */
#ifndef DROPJUDGE_CODEC_MD_TEXT_FAST_H
#define DROPJUDGE_CODEC_MD_TEXT_FAST_H

#include <stddef.h>

#include "codec/md_text_state.h"

/*
 * Reads as many whole placement lines from the start of data[0..len) as it
 * can take exactly as the byte-at-a-time reader would: legal blocks in the
 * canonical layout, at the start of a line, while the reader has N, no
 * fault, no held-back blank line and fewer than N placements. Places each
 * through fn (NULL allowed) like the slow path, and updates the reader's
 * line, column and block count. Stops before the first line it does not
 * recognise, which the slow path then reads. Returns the bytes consumed
 * (0 when it took nothing).
 */
size_t md_text_fast_lines(struct md_text_reader *r, const char *data, size_t len, md_block_fn fn,
			  void *ctx);

#endif
