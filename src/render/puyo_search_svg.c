/*
 * The picture of a Puyo search: on the left the field the best sequence
 * leaves, its puyos numbered by pair (those placed after the last that
 * fired) and its best trigger dashed; on the right a heat map of the chains
 * of the triggers of the field at rest, a row per colour searched. The
 * placements are replayed here and must fire what the search said.
 */
#include <stdio.h>
#include <string.h>

#include "puyo_draw.h"
#include "render.h"
#include "svg.h"

/* The 13-row field of a 12- or 13-row one (an empty hidden row on top). */
static void field13(const struct puyo_field *in, struct puyo_field *out)
{
	unsigned shift = in->rows == PUYO_ROWS_MAX ? 0 : 1;
	puyo_field_init(out, PUYO_ROWS_MAX);
	memcpy(out->cell[shift], in->cell, (PUYO_ROWS_MAX - shift) * PUYO_COLS);
}

/* The lowest empty row of column c of a settled 13-row field; -1 when full. */
static int lowest_free(const struct puyo_field *f, unsigned c)
{
	for (int r = PUYO_ROWS_MAX - 1; r >= 0; r--)
		if (f->cell[r][c] == PUYO_EMPTY)
			return r;
	return -1;
}

/* Which pair each cell holds (1-based), 0 for none. */
typedef uint8_t marks_t[PUYO_ROWS_MAX][PUYO_COLS];

/* Replays placement `p` of pair [a, b] (index i, 1-based) on the field at
 * rest, marking its puyos, and runs it; false when it does not fit or fires
 * other than `fired` says. */
static bool replay(struct puyo_field *f, marks_t marks, struct puyo_placement p, const uint8_t *ab,
		   unsigned i, const struct puyo_result *fired)
{
	unsigned c = p.column - 1u, c2 = p.rotation == 1 ? c + 1 : p.rotation == 3 ? c - 1 : c;
	if (p.column < 1 || p.column > PUYO_COLS || c2 >= PUYO_COLS)
		return false;
	/* the lower puyo first: b below a only for rotation 2 */
	const unsigned col[2] = {c, c2};
	for (unsigned k = 0; k < 2; k++) {
		int r = lowest_free(f, col[k]);
		if (r < 0)
			return false;
		f->cell[r][col[k]] = ab[p.rotation == 2 ? 1 - k : k];
		marks[r][col[k]] = (uint8_t)i;
	}
	struct puyo_result res;
	puyo_run(f, &res);
	if (res.chains != fired->chains || res.score != fired->score)
		return false;
	if (res.chains)
		memset(marks, 0, sizeof(marks_t));
	return true;
}

