/*
 * Monomino-Domino (Baekjoon 20061) as a problem (problem.h): decoders feed
 * blocks straight into the simulator, one by one (md_place()) for a trace,
 * else in bounded batches that md_play() plays; its package's statement,
 * examples and tests.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/decimal.h"
#include "codec/md_codec.h"
#include "dropjudge/gen.h"
#include "mem/alloc.h"
#include "problem/problem.h"

/* Blocks held back to be played together by md_play(): enough for its
 * side-by-side stretches, few enough to stay in the cache (3 bytes each). */
#define MD_BATCH 16384

/* A text body solved as it arrives, without a trace, a batch at a time:
 * canonical lines go straight into the batch (md_text_take()), any other
 * through md_text_feed(), which decides it and every fault, in order. */
struct problem_text_stream {
	struct md_game game;		  /* the case so far, without blocks[0..held) */
	struct md_text_reader *reader;	  /* the push parser, into blocks */
	size_t held;			  /* blocks[0..held) wait for md_play() */
	struct md_block blocks[MD_BATCH]; /* in reading order */
};

/* Plays the blocks held, in order, exactly as md_place() one by one would. */
static void md_stream_play(struct problem_text_stream *s)
{
	md_play(&s->game, s->blocks, s->held);
	s->held = 0;
}

/* md_block_fn: holds each block, plays them a batch at a time. */
static int md_stream_hold(void *ctx, struct md_block block, unsigned long index)
{
	struct problem_text_stream *s = ctx;
	(void)index;
	s->blocks[s->held++] = block;
	if (s->held == MD_BATCH)
		md_stream_play(s);
	return 0;
}

/* One case being simulated. */
struct md_run {
	struct md_game *game;
	json_t *steps;	    /* trace, or NULL */
	bool out_of_memory; /* stopped: a trace entry could not be built */
};

/* md_block_fn: places the block and, when tracing, appends its step (the
 * blocks are counted first: at most PROBLEM_MAX_TRACE_STEPS come). */
static int md_run_block(void *ctx, struct md_block block, unsigned long index)
{
	struct md_run *run = ctx;
	(void)index;
	unsigned gained = md_place(run->game, block);
	if (!run->steps)
		return 0;
	json_t *step =
	    json_pack("{sI sI sI}", "gained", (json_int_t)gained, "score",
		      (json_int_t)run->game->score, "tiles", (json_int_t)md_tiles(run->game));
	if (step && md_json_add_boards(step, run->game) != 0) {
		json_decref(step);
		step = NULL;
	}
	/* append_new frees the step when it fails, and fails on NULL */
	run->out_of_memory = json_array_append_new(run->steps, step) != 0;
	return run->out_of_memory;
}

/* md_block_fn: counts the blocks read, up to one past PROBLEM_MAX_TRACE_STEPS. */
static int md_count_block(void *ctx, struct md_block block, unsigned long index)
{
	unsigned long *seen = ctx;
	(void)block;
	*seen = index + 1;
	return index >= PROBLEM_MAX_TRACE_STEPS;
}

/* Reads a case (case_obj at `pointer`, else text[0..len)), handing each
 * legal block to fn; a text's end is checked only after a clean feed. Out of
 * memory is CODEC_E_INTERNAL. */
static enum codec_status md_read(const json_t *case_obj, const char *pointer, const char *text,
				 size_t len, const struct md_read_options *opt,
				 struct codec_error *err, md_block_fn fn, void *ctx)
{
	if (case_obj)
		return md_json_read(case_obj, pointer, opt, err, fn, ctx);
	struct md_text_reader *reader = md_text_new(opt, err);
	if (!reader)
		return problem_oom(err);
	enum codec_status st = md_text_feed(reader, text, len, fn, ctx);
	if (st == CODEC_OK)
		st = md_text_finish(reader, fn, ctx);
	md_text_free(reader);
	return st;
}

/* md_read() only counting the blocks into *seen, up to one past PROBLEM_MAX_TRACE_STEPS: a
 * trace too long or a fault in the case is found before any step is built. */
