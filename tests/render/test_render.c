/*
 * Unit tests of the pictures (src/render): the drawings are checked against
 * the rules, not against themselves. Every tile of the boards is drawn once
 * (domino halves as one piece), the lines a placement clears and the lines
 * the light area pushes out are marked where the statement's rules put them
 * (positions worked out by hand from the layout), the puyos drawn by colour
 * are the field's, same-colour links are the touching pairs a naive count
 * finds, popping groups are outlined cell by cell; every picture is valid
 * SVG 1.1 (xmllint against the W3C DTD, offline), deterministic, and states
 * the public examples' answers in its <desc>.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "render/render.h"

#define SVG_DTD	 "/usr/share/xml/w3c-sgml-lib/schema/dtd/REC-SVG11-20110816/svg11.dtd"
#define BUF_SIZE (8u << 20)

static char *buf;

static int setup(void **state)
{
	(void)state;
	buf = malloc(BUF_SIZE);
	return buf ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(buf);
	return 0;
}

/* Times `needle` occurs in [from, to). */
static unsigned count_in(const char *from, const char *to, const char *needle)
{
	unsigned n = 0;
	size_t len = strlen(needle);
	for (const char *p = from; (p = strstr(p, needle)) && p < to; p += len)
		n++;
	return n;
}

static unsigned count(const char *s, const char *needle)
{
	return count_in(s, s + strlen(s), needle);
}

/* The frame with id `id` ("step-3", "final"): [*from, *to). */
static void frame_of(const char *svg, const char *id, const char **from, const char **to)
{
	char key[48];
	snprintf(key, sizeof key, "id=\"%s\"", id);
	const char *at = strstr(svg, key);
	assert_non_null(at);
	const char *end = strstr(at, "\n</svg>\n");
	assert_non_null(end);
	*from = at;
	*to = end;
}

/* ---- Monomino-Domino ------------------------------------------------ */

/* The statement's move list; example k is its first N moves. */
static const struct md_block example_moves[8] = {
    {1, 1, 1}, {2, 3, 0}, {3, 2, 2}, {3, 2, 3}, {3, 1, 3}, {2, 0, 0}, {3, 2, 0}, {3, 1, 2},
};

