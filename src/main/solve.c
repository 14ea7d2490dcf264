/*
 * `dropjudge solve` and `dropjudge search puyo`: the Baekjoon input, or a
 * stream of JSON cases, read in fixed chunks through the server's readers
 * and cores, so that memory stays flat whatever the size of the input.
 */
#include "main/commands.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "main/config.h"
#include "route/handlers.h"
#include "codec/puyo_codec.h"
#include "dropjudge/puyo.h"
#include "mem/alloc.h"
#include "problem/problem.h"

#define SOLVE_MAX_INPUT ((size_t)16 << 20) /* largest input read whole (Puyo's) */
#define SOLVE_CHUNK	((size_t)1 << 16)  /* bytes of input read at a time */

/* Answers `in` (`name` in messages) on stdout, a fault on stderr; `problem`
 * is the path after /v1/ of --ndjson. Returns the exit status. */
typedef int solve_fn(const char *problem, FILE *in, const char *name);

/* Prints the first fault of err as "dropjudge: NAME:LINE:COLUMN: detail". */
static void solve_report(const char *name, const struct codec_error *err)
{
	char text[PATH_MAX + CODEC_SUMMARY_MAX + 32];
	check_format_error(text, sizeof text, name, err, 0);
	fprintf(stderr, "dropjudge: %s\n", text);
}

