/*
 * Puyo as SVG: the 6x12 field under the dimmed hidden row (the 13th),
 * columns numbered 1-6, rows 1-12 from the floor, puyos of a colour linked
 * where they touch, and for each chain step the groups that pop outlined.
 * The steps are the core's; the groups found here must match them.
 */
#include <stdio.h>
#include <string.h>

#include "puyo_draw.h"
#include "render.h"
#include "svg.h"

const char *const puyo_fill[] = {"none",    "#e53935", "#43a047", "#1e88e5",
				 "#8e24aa", "#fdd835", "#a3a3ab"};
const char *const puyo_edge[] = {"none",    "#8e1b19", "#1f5e22", "#0d4f8c",
				 "#51146a", "#a08300", "#5d5d66"};

static unsigned rows_of(const struct puyo_field *f)
{
	return f->rows == PUYO_ROWS_MAX ? PUYO_ROWS_MAX : PUYO_ROWS;
}

/* Marks in `group` the unmarked same-colour group of visible cell (r, c); returns its cells. */
static unsigned flood(const struct puyo_field *f, unsigned top, bool group[PUYO_ROWS][PUYO_COLS],
		      int r, int c, uint8_t color)
{
	if (r < 0 || r >= PUYO_ROWS || c < 0 || c >= PUYO_COLS || group[r][c] ||
	    f->cell[top + (unsigned)r][c] != color)
		return 0;
	group[r][c] = true;
	return 1 + flood(f, top, group, r - 1, c, color) + flood(f, top, group, r + 1, c, color) +
	       flood(f, top, group, r, c - 1, color) + flood(f, top, group, r, c + 1, color);
}

static void find_pops(const struct puyo_field *f, struct puyo_pops *p)
{
	unsigned top = rows_of(f) - PUYO_ROWS;
	bool seen[PUYO_ROWS][PUYO_COLS] = {{false}};
	memset(p, 0, sizeof *p);
	for (unsigned r = 0; r < PUYO_ROWS; r++)
		for (unsigned c = 0; c < PUYO_COLS; c++) {
			uint8_t v = f->cell[top + r][c];
			if (seen[r][c] || v < PUYO_RED || v > PUYO_YELLOW)
				continue;
			unsigned n = flood(f, top, seen, (int)r, (int)c, v);
			if (n < PUYO_POP_SIZE)
				continue;
			flood(f, top, p->cell, (int)r, (int)c, v);
			p->groups++;
			p->popped += n;
		}
	for (unsigned r = 0; r < PUYO_ROWS; r++)
		for (unsigned c = 0; c < PUYO_COLS; c++) {
			bool next = f->cell[top + r][c] == PUYO_GARBAGE &&
				    ((r > 0 && p->cell[r - 1][c]) ||
				     (r + 1 < PUYO_ROWS && p->cell[r + 1][c]) ||
				     (c > 0 && p->cell[r][c - 1]) ||
				     (c + 1 < PUYO_COLS && p->cell[r][c + 1]));
			p->garbage[r][c] = next;
			p->garbage_count += next;
		}
}

struct puyo_layout puyo_layout_of(unsigned s)
{
	struct puyo_layout l;
	l.s = s;
	l.m = s / 2;
	l.w = 2 * l.m + PUYO_COLS * s;
	l.font = s / 2;
	l.label = s / 3;
	l.numbers = l.label * 3 / 2;
	l.h = l.m + PUYO_ROWS_MAX * s + l.numbers + l.m + 3 * l.font + l.font / 2;
	l.radius = s * 43 / 100;
	l.link = s / 2;
	l.stroke = s / 10 + 1;
	return l;
}

unsigned puyo_cx(const struct puyo_layout *l, unsigned c)
{
	return l->m + c * l->s + l->s / 2;
}
unsigned puyo_cy(const struct puyo_layout *l, unsigned d)
{
	return l->m + d * l->s + l->s / 2;
}

unsigned puyo_caption_y(const struct puyo_layout *l, unsigned row)
{
	return l->m + PUYO_ROWS_MAX * l->s + l->numbers + l->font + l->font / 2 +
	       row * (l->font * 3 / 2);
}