static int md_render(const struct md_block *b, size_t n, enum render_view view, unsigned long step,
		     unsigned cell)
{
	struct render_options o = {.cell = cell, .view = view, .step = step};
	int len = render_md_svg(b, n, &o, buf, BUF_SIZE);
	if (len >= 0)
		assert_true((size_t)len < BUF_SIZE);
	return len;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static unsigned rnd(unsigned n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (unsigned)(rng_state % n);
}

static struct md_block random_block(void)
{
	struct md_block b;
	b.t = (uint8_t)(1 + rnd(3));
	b.x = (uint8_t)rnd(b.t == MD_TYPE_DOMINO_V ? 3 : 4);
	b.y = (uint8_t)rnd(b.t == MD_TYPE_DOMINO_H ? 3 : 4);
	return b;
}

static void md_scene_should_agree_with_the_core_on_random_games(void **state)
{
	(void)state;
	for (unsigned game = 0; game < 2000; game++) {
		struct render_md_scene scene;
		render_md_scene_init(&scene);
		unsigned n = 1 + rnd(60);
		for (unsigned i = 0; i < n; i++)
			render_md_scene_place(&scene, random_block(), NULL);
		assert_false(scene.broken);
		assert_int_equal(scene.game.moves, n);
	}
}

static void md_scene_should_keep_a_dominos_halves_one_block(void **state)
{
	(void)state;
	struct render_md_scene scene;
	struct render_md_step step;
	render_md_scene_init(&scene);
	render_md_scene_place(&scene, (struct md_block){2, 0, 1}, &step);
	/* Horizontal domino at red (0,1),(0,2): green row 5 columns 1-2; blue
	 * row 0, columns 4-5 (lines 4, 5 of the blue board). */
	assert_int_equal(scene.green[5][1], 1);
	assert_int_equal(scene.green[5][2], 1);
	assert_int_equal(scene.blue[4][0], 1);
	assert_int_equal(scene.blue[5][0], 1);
	assert_int_equal(step.gained, 0);
}

/* Cells covered by drawn tiles in [from, to): a tile is one cell, a domino two. */
static unsigned drawn_tile_cells(const char *from, const char *to)
{
	return count_in(from, to, "class=\"tile\"") + 2 * count_in(from, to, "class=\"domino\"");
}

static void md_svg_should_draw_every_tile_once_in_every_frame(void **state)
{
	(void)state;
	struct md_block blocks[40];
	for (unsigned round = 0; round < 30; round++) {
		size_t n = 1 + rnd(40);
		for (size_t i = 0; i < n; i++)
			blocks[i] = random_block();
		assert_true(md_render(blocks, n, RENDER_STRIP, 0, 16) > 0);
		struct md_game game;
		md_init(&game);
		for (size_t i = 0; i < n; i++) {
			/* Step frames show the boards just after landing: the tiles
			 * before it plus the block's, and the block in red. */
			unsigned before = md_tiles(&game);
			unsigned size = blocks[i].t == MD_TYPE_MONO ? 1 : 2;
			char id[32];
			snprintf(id, sizeof id, "step-%zu", i + 1);
			const char *from, *to;
			frame_of(buf, id, &from, &to);
			assert_int_equal(drawn_tile_cells(from, to), before + 3 * size);
			md_place(&game, blocks[i]);
		}
		const char *from, *to;
		frame_of(buf, "final", &from, &to);
		assert_int_equal(drawn_tile_cells(from, to), md_tiles(&game));
	}
}

static void md_svg_should_join_domino_halves(void **state)
{
	(void)state;
	/* One horizontal domino: one piece in red, one in green, one in blue. */
	struct md_block b = {2, 0, 1};
	assert_true(md_render(&b, 1, RENDER_STEP, 1, 32) > 0);
	assert_int_equal(count(buf, "class=\"domino\""), 3);
	assert_int_equal(count(buf, "class=\"tile\""), 0);
}

/*
 * Example 7, placement 4 (3 2 3): green columns 0..3 of row 4 are then
 * held by blocks 2 (columns 0-1), 3 and 4, so green row 4 is cleared; no
 * blue column is full. At cell 32 the green board starts at (16, 152)
 * (margin 16, red 128, gap 8): row 4 is the band at y = 152 + 4 * 32.
 */
static void md_svg_should_mark_the_cleared_row_where_the_rules_say(void **state)
{
	(void)state;
	assert_true(md_render(example_moves, 8, RENDER_STEP, 4, 32) > 0);
	assert_int_equal(count(buf, "class=\"cleared\""), 1);
	assert_non_null(
	    strstr(buf, "class=\"cleared\" x=\"16\" y=\"280\" width=\"128\" height=\"32\""));
	assert_int_equal(count(buf, "class=\"pushed\""), 0);
	assert_non_null(strstr(buf, "+1  score 1"));
}

/*
 * Five monominoes at red (0,0): in green they stack in column 0 on rows 5,
 * 4, 3, 2 and the fifth stops on row 1, in the light area: nothing scores,
 * one light row holds a tile, so green row 5 is pushed out. Blue alike:
 * columns 5, 4, 3, 2, then 1, so blue column 5 is pushed out. Bands: green
 * row 5 at (16, 152 + 160); blue column 5 at (152 + 160, 16).
 */
static void md_svg_should_mark_the_light_push_where_the_rules_say(void **state)
{
	(void)state;
	struct md_block b[5] = {{1, 0, 0}, {1, 0, 0}, {1, 0, 0}, {1, 0, 0}, {1, 0, 0}};
	for (unsigned long k = 1; k <= 4; k++) {
		assert_true(md_render(b, 5, RENDER_STEP, k, 32) > 0);
		assert_int_equal(count(buf, "class=\"pushed\""), 0);
	}
	assert_true(md_render(b, 5, RENDER_STEP, 5, 32) > 0);
	assert_int_equal(count(buf, "class=\"pushed\""), 2);
	assert_int_equal(count(buf, "class=\"cleared\""), 0);
	assert_non_null(
	    strstr(buf, "class=\"pushed\" x=\"16\" y=\"312\" width=\"128\" height=\"32\""));
	assert_non_null(
	    strstr(buf, "class=\"pushed\" x=\"312\" y=\"16\" width=\"32\" height=\"128\""));
	/* After the push: 4 tiles in each board. */
	assert_non_null(strstr(buf, "tiles 8"));
}

/* The statement's table: example N -> (moves, score, tiles). */
static void md_svg_should_state_the_public_answers(void **state)
{
	(void)state;
	static const struct {
		size_t n;
		unsigned score, tiles;
	} ex[] = {{1, 0, 2}, {2, 0, 6}, {4, 1, 10}, {5, 1, 12}, {6, 1, 16}, {7, 1, 18}, {8, 2, 15}};
	for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
		assert_true(md_render(example_moves, ex[i].n, RENDER_FINAL, 0, 32) > 0);
		char want[128];
		snprintf(want, sizeof want, "<title>Monomino-Domino: score %u, %u tiles</title>",
			 ex[i].score, ex[i].tiles);
		assert_non_null(strstr(buf, want));
		snprintf(want, sizeof want, "<desc>%zu placements. Answer: score %u and %u tiles",
			 ex[i].n, ex[i].score, ex[i].tiles);
		assert_non_null(strstr(buf, want));
	}
}

