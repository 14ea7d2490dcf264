/*
 * `dropjudge solve monomino-domino|puyo [FILE]`: reads the Baekjoon input
 * with the server's lenient text readers, runs the cores and prints the
 * Baekjoon output. Monomino-Domino streams (chunks into md_text_feed(),
 * each block placed from the callback); a Puyo field is small and is read
 * whole. See solve.h.
 */
#include "main/solve.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "codec/error.h"
#include "codec/md_codec.h"
#include "codec/puyo_codec.h"
#include "dropjudge/md.h"
#include "dropjudge/puyo.h"
#include "mem/alloc.h"

/* Bytes read from the input at a time. */
#define SOLVE_CHUNK 65536

/* Prints the first fault of err as "dropjudge: NAME:LINE:COLUMN: detail". */
static void solve_report(FILE *errout, const char *name, const struct codec_error *err)
{
	if (err->nfaults == 0) {
		fprintf(errout, "dropjudge: %s: %s\n", name, err->detail);
		return;
	}
	const struct codec_fault *f = &err->faults[0];
	if (f->line && f->column)
		fprintf(errout, "dropjudge: %s:%u:%u: %s\n", name, f->line, f->column, f->detail);
	else if (f->line)
		fprintf(errout, "dropjudge: %s:%u: %s\n", name, f->line, f->detail);
	else
		fprintf(errout, "dropjudge: %s: %s\n", name, f->detail);
}

/* Writes the answer text; 0, or 1 with a message when the write fails. */
static int solve_write(FILE *out, FILE *errout, const char *text, int len)
{
	if (len < 0 || fwrite(text, 1, (size_t)len, out) != (size_t)len || fflush(out) != 0) {
		fprintf(errout, "dropjudge: cannot write the answer: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}

/* md_block_fn: places each block as soon as the reader has it. */
static int solve_md_place(void *ctx, struct md_block block, unsigned long index)
{
	(void)index;
	md_place(ctx, block);
	return 0;
}

int solve_monomino_domino(FILE *in, const char *name, FILE *out, FILE *errout)
{
	const struct md_read_options opt = {.max_blocks = ULONG_MAX, .strict = false};
	struct md_text_reader *reader = NULL;
	struct codec_error err;
	struct md_game game;
	char *chunk;
	char answer[64];
	int ret = 1;

	chunk = dj_malloc(SOLVE_CHUNK);
	if (!chunk) {
		fprintf(errout, "dropjudge: out of memory\n");
		return 1;
	}
	codec_error_init(&err, 1);
	md_init(&game);
	reader = md_text_new(&opt, &err);
	if (!reader) {
		fprintf(errout, "dropjudge: out of memory\n");
		goto out_chunk;
	}
	for (;;) {
		size_t n = fread(chunk, 1, SOLVE_CHUNK, in);
		if (n > 0 && md_text_feed(reader, chunk, n, solve_md_place, &game) != CODEC_OK) {
			solve_report(errout, name, &err);
			goto out_chunk;
		}
		if (n < SOLVE_CHUNK)
			break;
	}
	if (ferror(in)) {
		fprintf(errout, "dropjudge: %s: cannot read: %s\n", name, strerror(errno));
		goto out_chunk;
	}
	if (md_text_finish(reader, solve_md_place, &game) != CODEC_OK) {
		solve_report(errout, name, &err);
		goto out_chunk;
	}
	ret = solve_write(out, errout, answer, md_text_result(&game, answer, sizeof answer));
out_chunk:
	md_text_free(reader);
	dj_free(chunk);
	return ret;
}

/* Reads all of `in` (up to `limit` bytes) into a new buffer; NULL with a
 * message when it cannot. */
static char *solve_read_all(FILE *in, const char *name, size_t limit, size_t *len, FILE *errout)
{
	size_t cap = 4096, n = 0;
	char *buf = dj_malloc(cap);
	if (!buf)
		goto out_oom;
	for (;;) {
		if (n == cap) {
			if (cap >= limit) {
				fprintf(errout, "dropjudge: %s: input larger than %zu bytes\n",
					name, limit);
				goto out_buf;
			}
			char *p = dj_realloc(buf, cap * 2);
			if (!p)
				goto out_oom;
			buf = p;
			cap *= 2;
		}
		size_t got = fread(buf + n, 1, cap - n, in);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(in)) {
		fprintf(errout, "dropjudge: %s: cannot read: %s\n", name, strerror(errno));
		goto out_buf;
	}
	*len = n;
	return buf;
out_oom:
	fprintf(errout, "dropjudge: out of memory\n");
out_buf:
	dj_free(buf);
	return NULL;
}

int solve_puyo(FILE *in, const char *name, FILE *out, FILE *errout)
{
	struct codec_error err;
	struct puyo_field field;
	struct puyo_result result;
	char answer[32];
	size_t len = 0;
	int ret = 1;

	char *text = solve_read_all(in, name, SOLVE_PUYO_MAX_INPUT, &len, errout);
	if (!text)
		return 1;
	codec_error_init(&err, 1);
	if (puyo_text_read(text, len, false, &field, &err) != CODEC_OK) {
		solve_report(errout, name, &err);
		goto out_text;
	}
	puyo_run(&field, &result);
	ret = solve_write(out, errout, answer, puyo_text_result(&result, answer, sizeof answer));
out_text:
	dj_free(text);
	return ret;
}

int solve_main(int argc, char *const argv[], FILE *out, FILE *errout)
{
	int (*solve)(FILE *, const char *, FILE *, FILE *);

	if (argc < 1) {
		fprintf(errout, "dropjudge: solve: missing PROBLEM (monomino-domino or puyo); "
				"try 'dropjudge --help'\n");
		return 2;
	}
	if (strcmp(argv[0], "monomino-domino") == 0) {
		solve = solve_monomino_domino;
	} else if (strcmp(argv[0], "puyo") == 0) {
		solve = solve_puyo;
	} else {
		fprintf(errout,
			"dropjudge: solve: unknown problem '%s' (expected monomino-domino or "
			"puyo); try 'dropjudge --help'\n",
			argv[0]);
		return 2;
	}
	if (argc > 2) {
		fprintf(errout,
			"dropjudge: solve: unexpected argument '%s'; try 'dropjudge --help'\n",
			argv[2]);
		return 2;
	}
	const char *path = argc == 2 ? argv[1] : "-";
	if (path[0] == '-' && path[1] != '\0') {
		fprintf(errout, "dropjudge: solve: unknown flag '%s'; try 'dropjudge --help'\n",
			path);
		return 2;
	}
	if (strcmp(path, "-") == 0)
		return solve(stdin, "<stdin>", out, errout);
	FILE *in = fopen(path, "rb");
	if (!in) {
		fprintf(errout, "dropjudge: %s: %s\n", path, strerror(errno));
		return 1;
	}
	int ret = solve(in, path, out, errout);
	fclose(in);
	return ret;
}
