/*
 * Monomino-Domino as SVG: red, blue to its right and green below, laid out
 * and numbered as the problem statement draws them, each block in its own
 * colour, from a labelled scene (md_scene.c); the counts in the free corner
 * over a legend of the marks.
 */
#include <stdio.h>

#include "render.h"
#include "svg.h"

/* Block colours, by placement number. None is a board's own colour. */
static const char *const block_colors[] = {
    "#f28e2b", "#4e79a7", "#e15759", "#76b7b2", "#59a14f",
    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#8cd17d",
};

/* How a board looks and sits on the picture. */
struct board_style {
	const char *name;  /* its class */
	const char *fill;  /* cell */
	const char *light; /* cell of the light area */
	const char *edge;  /* border */
	unsigned lines;	   /* of MD_CELLS cells */
	bool blue;	   /* lines are columns (blue), else rows (green, red) */
};

/* Red is drawn as a board of MD_RED_SIZE rows (lines), without light area. */
_Static_assert(MD_RED_SIZE == MD_CELLS, "red's rows are lines of MD_CELLS cells");
static const struct board_style green = {"green", "#c9e8c4", "#f1faef", "#3c9a3c", MD_LINES, false};
static const struct board_style blue = {"blue", "#c6d8f6", "#f0f5fe", "#3b6fd1", MD_LINES, true};
static const struct board_style red = {"red", "#fbe3e3", "#fbe3e3", "#d9534f", MD_RED_SIZE, false};

/* Sizes of the picture of one frame, all from the cell size. */
struct layout {
	unsigned s;	 /* cell */
	unsigned m;	 /* margin */
	unsigned g;	 /* gap between boards */
	unsigned w;	 /* frame, square */
	unsigned pad;	 /* tile inset */
	unsigned stroke; /* heavy line */
	unsigned font;	 /* text size */
	unsigned label;	 /* size of the row and column numbers and of the legend */
};

static struct layout layout_of(unsigned s)
{
	struct layout l;
	l.s = s;
	l.m = s / 2;
	l.g = s / 4;
	l.w = 2 * l.m + 10 * s + l.g;
	l.pad = s / 16 + 1;
	l.stroke = s / 12 + 1;
	l.font = s / 2;
	l.label = s * 3 / 8;
	return l;
}

/* The numbers of a board at (ox, oy) of `cols` x `rows` cells: its columns
 * above it (or below), its rows left of it (or right), in the margin. */
static void board_numbers(struct svg_out *o, const struct layout *l, unsigned ox, unsigned oy,
			  unsigned cols, unsigned rows, bool cols_below, bool rows_right)
{
	unsigned col_y = cols_below ? oy + rows * l->s + l->m / 2 : oy - l->m / 2;
	unsigned row_x = rows_right ? ox + cols * l->s + l->m / 2 : ox - l->m / 2;
	unsigned dy = l->label * 35 / 100; /* from a number's centre to its baseline */
	svg_printf(o, "<g class=\"numbers\">\n");
	for (unsigned c = 0; c < cols; c++)
		svg_text(o, ox + c * l->s + l->s / 2, col_y + dy, l->label, false, SVG_MIDDLE, 0,
			 "#55555f", "%u", c);
	for (unsigned r = 0; r < rows; r++)
		svg_text(o, row_x, oy + r * l->s + l->s / 2 + dy, l->label, false, SVG_MIDDLE, 0,
			 "#55555f", "%u", r);
	svg_printf(o, "</g>\n");
}

/* One block's rectangle: w x h cells from screen cell (sx, sy). */
static void tile_rect(struct svg_out *o, const struct layout *l, unsigned ox, unsigned oy,
		      unsigned sx, unsigned sy, unsigned w, unsigned h, uint32_t id, bool landing)
{
	const char *fill = block_colors[(id - 1) % (sizeof block_colors / sizeof *block_colors)];
	svg_rect(o, w * h == 2 ? "domino" : "tile", ox + sx * l->s + l->pad,
		 oy + sy * l->s + l->pad, w * l->s - 2 * l->pad, h * l->s - 2 * l->pad,
		 "rx=\"%u\" fill=\"%s\" stroke=\"%s\" stroke-width=\"%u\"", l->s / 8, fill,
		 landing ? "#111111" : "#4a4a4a", landing ? l->stroke : 1u);
}

/* The bands over the lines `cleared` (red) and `pushed` out by the light area (grey,
 * dashed), disjoint sets: their fills go under the tiles, their edges (edge) over. */
static void draw_bands(struct svg_out *o, const struct layout *l, const struct board_style *st,
		       unsigned ox, unsigned oy, uint8_t cleared, uint8_t pushed, bool edge)
{
	unsigned w = (st->blue ? 1 : MD_CELLS) * l->s, h = (st->blue ? MD_CELLS : 1) * l->s;
	for (unsigned line = 0; line < MD_LINES; line++) {
		bool cl = cleared >> line & 1;
		if (!cl && !(pushed >> line & 1))
			continue;
		unsigned x = ox + (st->blue ? line * l->s : 0),
			 y = oy + (st->blue ? 0 : line * l->s);
		const char *color = cl ? "#d62728" : "#333333";
		if (!edge)
			svg_rect(o, cl ? "cleared" : "pushed", x, y, w, h,
				 "fill=\"%s\" fill-opacity=\"%s\"", color, cl ? "0.45" : "0.3");
		else
			svg_rect(o, NULL, x + 1, y + 1, w - 2, h - 2,
				 "fill=\"none\" stroke=\"%s\" stroke-width=\"%u\"%s", color,
				 l->stroke, cl ? "" : " stroke-dasharray=\"6 4\"");
	}
}

