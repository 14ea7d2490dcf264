/*
 * libFuzzer target: the pictures (src/render) and the Puyo links
 * (codec/puyo_links).
 *
 * Input: a mode byte, then the data. Mode % 3:
 *   0, 1  a puyop.com (0) or Puyo Nexus (1) field string or link. Checked:
 *         the status is CODEC_OK or CODEC_E_INVALID with a fault that
 *         builds a problem+json document; a field read encodes to a string
 *         that reads back as the same field and encodes the same again
 *         (both sites); and the field draws (below).
 *   2     Monomino-Domino blocks, one a byte (at most 300), each made legal (t = 1 +
 *         b % 3, then x and y from the other bits, clamped to the red
 *         board). Checked: the labelled scene agrees with the core after
 *         every placement, and the case draws.
 * Drawing: the final picture, a strip (up to 40 steps), the first eight
 * steps and the last all succeed (render never refuses a legal case: -1 would mean the labels
 * or the outlines disagree with the core), the length asked for is the
 * length written, and the same call gives the same bytes.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec/puyo_links.h"
#include "fuzz_common.h"
#include "render/render.h"

typedef int (*draw_fn)(const void *ctx, const struct render_options *opt, char *buf, size_t size);

static int draw_puyo(const void *ctx, const struct render_options *opt, char *buf, size_t size)
{
	return render_puyo_svg(ctx, opt, buf, size);
}

struct md_case {
	const struct md_block *blocks;
	size_t n;
};

static int draw_md(const void *ctx, const struct render_options *opt, char *buf, size_t size)
{
	const struct md_case *c = ctx;
	return render_md_svg(c->blocks, c->n, opt, buf, size);
}

/* One picture: sized, drawn, drawn again the same. */
static void check_draw(draw_fn draw, const void *ctx, enum render_view view, unsigned long step)
{
	struct render_options opt = {.cell = RENDER_CELL_MIN, .view = view, .step = step};
	int n = draw(ctx, &opt, NULL, 0);
	FUZZ_CHECK(n > 0, "view %d step %lu refused (%d)", view, step, n);
	char *a = malloc((size_t)n + 1), *b = malloc((size_t)n + 1);
	FUZZ_CHECK(a && b, "out of memory");
	FUZZ_CHECK(draw(ctx, &opt, a, (size_t)n + 1) == n, "length changed");
	FUZZ_CHECK(draw(ctx, &opt, b, (size_t)n + 1) == n && memcmp(a, b, (size_t)n + 1) == 0,
		   "not deterministic");
	FUZZ_CHECK(strlen(a) == (size_t)n, "NUL inside the picture");
	free(a);
	free(b);
}

static void check_all_views(draw_fn draw, const void *ctx, unsigned long steps)
{
	check_draw(draw, ctx, RENDER_FINAL, 0);
	if (steps <= 40) /* longer strips only cost time: the frames are the steps' */
		check_draw(draw, ctx, RENDER_STRIP, 0);
	/* The first steps and the last: each step re-runs the case. */
	for (unsigned long k = 1; k <= steps && k <= 8; k++)
		check_draw(draw, ctx, RENDER_STEP, k);
	if (steps > 8)
		check_draw(draw, ctx, RENDER_STEP, steps);
}

static void same_field(const struct puyo_field *a, const struct puyo_field *b)
{
	FUZZ_CHECK(a->rows == b->rows, "rows %u, then %u", a->rows, b->rows);
	FUZZ_CHECK(memcmp(a->cell, b->cell, sizeof a->cell[0] * a->rows) == 0, "cells differ");
}

static void check_link(const char *text, size_t len, bool nexus)
{
	struct codec_error err;
	struct puyo_field field, back;
	codec_error_init(&err);
	enum codec_status st = nexus ? puyo_links_read_nexus(text, len, "/link", &field, &err)
				     : puyo_links_read_puyop(text, len, "/link", &field, &err);
	FUZZ_CHECK(st == CODEC_OK || st == CODEC_E_INVALID, "status %d", st);
	if (st != CODEC_OK) {
		FUZZ_CHECK(err.status == st && err.nfaults == 1 &&
			       strcmp(err.faults[0].pointer, "/link") == 0,
			   "fault not at /link");
		json_t *problem = problem_json(&err);
		FUZZ_CHECK(problem != NULL, "no problem document");
		json_decref(problem);
		return;
	}
	for (int site = 0; site < 2; site++) {
		char s[PUYO_LINKS_URL_MAX], t[PUYO_LINKS_URL_MAX];
		int n = site ? puyo_links_nexus_url(&field, s, sizeof s)
			     : puyo_links_puyop_url(&field, s, sizeof s);
		FUZZ_CHECK(n > 0 && (size_t)n < sizeof s, "URL does not fit");
		st = site ? puyo_links_read_nexus(s, (size_t)n, NULL, &back, NULL)
			  : puyo_links_read_puyop(s, (size_t)n, NULL, &back, NULL);
		FUZZ_CHECK(st == CODEC_OK, "own URL %s refused", s);
		same_field(&field, &back);
		site ? puyo_links_nexus_url(&back, t, sizeof t)
		     : puyo_links_puyop_url(&back, t, sizeof t);
		FUZZ_CHECK(strcmp(s, t) == 0, "%s, then %s", s, t);
	}
	struct puyo_field run = field;
	struct puyo_result result;
	puyo_run(&run, &result);
	check_all_views(draw_puyo, &field, result.chains);
}

static void check_md(const uint8_t *data, size_t size)
{
	struct md_block *blocks = malloc((size ? size : 1) * sizeof *blocks);
	FUZZ_CHECK(blocks != NULL, "out of memory");
	struct render_md_scene scene;
	render_md_scene_init(&scene);
	for (size_t i = 0; i < size; i++) {
		uint8_t t = (uint8_t)(1 + data[i] % 3), x = (data[i] >> 2) & 3,
			y = (data[i] >> 4) & 3;
		if (t == MD_TYPE_DOMINO_V && x > 2)
			x = 2;
		if (t == MD_TYPE_DOMINO_H && y > 2)
			y = 2;
		blocks[i] = (struct md_block){t, x, y};
		render_md_scene_place(&scene, blocks[i], NULL);
		FUZZ_CHECK(!scene.broken, "labels and core disagree after placement %zu", i + 1);
	}
	struct md_case c = {blocks, size};
	check_all_views(draw_md, &c, size);
	free(blocks);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	unsigned mode = data[0] % 3;
	if (mode == 2) {
		check_md(data + 1, size - 1 > 300 ? 300 : size - 1);
		return 0;
	}
	char *text = fuzz_dup(data + 1, size - 1);
	check_link(text, size - 1, mode == 1);
	free(text);
	return 0;
}