static enum codec_status md_count(const json_t *case_obj, const char *pointer, const char *text,
				  size_t len, const struct md_read_options *opt,
				  unsigned long *seen)
{
	*seen = 0; /* faults unkept: without an error the first one stops the read */
	return md_read(case_obj, pointer, text, len, opt, NULL, md_count_block, seen);
}

/* Solves a case as md_read() reads it, with a trace when asked: a trace too
 * long or a case with a fault builds no step. */
static enum codec_status md_solve(const json_t *case_obj, const char *pointer, const char *text,
				  size_t len, const struct problem_limits *limits, bool trace,
				  struct problem_outcome *out, struct codec_error *err)
{
	md_init(&out->u.md);
	out->steps = trace ? json_array() : NULL;
	if (trace && !out->steps)
		return problem_oom(err);
	struct md_read_options opt = {.max_blocks = limits->max_blocks, .strict = false};
	unsigned long seen = 0;
	bool counted = trace && md_count(case_obj, pointer, text, len, &opt, &seen) == CODEC_OK;
	/* uncounted, the answer is the fault, as without a trace */
	struct md_run run = {.game = &out->u.md, .steps = counted ? out->steps : NULL};
	enum codec_status st = CODEC_OK;
	if (counted && seen > PROBLEM_MAX_TRACE_STEPS) {
		/* at the case's "/trace" when it asked, else at ?trace= */
		char at[CODEC_POINTER_MAX];
		bool asked = case_obj && json_is_true(json_object_get(case_obj, "trace"));
		snprintf(at, sizeof at, "%s/trace", pointer);
		const struct codec_where where = {.pointer = asked ? at : NULL,
						  .parameter = asked ? NULL : "trace"};
		codec_error_add(err, CODEC_E_INVALID, &where,
				"a trace covers at most %d placements; ask without trace",
				PROBLEM_MAX_TRACE_STEPS);
	} else {
		st = md_read(case_obj, pointer, text, len, &opt, err, md_run_block, &run);
	}
	if (st == CODEC_OK && run.out_of_memory)
		codec_error_set(err, CODEC_E_INTERNAL, "out of memory while tracing");
	if (st == CODEC_OK && codec_error_is_set(err))
		st = err->status;
	if (st != CODEC_OK)
		problem_outcome_release(out);
	return st;
}

static enum codec_status md_solve_json(const json_t *case_obj, const char *pointer,
				       const struct problem_limits *limits, bool trace,
				       struct problem_outcome *out, struct codec_error *err)
{
	return md_solve(case_obj, pointer, NULL, 0, limits, trace, out, err);
}

/* The fast path: no trace, the blocks played a batch at a time. When it
 * gives up, the caller starts again, so a batch left unplayed is no loss. */
static int md_play_run(void *ctx, const struct md_block *blocks, size_t n)
{
	md_play(ctx, blocks, n);
	return 0;
}

static bool md_solve_json_fast(const char *body, size_t len, const struct problem_limits *limits,
			       struct problem_outcome *out)
{
	struct md_block blocks[MD_BATCH];
	md_init(&out->u.md);
	out->steps = NULL;
	return md_json_fast_runs(body, len, limits->max_blocks, blocks, MD_BATCH, md_play_run,
				 &out->u.md);
}

/* A case traced as it is read: the steps' text, then the slot. */
struct md_trace_text {
	struct md_game game;
	struct problem_text text; /* the steps, comma-separated; failed: out of memory */
	bool over;		  /* the trace would pass PROBLEM_MAX_TRACE_STEPS */
};

/* Longest step: md_json_write_result()'s answer and {"gained":N,. */
#define MD_STEP_MAX 256

/* md_block_fn: places the block and writes the step as md_run_block()'s
 * object dumps: {"gained":G,"score":S,"tiles":T,"green":[..],"blue":[..]}. */
