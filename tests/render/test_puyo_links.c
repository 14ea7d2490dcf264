/*
 * Unit tests of the puyop.com and Puyo Nexus links (src/codec/puyo_links.c).
 *
 * Fixtures whose strings are worked out by hand from the two formats (see
 * the comments at each), errors located and naming the character at fault,
 * and round trips both ways on random fields and random strings.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "codec/puyo_links.h"

static void field_from(struct puyo_field *f, unsigned rows, const char *const *lines)
{
	puyo_field_init(f, rows);
	for (unsigned r = 0; r < rows; r++)
		for (unsigned c = 0; c < PUYO_COLS; c++) {
			int v = puyo_cell_from_char(lines[r][c]);
			assert_true(v >= 0);
			f->cell[r][c] = (uint8_t)v;
		}
}

static void assert_same_field(const struct puyo_field *a, const struct puyo_field *b)
{
	assert_int_equal(a->rows, b->rows);
	for (unsigned r = 0; r < a->rows; r++)
		assert_memory_equal(a->cell[r], b->cell[r], PUYO_COLS);
}

static const char *const example_rows[12] = {
    "......", "......", "......", "......", "......", "......",
    "......", "......", ".Y....", ".YG...", "RRYG..", "RRYGG.",
};

/*
 * The public example of Baekjoon 11559 (12 rows, the hidden row empty).
 * puyop.com, pairs (left * 8 + right; Y = 4, G = 2, R = 1) from the first
 * non-empty pair, row 8 of the visible rows:
 *   ".Y...." -> (0,4)=4 '4', 0 '0', 0 '0'
 *   ".YG..." -> (0,4)=4 '4', (2,0)=16 'g', 0 '0'
 *   "RRYG.." -> (1,1)=9 '9', (4,2)=34 'y', 0 '0'
 *   "RRYGG." -> (1,1)=9 '9', (4,2)=34 'y', (2,0)=16 'g'
 * Puyo Nexus (R '4', G '7', Y '6'), rows 8..11 with the leading zeros of
 * the 78 cells dropped: "60000" "067000" "446700" "446770".
 */
static void links_should_encode_the_public_example_as_worked_out_by_hand(void **state)
{
	(void)state;
	struct puyo_field f;
	char s[PUYO_LINKS_URL_MAX];
	field_from(&f, 12, example_rows);
	assert_int_equal(puyo_links_puyop(&f, s, sizeof s), 12);
	assert_string_equal(s, "4004g09y09yg");
	puyo_links_nexus(&f, s, sizeof s);
	assert_string_equal(s, "60000067000446700446770");
	puyo_links_puyop_url(&f, s, sizeof s);
	assert_string_equal(s, "http://www.puyop.com/s/4004g09y09yg");
	puyo_links_nexus_url(&f, s, sizeof s);
	assert_string_equal(s, "https://puyonexus.com/chainsim/?w=6&h=12&chain="
			       "60000067000446700446770");
}

/*
 * 13 rows: hidden row "B.....", bottom row "OP....", the rest empty.
 * puyop.com: the hidden row's pairs (3,0)=24 'o', '0', '0'; 11 empty rows
 * of "000"; the bottom row (6,5)=53 'R', '0', '0': 39 characters.
 * Puyo Nexus: B '5' then five '0', 66 '0', then O '1', P '8', four '0'.
 */
static void links_should_encode_the_hidden_row_garbage_and_purple_by_hand(void **state)
{
	(void)state;
	const char *rows[13] = {"B.....", "......", "......", "......", "......",
				"......", "......", "......", "......", "......",
				"......", "......", "OP...."};
	struct puyo_field f, back;
	char s[PUYO_LINKS_URL_MAX], want[PUYO_LINKS_URL_MAX];
	field_from(&f, 13, rows);
	puyo_links_puyop(&f, s, sizeof s);
	strcpy(want, "o00");
	for (int i = 0; i < 11; i++)
		strcat(want, "000");
	strcat(want, "R00");
	assert_string_equal(s, want);
	assert_int_equal(puyo_links_read_puyop(want, strlen(want), "/puyop", &back, NULL),
			 CODEC_OK);
	assert_same_field(&f, &back);

	puyo_links_nexus(&f, s, sizeof s);
	strcpy(want, "500000");
	for (int i = 0; i < 66; i++)
		strcat(want, "0");
	strcat(want, "180000");
	assert_string_equal(s, want);
	assert_int_equal(puyo_links_read_nexus(want, strlen(want), NULL, &back, NULL), CODEC_OK);
	assert_same_field(&f, &back);
}