static void md_svg_should_have_one_frame_per_placement_and_the_final(void **state)
{
	(void)state;
	assert_true(md_render(example_moves, 8, RENDER_STRIP, 0, 24) > 0);
	assert_int_equal(count(buf, "<svg class=\"frame\""), 9);
	assert_true(md_render(example_moves, 8, RENDER_FINAL, 0, 24) > 0);
	assert_int_equal(count(buf, "<svg class=\"frame\""), 1);
	/* ?cell= sizes the picture: 10 cells, a margin of half a cell each side
	 * and a quarter-cell gap: 32 + 320 + 8 = 360 a frame; a strip of 9
	 * frames is 4 wide, 3 high. */
	assert_true(md_render(example_moves, 8, RENDER_STRIP, 0, 32) > 0);
	assert_non_null(strstr(buf, "width=\"1440\" height=\"1080\" viewBox=\"0 0 1440 1080\""));
}

static void md_svg_should_refuse_options_out_of_range(void **state)
{
	(void)state;
	struct md_block many[RENDER_STRIP_MAX + 1];
	for (size_t i = 0; i < RENDER_STRIP_MAX + 1; i++)
		many[i] = (struct md_block){1, 0, 0};
	assert_int_equal(md_render(example_moves, 8, RENDER_FINAL, 0, RENDER_CELL_MIN - 1), -1);
	assert_int_equal(md_render(example_moves, 8, RENDER_FINAL, 0, RENDER_CELL_MAX + 1), -1);
	assert_int_equal(md_render(example_moves, 8, RENDER_STEP, 0, 32), -1);
	assert_int_equal(md_render(example_moves, 8, RENDER_STEP, 9, 32), -1);
	assert_int_equal(md_render(many, RENDER_STRIP_MAX + 1, RENDER_STRIP, 0, 8), -1);
	assert_true(md_render(many, RENDER_STRIP_MAX, RENDER_STRIP, 0, 8) > 0);
}

/* ---- Puyo ------------------------------------------------------------ */

static void field_from(struct puyo_field *f, unsigned rows, const char *const *lines)
{
	puyo_field_init(f, rows);
	for (unsigned r = 0; r < rows; r++)
		for (unsigned c = 0; c < PUYO_COLS; c++)
			f->cell[r][c] = (uint8_t)puyo_cell_from_char(lines[r][c]);
}

static const char *const example_rows[12] = {
    "......", "......", "......", "......", "......", "......",
    "......", "......", ".Y....", ".YG...", "RRYG..", "RRYGG.",
};

static int puyo_render(const struct puyo_field *f, enum render_view view, unsigned long step,
		       unsigned cell)
{
	struct render_options o = {.cell = cell, .view = view, .step = step};
	int len = render_puyo_svg(f, &o, buf, BUF_SIZE);
	if (len >= 0)
		assert_true((size_t)len < BUF_SIZE);
	return len;
}

static void random_field(struct puyo_field *f)
{
	unsigned rows = rnd(2) ? PUYO_ROWS_MAX : PUYO_ROWS;
	puyo_field_init(f, rows);
	for (unsigned c = 0; c < PUYO_COLS; c++) {
		unsigned h = rnd(rows + 1);
		for (unsigned i = 0; i < h; i++)
			f->cell[rows - 1 - i][c] =
			    (uint8_t)(rnd(10) == 0 ? PUYO_GARBAGE : 1 + rnd(4));
	}
}

/* Circles of colour character ch in [from, to) and cells of it in the field. */
static void assert_puyos_drawn(const char *from, const char *to, const struct puyo_field *f)
{
	const char chars[] = "RGBPYO";
	for (const char *ch = chars; *ch; ch++) {
		char key[32];
		snprintf(key, sizeof key, "class=\"puyo %c\"", *ch);
		unsigned want = 0;
		for (unsigned r = 0; r < f->rows; r++)
			for (unsigned c = 0; c < PUYO_COLS; c++)
				want += puyo_cell_to_char(f->cell[r][c]) == *ch;
		assert_int_equal(count_in(from, to, key), want);
	}
}

/* Touching same-colour pairs in the 12 visible rows, counted naively. */
static unsigned links_of(const struct puyo_field *f)
{
	unsigned top = f->rows - PUYO_ROWS, n = 0;
	for (unsigned r = top; r < f->rows; r++)
		for (unsigned c = 0; c < PUYO_COLS; c++) {
			char v = puyo_cell_to_char(f->cell[r][c]);
			if (v == '.' || v == 'O')
				continue;
			n += c + 1 < PUYO_COLS && puyo_cell_to_char(f->cell[r][c + 1]) == v;
			n += r + 1 < f->rows && puyo_cell_to_char(f->cell[r + 1][c]) == v;
		}
	return n;
}