static int md_trace_text_block(void *ctx, struct md_block block, unsigned long index)
{
	struct md_trace_text *t = ctx;
	unsigned gained = md_place(&t->game, block);
	if (index >= PROBLEM_MAX_TRACE_STEPS) {
		t->over = true;
		return 1;
	}
	char step[MD_STEP_MAX + CODEC_DECIMAL_MAX];
	size_t n = 0;
	if (index > 0)
		step[n++] = ',';
	memcpy(step + n, "{\"gained\":", 10);
	n += 10;
	n += codec_decimal_write(gained, step + n);
	/* the result's members after its "{" (a comma now), without its final newline */
	int w = md_json_write_result(&t->game, step + n, sizeof step - n);
	if (w < 2 || (size_t)w >= sizeof step - n) {
		t->text.failed = true;
		return 1;
	}
	step[n] = ',';
	n += (size_t)w - 1;
	problem_text_put(&t->text, step, n);
	return t->text.failed;
}

/* trace: md_solve_json() (case_obj) or md_solve_text() with a trace, its
 * steps written as text by md_trace_text_block(), not built as a tree; a
 * fault or a trace too long is left to them (0). */
static int md_trace(const json_t *case_obj, const char *pointer, const char *text, size_t len,
		    const struct problem_limits *limits, struct problem_outcome *out,
		    struct problem_text *trace, size_t *steps)
{
	struct md_read_options opt = {.max_blocks = limits->max_blocks, .strict = false};
	unsigned long seen;
	/* As md_solve(): a trace too long is found before it is built. */
	if (case_obj && (md_count(case_obj, pointer, NULL, 0, &opt, &seen) != CODEC_OK ||
			 seen > PROBLEM_MAX_TRACE_STEPS))
		return 0;
	struct md_trace_text t = {.over = false};
	problem_text_init(&t.text);
	md_init(&t.game);
	struct codec_error scratch;
	codec_error_init(&scratch);
	enum codec_status st =
	    md_read(case_obj, pointer, text, len, &opt, &scratch, md_trace_text_block, &t);
	int taken = t.text.failed || st == CODEC_E_INTERNAL
			? -1
			: st == CODEC_OK && !t.over && !codec_error_is_set(&scratch);
	if (taken == 1) {
		out->u.md = t.game;
		out->steps = NULL;
		*trace = t.text;
		*steps = (size_t)t.game.moves;
	} else {
		problem_text_free(&t.text);
	}
	return taken;
}

static struct problem_text_stream *md_text_stream_new(const struct problem_limits *limits,
						      struct codec_error *err)
{
	struct problem_text_stream *s = dj_malloc(sizeof *s);
	if (!s)
		return NULL;
	md_init(&s->game);
	s->held = 0;
	struct md_read_options opt = {.max_blocks = limits->max_blocks, .strict = false};
	s->reader = md_text_new(&opt, err);
	if (!s->reader) {
		dj_free(s);
		return NULL;
	}
	return s;
}

static void md_text_stream_feed(struct problem_text_stream *s, const char *data, size_t len)
{
	size_t at = 0;
	while (at < len) {
		size_t taken;
		at += md_text_take(s->reader, data + at, len - at, s->blocks + s->held,
				   MD_BATCH - s->held, &taken);
		s->held += taken;
		if (s->held == MD_BATCH) {
			md_stream_play(s);
			continue;
		}
		if (at == len)
			break;
		/* The line the fast path left, whole, or what is left of the chunk,
		 * all of it after a fault: no block is taken then, faults only listed. */
		const char *nl = md_text_status(s->reader) != CODEC_OK
				     ? NULL
				     : memchr(data + at, '\n', len - at);
		size_t line = nl ? (size_t)(nl - (data + at)) + 1 : len - at;
		md_text_feed(s->reader, data + at, line, md_stream_hold, s);
		at += line;
	}
}