void puyo_draw_field(struct svg_out *o, const struct puyo_layout *l, const struct puyo_field *f,
		     const struct puyo_pops *pops)
{
	unsigned top = rows_of(f) - PUYO_ROWS; /* field row of visible row 0 */
	unsigned x0 = l->m, y0 = l->m;
	/* The hidden row, dimmed; the visible field with its grid. */
	svg_rect(o, "hidden-row", x0, y0, PUYO_COLS * l->s, l->s, "fill=\"#d5d5de\"");
	svg_rect(o, NULL, x0, y0 + l->s, PUYO_COLS * l->s, PUYO_ROWS * l->s,
		 "fill=\"#f4f4f8\" stroke=\"#55555f\" stroke-width=\"2\"");
	for (unsigned c = 1; c < PUYO_COLS; c++)
		svg_printf(o,
			   "<line x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\" stroke=\"#e2e2ea\"/>\n",
			   x0 + c * l->s, y0 + l->s, x0 + c * l->s, y0 + (PUYO_ROWS + 1) * l->s);
	for (unsigned r = 1; r < PUYO_ROWS; r++)
		svg_printf(o,
			   "<line x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\" stroke=\"#e2e2ea\"/>\n",
			   x0, y0 + (r + 1) * l->s, x0 + PUYO_COLS * l->s, y0 + (r + 1) * l->s);
	/* The hidden row says what it is; the numbers of the rows (from the
	 * floor, the hidden row 13) and of the columns. */
	svg_text(o, x0 + PUYO_COLS * l->s / 2, y0 + l->s / 2 + l->label * 35 / 100, l->label, false,
		 SVG_MIDDLE, PUYO_COLS * l->s - l->s / 2, "#5d5d66", "hidden row, not counted");
	svg_printf(o, "<g class=\"numbers\">\n");
	for (unsigned d = 0; d <= PUYO_ROWS; d++)
		svg_text(o, x0 - l->m / 2, puyo_cy(l, d) + l->label * 35 / 100, l->label, false,
			 SVG_MIDDLE, l->m, "#55555f", "%u", PUYO_ROWS_MAX - d);
	for (unsigned c = 0; c < PUYO_COLS; c++)
		svg_text(o, puyo_cx(l, c), y0 + PUYO_ROWS_MAX * l->s + l->numbers * 3 / 4, l->label,
			 false, SVG_MIDDLE, 0, "#55555f", "%u", c + 1);
	svg_printf(o, "</g>\n");

	/* Links between touching puyos of one colour, visible rows only. */
	for (unsigned r = 0; r < PUYO_ROWS; r++)
		for (unsigned c = 0; c < PUYO_COLS; c++) {
			uint8_t v = f->cell[top + r][c];
			if (v < PUYO_RED || v > PUYO_YELLOW) /* not a colour */
				continue;
			if (c + 1 < PUYO_COLS && f->cell[top + r][c + 1] == v)
				svg_rect(o, "link", puyo_cx(l, c), puyo_cy(l, r + 1) - l->link / 2,
					 l->s, l->link, "fill=\"%s\"", puyo_fill[v]);
			if (r + 1 < PUYO_ROWS && f->cell[top + r + 1][c] == v)
				svg_rect(o, "link", puyo_cx(l, c) - l->link / 2, puyo_cy(l, r + 1),
					 l->link, l->s, "fill=\"%s\"", puyo_fill[v]);
		}

	/* The puyos; the hidden row's at half opacity. */
	for (unsigned fr = 0; fr < rows_of(f); fr++)
		for (unsigned c = 0; c < PUYO_COLS; c++) {
			uint8_t v = f->cell[fr][c];
			if (v == PUYO_EMPTY || v > PUYO_GARBAGE)
				continue;
			unsigned d = fr + (rows_of(f) == PUYO_ROWS ? 1 : 0);
			svg_printf(o,
				   "<circle class=\"puyo %c\" cx=\"%u\" cy=\"%u\" r=\"%u\" "
				   "fill=\"%s\" stroke=\"%s\" stroke-width=\"%u\"%s/>\n",
				   puyo_cell_to_char(v), puyo_cx(l, c), puyo_cy(l, d), l->radius,
				   puyo_fill[v], puyo_edge[v], l->s / 24 + 1,
				   d == 0 ? " opacity=\"0.5\"" : "");
		}
	if (!pops)
		return;

	/* Outlines: the edges of popping cells that face a cell not popping. */
	for (unsigned pass = 0; pass < 2; pass++) {
		const bool(*in)[PUYO_COLS] = pass == 0 ? pops->cell : pops->garbage;
		svg_printf(
		    o,
		    "<path class=\"%s\" fill=\"none\" stroke=\"#111111\" stroke-width=\"%u\" "
		    "stroke-linecap=\"round\"%s d=\"",
		    pass == 0 ? "pop" : "pop-garbage", pass == 0 ? l->stroke : 1 + l->stroke / 2,
		    pass == 0 ? "" : " stroke-dasharray=\"4 3\"");
		for (unsigned r = 0; r < PUYO_ROWS; r++)
			for (unsigned c = 0; c < PUYO_COLS; c++) {
				if (!in[r][c])
					continue;
				unsigned x = x0 + c * l->s, y = y0 + (r + 1) * l->s, s = l->s;
				if (r == 0 || !in[r - 1][c])
					svg_printf(o, "M%u %uh%u", x, y, s);
				if (r + 1 == PUYO_ROWS || !in[r + 1][c])
					svg_printf(o, "M%u %uh%u", x, y + s, s);
				if (c == 0 || !in[r][c - 1])
					svg_printf(o, "M%u %uv%u", x, y, s);
				if (c + 1 == PUYO_COLS || !in[r][c + 1])
					svg_printf(o, "M%u %uv%u", x + s, y, s);
			}
		svg_printf(o, "\"/>\n");
	}
}