int render_puyo_search_svg(const struct puyo_search_request *req,
			   const struct puyo_search_answer *ans, unsigned cell, char *buf,
			   size_t size)
{
	if (cell < RENDER_CELL_MIN || cell > RENDER_CELL_MAX)
		return -1;
	struct puyo_field f;
	marks_t marks = {{0}};
	field13(&req->field, &f);
	puyo_run(&f, NULL);
	const struct puyo_sequence *best = ans->sequences ? &ans->sequence[0] : NULL;
	for (unsigned i = 0; best && i < req->pairs; i++)
		if (!replay(&f, marks, best->placement[i], req->pair[i], i + 1, &best->fired[i]))
			return -1;

	struct puyo_layout l = puyo_layout_of(cell);
	unsigned ncolors = (unsigned)__builtin_popcount(req->colors & PUYO_SEARCH_ALL_COLORS);
	unsigned chains_max = 0;
	for (unsigned i = 0; i < ans->triggers; i++)
		if (ans->trigger[i].chains > chains_max)
			chains_max = ans->trigger[i].chains;
	unsigned hx = l.w + cell, hy = l.m + cell; /* the heat map's top left cell */
	unsigned width = hx + PUYO_COLS * cell + l.m;
	unsigned height = l.h + l.font; /* room for a third caption line */
	if (height < hy + (ncolors + 2) * cell)
		height = hy + (ncolors + 2) * cell;

	char title[96], text[96];
	char desc[256] =
	    "The field the best sequence leaves (no trigger); beside it the chains of each "
	    "trigger of the field.";
	const struct puyo_trigger *t = best && best->has_trigger ? &best->trigger : NULL;
	snprintf(title, sizeof title, "Puyo search: %u sequence%s examined", ans->examined,
		 ans->examined == 1 ? "" : "s");
	if (t)
		snprintf(
		    desc, sizeof desc,
		    "The field the best sequence leaves, its best trigger: %u %c on column %u, "
		    "%u chain%s, score %llu; beside it the chains of each trigger of the field.",
		    t->puyos, puyo_cell_to_char(t->color), t->column, t->chains,
		    t->chains == 1 ? "" : "s", (unsigned long long)t->score);
	struct svg_out o;
	svg_begin(&o, buf, size, width, height, title, desc);
	svg_printf(&o, "<rect width=\"%u\" height=\"%u\" fill=\"#ffffff\"/>\n", width, height);
	puyo_draw_field(&o, &l, &f, NULL);

	/* The best sequence's puyos, ringed and numbered by their pair. */
	for (unsigned r = 0; r < PUYO_ROWS_MAX; r++)
		for (unsigned c = 0; c < PUYO_COLS; c++) {
			if (!marks[r][c])
				continue;
			svg_printf(&o,
				   "<circle class=\"placed\" cx=\"%u\" cy=\"%u\" r=\"%u\" "
				   "fill=\"none\" stroke=\"#111111\" stroke-width=\"%u\"/>\n",
				   puyo_cx(&l, c), puyo_cy(&l, r), l.radius + l.stroke, l.stroke);
			svg_text(&o, puyo_cx(&l, c), puyo_cy(&l, r) + l.label * 35 / 100, l.label,
				 true, SVG_MIDDLE, 0, "#111111", "%u", marks[r][c]);
		}
	/* Its trigger, dashed where its puyos would land. */
	if (t) {
		int r = lowest_free(&f, t->column - 1u);
		for (unsigned k = 0; k < t->puyos && r - (int)k >= 0; k++)
			svg_printf(&o,
				   "<circle class=\"trigger\" cx=\"%u\" cy=\"%u\" r=\"%u\" "
				   "fill=\"%s\" fill-opacity=\"0.45\" stroke=\"#111111\" "
				   "stroke-width=\"%u\" stroke-dasharray=\"4 3\"/>\n",
				   puyo_cx(&l, t->column - 1u), puyo_cy(&l, (unsigned)(r - (int)k)),
				   l.radius, puyo_fill[t->color], l.stroke);
	}
	/* Captions: the best sequence, what it fired, its trigger. */
	unsigned cy = puyo_caption_y(&l, 0), cw = l.w - 2 * l.m, fired = 0;
	unsigned long long score = 0;
	size_t n = (size_t)snprintf(text, sizeof text, "best:");
	for (unsigned i = 0; best && i < req->pairs; i++) {
		if (n < sizeof text)
			n += (size_t)snprintf(text + n, sizeof text - n, " %u/%u",
					      best->placement[i].column,
					      best->placement[i].rotation);
		fired = best->fired[i].chains > fired ? best->fired[i].chains : fired;
		score += best->fired[i].score;
	}
	if (!best)
		snprintf(text, sizeof text, "no legal sequence");
	else if (req->pairs == 0)
		snprintf(text, sizeof text, "no pairs: the field itself");
	svg_text(&o, l.m, cy, l.font, true, SVG_START, cw, "#222222", "%s", text);
	svg_text(&o, l.m, cy + l.font * 3 / 2, l.font, false, SVG_START, cw, "#222222",
		 "fired %u chain%s, %llu points", fired, fired == 1 ? "" : "s", score);
	if (t)
		snprintf(text, sizeof text, "trigger: %u %c on %u, %u chain%s", t->puyos,
			 puyo_cell_to_char(t->color), t->column, t->chains,
			 t->chains == 1 ? "" : "s");
	else
		snprintf(text, sizeof text, "no trigger");
	svg_text(&o, l.m, cy + l.font * 3, l.font, false, SVG_START, cw, "#222222", "%s", text);

	/* The heat map: chains of the trigger of each column and colour. */
	svg_text(&o, hx, l.m + l.font, l.font, true, SVG_START, PUYO_COLS * cell, "#222222",
		 "trigger chains");
	for (unsigned c = 0; c < PUYO_COLS; c++)
		svg_text(&o, hx + c * cell + cell / 2, hy + cell - cell / 4, l.label, false,
			 SVG_MIDDLE, 0, "#55555f", "%u", c + 1);
	unsigned y = hy; /* the row of the colour */
	for (unsigned v = PUYO_RED; v <= PUYO_YELLOW; v++) {
		if (!(req->colors >> (v - 1) & 1))
			continue;
		y += cell;
		svg_printf(&o, "<circle cx=\"%u\" cy=\"%u\" r=\"%u\" fill=\"%s\" stroke=\"%s\"/>\n",
			   hx - cell / 2, y + cell / 2, cell / 3, puyo_fill[v], puyo_edge[v]);
		for (unsigned c = 0; c < PUYO_COLS; c++) {
			unsigned chains = 0;
			for (unsigned i = 0; i < ans->triggers; i++)
				if (ans->trigger[i].color == v && ans->trigger[i].column == c + 1)
					chains = ans->trigger[i].chains;
			unsigned tenths = chains ? 2 + 8 * chains / chains_max : 0;
			svg_rect(&o, "heat", hx + c * cell, y, cell, cell,
				 "fill=\"%s\" fill-opacity=\"%u.%u\" stroke=\"#ffffff\"",
				 chains ? "#fb8c00" : "#e8e8ee", tenths / 10, tenths % 10);
			svg_text(&o, hx + c * cell + cell / 2, y + cell / 2 + l.label * 35 / 100,
				 l.label, chains != 0, SVG_MIDDLE, 0,
				 chains ? "#222222" : "#8a8a94", chains ? "%u" : "-", chains);
		}
	}
	return svg_end(&o);
}
