/*
 * The two problems as packages see them (see problems.h): statement
 * sources written from the original rules, the public examples of the
 * original statements, edge cases, and the generators of gen.h. Solving
 * and validating go through the same codecs and cores as the service.
 */
#include "package/problems.h"

#include <stdio.h>
#include <string.h>

#include "codec/md_codec.h"
#include "codec/puyo_codec.h"
#include "dropjudge/gen.h"
#include "dropjudge/md.h"
#include "dropjudge/puyo.h"

/* The accepted solutions, assembled in from src/package/files (blobs.S). */
extern const char pkg_md_solution[], pkg_md_solution_end[];
extern const char pkg_puyo_solution[], pkg_puyo_solution_end[];
/* The input validators' fixed sources (src/package/files). */
extern const char pkg_md_validator[], pkg_md_validator_end[];
extern const char pkg_puyo_validator[], pkg_puyo_validator_end[];

/* Generated cases that fail (a Puyo search that hit its bound) are retried
 * with the next seed of the stream, at most this many times. */
#define PKG_GENERATE_TRIES 64

/* Monomino-Domino: size of the random tests. */
#define PKG_MD_RANDOM_MAX_N 100

const char *pkg_kind_name(enum pkg_kind kind)
{
	switch (kind) {
	case PKG_SAMPLE:
		return "sample";
	case PKG_EDGE:
		return "edge";
	case PKG_RANDOM:
		return "random";
	case PKG_LARGE:
		return "large";
	case PKG_CHAINS:
		return "chains";
	}
	return "test";
}

/* --- Monomino-Domino ---------------------------------------------------- */

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

static const struct pkg_case md_samples[] = {
    {"1", "1\n" MD_MOVES_1}, {"2", "2\n" MD_MOVES_2}, {"3", "4\n" MD_MOVES_4},
    {"4", "5\n" MD_MOVES_5}, {"5", "6\n" MD_MOVES_6}, {"6", "7\n" MD_MOVES_7},
    {"7", "8\n" MD_MOVES_8},
};

static const struct pkg_case md_edges[] = {
    {"single-monomino", "1\n1 0 0\n"},
    {"domino-at-the-right-edge", "1\n2 3 2\n"},
    {"domino-at-the-bottom-edge", "1\n3 2 3\n"},
    {"four-rows-at-once", "8\n3 0 0\n3 0 1\n3 0 2\n3 0 3\n2 0 0\n2 1 0\n2 2 0\n2 3 0\n"},
    {"light-area-push", "6\n1 1 1\n1 1 1\n1 1 1\n1 1 1\n1 1 1\n1 1 1\n"},
    {"stacked-vertical-dominoes",
     "10\n3 0 0\n3 0 0\n3 0 0\n3 0 0\n3 0 0\n3 0 0\n3 0 0\n3 0 0\n3 0 0\n3 0 0\n"},
    {"rows-and-columns", "8\n2 0 0\n2 0 2\n2 1 0\n2 1 2\n2 2 0\n2 2 2\n2 3 0\n2 3 2\n"},
};

static bool md_generate(enum pkg_kind kind, uint64_t seed, unsigned min_chains,
			struct pkg_text *out, struct codec_error *err)
{
	(void)min_chains;
	(void)err;
	struct gen_rng rng;
	gen_rng_init(&rng, seed);
	uint64_t n = kind == PKG_LARGE
			 ? MD_BAEKJOON_MAX_N
			 : MD_BAEKJOON_MIN_N + gen_rng_below(&rng, PKG_MD_RANDOM_MAX_N);
	pkg_text_printf(out, "%llu\n", (unsigned long long)n);
	for (uint64_t i = 0; i < n; i++) {
		struct md_block b = gen_md_block(&rng);
		pkg_text_printf(out, "%u %u %u\n", b.t, b.x, b.y);
	}
	return true;
}

static int md_place_block(void *ctx, struct md_block block, unsigned long index)
{
	(void)index;
	md_place(ctx, block);
	return 0;
}

static int md_solve(const char *text, size_t len, char *answer, size_t size,
		    struct codec_error *err)
{
	static const struct md_read_options lenient = {.max_blocks = 0, .strict = false};
	struct md_game game;
	md_init(&game);
	struct md_text_reader *reader = md_text_new(&lenient, err);
	if (!reader) {
		codec_error_set(err, CODEC_E_INTERNAL, "out of memory");
		return -1;
	}
	bool ok = md_text_feed(reader, text, len, md_place_block, &game) == CODEC_OK &&
		  md_text_finish(reader, md_place_block, &game) == CODEC_OK;
	md_text_free(reader);
	if (!ok)
		return -1;
	return md_text_result(&game, answer, size);
}

/* --- Puyo Puyo ---------------------------------------------------------- */