static enum codec_status md_text_stream_end(struct problem_text_stream *s,
					    struct problem_outcome *out, struct codec_error *err)
{
	/* As md_solve_text(): the end is checked only after a clean feed. */
	enum codec_status st = md_text_status(s->reader);
	if (st == CODEC_OK)
		st = md_text_finish(s->reader, md_stream_hold, s);
	md_stream_play(s);
	out->u.md = s->game;
	out->steps = NULL;
	return st == CODEC_OK && codec_error_is_set(err) ? err->status : st;
}

static void md_text_stream_free(struct problem_text_stream *s)
{
	if (!s)
		return;
	md_text_free(s->reader);
	dj_free(s);
}

static enum codec_status md_solve_text(const char *text, size_t len,
				       const struct problem_limits *limits, bool trace,
				       struct problem_outcome *out, struct codec_error *err)
{
	if (trace)
		return md_solve(NULL, "", text, len, limits, true, out, err);
	/* The push parser of a body read as it arrives, fed once. */
	struct problem_text_stream *s = md_text_stream_new(limits, err);
	if (!s)
		return problem_oom(err);
	md_text_stream_feed(s, text, len);
	enum codec_status st = md_text_stream_end(s, out, err);
	md_text_stream_free(s);
	return st;
}

static json_t *md_outcome_json(struct problem_outcome *out)
{
	json_t *result = md_json_result(&out->u.md);
	json_t *steps = out->steps;
	out->steps = NULL;
	if (result && steps && json_object_set_new(result, "steps", steps) != 0) {
		json_decref(result);
		return NULL;
	}
	if (!result)
		json_decref(steps);
	return result;
}

static int md_outcome_write(const struct problem_outcome *out, char *buf, size_t size)
{
	return md_json_write_result(&out->u.md, buf, size);
}

static int md_outcome_text(const struct problem_outcome *out, char *buf, size_t size)
{
	return md_text_result(&out->u.md, buf, size);
}

static void md_validate_json(const json_t *case_obj, const char *pointer,
			     const struct problem_limits *limits, struct codec_error *err)
{
	(void)limits; /* Baekjoon's own limits apply */
	const struct md_read_options strict = {.max_blocks = ULONG_MAX, .strict = true};
	md_json_read(case_obj, pointer, &strict, err, NULL, NULL);
}

/* Appends the Baekjoon input text of `n` blocks drawn from rng. */
static void md_write_blocks(struct problem_text *text, struct gen_rng *rng, uint64_t n)
{
	problem_text_printf(text, "%llu\n", (unsigned long long)n);
	for (uint64_t i = 0; i < n; i++) {
		struct md_block b = gen_md_block(rng);
		problem_text_printf(text, "%u %u %u\n", b.t, b.x, b.y);
	}
}

/* generate: `n` blocks from the seed, as the Baekjoon input text or JSON;
 * with_answer adds the solve result and the Baekjoon output. */
static enum codec_status md_generate(const struct problem_gen *g, struct problem_text *text,
				     json_t **obj, struct codec_error *err)
{
	struct gen_rng rng;
	gen_rng_init(&rng, g->seed);
	if (g->text) {
		md_write_blocks(text, &rng, g->n);
		return text->failed ? problem_oom(err) : CODEC_OK;
	}
	struct problem_outcome out = {.steps = NULL};
	md_init(&out.u.md);
	json_t *blocks = json_array();
	for (uint64_t i = 0; blocks && i < g->n; i++) {
		struct md_block b = gen_md_block(&rng);
		md_place(&out.u.md, b);
		if (json_array_append_new(blocks, json_pack("[iii]", b.t, b.x, b.y)) != 0) {
			json_decref(blocks);
			blocks = NULL;
		}
	}
	*obj = blocks ? json_pack("{so}", "blocks", blocks) : NULL;
	if (g->with_answer)
		*obj = problem_with_answer(&problem_md, *obj, &out);
	return CODEC_OK;
}

/* --- the package -------------------------------------------------------- */

/* Size of the random tests. */
#define MD_RANDOM_MAX_N 100

