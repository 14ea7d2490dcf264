/*
 * `dropjudge solve monomino-domino|puyo [--lines] [FILE]`: reads the
 * Baekjoon input with the server's lenient text readers, runs the cores
 * and prints the Baekjoon output. The input is read in fixed chunks, so
 * memory stays flat whatever the size of a Monomino-Domino input or the
 * number of --lines fields; --lines shares each buffer of whole lines with
 * a second thread (solve_pair.h), which changes no byte of the output. A Monomino-Domino
 * input goes through the problem's push parser (problem_md.text_stream_*), as a text
 * body does in the server; each --lines field is read by puyo_lines_read() and counted by
 * puyo_planes_chains(). A single Puyo field is small and is read whole. --ndjson hands the
 * chunks to the server's reader of streams of cases (route/ndjson.c), which writes each answer
 * line as its line ends. See solve.h.
 */
#include "main/solve.h"
#include "main/solve_pair.h"
#include "main/check.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "codec/error.h"
#include "main/config.h"
#include "route/handlers.h"
#include "codec/puyo_codec.h"
#include "dropjudge/md.h"
#include "dropjudge/puyo.h"
#include "mem/alloc.h"
#include "problem/problem.h"

/* Largest Puyo input read (its text is read whole). */
#define SOLVE_PUYO_MAX_INPUT ((size_t)16 << 20)
/* Bytes of input read at a time. */
#define SOLVE_CHUNK ((size_t)1 << 16)

/* Prints the first fault of err as "dropjudge: NAME:LINE:COLUMN: detail". */
static void solve_report(FILE *errout, const char *name, const struct codec_error *err)
{
	char text[PATH_MAX + CODEC_SUMMARY_MAX + 32];
	check_format_error(text, sizeof text, name, err);
	fprintf(errout, "dropjudge: %s\n", text);
}

/* Writes text[0..len) and flushes out; 0, or 1 with a message on errout
 * when the write fails (len < 0 counts as a failure). */