/* Draws a board at (ox, oy): cells, the bands of the lines `step` (NULL:
 * none) cleared and pushed out, and the tiles, its block outlined. */
static void draw_board(struct svg_out *o, const struct layout *l, const struct board_style *st,
		       unsigned ox, unsigned oy, const uint32_t board[MD_LINES][MD_CELLS],
		       const struct render_md_step *step)
{
	unsigned bw = st->blue ? st->lines : MD_CELLS, bh = st->blue ? MD_CELLS : st->lines;
	uint8_t cleared = !step ? 0 : st->blue ? step->blue_cleared : step->green_cleared;
	uint8_t pushed = !step ? 0 : st->blue ? step->blue_pushed : step->green_pushed;
	svg_printf(o, "<g class=\"board %s\">\n", st->name);
	for (unsigned line = 0; line < st->lines; line++) {
		for (unsigned c = 0; c < MD_CELLS; c++) {
			unsigned sx = st->blue ? line : c, sy = st->blue ? c : line;
			svg_rect(o, NULL, ox + sx * l->s, oy + sy * l->s, l->s, l->s,
				 "fill=\"%s\" stroke=\"#ffffff\"",
				 line < MD_LIGHT_LINES ? st->light : st->fill);
		}
	}
	svg_rect(o, NULL, ox, oy, bw * l->s, bh * l->s,
		 "fill=\"none\" stroke=\"%s\" stroke-width=\"2\"", st->edge);
	draw_bands(o, l, st, ox, oy, cleared, pushed, false);
	for (unsigned line = 0; line < MD_LINES; line++) {
		for (unsigned c = 0; c < MD_CELLS; c++) {
			uint32_t id = board[line][c];
			if (id == 0)
				continue;
			/* The second half of a domino is drawn with the first. */
			if ((line > 0 && board[line - 1][c] == id) ||
			    (c > 0 && board[line][c - 1] == id))
				continue;
			/* lines and cells it spans, 1 or 2 */
			unsigned dl = 1u + (line + 1 < MD_LINES && board[line + 1][c] == id);
			unsigned dc = 1u + (c + 1 < MD_CELLS && board[line][c + 1] == id);
			unsigned sx = st->blue ? line : c, sy = st->blue ? c : line;
			tile_rect(o, l, ox, oy, sx, sy, st->blue ? dl : dc, st->blue ? dc : dl, id,
				  step && id == step->index);
		}
	}
	draw_bands(o, l, st, ox, oy, cleared, pushed, true);
	svg_printf(o, "</g>\n");
}

/* Caption line `row` down the free corner from (x, y), never wider than the corner. */
#define caption(o, l, x, y, row, bold, ...)                                                        \
	svg_text(o, x, y + (l)->font + (row) * ((l)->font * 3 / 2), (l)->font, bold, SVG_START,    \
		 (l)->w - (l)->m / 2 - (x), "#222222", __VA_ARGS__)

/* The legend at the foot of the free corner from x: cleared line, light-area push, light area. */
static void legend(struct svg_out *o, const struct layout *l, unsigned x)
{
	unsigned lab = l->label, line = lab * 3 / 2, sw = 2 * lab, sh = lab;
	unsigned bottom = l->w - l->m - lab / 2; /* baseline of the last entry */
	unsigned room = l->w - l->m / 2 - (x + sw + lab / 2);
	svg_printf(o, "<g class=\"legend\">\n");
	for (unsigned i = 0; i < 3; i++) {
		unsigned base = bottom - (2 - i) * line, top = base - sh * 85 / 100;
		if (i == 0)
			svg_rect(o, NULL, x, top, sw, sh,
				 "fill=\"#d62728\" fill-opacity=\"0.45\" stroke=\"#d62728\" "
				 "stroke-width=\"%u\"",
				 l->stroke);
		else if (i == 1)
			svg_rect(o, NULL, x, top, sw, sh,
				 "fill=\"#333333\" fill-opacity=\"0.3\" stroke=\"#333333\" "
				 "stroke-width=\"%u\" stroke-dasharray=\"%u %u\"",
				 l->stroke, lab / 3 + 1, lab / 4 + 1);
		else
			svg_rect(o, NULL, x, top, sw, sh, "fill=\"%s\" stroke=\"%s\"", green.light,
				 green.edge);
		static const char *const names[] = {"cleared line", "light-area push",
						    "light area"};
		svg_text(o, x + sw + lab / 2, base, lab, false, SVG_START, room, "#333333", "%s",
			 names[i]);
	}
	svg_printf(o, "</g>\n");
}

