/*
 * What the two Puyo targets share: the checks on a field a reader
 * accepted, the run of the chain simulator on it with the invariants of a
 * run, and the round trips through both codecs.
 *
 * Header-only, like fuzz_common.h.
 */
#ifndef DROPJUDGE_FUZZ_PUYO_H
#define DROPJUDGE_FUZZ_PUYO_H

#include "codec/puyo_codec.h"
#include "fuzz_common.h"

static const enum codec_status puyo_statuses[] = {CODEC_E_INVALID};

static inline unsigned field_rows(const struct puyo_field *f)
{
	return f->rows;
}

static inline bool same_field(const struct puyo_field *a, const struct puyo_field *b)
{
	if (a->rows != b->rows)
		return false;
	for (unsigned r = 0; r < a->rows; r++)
		for (unsigned c = 0; c < PUYO_COLS; c++)
			if (a->cell[r][c] != b->cell[r][c])
				return false;
	return true;
}

static inline unsigned count_cells(const struct puyo_field *f, bool colors_only)
{
	unsigned n = 0;
	for (unsigned r = 0; r < field_rows(f); r++)
		for (unsigned c = 0; c < PUYO_COLS; c++) {
			uint8_t v = f->cell[r][c];
			if (v != PUYO_EMPTY && (!colors_only || v != PUYO_GARBAGE))
				n++;
		}
	return n;
}

/* Whether a settled field still holds a visible group of PUYO_POP_SIZE or more. */
static inline bool has_group(const struct puyo_field *f)
{
	unsigned top = field_rows(f) - PUYO_ROWS;
	bool seen[PUYO_ROWS][PUYO_COLS] = {{false}};
	for (unsigned r = 0; r < PUYO_ROWS; r++) {
		for (unsigned c = 0; c < PUYO_COLS; c++) {
			uint8_t v = f->cell[top + r][c];
			if (seen[r][c] || v < PUYO_RED || v > PUYO_YELLOW)
				continue;
			unsigned stack[PUYO_ROWS * PUYO_COLS], n = 0, size = 0;
			stack[n++] = r * PUYO_COLS + c;
			seen[r][c] = true;
			while (n) {
				unsigned at = stack[--n], ar = at / PUYO_COLS, ac = at % PUYO_COLS;
				size++;
				const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
				for (int k = 0; k < 4; k++) {
					int nr = (int)ar + dr[k], nc = (int)ac + dc[k];
					if (nr < 0 || nr >= PUYO_ROWS || nc < 0 ||
					    nc >= PUYO_COLS || seen[nr][nc] ||
					    f->cell[top + (unsigned)nr][nc] != v)
						continue;
					seen[nr][nc] = true;
					stack[n++] = (unsigned)nr * PUYO_COLS + (unsigned)nc;
				}
			}
			if (size >= PUYO_POP_SIZE)
				return true;
		}
	}
	return false;
}

/*
 * A field a lenient reader accepted: check it, run the chains twice (by
 * puyo_run() and step by step, as the route layer does) and check the run.
 */
static inline void check_accepted_field(const struct puyo_field *field)
{
	FUZZ_CHECK(field->rows == PUYO_ROWS || field->rows == PUYO_ROWS_MAX, "%u rows",
		   field->rows);
	for (unsigned r = 0; r < PUYO_ROWS_MAX; r++)
		for (unsigned c = 0; c < PUYO_COLS; c++)
			FUZZ_CHECK(field->cell[r][c] <= PUYO_GARBAGE, "cell (%u, %u) is %u", r, c,
				   field->cell[r][c]);

	struct puyo_field run = *field;
	struct puyo_result res;
	puyo_run(&run, &res);
	unsigned colors = count_cells(field, true);
	FUZZ_CHECK(res.chains * PUYO_POP_SIZE <= colors, "%u chains from %u colour puyos",
		   res.chains, colors);
	/* 72 visible cells give at most 18 chains; the hidden row adds 6 puyos. */
	FUZZ_CHECK(res.chains <= (field->rows == PUYO_ROWS ? 18u : 19u), "%u chains in %u rows",
		   res.chains, field->rows);
	FUZZ_CHECK(!puyo_field_is_floating(&run), "the final field is not settled");
	FUZZ_CHECK(!has_group(&run), "the final field still holds a group after %u chains",
		   res.chains);
	struct puyo_field again = run;
	FUZZ_CHECK(!puyo_step(&again, res.chains + 1, NULL) && same_field(&again, &run),
		   "the final field steps again");
	FUZZ_CHECK(res.all_clear == (res.chains > 0 && count_cells(&run, false) == 0),
		   "all_clear %d with %u chains and %u puyos left", res.all_clear, res.chains,
		   count_cells(&run, false));
	FUZZ_CHECK(count_cells(&run, false) <= count_cells(field, false), "puyos appeared");

	/* Step by step, as the route layer does, unbounded. */
	struct puyo_field steps = *field;
	struct puyo_step step;
	unsigned chains = 0, popped = 0;
	uint64_t score = 0;
	puyo_settle(&steps);
	while (chains < 1000 && puyo_step(&steps, chains + 1, &step)) {
		chains++;
		FUZZ_CHECK(step.chain == chains && step.popped >= PUYO_POP_SIZE * step.groups &&
			       step.groups >= 1 && step.colors >= 1 && step.colors <= step.groups &&
			       step.score > 0,
			   "step %u: popped %u groups %u colours %u score %u", chains, step.popped,
			   step.groups, step.colors, step.score);
		popped += step.popped;
		score += step.score;
	}
	FUZZ_CHECK(chains == res.chains && score == res.score && same_field(&steps, &run),
		   "puyo_run: %u chains, score %llu; step by step: %u chains, score %llu",
		   res.chains, (unsigned long long)res.score, chains, (unsigned long long)score);
	FUZZ_CHECK(popped <= colors, "%u popped of %u", popped, colors);
}