static int solve_write(FILE *out, FILE *errout, const char *text, int len)
{
	if (len < 0 || fwrite(text, 1, (size_t)len, out) != (size_t)len || fflush(out) != 0) {
		fprintf(errout, "dropjudge: cannot write the answer: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}

/*
 * Solves a Monomino-Domino input read from `in` (named `name` in messages)
 * and writes "S\nT\n" to out. On a bad input writes
 * "dropjudge: NAME:LINE:COLUMN: detail" (COLUMN when known) to errout and
 * returns 1; on a read or write error also 1; 0 when solved.
 */
static int solve_monomino_domino(FILE *in, const char *name, FILE *out, FILE *errout)
{
	const struct problem *p = &problem_md;
	const struct problem_limits limits = {.max_blocks = 0}; /* no limit */
	struct problem_text_stream *s = NULL;
	struct problem_outcome outcome;
	struct codec_error err;
	char answer[64];
	int ret = 1;

	codec_error_init(&err, 1);
	char *chunk = dj_malloc(SOLVE_CHUNK);
	if (chunk)
		s = p->text_stream_new(&limits, &err);
	if (!s) {
		fprintf(errout, "dropjudge: out of memory\n");
		goto out_chunk;
	}
	for (;;) {
		size_t n = fread(chunk, 1, SOLVE_CHUNK, in);
		p->text_stream_feed(s, chunk, n);
		if (err.nfaults > 0 || n < SOLVE_CHUNK)
			break; /* the first fault is the answer: the rest is not read */
	}
	if (ferror(in)) {
		fprintf(errout, "dropjudge: %s: cannot read: %s\n", name, strerror(errno));
		goto out_chunk;
	}
	if (p->text_stream_end(s, &outcome, &err) != CODEC_OK) {
		solve_report(errout, name, &err);
		goto out_chunk;
	}
	ret = solve_write(out, errout, answer, p->outcome_text(&outcome, answer, sizeof answer));
	problem_outcome_release(&outcome);
out_chunk:
	p->text_stream_free(s);
	dj_free(chunk);
	return ret;
}

/* The same for Puyo: writes "C\n". Inputs over SOLVE_PUYO_MAX_INPUT fail. */
static int solve_puyo(FILE *in, const char *name, FILE *out, FILE *errout)
{
	struct codec_error err;
	struct puyo_field field;
	struct puyo_result result;
	char answer[32];
	size_t len = 0;
	int ret = 1;

	char *text = check_read_all(in, SOLVE_PUYO_MAX_INPUT, &len);
	if (!text && errno == ENOMEM)
		fprintf(errout, "dropjudge: out of memory\n");
	else if (!text && errno == EFBIG)
		fprintf(errout, "dropjudge: %s: input larger than %zu bytes\n", name,
			SOLVE_PUYO_MAX_INPUT);
	else if (!text)
		fprintf(errout, "dropjudge: %s: cannot read: %s\n", name, strerror(errno));
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

/* Input and output buffers of `solve puyo --lines` (the input is read
 * SOLVE_CHUNK bytes at a time, after the part of a line left). */
#define SOLVE_LINES_IN	((size_t)1 << 20) /* also the longest line taken */
#define SOLVE_LINES_OUT ((size_t)1 << 16)

/* Answers waiting to be written; writes to `out`, complains on `errout`. */
struct solve_out {
	FILE *out;
	FILE *errout;
	size_t len; /* buf[0..len) waits to be written */
	char buf[SOLVE_LINES_OUT];
};

/* Writes what is held; 0, or 1 with a message. */
static int solve_out_flush(struct solve_out *o)
{
	int ret = solve_write(o->out, o->errout, o->buf, (int)o->len);
	o->len = 0;
	return ret;
}

/* Appends the chain count of planes and a newline to o; 0, or 1 with a
 * message when flushing a full buffer fails. */
static int solve_line_answer(struct solve_out *o, const struct puyo_planes *planes)
{
	unsigned chains = puyo_planes_chains(planes);
	if (o->len + 4 > sizeof o->buf && solve_out_flush(o) != 0)
		return 1;
	/* at most PUYO_MAX_CHAINS (19): one or two digits */
	if (chains >= 10)
		o->buf[o->len++] = (char)('0' + chains / 10);
	o->buf[o->len++] = (char)('0' + chains % 10);
	o->buf[o->len++] = '\n';
	return 0;
}

/* The lengths of a line of 12 and of 13 rows, without its newline. */
#define SOLVE_LINE_12 (PUYO_ROWS * (PUYO_COLS + 1) - 1)
#define SOLVE_LINE_13 (PUYO_ROWS_MAX * (PUYO_COLS + 1) - 1)

/*
 * The line at s[0..left) when it is a good field of 12 or 13 rows ended by
 * a newline: its length (the newline not counted), with its planes read.
 * A good line holds no newline (no cell or space is one), so when the
 * byte after such a length is the newline, that is where the line ends and
 * no search for it is needed. 0 for any other line, which the caller splits
 * at its first newline and reads with solve_line().
 */
static size_t solve_line_known(const char *s, size_t left, unsigned line,
			       struct puyo_planes *planes)
{
	size_t len = 0;
	if (left > SOLVE_LINE_12 && s[SOLVE_LINE_12] == '\n')
		len = SOLVE_LINE_12;
	else if (left > SOLVE_LINE_13 && s[SOLVE_LINE_13] == '\n')
		len = SOLVE_LINE_13;
	if (len == 0 || puyo_lines_read(s, len, line, planes, NULL) != CODEC_OK)
		return 0;
	return len;
}

/* Solves s[0..len), line `line` of --lines without its newline (a CR
 * before it is dropped); 0, or 1 when the line is bad (the answers before
 * it are written, then the fault on errout) or a write failed. */
static int solve_line(struct solve_out *o, const char *name, const char *s, size_t len,
		      unsigned line)
{
	struct puyo_planes planes;

	if (len > 0 && s[len - 1] == '\r')
		len--;
	if (puyo_lines_read(s, len, line, &planes, NULL) != CODEC_OK) {
		/* Read again to say why: an error struct is filled only on the way out. */
		struct codec_error err;
		codec_error_init(&err, 1);
		puyo_lines_read(s, len, line, &planes, &err);
		solve_out_flush(o);
		solve_report(o->errout, name, &err);
		return 1;
	}
	return solve_line_answer(o, &planes);
}

/*
 * Answers the whole lines of buf[0..held) from *at on, moving *at past
 * each and counting them in *line. Returns 0 when the lines left are not
 * whole, 1 at a bad line or a failed write (a message was written).
 */
static int solve_lines_some(struct solve_out *o, const char *name, const char *buf, size_t held,
			    size_t *at, unsigned *line)
{
	while (*at < held) {
		struct puyo_planes planes;
		const char *s = buf + *at;
		size_t len = solve_line_known(s, held - *at, *line, &planes);
		if (len) {
			if (solve_line_answer(o, &planes) != 0)
				return 1;
		} else {
			const char *nl = memchr(s, '\n', held - *at);
			if (!nl)
				return 0;
			len = (size_t)(nl - s);
			if (solve_line(o, name, s, len, *line) != 0)
				return 1;
		}
		*line += *line < UINT_MAX;
		*at += len + 1;
	}
	return 0;
}

/*
 * Answers the whole lines of buf[*at..held) with the second thread when
 * they are enough to share (solve_pair.h), moving *at and *line past them.
 * Returns 0, also when the batch was left to solve_lines_some() (a bad line
 * in it, or no second thread); 1 when a write failed (a message was
 * written).
 */
static int solve_lines_pair(struct solve_out *o, struct solve_pair *pair, const char *buf,
			    size_t held, size_t *at, unsigned *line)
{
	if (!pair || held - *at < SOLVE_PAIR_MIN)
		return 0;
	const char *s = buf + *at;
	size_t len = held - *at;
	while (len > 0 && s[len - 1] != '\n')
		len--;
	size_t n;
	unsigned lines;
	if (solve_out_flush(o) != 0)
		return 1;
	if (!solve_pair_answer(pair, s, len, o->buf, sizeof o->buf, &n, &lines))
		return 0;
	o->len = n;
	*at += len;
	*line = lines > UINT_MAX - *line ? UINT_MAX : *line + lines;
	return 0;
}

/*
 * `solve puyo --lines`: one field per line (12 or 13 rows of 6 characters,
 * top first, separated by single spaces; CR LF and a last line without its
 * newline are taken), one chain count per line out, in order. At the first
 * bad line writes the counts before it, then the fault, and returns 1; 0
 * when every line was solved. Memory stays flat whatever the number of lines.
 */
static int solve_puyo_lines(FILE *in, const char *name, FILE *out, FILE *errout)
{
	struct solve_pair *pair = solve_pair_new(SOLVE_LINES_IN);
	struct solve_out *o = dj_malloc(sizeof *o);
	char *buf = dj_malloc(SOLVE_LINES_IN);
	size_t held = 0; /* buf[0..held) was read */
	size_t at = 0;	 /* the first byte of buf not answered yet */
	unsigned line = 1;
	int ret = 1;

	if (!o || !buf) {
		fprintf(errout, "dropjudge: out of memory\n");
		goto out_buf;
	}
	o->out = out;
	o->errout = errout;
	o->len = 0;
	for (;;) {
		if (solve_lines_pair(o, pair, buf, held, &at, &line) != 0 ||
		    solve_lines_some(o, name, buf, held, &at, &line) != 0)
			goto out_buf;
		/* The part of a line left goes to the front, and more input after it. */
		memmove(buf, buf + at, held - at);
		held -= at;
		at = 0;
		if (held == SOLVE_LINES_IN) {
			solve_out_flush(o);
			fprintf(errout, "dropjudge: %s:%u: line longer than %zu bytes\n", name,
				line, SOLVE_LINES_IN);
			goto out_buf;
		}
		/* With a second thread, a whole buffer at a time, to share. */
		size_t room = SOLVE_LINES_IN - held;
		size_t got =
		    fread(buf + held, 1, pair || room < SOLVE_CHUNK ? room : SOLVE_CHUNK, in);
		if (got == 0)
			break;
		held += got;
	}
	if (ferror(in)) {
		solve_out_flush(o);
		fprintf(errout, "dropjudge: %s: cannot read: %s\n", name, strerror(errno));
		goto out_buf;
	}
	/* A last line without its newline. */
	if (held > 0 && solve_line(o, name, buf, held, line) != 0)
		goto out_buf;
	ret = solve_out_flush(o);
out_buf:
	dj_free(buf);
	dj_free(o);
	solve_pair_free(pair);
	return ret;
}

/* route_put_fn: answer bytes to a FILE. */
static int solve_put(const char *bytes, size_t len, void *ctx)
{
	return fwrite(bytes, 1, len, ctx) == len ? 0 : -1;
}

int solve_ndjson(const char *problem, FILE *in, const char *name, FILE *out, FILE *errout)
{
	const struct route_limits limits = {.max_body = CONFIG_DEFAULT_MAX_BODY,
					    .max_json_body = CONFIG_DEFAULT_MAX_JSON_BODY,
					    .max_stream_body = CONFIG_DEFAULT_MAX_STREAM_BODY,
					    .max_blocks = CONFIG_DEFAULT_MAX_BLOCKS,
					    .max_batch = CONFIG_DEFAULT_MAX_BATCH,
					    .max_trace_steps = CONFIG_DEFAULT_MAX_TRACE_STEPS};
	char path[64];
	snprintf(path, sizeof path, "/v1/%s", problem);
	struct route_request req = {.method = "POST",
				    .path = path,
				    .content_type = "application/x-ndjson",
				    .limits = &limits,
				    .auth = ROUTE_AUTH_OK};
	char *buf = dj_malloc(SOLVE_CHUNK);
	struct route_ndjson *nd = buf ? route_ndjson_new(&req, solve_put, out) : NULL;
	int ret = 0;
	if (!nd) {
		fprintf(errout, "dropjudge: %s: out of memory\n", name);
		ret = 1;
		goto out_buf;
	}
	size_t n;
	while ((n = fread(buf, 1, SOLVE_CHUNK, in)) > 0)
		route_ndjson_feed(nd, buf, n);
	if (ferror(in)) {
		fprintf(errout, "dropjudge: %s: %s\n", name, strerror(errno));
		ret = 1;
	}
	if (route_ndjson_end(nd) != 0 || fflush(out) != 0) {
		fprintf(errout, "dropjudge: cannot write the answer: %s\n", strerror(errno));
		ret = 1;
	}
	route_ndjson_free(nd);
out_buf:
	dj_free(buf);
	return ret;
}

int solve_main(int argc, char *const argv[], FILE *out, FILE *errout)
{
	int (*solve)(FILE *, const char *, FILE *, FILE *);
	bool ndjson = false;
	const char *problem = argc > 0 ? argv[0] : NULL;

	if (argc < 1) {
		fprintf(errout, "dropjudge: solve: missing PROBLEM (monomino-domino or puyo); "
				"try 'dropjudge --help'\n");
		return 2;
	}
	if (strcmp(argv[0], "monomino-domino") == 0) {
		solve = solve_monomino_domino;
	} else if (strcmp(argv[0], "puyo") == 0) {
		solve = solve_puyo;
		if (argc > 1 && strcmp(argv[1], "--lines") == 0) {
			solve = solve_puyo_lines;
			argc--;
			argv++;
		}
	} else {
		fprintf(errout,
			"dropjudge: solve: unknown problem '%s' (expected monomino-domino or "
			"puyo); try 'dropjudge --help'\n",
			argv[0]);
		return 2;
	}
	if (argc > 1 && strcmp(argv[1], "--ndjson") == 0 && solve != solve_puyo_lines) {
		ndjson = true;
		argc--;
		argv++;
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
		return ndjson ? solve_ndjson(problem, stdin, "<stdin>", out, errout)
			      : solve(stdin, "<stdin>", out, errout);
	FILE *in = fopen(path, "rb");
	if (!in) {
		fprintf(errout, "dropjudge: %s: %s\n", path, strerror(errno));
		return 1;
	}
	int ret =
	    ndjson ? solve_ndjson(problem, in, path, out, errout) : solve(in, path, out, errout);
	fclose(in);
	return ret;
}