static const char puyo_legend[] =
    "The field has 12 rows and 6 columns. `.` is an empty cell; `R`, `G`, `B`, `P` and `Y` "
    "are puyos of five colours. Every puyo rests on the floor or on another puyo.\n"
    "\n"
    "One chain step: find every group of 4 or more puyos of one colour connected up, down, "
    "left or right (not diagonally). If there is none, stop. All such groups pop at the same "
    "time, and however many groups pop, it is one chain. Then, in each column, the puyos "
    "left fall straight down, keeping their order, until they rest on the floor or on "
    "another puyo; and the next step begins.\n"
    "\n"
    "Find the number of chain steps in which something popped.";

static const char puyo_input[] =
    "12 lines of 6 characters each, the rows of the field from the top: `.` for an empty "
    "cell, `R`, `G`, `B`, `P` or `Y` for a puyo. No puyo has an empty cell below it.";

static const char puyo_output[] = "Print the number of chains (0 when nothing pops).";

#define PUYO_EMPTY_ROWS_8  "......\n......\n......\n......\n......\n......\n......\n......\n"
#define PUYO_EMPTY_ROWS_10 PUYO_EMPTY_ROWS_8 "......\n......\n"
#define PUYO_EMPTY_ROWS_11 PUYO_EMPTY_ROWS_10 "......\n"

static const struct pkg_case puyo_samples[] = {
    {"1", PUYO_EMPTY_ROWS_8 ".Y....\n.YG...\nRRYG..\nRRYGG.\n"},
};

static const struct pkg_case puyo_edges[] = {
    {"empty-field", PUYO_EMPTY_ROWS_11 "......\n"},
    {"four-in-a-row", PUYO_EMPTY_ROWS_11 "RRRR..\n"},
    {"three-in-a-row", PUYO_EMPTY_ROWS_11 "RRR...\n"},
    {"two-groups-one-chain", PUYO_EMPTY_ROWS_10 "GGGG..\nRRRR..\n"},
    {"five-in-an-l", PUYO_EMPTY_ROWS_8 "......\nR.....\nR.....\nRRR...\n"},
    {"full-field-no-group", "RBYGPR\nGPRBYG\nBYGPRB\nPRBYGP\nYGPRBY\nRBYGPR\n"
			    "GPRBYG\nBYGPRB\nPRBYGP\nYGPRBY\nRBYGPR\nGPRBYG\n"},
    {"full-field-one-colour", "RRRRRR\nRRRRRR\nRRRRRR\nRRRRRR\nRRRRRR\nRRRRRR\n"
			      "RRRRRR\nRRRRRR\nRRRRRR\nRRRRRR\nRRRRRR\nRRRRRR\n"},
};

/*
 * Random: 3 or 4 colours, 0 to 3 chains. Large: all 5 colours, 3 to 5
 * chains. Chains: 4 colours and at least min_chains.
 */
static bool puyo_generate(enum pkg_kind kind, uint64_t seed, unsigned min_chains,
			  struct pkg_text *out, struct codec_error *err)
{
	struct gen_rng rng;
	gen_rng_init(&rng, seed);
	unsigned colors, chains;
	switch (kind) {
	case PKG_LARGE:
		colors = PUYO_COLORS;
		chains = 3 + (unsigned)gen_rng_below(&rng, 3);
		break;
	case PKG_CHAINS:
		colors = 4;
		chains = min_chains;
		break;
	default:
		colors = 3 + (unsigned)gen_rng_below(&rng, 2);
		chains = (unsigned)gen_rng_below(&rng, 4);
		break;
	}
	struct puyo_field field;
	for (unsigned i = 0; i < PKG_GENERATE_TRIES; i++) {
		if (!gen_puyo_field(gen_rng_next(&rng), colors, chains, &field))
			continue;
		char text[PUYO_ROWS_MAX * (PUYO_COLS + 1) + 1];
		int n = puyo_text_field(&field, text, sizeof text);
		if (n < 0 || (size_t)n >= sizeof text)
			break;
		pkg_text_put(out, text, (size_t)n);
		return true;
	}
	codec_error_at_param(err, CODEC_E_INVALID, "min_chains",
			     "no field of %u colours with at least %u chains was found within "
			     "the search bound from this seed; try another seed",
			     colors, chains);
	return false;
}

static void puyo_validate(const char *text, size_t len, struct codec_error *err)
{
	struct puyo_field field;
	puyo_text_read(text, len, true, &field, err);
}

static int puyo_solve(const char *text, size_t len, char *answer, size_t size,
		      struct codec_error *err)
{
	struct puyo_field field;
	struct puyo_result result;
	if (puyo_text_read(text, len, false, &field, err) != CODEC_OK)
		return -1;
	puyo_run(&field, &result);
	return puyo_text_result(&result, answer, size);
}

/* --- The table ---------------------------------------------------------- */

/* Appends a C string literal of s (printable ASCII, quotes escaped). */
static void pkg_c_string(struct pkg_text *out, const char *s)
{
	pkg_text_puts(out, "\"");
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			pkg_text_put(out, "\\", 1);
		pkg_text_put(out, s, 1);
	}
	pkg_text_puts(out, "\"");
}