static void puyo_svg_should_draw_the_fields_puyos_and_links_in_every_frame(void **state)
{
	(void)state;
	for (unsigned round = 0; round < 300; round++) {
		struct puyo_field f;
		random_field(&f);
		assert_true(puyo_render(&f, RENDER_STRIP, 0, 16) > 0);
		puyo_settle(&f);
		unsigned k = 0;
		struct puyo_field before = f;
		while (puyo_step(&f, k + 1, NULL)) {
			k++;
			char id[32];
			snprintf(id, sizeof id, "step-%u", k);
			const char *from, *to;
			frame_of(buf, id, &from, &to);
			assert_puyos_drawn(from, to, &before);
			assert_int_equal(count_in(from, to, "class=\"link\""), links_of(&before));
			before = f;
		}
		const char *from, *to;
		frame_of(buf, "final", &from, &to);
		assert_puyos_drawn(from, to, &f);
		assert_int_equal(count_in(from, to, "class=\"link\""), links_of(&f));
		assert_int_equal(count(buf, "<svg class=\"frame\""), k + 1);
	}
}

/*
 * The public example (answer 3 chains). Step 1 pops the red square of
 * visible rows 10-11, columns 0-1. At cell 32 the hidden row starts at
 * y = 16, visible row r at 16 + 32 (r + 1): rows 10, 11 span y 368..432,
 * columns 0, 1 span x 16..80. The outline is the square's eight edges,
 * each cell's top, bottom, left, right in reading order.
 */
static void puyo_svg_should_outline_the_popping_group(void **state)
{
	(void)state;
	struct puyo_field f;
	field_from(&f, 12, example_rows);
	assert_true(puyo_render(&f, RENDER_STEP, 1, 32) > 0);
	assert_non_null(strstr(buf, "class=\"pop\""));
	assert_non_null(strstr(buf, "d=\"M16 368h32M16 368v32M48 368h32M80 368v32"
				    "M16 432h32M16 400v32M48 432h32M80 400v32\""));
	assert_non_null(strstr(buf, "<title>Puyo Puyo: 3 chains</title>"));
	assert_non_null(strstr(buf, "Answer: 3 chains"));
	/* Step 1 scores 10 x 4 popped x 1 (no bonus, clamped to 1). */
	assert_non_null(strstr(buf, "chain 1: +40"));
	assert_int_equal(puyo_render(&f, RENDER_STEP, 4, 32), -1);
	assert_int_equal(puyo_render(&f, RENDER_STEP, 0, 32), -1);
	assert_true(puyo_render(&f, RENDER_STRIP, 0, 32) > 0);
	assert_int_equal(count(buf, "<svg class=\"frame\""), 4);
}

/* Garbage next to a popping group is outlined (dashed) as going too. */
static void puyo_svg_should_outline_the_garbage_that_goes(void **state)
{
	(void)state;
	struct puyo_field f;
	const char *rows[12] = {"......", "......", "......", "......", "......", "......",
				"......", "......", "......", "......", "O.....", "RRRRO."};
	field_from(&f, 12, rows);
	assert_true(puyo_render(&f, RENDER_STEP, 1, 32) > 0);
	/* Both garbage puyos touch the red row: row 10 col 0 above R, row 11
	 * col 4 right of R. Their cells' edges: 4 each. */
	const char *path = strstr(buf, "class=\"pop-garbage\"");
	assert_non_null(path);
	const char *end = strstr(path, "/>");
	assert_int_equal(count_in(path, end, "M"), 8);
	assert_non_null(strstr(buf, "4 popped, 1 group"));
}

static void puyo_svg_should_dim_the_hidden_row(void **state)
{
	(void)state;
	struct puyo_field f;
	puyo_field_init(&f, 13);
	f.cell[0][2] = PUYO_BLUE; /* hidden row, falls to the floor when settled */
	assert_true(puyo_render(&f, RENDER_FINAL, 0, 32) > 0);
	assert_int_equal(count(buf, "class=\"hidden-row\""), 1);
	assert_int_equal(count(buf, "opacity=\"0.5\""), 0); /* settled: nothing up there */
	for (unsigned c = 0; c < PUYO_COLS; c++)
		for (unsigned r = 0; r < 13; r++)
			f.cell[r][c] = (uint8_t)(c % 2 ? PUYO_GREEN : PUYO_YELLOW);
	f.cell[12][0] = PUYO_GARBAGE; /* full columns of alternating colours: all pop */
	assert_true(puyo_render(&f, RENDER_STEP, 1, 32) > 0);
	assert_int_equal(count(buf, "opacity=\"0.5\""), 6); /* the full hidden row */
}