/* Writes text[0..len) and flushes stdout: 0, or 1 with a message when that fails. */
static int solve_write(const char *text, size_t len)
{
	if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
		fprintf(stderr, "dropjudge: cannot write the answer: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}

/* `solve monomino-domino|puyo`: the Baekjoon output; 1 on a bad input (its
 * fault on stderr), a read or a write error. A push parser (Monomino-Domino)
 * is fed chunks; the other input is read whole, up to SOLVE_MAX_INPUT. */
static int solve_text(const char *problem, FILE *in, const char *name)
{
	const struct problem *p = problem_find(problem);
	const struct problem_limits limits = {.max_blocks = 0}; /* no limit */
	struct problem_text_stream *s = NULL;
	struct problem_outcome outcome;
	struct codec_error err;
	char answer[64], *text = NULL;
	size_t len = 0;
	int n = -1, ret = 1;

	codec_error_init(&err);
	if (p->text_stream_new) {
		text = dj_malloc(SOLVE_CHUNK);
		s = text ? p->text_stream_new(&limits, &err) : NULL;
		if (!s) {
			fprintf(stderr, "dropjudge: out of memory\n");
			goto out_text;
		}
		/* The first fault is the answer: the rest is not read. */
		for (size_t got = SOLVE_CHUNK; got == SOLVE_CHUNK && err.nfaults == 0;) {
			got = fread(text, 1, SOLVE_CHUNK, in);
			p->text_stream_feed(s, text, got);
		}
	} else {
		text = check_read_all(in, SOLVE_MAX_INPUT, &len);
	}
	if (!text && errno == ENOMEM)
		fprintf(stderr, "dropjudge: out of memory\n");
	else if (!text && errno == EFBIG)
		fprintf(stderr, "dropjudge: %s: input larger than %zu bytes\n", name,
			SOLVE_MAX_INPUT);
	else if (!text || ferror(in))
		fprintf(stderr, "dropjudge: %s: cannot read: %s\n", name, strerror(errno));
	if (!text || ferror(in))
		goto out_text;
	if (!s) {
		n = problem_answer(p, text, len, answer, sizeof answer, &err);
	} else if (p->text_stream_end(s, &outcome, &err) == CODEC_OK) {
		n = p->outcome_text(&outcome, answer, sizeof answer);
		problem_outcome_release(&outcome);
	}
	if (n < 0)
		solve_report(name, &err);
	else
		ret = solve_write(answer, (size_t)n);
out_text:
	if (s)
		p->text_stream_free(s);
	dj_free(text);
	return ret;
}

/* Buffers of `solve puyo --lines`, and the smallest batch two threads share. */
#define SOLVE_LINES_IN	((size_t)1 << 20) /* also the longest line taken */
#define SOLVE_LINES_OUT ((size_t)1 << 16)
#define SOLVE_PAIR_MIN	((size_t)64 << 10) /* a batch under this is not split */

/* Part of a batch and its answers. */
struct solve_half {
	const char *s; /* whole lines, each ended by '\n' */
	size_t len;
	char *out; /* answers go to out[0..cap) */
	size_t cap;
	size_t done;	/* bytes of s answered */
	size_t out_len; /* bytes of answers written */
	unsigned lines; /* lines answered */
};

/* Answers the lines of h up to the first that does not read or whose answer
 * (its chain count and '\n', at most 3 bytes: PUYO_MAX_CHAINS is 19) does not fit. */
static void solve_half_answer(struct solve_half *h)
{
	h->done = h->out_len = 0;
	h->lines = 0;
	while (h->done < h->len) {
		const char *s = h->s + h->done;
		size_t len = (size_t)((const char *)memchr(s, '\n', h->len - h->done) - s);
		size_t line_len = len > 0 && s[len - 1] == '\r' ? len - 1 : len;
		struct puyo_planes planes;
		if (puyo_lines_read(s, line_len, 0, &planes, NULL) != CODEC_OK ||
		    h->out_len + 3 > h->cap)
			return;
		unsigned chains = puyo_planes_chains(&planes);
		if (chains >= 10)
			h->out[h->out_len++] = (char)('0' + chains / 10);
		h->out[h->out_len++] = (char)('0' + chains % 10);
		h->out[h->out_len++] = '\n';
		h->lines++;
		h->done += len + 1;
	}
}

/* The run's second thread: answers `job` at each post of `go`, then posts `done`, until `stop`. */
struct solve_pair {
	pthread_t thread;
	sem_t go, done;
	bool stop;
	struct solve_half job;
};

static void *solve_pair_main(void *arg)
{
	struct solve_pair *p = arg;
	for (;;) {
		while (sem_wait(&p->go) != 0)
			continue; /* EINTR */
		if (p->stop)
			return NULL;
		solve_half_answer(&p->job);
		sem_post(&p->done);
	}
}

/* Starts the second thread, or NULL when switched off (DROPJUDGE_SOLVE_THREADS
 * is 1, one CPU is online) or when it cannot be had: the caller runs alone. */
static struct solve_pair *solve_pair_new(void)
{
	const char *env = getenv("DROPJUDGE_SOLVE_THREADS");
	if ((env && strcmp(env, "1") == 0) || sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return NULL;
	struct solve_pair *p = dj_calloc(1, sizeof *p);
	if (!p)
		return NULL;
	/* sem_init() fails only for a value past SEM_VALUE_MAX or a shared one */
	sem_init(&p->go, 0, 0);
	sem_init(&p->done, 0, 0);
	if (pthread_create(&p->thread, NULL, solve_pair_main, p) == 0)
		return p;
	sem_destroy(&p->done);
	sem_destroy(&p->go);
	dj_free(p);
	return NULL;
}

/* Stops the thread and frees p; NULL is ignored. */
static void solve_pair_free(struct solve_pair *p)
{
	if (!p)
		return;
	p->stop = true;
	sem_post(&p->go);
	pthread_join(p->thread, NULL);
	sem_destroy(&p->done);
	sem_destroy(&p->go);
	dj_free(p);
}

/* Answers and writes the whole lines of buf[*at..held) through out (two
 * halves at once with `pair` and enough lines), moving *at past them and
 * counting them in *line. Returns 0 (a line whose answer did not fit is left
 * for the next call), or 1 at a bad line (its fault on stderr) or a failed write. */
static int solve_lines_batch(struct solve_pair *pair, char *out, const char *name, const char *buf,
			     size_t held, size_t *at, unsigned *line)
{
	const char *s = buf + *at;
	size_t len = held - *at;
	while (len > 0 && s[len - 1] != '\n')
		len--;
	struct solve_half first = {.s = s, .len = len, .out = out, .cap = SOLVE_LINES_OUT};
	struct solve_half second = {.out = out};
	/* The second half starts after the line end nearest past the middle. */
	const char *nl =
	    pair && len >= SOLVE_PAIR_MIN ? memchr(s + len / 2, '\n', len - len / 2) : NULL;
	bool shared = nl && (size_t)(nl + 1 - s) < len;
	if (shared) {
		first.len = (size_t)(nl + 1 - s);
		first.cap = SOLVE_LINES_OUT / 2;
		pair->job = (struct solve_half){
		    .s = nl + 1, .len = len - first.len, .out = out + first.cap, .cap = first.cap};
		sem_post(&pair->go);
	}
	solve_half_answer(&first);
	if (shared) {
		while (sem_wait(&pair->done) != 0)
			continue; /* EINTR */
		if (first.done == first.len)
			second = pair->job;
	}
	memmove(out + first.out_len, second.out, second.out_len);
	*at += first.done + second.done;
	unsigned lines = first.lines + second.lines;
	*line = lines > UINT_MAX - *line ? UINT_MAX : *line + lines;
	if (solve_write(out, first.out_len + second.out_len) != 0)
		return 1;
	if (first.done + second.done == len)
		return 0;
	/* Read the line that stopped a half again, to say why. */
	s = buf + *at;
	len = (size_t)((const char *)memchr(s, '\n', held - *at) - s);
	len -= len > 0 && s[len - 1] == '\r';
	struct codec_error err;
	struct puyo_planes planes;
	codec_error_init(&err);
	if (puyo_lines_read(s, len, *line, &planes, &err) == CODEC_OK)
		return 0; /* its answer did not fit */
	solve_report(name, &err);
	return 1;
}

/* `solve puyo --lines`: one field per line (CR LF, a last line without newline taken), one chain
 * count per line out, in flat memory. At the first bad line: the counts before it, the fault, 1. */
static int solve_puyo_lines(const char *problem, FILE *in, const char *name)
{
	(void)problem;
	struct solve_pair *pair = solve_pair_new();
	char *out = dj_malloc(SOLVE_LINES_OUT);
	char *buf = dj_malloc(SOLVE_LINES_IN);
	size_t held = 0; /* buf[0..held) was read */
	size_t at = 0;	 /* the first byte of buf not answered yet */
	unsigned line = 1;
	int ret = 1;

	if (!out || !buf) {
		fprintf(stderr, "dropjudge: out of memory\n");
		goto out_buf;
	}
	for (;;) {
		if (solve_lines_batch(pair, out, name, buf, held, &at, &line) != 0)
			goto out_buf;
		/* The part of a line left goes to the front, and more input after it. */
		memmove(buf, buf + at, held - at);
		held -= at;
		at = 0;
		if (held == SOLVE_LINES_IN) {
			fprintf(stderr, "dropjudge: %s:%u: line longer than %zu bytes\n", name,
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
		fprintf(stderr, "dropjudge: %s: cannot read: %s\n", name, strerror(errno));
		goto out_buf;
	}
	/* What is left, a last line without its newline given one. */
	if (held > 0 && buf[held - 1] != '\n')
		buf[held++] = '\n';
	ret = 0;
	while (ret == 0 && at < held)
		ret = solve_lines_batch(pair, out, name, buf, held, &at, &line);
out_buf:
	dj_free(buf);
	dj_free(out);
	solve_pair_free(pair);
	return ret;
}

/* --- --ndjson and search -------------------------------------------------- */

/* route_put_fn: answer bytes to a FILE. */
static int solve_put(const char *bytes, size_t len, void *ctx)
{
	return fwrite(bytes, 1, len, ctx) == len ? 0 : -1;
}

/* `solve PROBLEM --ndjson` (`search puyo --ndjson`: "puyo/search"): POST /v1/PROBLEM's answers to
 * a stream of cases (default limits) as each line ends, a bad one too; 1 on a read/write error. */
static int solve_ndjson(const char *problem, FILE *in, const char *name)
{
	struct config cfg; /* serve's defaults (no CORS; the lines answer JSON, never SVG) */
	config_parse_serve(&cfg, 0, NULL, NULL, NULL, NULL, 0);
	char path[64];
	snprintf(path, sizeof path, "/v1/%s", problem);
	struct route_request req = {.method = "POST",
				    .path = path,
				    .content_type = "application/x-ndjson",
				    .limits = &cfg.http.limits,
				    .auth = ROUTE_AUTH_OK};
	char *buf = dj_malloc(SOLVE_CHUNK);
	struct route_ndjson *nd = buf ? route_ndjson_new(&req, solve_put, stdout, true) : NULL;
	if (!nd) {
		fprintf(stderr, "dropjudge: %s: out of memory\n", name);
		dj_free(buf);
		return 1;
	}
	int ret = 0;
	size_t n;
	while ((n = fread(buf, 1, SOLVE_CHUNK, in)) > 0)
		route_ndjson_feed(nd, buf, n);
	if (ferror(in)) {
		fprintf(stderr, "dropjudge: %s: cannot read: %s\n", name, strerror(errno));
		ret = 1;
	}
	if (route_ndjson_end(nd) != 0 || fflush(stdout) != 0) {
		fprintf(stderr, "dropjudge: cannot write the answer: %s\n", strerror(errno));
		ret = 1;
	}
	route_ndjson_free(nd);
	dj_free(buf);
	return ret;
}

/* `search puyo`: the one request in `in` answered by the route; one refused: stderr, 1. */
static int search_one(const char *problem, FILE *in, const char *name)
{
	(void)problem;
	struct config cfg; /* serve's defaults */
	config_parse_serve(&cfg, 0, NULL, NULL, NULL, NULL, 0);
	const struct route_limits limits = {.max_body = cfg.http.limits.max_body,
					    .max_json_body = cfg.http.limits.max_json_body};
	size_t len;
	char *body = check_read_all(in, cfg.http.limits.max_json_body, &len);
	if (!body) {
		fprintf(stderr, "dropjudge: %s: %s\n", name,
			errno == EFBIG ? "larger than the 1 MiB a JSON request may have"
				       : strerror(errno));
		return 1;
	}
	struct route_request req = {.method = "POST",
				    .path = "/v1/puyo/search",
				    .content_type = "application/json",
				    .body = body,
				    .body_len = len,
				    .limits = &limits,
				    .auth = ROUTE_AUTH_OK};
	struct route_response resp;
	route_handle(&req, &resp);
	int ret = 1;
	if (!route_response_gather(&resp))
		fprintf(stderr, "dropjudge: %s: out of memory\n", name);
	else if (resp.status != 200)
		fprintf(stderr, "dropjudge: %s: %.*s", name, (int)resp.body_len, resp.body);
	else
		ret = solve_write(resp.body, resp.body_len);
	route_response_free(&resp);
	dj_free(body);
	return ret;
}

/* Runs fn on the file at path (NULL or "-": stdin); 1 when it cannot be opened. */
static int solve_run(solve_fn *fn, const char *problem, const char *path)
{
	if (!path || strcmp(path, "-") == 0)
		return fn(problem, stdin, "<stdin>");
	FILE *in = fopen(path, "rb");
	if (!in) {
		fprintf(stderr, "dropjudge: %s: %s\n", path, strerror(errno));
		return 1;
	}
	int ret = fn(problem, in, path);
	fclose(in);
	return ret;
}

int solve_main(int argc, char *const argv[])
{
	solve_fn *solve = solve_text;

	if (argc < 1)
		return command_usage("solve", false, "missing PROBLEM (monomino-domino or puyo)");
	const char *problem = argv[0];
	if (strcmp(problem, "monomino-domino") != 0 && strcmp(problem, "puyo") != 0)
		return command_usage("solve", false,
				     "unknown problem '%s' (expected monomino-domino or puyo)",
				     problem);
	bool lines = strcmp(problem, "puyo") == 0 && argc > 1 && strcmp(argv[1], "--lines") == 0;
	if (lines || (argc > 1 && strcmp(argv[1], "--ndjson") == 0)) {
		solve = lines ? solve_puyo_lines : solve_ndjson;
		argc--;
		argv++;
	}
	if (argc > 2)
		return command_usage("solve", false, "unexpected argument '%s'", argv[2]);
	const char *path = argc == 2 ? argv[1] : "-";
	if (path[0] == '-' && path[1] != '\0')
		return command_usage("solve", false, "unknown flag '%s'", path);
	return solve_run(solve, problem, path);
}

int search_main(int argc, char *const argv[])
{
	solve_fn *search = search_one;
	const char *path = NULL;
	if (argc < 1 || strcmp(argv[0], "puyo") != 0)
		return command_usage("search", false, "expected 'puyo' (the one problem searched)");
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--ndjson") == 0 && search != solve_ndjson) {
			search = solve_ndjson;
		} else if (!path && (argv[i][0] != '-' || strcmp(argv[i], "-") == 0)) {
			path = argv[i];
		} else {
			return command_usage("search", false, "unexpected argument '%s'", argv[i]);
		}
	}
	return solve_run(search, "puyo/search", path);
}