/* Single puyos at the bottom corners: (0,5)=5 '5' and (4,0)=32 'w'. */
static void links_should_encode_single_puyos_and_the_empty_field(void **state)
{
	(void)state;
	struct puyo_field f;
	char s[PUYO_LINKS_URL_MAX];
	puyo_field_init(&f, 12);
	puyo_links_puyop(&f, s, sizeof s);
	assert_string_equal(s, "");
	puyo_links_nexus(&f, s, sizeof s);
	assert_string_equal(s, "0");
	f.cell[11][5] = PUYO_PURPLE;
	puyo_links_puyop(&f, s, sizeof s);
	assert_string_equal(s, "5");
	puyo_links_nexus(&f, s, sizeof s);
	assert_string_equal(s, "8");
	f.cell[11][5] = PUYO_EMPTY;
	f.cell[11][0] = PUYO_YELLOW;
	puyo_links_puyop(&f, s, sizeof s);
	assert_string_equal(s, "w00");
	puyo_links_nexus(&f, s, sizeof s);
	assert_string_equal(s, "600000");
}

static void links_should_read_the_sites_urls(void **state)
{
	(void)state;
	struct puyo_field want, f;
	field_from(&want, 12, example_rows);
	static const char *const puyop[] = {
	    "4004g09y09yg",
	    "http://www.puyop.com/s/4004g09y09yg",
	    "https://puyop.com/s/4004g09y09yg",
	    "puyop.com/s/4004g09y09yg_",
	    /* The same field written with its leading empty pairs. */
	    "0004004g09y09yg",
	};
	for (size_t i = 0; i < sizeof puyop / sizeof puyop[0]; i++) {
		assert_int_equal(
		    puyo_links_read_puyop(puyop[i], strlen(puyop[i]), "/puyop", &f, NULL),
		    CODEC_OK);
		assert_same_field(&want, &f);
	}
	static const char *const nexus[] = {
	    "60000067000446700446770",
	    "https://puyonexus.com/chainsim/?w=6&h=12&chain=60000067000446700446770",
	    "http://www.puyonexus.com/chainsim/?chain=60000067000446700446770",
	    "https://puyonexus.com/chainsim/?chain=60000067000446700446770&hr=1",
	    "000000000000060000067000446700446770",
	};
	for (size_t i = 0; i < sizeof nexus / sizeof nexus[0]; i++) {
		assert_int_equal(puyo_links_read_nexus(nexus[i], strlen(nexus[i]), NULL, &f, NULL),
				 CODEC_OK);
		assert_same_field(&want, &f);
	}
}

static void assert_fault(enum codec_status st, const struct codec_error *err, const char *pointer,
			 const char *detail_part)
{
	assert_int_equal(st, CODEC_E_INVALID);
	assert_int_equal(err->status, CODEC_E_INVALID);
	assert_int_equal(err->nfaults, 1);
	assert_string_equal(err->faults[0].pointer, pointer);
	if (!strstr(err->faults[0].detail, detail_part))
		fail_msg("\"%s\" does not say \"%s\"", err->faults[0].detail, detail_part);
}