/*
 * Animated: the public example's 3 chain steps and the final state, all at
 * (0, 0), each shown for 800 ms of a 3200 ms loop: frame i of 4 from key
 * time i/4 to (i+1)/4.
 */
static void puyo_svg_should_animate_the_chain_frame_by_frame(void **state)
{
	(void)state;
	struct puyo_field f;
	field_from(&f, 12, example_rows);
	struct render_options o = {.cell = 32, .view = RENDER_STRIP, .animate = true};
	int len = render_puyo_svg(&f, &o, buf, BUF_SIZE);
	assert_true(len > 0);
	assert_int_equal(count(buf, "<svg class=\"frame\""), 4);
	assert_int_equal(count(buf, " x=\"0\" y=\"0\" width=\"224\""), 4);
	assert_int_equal(count(buf, "<animate "), 4);
	assert_non_null(strstr(buf, "dur=\"3200ms\" repeatCount=\"indefinite\" "
				    "values=\"visible;hidden\" keyTimes=\"0;0.2500\""));
	assert_non_null(
	    strstr(buf, "values=\"hidden;visible;hidden\" keyTimes=\"0;0.2500;0.5000\""));
	assert_non_null(strstr(buf, "values=\"hidden;visible\" keyTimes=\"0;0.7500\""));
	/* The picture is one frame big: 6 cells and two half-cell margins. */
	assert_non_null(strstr(buf, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
				    "width=\"224\""));
}

/* ---- both ------------------------------------------------------------- */

static void svg_should_be_deterministic_and_fit_a_small_buffer_on_retry(void **state)
{
	(void)state;
	struct render_options o = {.cell = 20, .view = RENDER_STRIP};
	int a = render_md_svg(example_moves, 8, &o, buf, BUF_SIZE);
	assert_true(a > 0);
	char *copy = malloc((size_t)a + 1);
	assert_non_null(copy);
	memcpy(copy, buf, (size_t)a + 1);
	char small[100];
	assert_int_equal(render_md_svg(example_moves, 8, &o, small, sizeof small), a);
	assert_int_equal(strlen(small), sizeof small - 1);
	assert_memory_equal(small, copy, sizeof small - 1);
	assert_int_equal(render_md_svg(example_moves, 8, &o, NULL, 0), a);
	assert_int_equal(render_md_svg(example_moves, 8, &o, buf, BUF_SIZE), a);
	assert_memory_equal(buf, copy, (size_t)a);
	free(copy);
}

/* Runs xmllint on buf[0..len) against the SVG 1.1 DTD, never the network. */
static void assert_valid_svg(int len)
{
	assert_true(len > 0);
	char path[] = "/tmp/dropjudge-svg-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, buf, (size_t)len), len);
	close(fd);
	char cmd[256];
	snprintf(cmd, sizeof cmd, "xmllint --nonet --noout --dtdvalid %s %s", SVG_DTD, path);
	int rc = system(cmd);
	unlink(path);
	assert_int_equal(rc, 0);
}

/* ---- numbers, tints, captions and legend ------------------------------ */

/* [*from, *to): the group that opens with `open` ("<g class=\"board red\">")
 * at or after `at`. */
static void group_of_class(const char *at, const char *open, const char **from, const char **to)
{
	*from = strstr(at, open);
	assert_non_null(*from);
	*to = strstr(*from, "</g>");
	assert_non_null(*to);
}

/* The integer attribute `name` of the element starting at `el`. */
static int attr_int(const char *el, const char *name)
{
	char key[32];
	snprintf(key, sizeof key, " %s=\"", name);
	const char *end = strchr(el, '>');
	const char *at = strstr(el, key);
	assert_non_null(at);
	assert_true(at < end);
	return atoi(at + strlen(key));
}

/* The centre of the first tile (monomino) drawn in [from, to). */
static void tile_centre(const char *from, const char *to, int *cx, int *cy)
{
	const char *t = strstr(from, "<rect class=\"tile\"");
	assert_non_null(t);
	assert_true(t < to);
	*cx = attr_int(t, "x") + attr_int(t, "width") / 2;
	*cy = attr_int(t, "y") + attr_int(t, "height") / 2;
}

/*
 * Whether [from, to) holds a number `text` (a <text> element) in a column
 * (x equal to cx) or a row (its baseline within half a label under cy),
 * with x or y satisfying `where` (the margin it must be in).
 */