/*
 * Monomino-Domino's rules for the validator: Baekjoon's N limits
 * (md_codec.h), and for each block type the largest x and y that
 * md_check() accepts, with the texts `dropjudge validate` gives.
 */
static void md_constants(struct pkg_text *out)
{
	pkg_text_printf(out,
			"#define DJ_MD_MIN_N %d\n#define DJ_MD_MAX_N %d\n#define DJ_MD_TYPES %d\n",
			MD_BAEKJOON_MIN_N, MD_BAEKJOON_MAX_N, MD_TYPE_DOMINO_V);
	pkg_text_puts(out, "#define DJ_MD_RULE_T ");
	pkg_c_string(out, md_fault_detail(MD_FAULT_TYPE, 0));
	const char *axis[2] = {"x", "y"};
	for (unsigned a = 0; a < 2; a++) {
		pkg_text_printf(out, "\nstatic const long long dj_md_max_%s[] = {-1", axis[a]);
		for (int t = MD_TYPE_MONO; t <= MD_TYPE_DOMINO_V; t++) {
			int max = -1;
			while (max < MD_RED_SIZE &&
			       md_check(t, a ? 0 : max + 1, a ? max + 1 : 0) == MD_FAULT_NONE)
				max++;
			pkg_text_printf(out, ", %d", max);
		}
		pkg_text_printf(out, "};\nstatic const char *const dj_md_rule_%s[] = {\"\"",
				axis[a]);
		for (int t = MD_TYPE_MONO; t <= MD_TYPE_DOMINO_V; t++) {
			pkg_text_puts(out, ", ");
			pkg_c_string(out, md_fault_detail(a ? MD_FAULT_Y : MD_FAULT_X, t));
		}
		pkg_text_puts(out, "};");
	}
	pkg_text_puts(out, "\n");
}

/* Puyo's field for the validator: puyo.h's size and Baekjoon's alphabet
 * (the empty cell and the colours, no garbage). */
static void puyo_constants(struct pkg_text *out)
{
	char alphabet[PUYO_COLORS + 2];
	for (unsigned c = PUYO_EMPTY; c <= PUYO_COLORS; c++)
		alphabet[c] = puyo_cell_to_char((uint8_t)c);
	alphabet[PUYO_COLORS + 1] = '\0';
	pkg_text_printf(out,
			"#define DJ_PUYO_ROWS %d\n#define DJ_PUYO_COLS %d\n"
			"#define DJ_PUYO_EMPTY '%c'\n#define DJ_PUYO_ALPHABET ",
			PUYO_ROWS, PUYO_COLS, alphabet[PUYO_EMPTY]);
	pkg_c_string(out, alphabet);
	pkg_text_puts(out, "\n");
}

#define COUNT(a) ((unsigned)(sizeof(a) / sizeof((a)[0])))

static const struct pkg_problem pkg_problems[] = {
    {
	.id = "monomino-domino",
	.short_name = "monominodomino",
	.title = "Monomino-Domino",
	.baekjoon = 20061,
	.time_limit_ms = 1000,
	.memory_mib = 512,
	.legend = md_legend,
	.input_format = md_input,
	.output_format = md_output,
	.samples = md_samples,
	.nsamples = COUNT(md_samples),
	.edges = md_edges,
	.nedges = COUNT(md_edges),
	.has_chains = false,
	.generate = md_generate,
	.validate = md_text_validate,
	.solve = md_solve,
	.solution = pkg_md_solution,
	.solution_end = pkg_md_solution_end,
	.answer_tokens = 2,
	.constants = md_constants,
	.validator = pkg_md_validator,
	.validator_end = pkg_md_validator_end,
    },
    {
	.id = "puyo",
	.short_name = "puyo",
	.title = "Puyo Puyo",
	.baekjoon = 11559,
	.time_limit_ms = 2000,
	.memory_mib = 256,
	.legend = puyo_legend,
	.input_format = puyo_input,
	.output_format = puyo_output,
	.samples = puyo_samples,
	.nsamples = COUNT(puyo_samples),
	.edges = puyo_edges,
	.nedges = COUNT(puyo_edges),
	.has_chains = true,
	.generate = puyo_generate,
	.validate = puyo_validate,
	.solve = puyo_solve,
	.solution = pkg_puyo_solution,
	.solution_end = pkg_puyo_solution_end,
	.answer_tokens = 1,
	.constants = puyo_constants,
	.validator = pkg_puyo_validator,
	.validator_end = pkg_puyo_validator_end,
    },
};

const struct pkg_problem *pkg_problem_find(const char *id)
{
	for (unsigned i = 0; id && i < COUNT(pkg_problems); i++)
		if (strcmp(pkg_problems[i].id, id) == 0)
			return &pkg_problems[i];
	return NULL;
}
