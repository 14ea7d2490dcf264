/*
 * The state of the Monomino-Domino text reader, private to its two halves:
 * md_text.c (every byte, every fault) and its fast path md_text_fast.c
 * (canonical placement lines).
 */
#ifndef DROPJUDGE_CODEC_MD_TEXT_STATE_H
#define DROPJUDGE_CODEC_MD_TEXT_STATE_H

#include <stdbool.h>
#include <stddef.h>

#include "codec/md_codec.h"

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
	bool failed;		  /* some fault was recorded: no more callbacks */
	bool done;		  /* the rest of the input is ignored (extra line reported) */
	unsigned blank_from;	  /* lenient: first held-back blank line, 0 when none */
	unsigned long blanks;	  /* lenient: held-back blank lines from blank_from on */

	/* The current line. */
	bool line_claimed;     /* lenient: this line was found to be a placement */
	bool line_bad;	       /* a token of this line is not an integer */
	unsigned ntokens;      /* tokens so far (saturates) */
	unsigned extra_column; /* column of the first token past the expected count */
	long long values[3];   /* the first three integers (saturated) */
	unsigned columns[3];   /* and their columns */
	char shown[3][4 * MD_TEXT_TOKEN_SHOWN + 4]; /* and their text, for messages */
	unsigned ws_column;	/* strict: start of the current blank run, 0 when none */
	unsigned ws_bad_column; /* strict: first wrong byte of that run, 0 when none */

	/* The current token. */
	bool in_token;
	unsigned tok_column;		    /* column of its first byte */
	unsigned tok_len;		    /* bytes (saturates) */
	unsigned tok_digits;		    /* decimal digits in it */
	bool tok_plus;			    /* starts with '+' */
	bool tok_minus;			    /* starts with '-' */
	bool tok_zero_first;		    /* first digit is '0' */
	bool tok_bad;			    /* holds a byte that cannot be in an integer */
	unsigned long long tok_value;	    /* magnitude, saturated at 10^18 */
	char tok_text[MD_TEXT_TOKEN_SHOWN]; /* its first bytes, for messages */
};

/*
 * Takes whole canonical placement lines from the start of data[0..len) as
 * the byte-at-a-time reader would, when the reader is at the start of one
 * with N read, no fault and no held-back blank line, each handed to fn
 * (NULL allowed). Returns the bytes consumed, 0 when it took nothing.
 */
size_t md_text_fast_lines(struct md_text_reader *r, const char *data, size_t len, md_block_fn fn,
			  void *ctx);

#endif