enum side { ABOVE, BELOW, LEFT, RIGHT };
static bool has_number(const char *from, const char *to, const char *text, int cx, int cy,
		       enum side side, int edge)
{
	char want[16];
	snprintf(want, sizeof want, ">%s</text>", text);
	for (const char *t = strstr(from, "<text "); t && t < to; t = strstr(t + 1, "<text ")) {
		const char *close = strchr(t, '>');
		if (!close || strncmp(close, want, strlen(want)) != 0)
			continue;
		int x = attr_int(t, "x"), y = attr_int(t, "y"), font = attr_int(t, "font-size");
		bool column = side == ABOVE || side == BELOW;
		if (column && x != cx)
			continue;
		if (!column && (y < cy || y > cy + font / 2 + 1))
			continue;
		if ((side == ABOVE && y < edge) || (side == BELOW && y > edge) ||
		    (side == LEFT && x < edge) || (side == RIGHT && x > edge))
			return true;
	}
	return false;
}

/*
 * One monomino at red (x=2, y=1): in red it is row 2, column 1; it slides
 * down to green row 5, column 1, and right to blue row 2, column 5. The
 * numbers beside each board must name those rows and columns: red's columns
 * above it and rows left of it, blue's columns above and rows right of it,
 * green's rows left of it and columns below it (the statement's numbers,
 * from 0).
 */
static void md_svg_should_number_rows_and_columns_as_the_statement(void **state)
{
	(void)state;
	struct md_block b[1] = {{1, 2, 1}};
	assert_true(md_render(b, 1, RENDER_STEP, 1, 32) > 0);
	const char *from, *to, *nfrom, *nto;
	int cx, cy;
	frame_of(buf, "step-1", &from, &to);
	assert_int_equal(count_in(from, to, "<g class=\"numbers\">"), 3);

	group_of_class(from, "<g class=\"board red\">", &nfrom, &nto);
	int top = attr_int(nfrom + strlen("<g class=\"board red\">\n"), "y");
	int left = attr_int(nfrom + strlen("<g class=\"board red\">\n"), "x");
	tile_centre(nfrom, nto, &cx, &cy);
	assert_true(has_number(from, to, "1", cx, cy, ABOVE, top));
	assert_true(has_number(from, to, "2", cx, cy, LEFT, left));
	assert_false(has_number(from, to, "3", cx, cy, LEFT, left));

	group_of_class(from, "<g class=\"board green\">", &nfrom, &nto);
	tile_centre(nfrom, nto, &cx, &cy);
	int bottom = cy + 16; /* the tile is on the floor */
	assert_true(has_number(from, to, "1", cx, cy, BELOW, bottom));
	assert_true(has_number(from, to, "5", cx, cy, LEFT, left));
	assert_false(has_number(from, to, "4", cx, cy, LEFT, left));

	group_of_class(from, "<g class=\"board blue\">", &nfrom, &nto);
	tile_centre(nfrom, nto, &cx, &cy);
	int right = cx + 16; /* the tile is at the right edge */
	assert_true(has_number(from, to, "5", cx, cy, ABOVE, top));
	assert_true(has_number(from, to, "2", cx, cy, RIGHT, right));
	assert_false(has_number(from, to, "4", cx, cy, ABOVE, top));
}

/* Relative luminance (ITU-R BT.709 weights, unscaled) of "#rrggbb". */
static unsigned luminance(const char *hex)
{
	unsigned v = (unsigned)strtoul(hex + 1, NULL, 16);
	return 2126 * (v >> 16) + 7152 * ((v >> 8) & 255) + 722 * (v & 255);
}

/* The fill of the k-th cell rect (0-based, line-major: line * 4 + cell) of
 * the board whose group opens with `open`. */
static unsigned cell_luminance(const char *svg, const char *open, unsigned k)
{
	const char *from, *to;
	group_of_class(svg, open, &from, &to);
	const char *r = from;
	for (unsigned i = 0; i <= k; i++) {
		r = strstr(r + 1, "<rect ");
		assert_non_null(r);
		assert_true(r < to);
	}
	const char *fill = strstr(r, "fill=\"");
	assert_non_null(fill);
	return luminance(fill + 6);
}

/* The light area (green rows 0-1, blue columns 0-1) is the lighter tint. */
static void md_svg_should_draw_the_light_area_lighter(void **state)
{
	(void)state;
	assert_true(md_render(example_moves, 0, RENDER_FINAL, 0, 32) > 0);
	for (unsigned b = 0; b < 2; b++) {
		const char *open = b ? "<g class=\"board blue\">" : "<g class=\"board green\">";
		for (unsigned light = 0; light < 8; light++)
			for (unsigned rest = 8; rest < 24; rest++)
				assert_true(cell_luminance(buf, open, light) >
					    cell_luminance(buf, open, rest));
	}
}

/*
 * Every caption ends inside its frame: by a generous width for DejaVu Sans
 * (the picture's font: m and w under 1.0 em, i, l, j, t, f, r, spaces and
 * punctuation under 0.40, any other character under 0.70, bold 0.76) or,
 * when squeezed, by its textLength. Checked on every frame at several cell sizes, and on
 * a long case whose caption is the longest there is.
 */