/* A field read back through both codecs is the same field. */
static inline void check_round_trips(const struct puyo_field *field)
{
	char text[PUYO_ROWS_MAX * (PUYO_COLS + 1) + 1];
	int n = puyo_text_field(field, text, sizeof text);
	FUZZ_CHECK(n > 0 && (size_t)n < sizeof text, "puyo_text_field gave %d", n);
	struct puyo_field back;
	struct codec_error err;
	codec_error_init(&err);
	FUZZ_CHECK(puyo_text_read(text, (size_t)n, false, &back, &err) == CODEC_OK,
		   "the field's own text is refused: %s", err.detail);
	FUZZ_CHECK(same_field(field, &back), "the text round trip changed the field");

	json_t *c = json_pack("{so}", "field", puyo_json_rows(field));
	FUZZ_CHECK(c != NULL, "out of memory");
	codec_error_init(&err);
	FUZZ_CHECK(puyo_json_read(c, "", false, &back, &err) == CODEC_OK,
		   "the field's own rows are refused: %s", err.detail);
	FUZZ_CHECK(same_field(field, &back), "the JSON round trip changed the field");
	json_decref(c);
}

/* A field a strict reader accepted: Baekjoon's own. */
static inline void check_strict_field(const struct puyo_field *strict,
				      const struct puyo_field *lenient,
				      enum codec_status lenient_status)
{
	FUZZ_CHECK(lenient_status == CODEC_OK, "strict accepts, lenient refuses");
	FUZZ_CHECK(same_field(strict, lenient), "strict and lenient read other fields");
	FUZZ_CHECK(strict->rows == PUYO_ROWS, "strict field of %u rows", strict->rows);
	FUZZ_CHECK(!puyo_field_is_floating(strict), "strict field floats");
	for (unsigned r = 0; r < PUYO_ROWS; r++)
		for (unsigned c = 0; c < PUYO_COLS; c++)
			FUZZ_CHECK(strict->cell[r][c] != PUYO_GARBAGE, "strict field has garbage");
}

/* One read of the input by a Puyo reader, in one error mode. */
struct puyo_read {
	enum codec_status status;
	struct codec_error err;
	struct puyo_field field;
};

/*
 * What must hold across the error modes of one strictness: first-wins,
 * collecting and without an error struct read the same field, and a field
 * the lenient reader took passes the run and round-trip checks; a field the
 * strict reader took was taken leniently too. `lenient` keeps the lenient
 * read for the strict pass that follows it.
 */
static inline void check_modes_agree(const struct puyo_read *first, const struct puyo_read *collect,
				     const struct puyo_read *bare, struct puyo_read *lenient,
				     bool strict)
{
	if (first->status == CODEC_OK)
		FUZZ_CHECK(same_field(&first->field, &collect->field) &&
			       same_field(&first->field, &bare->field),
			   "the error mode changed the field");
	if (!strict) {
		*lenient = *first;
		if (first->status == CODEC_OK) {
			check_accepted_field(&first->field);
			check_round_trips(&first->field);
		}
	} else if (first->status == CODEC_OK) {
		check_strict_field(&first->field, &lenient->field, lenient->status);
	}
}

#endif