/* One frame: for a step, the boards as the block landed with its marks and
 * the counts after it; for the final frame (step NULL), the scene's. */
static void draw_frame(struct svg_out *o, const struct layout *l, const struct svg_grid *grid,
		       unsigned index, const struct render_md_scene *scene,
		       const struct render_md_step *step, size_t n)
{
	svg_frame_open(o, grid, index, step ? step->index : 0);
	if (step)
		svg_printf(o, "<title>placement %u of %zu</title>\n", step->index, n);
	else
		svg_printf(o, "<title>after %zu placements</title>\n", n);
	svg_grid_animate(o, grid, index);
	svg_printf(o, "<rect width=\"%u\" height=\"%u\" fill=\"#ffffff\"/>\n", l->w, l->w);
	unsigned right = l->m + MD_RED_SIZE * l->s + l->g, below = right;
	/* red holds the block just placed, as a step of its own without marks */
	struct render_md_step r = {.index = step ? step->index : 0};
	if (step) {
		unsigned x = step->block.x, y = step->block.y, t = step->block.t;
		r.green[x][y] = r.index;
		r.green[x + (t == MD_TYPE_DOMINO_V)][y + (t == MD_TYPE_DOMINO_H)] = r.index;
	}
	draw_board(o, l, &red, l->m, l->m, r.green, step ? &r : NULL);
	draw_board(o, l, &blue, right, l->m, step ? step->blue : scene->blue, step);
	draw_board(o, l, &green, l->m, below, step ? step->green : scene->green, step);
	board_numbers(o, l, l->m, l->m, MD_RED_SIZE, MD_RED_SIZE, false, false);
	board_numbers(o, l, right, l->m, MD_LINES, MD_CELLS, false, true);
	board_numbers(o, l, l->m, below, MD_CELLS, MD_LINES, true, false);

	unsigned tx = right + l->s / 2, ty = below + l->s / 4, row = 0;
	const struct md_game *g = &scene->game;
	if (step) {
		caption(o, l, tx, ty, row++, true, "placement %u of %zu", step->index, n);
		caption(o, l, tx, ty, row++, false, "t=%u  x=%u  y=%u", step->block.t,
			step->block.x, step->block.y);
		caption(o, l, tx, ty, row++, false, "+%u  score %llu", step->gained,
			(unsigned long long)g->score);
	} else {
		caption(o, l, tx, ty, row++, false, "%zu placement%s", n, n == 1 ? "" : "s");
		caption(o, l, tx, ty, row++, true, "score %llu", (unsigned long long)g->score);
	}
	caption(o, l, tx, ty, row++, step == NULL, "tiles %u", md_tiles(g));
	legend(o, l, tx);
	svg_printf(o, "</svg>\n");
}

int render_md_svg(const struct md_block *blocks, size_t n, const struct render_options *opt,
		  char *buf, size_t size)
{
	if (!opt || opt->cell < RENDER_CELL_MIN || opt->cell > RENDER_CELL_MAX ||
	    (opt->view == RENDER_STEP && (opt->step < 1 || opt->step > n)) ||
	    (opt->view == RENDER_STRIP && n > RENDER_STRIP_MAX))
		return -1;

	/* The answer first: the description states it. */
	struct md_game answer;
	md_init(&answer);
	md_play(&answer, blocks, n);
	char title[96], desc[256];
	snprintf(title, sizeof title, "Monomino-Domino: score %llu, %u tiles",
		 (unsigned long long)answer.score, md_tiles(&answer));
	int dn = snprintf(desc, sizeof desc,
			  "%zu placements. Answer: score %llu and %u tiles left (green %u, blue "
			  "%u).",
			  n, (unsigned long long)answer.score, md_tiles(&answer),
			  (unsigned)__builtin_popcount(answer.green),
			  (unsigned)__builtin_popcount(answer.blue));
	if (opt->view == RENDER_STEP && dn > 0 && (size_t)dn < sizeof desc)
		snprintf(desc + dn, sizeof desc - (size_t)dn,
			 " Shown: placement %lu as it lands, lines it clears marked red, lines "
			 "the light area pushes out marked dashed.",
			 opt->step);

	struct layout l = layout_of(opt->cell);
	bool strip = opt->view == RENDER_STRIP;
	struct svg_grid grid =
	    svg_grid_of(strip ? (unsigned)n + 1 : 1, 4, l.w, l.w, strip && opt->animate);
	struct svg_out o;
	svg_begin(&o, buf, size, grid.width, grid.height, title, desc);

	/* The scene must agree with the core on every placement, drawn or not. */
	struct render_md_scene scene;
	render_md_scene_init(&scene);
	struct render_md_step step;
	for (size_t i = 0; i < n; i++) {
		render_md_scene_place(&scene, blocks[i], &step);
		if (strip || (opt->view == RENDER_STEP && i + 1 == opt->step))
			draw_frame(&o, &l, &grid, strip ? (unsigned)i : 0, &scene, &step, n);
	}
	if (opt->view != RENDER_STEP)
		draw_frame(&o, &l, &grid, strip ? (unsigned)n : 0, &scene, NULL, n);
	int len = svg_end(&o);
	return scene.broken ? -1 : len;
}