/* Whether the element's opening tag [el, end) holds `needle`. */
static bool tag_has(const char *el, const char *end, const char *needle)
{
	const char *at = strstr(el, needle);
	return at && at < end;
}

static void assert_captions_inside(const char *svg, int frame_w)
{
	for (const char *t = strstr(svg, "<text "); t; t = strstr(t + 1, "<text ")) {
		const char *end = strchr(t, '>');
		if (tag_has(t, end, "text-anchor"))
			continue; /* the numbers, centred in their margins */
		const char *close = strstr(end, "</text>");
		int x = attr_int(t, "x"), font = attr_int(t, "font-size");
		bool bold = tag_has(t, end, "bold");
		int em100 = 0;
		for (const char *c = end + 1; c < close; c++)
			em100 += strchr("mwMW", *c)	    ? 100
				 : strchr("iljtfr ,.:", *c) ? 40
				 : bold			    ? 76
							    : 70;
		int width = tag_has(t, end, "textLength") ? attr_int(t, "textLength")
							  : (em100 * font + 99) / 100;
		if (x + width > frame_w)
			print_error("caption %.*s: x %d + width %d > %d\n", (int)(close - end - 1),
				    end + 1, x, width, frame_w);
		assert_true(x + width <= frame_w);
	}
}

static void svg_captions_should_stay_inside_the_picture(void **state)
{
	(void)state;
	for (unsigned cell = RENDER_CELL_MIN; cell <= RENDER_CELL_MAX; cell += 8) {
		int w = (int)(cell + 10 * cell + cell / 4); /* margins, boards, gap */
		assert_true(md_render(example_moves, 8, RENDER_STEP, 4, cell) > 0);
		assert_captions_inside(strstr(buf, "<svg class=\"frame\""), w);
		assert_true(md_render(example_moves, 8, RENDER_FINAL, 0, cell) > 0);
		assert_captions_inside(strstr(buf, "<svg class=\"frame\""), w);
	}
	static struct md_block many[100000];
	for (size_t i = 0; i < 100000; i++)
		many[i] = (struct md_block){1, (uint8_t)(i % 4), 0};
	assert_true(md_render(many, 100000, RENDER_STEP, 99999, 32) > 0);
	assert_non_null(strstr(buf, "placement 99999 of 100000"));
	assert_non_null(strstr(buf, "textLength"));
	assert_captions_inside(strstr(buf, "<svg class=\"frame\""), 32 + 320 + 8);
	struct puyo_field f;
	field_from(&f, 12, example_rows);
	assert_true(puyo_render(&f, RENDER_FINAL, 0, 32) > 0);
	assert_non_null(strstr(buf, "score 1000, all clear"));
	assert_captions_inside(strstr(buf, "<svg class=\"frame\""), 32 + 6 * 32);
}

/* A legend of the marks in every frame of Monomino-Domino. */
static void md_svg_should_have_a_legend_of_the_bands(void **state)
{
	(void)state;
	assert_true(md_render(example_moves, 8, RENDER_STRIP, 0, 24) > 0);
	assert_int_equal(count(buf, "<g class=\"legend\">"), 9);
	assert_int_equal(count(buf, ">cleared line</text>"), 9);
	assert_int_equal(count(buf, ">light-area push</text>"), 9);
	assert_int_equal(count(buf, ">light area</text>"), 9);
	/* The swatches look like the bands they name. */
	const char *from, *to;
	group_of_class(buf, "<g class=\"legend\">", &from, &to);
	assert_int_equal(count_in(from, to, "fill=\"#d62728\" fill-opacity=\"0.45\""), 1);
	assert_int_equal(count_in(from, to, "stroke-dasharray"), 1);
}

/*
 * Puyo: columns 1-6 under the field, rows 1-12 from the floor beside it and
 * the hidden row above them numbered 13 and named. The example's bottom
 * left puyo (column 1, row 1) is red; column 4's lowest is green.
 */
static void puyo_svg_should_number_the_field_and_name_the_hidden_row(void **state)
{
	(void)state;
	struct puyo_field f;
	field_from(&f, 12, example_rows);
	assert_true(puyo_render(&f, RENDER_STEP, 1, 32) > 0);
	const char *from, *to;
	frame_of(buf, "step-1", &from, &to);
	assert_int_equal(count_in(from, to, ">hidden row, not counted</text>"), 1);
	const char *red = strstr(from, "<circle class=\"puyo R\"");
	assert_non_null(red);
	/* The bottom-left red: the lowest circle of the lowest row. */
	int cx = 0, cy = 0;
	for (const char *c = red; c && c < to; c = strstr(c + 1, "<circle class=\"puyo R\""))
		if (attr_int(c, "cy") >= cy && (cx == 0 || attr_int(c, "cx") <= cx)) {
			cx = attr_int(c, "cx");
			cy = attr_int(c, "cy");
		}
	int left = cx - 16, below = cy + 16;
	assert_true(has_number(from, to, "1", cx, cy, BELOW, below));
	assert_true(has_number(from, to, "1", cx, cy, LEFT, left));
	assert_true(has_number(from, to, "12", cx, cy - 11 * 32, LEFT, left));
	assert_true(has_number(from, to, "13", cx, cy - 12 * 32, LEFT, left));
	assert_true(has_number(from, to, "6", cx + 5 * 32, cy, BELOW, below));
	const char *hidden = strstr(from, "class=\"hidden-row\"");
	assert_non_null(hidden);
	assert_int_equal(attr_int(hidden, "y") + 16, cy - 12 * 32);
}