static void links_should_name_the_character_at_fault(void **state)
{
	(void)state;
	static const struct {
		bool nexus;
		const char *in, *detail;
	} cases[] = {
	    {false, "40!4", "character 3, '!', is not a puyop.com field character"},
	    {false, "47", "character 2, '7', holds colour 7"},
	    {false, "http://www.puyop.com/s/4004_0a1b", "moves after '_'"},
	    {false, "https://example.com/s/4004", "not a puyop.com link"},
	    {false, "0000000000000000000000000000000000000000", "at most 39 characters"},
	    {true, "44B4", "character 3, 'B', is a point puyo"},
	    {true, "449", "character 3, '9', is not a Puyo Nexus chain character"},
	    {true, "https://puyonexus.com/chainsim/?w=6&h=13&chain=4", "h must be 12"},
	    {true, "https://puyonexus.com/chainsim/?w=6", "no chain= parameter"},
	    {true, "https://puyonexus.com/chainsim/?chain=4&w=6&chain=44", "gives chain= twice"},
	    {true, "https://puyonexus.com/chainsim/chain/abcd", "saved chain"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct codec_error err;
		struct puyo_field f;
		codec_error_init(&err);
		enum codec_status st = cases[i].nexus
					   ? puyo_links_read_nexus(cases[i].in, strlen(cases[i].in),
								   "/puyo_nexus", &f, &err)
					   : puyo_links_read_puyop(cases[i].in, strlen(cases[i].in),
								   "/puyop", &f, &err);
		assert_fault(st, &err, cases[i].nexus ? "/puyo_nexus" : "/puyop", cases[i].detail);
	}
}

static uint64_t rng_state = 0x2545f4914f6cdd1dull;
static unsigned rnd(unsigned n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (unsigned)(rng_state % n);
}

static void links_should_round_trip_random_fields_both_ways(void **state)
{
	(void)state;
	for (unsigned round = 0; round < 5000; round++) {
		struct puyo_field f, back;
		unsigned rows = rnd(2) ? 13 : 12;
		puyo_field_init(&f, rows);
		unsigned density = rnd(10);
		for (unsigned r = 0; r < rows; r++)
			for (unsigned c = 0; c < PUYO_COLS; c++)
				f.cell[r][c] = (uint8_t)(rnd(10) < density ? rnd(7) : 0);
		/* A 13-row field with an empty hidden row comes back as 12 rows. */
		bool hidden = false;
		for (unsigned c = 0; c < PUYO_COLS && rows == 13; c++)
			hidden = hidden || f.cell[0][c] != 0;
		struct puyo_field want;
		puyo_field_init(&want, hidden || rows == 12 ? rows : 12);
		for (unsigned r = 0; r < want.rows; r++)
			memcpy(want.cell[r], f.cell[r + (rows - want.rows)], PUYO_COLS);

		char s[PUYO_LINKS_URL_MAX], t[PUYO_LINKS_URL_MAX];
		puyo_links_puyop(&f, s, sizeof s);
		assert_int_equal(puyo_links_read_puyop(s, strlen(s), NULL, &back, NULL), CODEC_OK);
		assert_same_field(&want, &back);
		puyo_links_puyop(&back, t, sizeof t);
		assert_string_equal(s, t);

		puyo_links_nexus_url(&f, s, sizeof s);
		assert_int_equal(puyo_links_read_nexus(s, strlen(s), NULL, &back, NULL), CODEC_OK);
		assert_same_field(&want, &back);
		puyo_links_nexus_url(&back, t, sizeof t);
		assert_string_equal(s, t);
	}
}

/* Random strings in each site's canonical form decode and encode back. */
static void links_should_round_trip_random_strings(void **state)
{
	(void)state;
	const char alphabet[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ[]";
	const char nexus[] = "0475681";
	for (unsigned round = 0; round < 5000; round++) {
		char s[80], t[80];
		struct puyo_field f;
		unsigned n = 1 + rnd(39);
		for (unsigned i = 0; i < n; i++) {
			unsigned v;
			do
				v = rnd(64);
			while (v / 8 > 6 || v % 8 > 6 || (i == 0 && v == 0));
			s[i] = alphabet[v];
		}
		s[n] = '\0';
		assert_int_equal(puyo_links_read_puyop(s, n, NULL, &f, NULL), CODEC_OK);
		puyo_links_puyop(&f, t, sizeof t);
		assert_string_equal(s, t);

		n = 1 + rnd(78);
		for (unsigned i = 0; i < n; i++)
			s[i] = nexus[i == 0 ? 1 + rnd(6) : rnd(7)];
		s[n] = '\0';
		assert_int_equal(puyo_links_read_nexus(s, n, NULL, &f, NULL), CODEC_OK);
		puyo_links_nexus(&f, t, sizeof t);
		assert_string_equal(s, t);
	}
}

static void links_should_read_a_case_given_by_a_link(void **state)
{
	(void)state;
	struct puyo_field want, f;
	struct codec_error err;
	field_from(&want, 12, example_rows);
	json_t *c =
	    json_pack("{ss sb}", "puyop", "http://www.puyop.com/s/4004g09y09yg", "trace", 1);
	codec_error_init(&err);
	assert_int_equal(puyo_links_read_case(c, "", &f, &err), CODEC_OK);
	assert_same_field(&want, &f);
	json_decref(c);

	c = json_pack("{ss}", "puyo_nexus", "60000067000446700446770");
	assert_int_equal(puyo_links_read_case(c, "/cases/2", &f, &err), CODEC_OK);
	assert_same_field(&want, &f);
	json_decref(c);

	c = json_pack("{ss s[]}", "puyop", "4", "field");
	codec_error_init(&err);
	assert_fault(puyo_links_read_case(c, "", &f, &err), &err, "/field", "one way only");
	json_decref(c);

	c = json_pack("{si}", "puyo_nexus", 4);
	codec_error_init(&err);
	assert_fault(puyo_links_read_case(c, "/cases/0", &f, &err), &err, "/cases/0/puyo_nexus",
		     "expected a string");
	json_decref(c);

	c = json_pack("{ss ss}", "puyop", "4", "colour", "x");
	codec_error_init(&err);
	assert_fault(puyo_links_read_case(c, "", &f, &err), &err, "/colour", "unknown member");
	json_decref(c);

	c = json_pack("{ss}", "puyop", "4$");
	codec_error_init(&err);
	assert_fault(puyo_links_read_case(c, "", &f, &err), &err, "/puyop", "character 2, '$'");
	json_decref(c);

	/* Without a link, the rows as before. */
	c = json_pack("{s[ssssssssssss]}", "field", "......", "......", "......", "......",
		      "......", "......", "......", "......", ".Y....", ".YG...", "RRYG..",
		      "RRYGG.");
	codec_error_init(&err);
	assert_int_equal(puyo_links_read_case(c, "", &f, &err), CODEC_OK);
	assert_same_field(&want, &f);
	json_decref(c);
}

static void links_should_give_both_urls_as_json(void **state)
{
	(void)state;
	struct puyo_field f;
	field_from(&f, 12, example_rows);
	json_t *links = puyo_links_json(&f);
	assert_non_null(links);
	assert_string_equal(json_string_value(json_object_get(links, "puyop")),
			    "http://www.puyop.com/s/4004g09y09yg");
	assert_string_equal(
	    json_string_value(json_object_get(links, "puyo_nexus")),
	    "https://puyonexus.com/chainsim/?w=6&h=12&chain=60000067000446700446770");
	json_decref(links);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(links_should_encode_the_public_example_as_worked_out_by_hand),
	    cmocka_unit_test(links_should_encode_the_hidden_row_garbage_and_purple_by_hand),
	    cmocka_unit_test(links_should_encode_single_puyos_and_the_empty_field),
	    cmocka_unit_test(links_should_read_the_sites_urls),
	    cmocka_unit_test(links_should_name_the_character_at_fault),
	    cmocka_unit_test(links_should_round_trip_random_fields_both_ways),
	    cmocka_unit_test(links_should_round_trip_random_strings),
	    cmocka_unit_test(links_should_read_a_case_given_by_a_link),
	    cmocka_unit_test(links_should_give_both_urls_as_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