/* One line of the caption under the field, never wider than the field. */
#define caption(o, l, row, bold, ...)                                                              \
	svg_text(o, (l)->m, puyo_caption_y(l, row), (l)->font, bold, SVG_START,                    \
		 (l)->w - 2 * (l)->m, "#222222", __VA_ARGS__)

/* Opens frame `index` of the grid on a white ground; step 0 is the final one. */
static void frame_open(struct svg_out *o, const struct svg_grid *grid, unsigned index,
		       unsigned step)
{
	svg_frame_open(o, grid, index, step);
	svg_printf(o, "<rect width=\"%u\" height=\"%u\" fill=\"#ffffff\"/>\n", grid->w, grid->h);
	svg_grid_animate(o, grid, index);
}

/* One chain step from `f`: what pops (drawn) and what the core did. */
static bool run_step(struct puyo_field *f, unsigned chain, struct puyo_pops *p,
		     struct puyo_step *st, bool *broken)
{
	find_pops(f, p);
	bool popped = puyo_step(f, chain, st);
	if (popped != (p->groups > 0) ||
	    (popped && (st->popped != p->popped || st->garbage != p->garbage_count ||
			st->groups != p->groups)))
		*broken = true;
	return popped;
}

int render_puyo_svg(const struct puyo_field *field, const struct render_options *opt, char *buf,
		    size_t size)
{
	if (!opt || opt->cell < RENDER_CELL_MIN || opt->cell > RENDER_CELL_MAX)
		return -1;
	struct puyo_field f = *field, end = *field;
	puyo_settle(&f);
	struct puyo_result res; /* the core's run; its steps are checked as they are drawn */
	puyo_run(&end, &res);
	unsigned chains = res.chains;
	unsigned long long score = res.score;
	if (opt->view == RENDER_STEP && (opt->step < 1 || opt->step > chains))
		return -1;

	char title[96], desc[256];
	snprintf(title, sizeof title, "Puyo Puyo: %u chain%s", chains, chains == 1 ? "" : "s");
	int dn = snprintf(desc, sizeof desc, "A field of %u rows. Answer: %u chain%s, score %llu.",
			  rows_of(field), chains, chains == 1 ? "" : "s", score);
	if (opt->view == RENDER_STEP && dn > 0 && (size_t)dn < sizeof desc)
		snprintf(desc + dn, sizeof desc - (size_t)dn,
			 " Shown: the field before chain step %lu, the groups that pop outlined.",
			 opt->step);

	struct puyo_layout l = puyo_layout_of(opt->cell);
	bool strip = opt->view == RENDER_STRIP;
	struct svg_grid grid =
	    svg_grid_of(strip ? chains + 1 : 1, 8, l.w, l.h, strip && opt->animate);
	struct svg_out o;
	svg_begin(&o, buf, size, grid.width, grid.height, title, desc);

	struct puyo_pops p;
	struct puyo_step st;
	bool broken = false;
	for (unsigned k = 1; k <= chains; k++) {
		struct puyo_field before = f;
		run_step(&f, k, &p, &st, &broken);
		if (!strip && (opt->view != RENDER_STEP || k != opt->step))
			continue;
		frame_open(&o, &grid, strip ? k - 1 : 0, k);
		svg_printf(&o, "<title>chain step %u of %u</title>\n", k, chains);
		puyo_draw_field(&o, &l, &before, &p);
		caption(&o, &l, 0, true, "chain %u: +%u", k, st.score);
		caption(&o, &l, 1, false, "%u popped, %u group%s", st.popped, st.groups,
			st.groups == 1 ? "" : "s");
		svg_printf(&o, "</svg>\n");
	}
	if (run_step(&f, chains + 1, &p, &st, &broken)) /* the core's two runs must agree */
		broken = true;
	if (opt->view != RENDER_STEP) {
		frame_open(&o, &grid, strip ? chains : 0, 0);
		svg_printf(&o, "<title>after %u chain%s</title>\n", chains, chains == 1 ? "" : "s");
		puyo_draw_field(&o, &l, &f, NULL);
		caption(&o, &l, 0, true, "%u chain%s", chains, chains == 1 ? "" : "s");
		caption(&o, &l, 1, false, "score %llu%s", score,
			res.all_clear ? ", all clear" : "");
		svg_printf(&o, "</svg>\n");
	}
	int len = svg_end(&o);
	return broken ? -1 : len;
}