static void svg_should_be_valid_svg_1_1(void **state)
{
	(void)state;
	assert_int_equal(access(SVG_DTD, R_OK), 0); /* scripts/deps.sh installs w3c-sgml-lib */
	assert_valid_svg(md_render(example_moves, 8, RENDER_STRIP, 0, RENDER_CELL_MIN));
	assert_valid_svg(md_render(example_moves, 8, RENDER_STEP, 8, RENDER_CELL_MAX));
	assert_valid_svg(md_render(example_moves, 0, RENDER_FINAL, 0, 32));
	struct puyo_field f;
	field_from(&f, 12, example_rows);
	assert_valid_svg(puyo_render(&f, RENDER_STRIP, 0, 32));
	assert_valid_svg(puyo_render(&f, RENDER_STEP, 2, RENDER_CELL_MIN));
	for (unsigned i = 0; i < 5; i++) {
		random_field(&f);
		assert_valid_svg(puyo_render(&f, RENDER_STRIP, 0, 12));
	}
	struct render_options animated = {.cell = 16, .view = RENDER_STRIP, .animate = true};
	field_from(&f, 12, example_rows);
	assert_valid_svg(render_puyo_svg(&f, &animated, buf, BUF_SIZE));
	assert_valid_svg(render_md_svg(example_moves, 8, &animated, buf, BUF_SIZE));
	/* And the check can fail: an attribute SVG 1.1 does not have. */
	int len = md_render(example_moves, 1, RENDER_FINAL, 0, 32);
	char *at = strstr(buf, "<rect ");
	assert_non_null(at);
	memcpy(at, "<rect zzzz=\"1\" ", 15);
	memmove(at + 15, at + 6, (size_t)len - (size_t)(at + 6 - buf) + 1);
	len += 9;
	char path[] = "/tmp/dropjudge-svg-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, buf, (size_t)len), len);
	close(fd);
	char cmd[256];
	snprintf(cmd, sizeof cmd, "xmllint --nonet --noout --dtdvalid %s %s 2>/dev/null", SVG_DTD,
		 path);
	assert_int_not_equal(system(cmd), 0);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(md_scene_should_agree_with_the_core_on_random_games),
	    cmocka_unit_test(md_scene_should_keep_a_dominos_halves_one_block),
	    cmocka_unit_test(md_svg_should_draw_every_tile_once_in_every_frame),
	    cmocka_unit_test(md_svg_should_join_domino_halves),
	    cmocka_unit_test(md_svg_should_mark_the_cleared_row_where_the_rules_say),
	    cmocka_unit_test(md_svg_should_mark_the_light_push_where_the_rules_say),
	    cmocka_unit_test(md_svg_should_state_the_public_answers),
	    cmocka_unit_test(md_svg_should_have_one_frame_per_placement_and_the_final),
	    cmocka_unit_test(md_svg_should_refuse_options_out_of_range),
	    cmocka_unit_test(puyo_svg_should_draw_the_fields_puyos_and_links_in_every_frame),
	    cmocka_unit_test(puyo_svg_should_outline_the_popping_group),
	    cmocka_unit_test(puyo_svg_should_outline_the_garbage_that_goes),
	    cmocka_unit_test(puyo_svg_should_dim_the_hidden_row),
	    cmocka_unit_test(puyo_svg_should_animate_the_chain_frame_by_frame),
	    cmocka_unit_test(svg_should_be_deterministic_and_fit_a_small_buffer_on_retry),
	    cmocka_unit_test(svg_should_be_valid_svg_1_1),
	    cmocka_unit_test(md_svg_should_number_rows_and_columns_as_the_statement),
	    cmocka_unit_test(md_svg_should_draw_the_light_area_lighter),
	    cmocka_unit_test(md_svg_should_have_a_legend_of_the_bands),
	    cmocka_unit_test(puyo_svg_should_number_the_field_and_name_the_hidden_row),
	    cmocka_unit_test(svg_captions_should_stay_inside_the_picture),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