static const char md_legend[] =
    "Monomino-Domino is played on three boards. Coordinates are (x, y) = (row, column).\n"
    "\n"
    "- **Red** is 4 x 4 (rows 0 to 3, columns 0 to 3). A block is placed here; red never "
    "holds tiles.\n"
    "- **Green** is 6 rows x 4 columns, below red. A block placed in red slides down into "
    "green, keeping its columns, until one more step would hit a tile or the bottom.\n"
    "- **Blue** is 4 rows x 6 columns, right of red. The same block also slides right into "
    "blue, keeping its rows, until one more step would hit a tile or the right edge.\n"
    "- Green rows 0 and 1 and blue columns 0 and 1 are the **light** area.\n"
    "\n"
    "A placement `t x y` puts a block with these cells in red: for `t = 1` a 1 x 1 block at "
    "(x, y); for `t = 2` a 1 x 2 block at (x, y) and (x, y+1); for `t = 3` a 2 x 1 block at "
    "(x, y) and (x+1, y). A block moves as one rigid piece; once it lands, its tiles only "
    "move with whole rows or columns.\n"
    "\n"
    "After every placement, first the scoring: in green every row whose 4 cells all hold "
    "tiles is removed and everything above it moves down one row; in blue every column "
    "whose 4 cells all hold tiles is removed and everything left of it moves right one "
    "column. Each removed row or column scores 1 point; this repeats until no full row or "
    "column is left. Then the light area: if k of the green rows 0 and 1 hold at least one "
    "tile, the bottom k rows of green are removed and every tile moves down by k; the same "
    "for the blue columns 0 and 1, the rightmost k columns and a move right by k. This "
    "scores nothing.\n"
    "\n"
    "Green and blue are independent boards; the same placement goes into both. Given the "
    "placements, find the total score and the number of tiles left in green and blue.";

static const char md_input[] =
    "The first line holds N, the number of placements (`1 <= N <= 10000`). Each of the next "
    "N lines holds a placement `t x y`: the block type t (1, 2 or 3) and the red cell (x, y) "
    "of its top-left tile. Every block lies inside the red board.";

static const char md_output[] =
    "Print the total score on the first line and the number of tiles left in green and "
    "blue together on the second.";

/* The seven public examples are prefixes of one move list. */
#define MD_MOVES_1 "1 1 1\n"
#define MD_MOVES_2 MD_MOVES_1 "2 3 0\n"
#define MD_MOVES_4 MD_MOVES_2 "3 2 2\n3 2 3\n"
#define MD_MOVES_5 MD_MOVES_4 "3 1 3\n"
#define MD_MOVES_6 MD_MOVES_5 "2 0 0\n"
#define MD_MOVES_7 MD_MOVES_6 "3 2 0\n"
#define MD_MOVES_8 MD_MOVES_7 "3 1 2\n"

static const struct problem_case md_samples[] = {
    {"1", "1\n" MD_MOVES_1}, {"2", "2\n" MD_MOVES_2}, {"3", "4\n" MD_MOVES_4},
    {"4", "5\n" MD_MOVES_5}, {"5", "6\n" MD_MOVES_6}, {"6", "7\n" MD_MOVES_7},
    {"7", "8\n" MD_MOVES_8},
};

static const struct problem_case md_edges[] = {
    {"single-monomino", "1\n1 0 0\n"},
    {"domino-at-the-right-edge", "1\n2 3 2\n"},
    {"domino-at-the-bottom-edge", "1\n3 2 3\n"},
    {"four-rows-at-once", "8\n3 0 0\n3 0 1\n3 0 2\n3 0 3\n2 0 0\n2 1 0\n2 2 0\n2 3 0\n"},
    {"light-area-push", "6\n1 1 1\n1 1 1\n1 1 1\n1 1 1\n1 1 1\n1 1 1\n"},
    {"stacked-vertical-dominoes",
     "10\n3 0 0\n3 0 0\n3 0 0\n3 0 0\n3 0 0\n3 0 0\n3 0 0\n3 0 0\n3 0 0\n3 0 0\n"},
    {"rows-and-columns", "8\n2 0 0\n2 0 2\n2 1 0\n2 1 2\n2 2 0\n2 2 2\n2 3 0\n2 3 2\n"},
};

static bool md_generate_test(enum problem_kind kind, uint64_t seed, unsigned min_chains,
			     struct problem_text *out, struct codec_error *err)
{
	(void)min_chains;
	(void)err;
	struct gen_rng rng;
	gen_rng_init(&rng, seed);
	uint64_t n = kind == PROBLEM_LARGE
			 ? MD_BAEKJOON_MAX_N
			 : MD_BAEKJOON_MIN_N + gen_rng_below(&rng, MD_RANDOM_MAX_N);
	md_write_blocks(out, &rng, n);
	return true;
}

/* The accepted solution and the input validator's fixed source
 * (src/package/files, assembled in by blobs.S). */
extern const char pkg_md_solution[], pkg_md_solution_end[];
extern const char pkg_md_validator[], pkg_md_validator_end[];

/* Monomino-Domino's rules for the validator: Baekjoon's N limits, and for
 * each block type the largest x and y md_check() accepts, with the texts
 * `dropjudge validate` gives. */
static void md_constants(struct problem_text *out)
{
	problem_text_printf(
	    out, "#define DJ_MD_MIN_N %d\n#define DJ_MD_MAX_N %d\n#define DJ_MD_TYPES %d\n",
	    MD_BAEKJOON_MIN_N, MD_BAEKJOON_MAX_N, MD_TYPE_DOMINO_V);
	problem_text_puts(out, "#define DJ_MD_RULE_T ");
	problem_text_c_string(out, md_fault_detail(MD_FAULT_TYPE, 0));
	for (unsigned a = 0; a < 2; a++) {
		problem_text_printf(out, "\nstatic const long long dj_md_max_%c[] = {-1", "xy"[a]);
		for (int t = MD_TYPE_MONO; t <= MD_TYPE_DOMINO_V; t++) {
			int max = -1;
			while (max < MD_RED_SIZE &&
			       md_check(t, a ? 0 : max + 1, a ? max + 1 : 0) == MD_FAULT_NONE)
				max++;
			problem_text_printf(out, ", %d", max);
		}
		problem_text_printf(out, "};\nstatic const char *const dj_md_rule_%c[] = {\"\"",
				    "xy"[a]);
		for (int t = MD_TYPE_MONO; t <= MD_TYPE_DOMINO_V; t++) {
			problem_text_puts(out, ", ");
			problem_text_c_string(out, md_fault_detail(a ? MD_FAULT_Y : MD_FAULT_X, t));
		}
		problem_text_puts(out, "};");
	}
	problem_text_puts(out, "\n");
}

const struct problem problem_md = {
    .id = "monomino-domino",
    .short_name = "monominodomino",
    .title = "Monomino-Domino",
    .baekjoon = 20061,
    .time_limit_ms = 1000,
    .memory_mib = 512,
    .solve_json = md_solve_json,
    .solve_json_fast = md_solve_json_fast,
    .solve_text = md_solve_text,
    .text_stream_new = md_text_stream_new,
    .text_stream_feed = md_text_stream_feed,
    .text_stream_end = md_text_stream_end,
    .text_stream_free = md_text_stream_free,
    .trace = md_trace,
    .outcome_json = md_outcome_json,
    .outcome_write = md_outcome_write,
    .outcome_text = md_outcome_text,
    .validate_json = md_validate_json,
    .validate_text = md_text_validate,
    .generate = md_generate,
    .generate_test = md_generate_test,
    .legend = md_legend,
    .input_format = md_input,
    .output_format = md_output,
    .samples = md_samples,
    .nsamples = PROBLEM_COUNT(md_samples),
    .edges = md_edges,
    .nedges = PROBLEM_COUNT(md_edges),
    .solution = pkg_md_solution,
    .solution_end = pkg_md_solution_end,
    .validator = pkg_md_validator,
    .validator_end = pkg_md_validator_end,
    .answer_tokens = 2,
    .constants = md_constants,
};
