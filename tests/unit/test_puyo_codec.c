/*
 * Unit tests of the Puyo codecs (src/codec/puyo_codec.c): tables
 * of inputs with the expected status, location and detail of the first
 * fault, lenient and strict; strict mode collecting every fault; the output
 * writers; and every data-driven case under tests/cases/puyo/ (run from the
 * repository root), whose expected answers were derived by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "writer_check.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/error.h"
#include "route/status.h"
#include "codec/puyo_codec.h"
#include "core/cpu.h"
#include "dropjudge/gen.h"
#include "dropjudge/puyo.h"

/* Errors of the tests: collect mode takes its storage from a small ring,
 * so that two collecting errors can be alive at once. */
static struct codec_fault fault_ring[4][CODEC_FAULTS_MAX];
static unsigned fault_ring_next;

static void error_init(struct codec_error *err, unsigned max_faults)
{
	if (max_faults <= 1) {
		codec_error_init(err);
		return;
	}
	codec_error_collect(err, fault_ring[fault_ring_next++ % 4], max_faults);
}

#define CASES_DIR "tests/cases/puyo"

/* JSON rows: E an empty row, Rn n of them, comma-separated. */
#define E	     "\"......\""
#define R2	     E "," E
#define R4	     R2 "," R2
#define R8	     R4 "," R4
#define R11	     R8 "," R2 "," E
#define R12	     R8 "," R4
#define EXAMPLE_ROWS R8 ",\".Y....\",\".YG...\",\"RRYG..\",\"RRYGG.\""

/* Text rows. */
#define T	     "......\n"
#define T4	     T T T T
#define T8	     T4 T4
#define T11	     T8 T T T
#define T12	     T8 T4
#define EXAMPLE_TEXT T8 ".Y....\n.YG...\nRRYG..\nRRYGG.\n"

struct json_case {
	const char *json;
	bool strict;
	const char *pointer; /* of the first fault; NULL: no fault */
	const char *detail;
};

static const struct json_case json_cases[] = {
    {"{\"field\":[" R12 "]}", false, NULL, NULL},
    {"{\"field\":[" EXAMPLE_ROWS "],\"trace\":true}", false, NULL, NULL},
    {"{\"trace\":false,\"field\":[" EXAMPLE_ROWS "]}", true, NULL, NULL},
    {"{\"field\":[" R12 "," E "]}", false, NULL, NULL},
    {"{\"field\":[" R8 ",\"OOOOOO\"," R2 "," E "]}", false, NULL, NULL},
    {"[]", false, "", "expected an object"},
    {"{}", false, "/field", "required"},
    {"{\"field\":null}", false, "/field", "must be an array"},
    {"{\"field\":{}}", false, "/field", "must be an array"},
    {"{\"field\":\"......\"}", false, "/field", "must be an array"},
    {"{\"field\":[" R11 "]}", false, "/field",
     "expected 12 rows (13 with the hidden row), found 11"},
    {"{\"field\":[]}", false, "/field", "expected 12 rows (13 with the hidden row), found 0"},
    {"{\"field\":[" R12 "," R2 "]}", false, "/field",
     "expected 12 rows (13 with the hidden row), found 14"},
    {"{\"field\":[" R12 "," E "]}", true, "/field", "expected 12 rows, found 13"},
    {"{\"field\":[" E "," E "," E ",123," R8 "]}", false, "/field/3", "expected a string"},
    {"{\"field\":[" R11 ",null]}", false, "/field/11", "expected a string"},
    {"{\"field\":[\".....\"," R11 "]}", false, "/field/0", "expected 6 characters, found 5"},
    {"{\"field\":[" R11 ",\".......\"]}", false, "/field/11", "expected 6 characters, found 7"},
    {"{\"field\":[" R11 ",\"\"]}", false, "/field/11", "expected 6 characters, found 0"},
    {"{\"field\":[" R4 ",\"...X..\"," R4 "," R2 "," E "]}", false, "/field/4",
     "unknown cell 'X' at column 4 (expected one of .RGBPYO)"},
    {"{\"field\":[" R4 ",\"r.....\"," R4 "," R2 "," E "]}", false, "/field/4",
     "unknown cell 'r' at column 1 (expected one of .RGBPYO)"},
    {"{\"field\":[" R11 ",\".....O\"]}", true, "/field/11",
     "unknown cell 'O' at column 6 (expected one of .RGBPY)"},
    {"{\"field\":[\"\xc3\xa9.....\"," R11 "]}", false, "/field/0",
     "unknown cell U+00E9 at column 1 (expected one of .RGBPYO)"},
    {"{\"field\":[\"..\\t...\"," R11 "]}", false, "/field/0",
     "unknown cell U+0009 at column 3 (expected one of .RGBPYO)"},
    {"{\"field\":[\"..\\u0000...\"," R11 "]}", false, "/field/0",
     "unknown cell U+0000 at column 3 (expected one of .RGBPYO)"},
    {"{\"field\":[" R12 "],\"colour\":1}", false, "/colour",
     "unknown member; a case holds \"field\", \"trace\" and \"id\""},
    {"{\"field\":[" R12 "],\"a/b~c\":1}", false, "/a~1b~0c",
     "unknown member; a case holds \"field\", \"trace\" and \"id\""},
    {"{\"field\":[" R12 "],\"\":1}", false, "/",
     "unknown member; a case holds \"field\", \"trace\" and \"id\""},
    {"{\"field\":[" R12 "],\"trace\":\"yes\"}", false, "/trace", "expected a boolean"},
    {"{\"field\":[" R12 "],\"trace\":1}", true, "/trace", "expected a boolean"},
    {"{\"field\":[" R12 "],\"trace\":null}", false, "/trace", "expected a boolean"},
    /* Floating puyos: fine when solving, a fault when validating. */
    {"{\"field\":[" R8 ",\"R.....\"," R2 ",\".RRR..\"]}", false, NULL, NULL},
    {"{\"field\":[" R8 ",\"R.....\"," R2 ",\".RRR..\"]}", true, "/field/8",
     "puyo at column 1 floats above an empty cell"},
};

static json_t *load(const char *text)
{
	json_error_t jerr;
	json_t *root = json_loads(text, JSON_ALLOW_NUL, &jerr);
	if (!root)
		print_error("bad test JSON: %s: %s\n", text, jerr.text);
	assert_non_null(root);
	return root;
}

static void puyo_json_should_report_the_first_fault_where_it_is(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof json_cases / sizeof json_cases[0]; i++) {
		const struct json_case *tc = &json_cases[i];
		struct codec_error err;
		struct puyo_field field;
		json_t *root = load(tc->json);
		codec_error_init(&err);
		enum codec_status st = puyo_json_read(root, "", tc->strict, &field, &err);
		json_decref(root);
		if (!tc->pointer) {
			if (st != CODEC_OK)
				print_error("case %zu: unexpected fault %s\n", i, err.detail);
			assert_int_equal(st, CODEC_OK);
			assert_false(codec_error_is_set(&err));
			continue;
		}
		if (st != CODEC_E_INVALID || err.nfaults != 1 ||
		    strcmp(err.faults[0].pointer, tc->pointer) != 0 ||
		    strcmp(err.faults[0].detail, tc->detail) != 0)
			print_error("case %zu: status %d, %u faults, first %s: %s\n", i, st,
				    err.nfaults, err.nfaults ? err.faults[0].pointer : "-",
				    err.nfaults ? err.faults[0].detail : "-");
		assert_int_equal(st, CODEC_E_INVALID);
		assert_int_equal(err.status, CODEC_E_INVALID);
		assert_int_equal(problem_http_status(err.status), 422);
		assert_int_equal(err.nfaults, 1);
		assert_int_equal(err.dropped, 0); /* first-wins: reading stopped */
		assert_string_equal(err.faults[0].pointer, tc->pointer);
		assert_string_equal(err.faults[0].detail, tc->detail);
		assert_int_equal(err.faults[0].line, 0);
	}
}

static void puyo_json_should_read_rows_top_first_with_the_hidden_row(void **state)
{
	(void)state;
	struct puyo_field field;
	json_t *root = load("{\"field\":[\"RGBPYO\"," R12 "]}");
	assert_int_equal(puyo_json_read(root, "", false, &field, NULL), CODEC_OK);
	json_decref(root);
	assert_int_equal(field.rows, 13);
	const uint8_t top[PUYO_COLS] = {PUYO_RED,    PUYO_GREEN,  PUYO_BLUE,
					PUYO_PURPLE, PUYO_YELLOW, PUYO_GARBAGE};
	assert_memory_equal(field.cell[0], top, PUYO_COLS);

	root = load("{\"field\":[" EXAMPLE_ROWS "]}");
	assert_int_equal(puyo_json_read(root, "", false, &field, NULL), CODEC_OK);
	json_decref(root);
	assert_int_equal(field.rows, 12);
	assert_int_equal(field.cell[11][0], PUYO_RED);
	assert_int_equal(field.cell[11][4], PUYO_GREEN);
	assert_int_equal(field.cell[8][1], PUYO_YELLOW);
	assert_int_equal(field.cell[0][0], PUYO_EMPTY);
}

static void puyo_json_should_put_the_case_pointer_first(void **state)
{
	(void)state;
	struct codec_error err;
	struct puyo_field field;
	json_t *root = load("{\"field\":[" R2 ",\"..?...\"," R8 "," E "],\"x\":0}");
	error_init(&err, CODEC_FAULTS_MAX);
	assert_int_equal(puyo_json_read(root, "/cases/3", false, &field, &err), CODEC_E_INVALID);
	json_decref(root);
	assert_int_equal(err.nfaults, 2);
	assert_string_equal(err.faults[0].pointer, "/cases/3/x");
	assert_string_equal(err.faults[1].pointer, "/cases/3/field/2");
	assert_string_equal(
	    err.detail, "/cases/3/x: unknown member; a case holds \"field\", \"trace\" and \"id\"");
}

/*
 * Found by fuzz_puyo_json: an unknown member whose escaped name filled the
 * pointer was cut again after the case pointer was put first, and the cut
 * could fall inside an escape ("/cases/7/~1~1...~"), which is not an RFC
 * 6901 pointer. The name is now cut to what fits after the case pointer.
 */
static void puyo_json_should_not_cut_an_escape_after_the_case_pointer(void **state)
{
	(void)state;
	char text[256];
	char name[100];
	memset(name, '/', sizeof name - 1);
	name[sizeof name - 1] = '\0';
	snprintf(text, sizeof text, "{\"%s\": 1, \"field\": [" R12 "]}", name);
	for (size_t k = 0; k < 4; k++) {
		/* Case pointers of each length modulo 2, the length of an escape. */
		const char *pointers[] = {"/cases/7", "/cases/17", "/cases/7/input",
					  "/cases/17/input"};
		struct codec_error err;
		struct puyo_field field;
		json_t *root = load(text);
		codec_error_init(&err);
		assert_int_equal(puyo_json_read(root, pointers[k], false, &field, &err),
				 CODEC_E_INVALID);
		json_decref(root);
		const char *p = err.faults[0].pointer;
		size_t len = strlen(p);
		assert_true(strncmp(p, pointers[k], strlen(pointers[k])) == 0);
		assert_true(len < CODEC_POINTER_MAX);
		assert_true(len >= CODEC_POINTER_MAX - 3);
		for (size_t i = strlen(pointers[k]) + 1; i < len; i += 2)
			assert_memory_equal(p + i, "~1", 2);
		assert_int_equal((len - strlen(pointers[k]) - 1) % 2, 0);
	}
}

static void puyo_json_should_fail_without_an_error_to_fill(void **state)
{
	(void)state;
	struct puyo_field field;
	json_t *root = load("{\"field\":[" R11 "],\"y\":1}");
	assert_int_equal(puyo_json_read(root, "", true, &field, NULL), CODEC_E_INVALID);
	assert_int_equal(puyo_json_read(root, "", false, &field, NULL), CODEC_E_INVALID);
	json_decref(root);
}

struct fault {
	const char *pointer;
	unsigned line, column;
	const char *detail;
};

static void expect_faults(const struct codec_error *err, const struct fault *want, unsigned n)
{
	for (unsigned i = 0; i < err->nfaults; i++)
		print_message("fault %u: %s line %u column %u: %s\n", i, err->faults[i].pointer,
			      err->faults[i].line, err->faults[i].column, err->faults[i].detail);
	assert_int_equal(err->status, CODEC_E_INVALID);
	assert_int_equal(err->nfaults, n);
	for (unsigned i = 0; i < n; i++) {
		assert_string_equal(err->faults[i].pointer, want[i].pointer);
		assert_int_equal(err->faults[i].line, want[i].line);
		assert_int_equal(err->faults[i].column, want[i].column);
		assert_string_equal(err->faults[i].detail, want[i].detail);
	}
}

static void puyo_json_should_collect_every_fault_in_strict_mode(void **state)
{
	(void)state;
	struct codec_error err;
	struct puyo_field field;
	/* 13 rows; row 0 has 'O', row 1 seven characters, row 2 is a number,
	 * row 5 floats over empty rows; row 12 is past the 12 rows read. */
	json_t *root = load("{\"extra\":1,\"field\":[\"..O...\",\".......\",5," E "," E
			    ",\".R....\"," R4 "," R2 ",\"XXXXXX\"],\"trace\":2}");
	error_init(&err, CODEC_FAULTS_MAX);
	assert_int_equal(puyo_json_read(root, "", true, &field, &err), CODEC_E_INVALID);
	json_decref(root);
	const struct fault want[] = {
	    {"/extra", 0, 0, "unknown member; a case holds \"field\", \"trace\" and \"id\""},
	    {"/trace", 0, 0, "expected a boolean"},
	    {"/field", 0, 0, "expected 12 rows, found 13"},
	    {"/field/0", 0, 0, "unknown cell 'O' at column 3 (expected one of .RGBPY)"},
	    {"/field/1", 0, 0, "expected 6 characters, found 7"},
	    {"/field/2", 0, 0, "expected a string"},
	    {"/field/5", 0, 0, "puyo at column 2 floats above an empty cell"},
	};
	expect_faults(&err, want, sizeof want / sizeof want[0]);
	assert_string_equal(err.detail,
			    "/extra: unknown member; a case holds \"field\", \"trace\" and \"id\"");
}

static void puyo_json_should_report_one_floating_puyo_per_column(void **state)
{
	(void)state;
	struct codec_error err;
	struct puyo_field field;
	/* Column 1: R over G over a hole; column 6: Y over a hole. */
	json_t *root = load("{\"field\":[" R4 ",\"R.....\",\"G....Y\"," R4 "," E ",\".B....\"]}");
	error_init(&err, CODEC_FAULTS_MAX);
	assert_int_equal(puyo_json_read(root, "", true, &field, &err), CODEC_E_INVALID);
	json_decref(root);
	const struct fault want[] = {
	    {"/field/5", 0, 0, "puyo at column 1 floats above an empty cell"},
	    {"/field/5", 0, 0, "puyo at column 6 floats above an empty cell"},
	};
	expect_faults(&err, want, 2);
}

/* ---- text ------------------------------------------------------------ */

struct text_case {
	const char *text;
	bool strict;
	unsigned line; /* of the first fault; 0: no fault */
	unsigned column;
	const char *detail;
};

static const struct text_case text_cases[] = {
    {EXAMPLE_TEXT, false, 0, 0, NULL},
    {EXAMPLE_TEXT, true, 0, 0, NULL},
    {T12 T, false, 0, 0, NULL},		       /* 13 rows */
    {T12 "\n\n  \n\t\r\n", false, 0, 0, NULL}, /* blank lines after the rows */
    {T11 "......", false, 0, 0, NULL},	       /* no final newline */
    {T11 "......\r\n", false, 0, 0, NULL},     /* CR LF */
    {T11 "...... \t\r\n", false, 0, 0, NULL},  /* trailing spaces */
    {T11 "OOOOOO\n", false, 0, 0, NULL},
    {"", false, 1, 0, "expected 12 rows (13 with the hidden row), found 0"},
    {"\n\n", false, 1, 0, "expected 12 rows (13 with the hidden row), found 0"},
    {T11, false, 12, 0, "expected 12 rows (13 with the hidden row), found 11"},
    {T12 T T, false, 14, 0, "expected 12 rows (13 with the hidden row), found 14"},
    {T12 T "\n" T, false, 14, 0, "expected 12 rows (13 with the hidden row), found 15"},
    {T T ".X....\n" T8 T, false, 3, 2, "unknown cell 'X' at column 2 (expected one of .RGBPYO)"},
    {T11 "rr....\n", false, 12, 1, "unknown cell 'r' at column 1 (expected one of .RGBPYO)"},
    {T T T ".....\n" T8, false, 4, 0, "expected 6 characters, found 5"},
    {T4 ".......\n" T4 T T T, false, 5, 0, "expected 6 characters, found 7"},
    {T4 T "\n" T4 T T, false, 6, 0, "expected 6 characters, found 0"},
    {T "\xc3\xa9.....\n" T8 T T, false, 2, 1,
     "unknown cell U+00E9 at column 1 (expected one of .RGBPYO)"},
    {T "\xff.....\n" T8 T T, false, 2, 1,
     "unknown cell byte 0xFF at column 1 (expected one of .RGBPYO)"},
    {T ". ....\n" T8 T T, false, 2, 2, "unknown cell ' ' at column 2 (expected one of .RGBPYO)"},
    /* strict */
    {T12 T, true, 13, 0, "expected 12 rows, found 13"},
    {T12 "\n", true, 13, 0, "expected 12 rows, found 13"},
    {T11, true, 12, 0, "expected 12 rows, found 11"},
    {"", true, 1, 0, "expected 12 rows, found 0"},
    {T11 "......", true, 12, 0, "missing newline at the end of the line"},
    {"......\r\n" T11, true, 1, 7,
     "carriage return at the end of the line (lines must end with \"\\n\" only)"},
    {T11 "...... \n", true, 12, 0, "expected 6 characters, found 7"},
    {T11 "O.....\n", true, 12, 1, "unknown cell 'O' at column 1 (expected one of .RGBPY)"},
    {T8 "..Y...\n" T T T, true, 9, 0, "puyo at column 3 floats above an empty cell"},
    {T8 "..Y...\n" T T T, false, 0, 0, NULL},
};

static void puyo_text_should_report_the_first_fault_where_it_is(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof text_cases / sizeof text_cases[0]; i++) {
		const struct text_case *tc = &text_cases[i];
		struct codec_error err;
		struct puyo_field field;
		codec_error_init(&err);
		enum codec_status st =
		    puyo_text_read(tc->text, strlen(tc->text), tc->strict, &field, &err);
		if (!tc->line) {
			if (st != CODEC_OK)
				print_error("case %zu: unexpected fault %s\n", i, err.detail);
			assert_int_equal(st, CODEC_OK);
			continue;
		}
		if (st != CODEC_E_INVALID || err.nfaults != 1 || err.faults[0].line != tc->line ||
		    err.faults[0].column != tc->column ||
		    strcmp(err.faults[0].detail, tc->detail) != 0)
			print_error("case %zu: status %d, %u faults, first line %u column %u: %s\n",
				    i, st, err.nfaults, err.nfaults ? err.faults[0].line : 0,
				    err.nfaults ? err.faults[0].column : 0,
				    err.nfaults ? err.faults[0].detail : "-");
		assert_int_equal(st, CODEC_E_INVALID);
		assert_int_equal(problem_http_status(err.status), 422);
		assert_int_equal(err.nfaults, 1);
		assert_int_equal(err.dropped, 0);
		assert_int_equal(err.faults[0].line, tc->line);
		assert_int_equal(err.faults[0].column, tc->column);
		assert_string_equal(err.faults[0].detail, tc->detail);
		assert_string_equal(err.faults[0].pointer, "");
	}
}

static void puyo_text_should_read_rows_top_first(void **state)
{
	(void)state;
	struct puyo_field field;
	const char *text = "RGBPYO\n" T12;
	assert_int_equal(puyo_text_read(text, strlen(text), false, &field, NULL), CODEC_OK);
	assert_int_equal(field.rows, 13);
	assert_int_equal(field.cell[0][0], PUYO_RED);
	assert_int_equal(field.cell[0][5], PUYO_GARBAGE);

	text = EXAMPLE_TEXT;
	assert_int_equal(puyo_text_read(text, strlen(text), true, &field, NULL), CODEC_OK);
	assert_int_equal(field.rows, 12);
	assert_int_equal(field.cell[11][0], PUYO_RED);
	assert_int_equal(field.cell[8][1], PUYO_YELLOW);

	/* Only `len` bytes count: the rest of the buffer is not read. */
	char buf[] = EXAMPLE_TEXT "garbage after the end";
	assert_int_equal(puyo_text_read(buf, strlen(EXAMPLE_TEXT), true, &field, NULL), CODEC_OK);
	/* A NUL inside the text is a bad character, not an end. */
	char nul[] = T11 "..\0...\n";
	struct codec_error err;
	codec_error_init(&err);
	assert_int_equal(puyo_text_read(nul, sizeof nul - 1, false, &field, &err), CODEC_E_INVALID);
	assert_string_equal(err.faults[0].detail,
			    "unknown cell U+0000 at column 3 (expected one of .RGBPYO)");
	assert_int_equal(puyo_text_read(nul, sizeof nul - 1, false, &field, NULL), CODEC_E_INVALID);
}

static void puyo_text_should_collect_every_fault_in_strict_mode(void **state)
{
	(void)state;
	struct codec_error err;
	struct puyo_field field;
	const char *text = "..O...\n"
			   ".....\n" T T "......\r\n" T4 ".....R\n" T "R.....";
	error_init(&err, CODEC_FAULTS_MAX);
	assert_int_equal(puyo_text_read(text, strlen(text), true, &field, &err), CODEC_E_INVALID);
	const struct fault want[] = {
	    {"", 1, 3, "unknown cell 'O' at column 3 (expected one of .RGBPY)"},
	    {"", 2, 0, "expected 6 characters, found 5"},
	    {"", 5, 7, "carriage return at the end of the line (lines must end with \"\\n\" only)"},
	    {"", 12, 0, "missing newline at the end of the line"},
	    {"", 10, 0, "puyo at column 6 floats above an empty cell"},
	};
	expect_faults(&err, want, sizeof want / sizeof want[0]);
	assert_string_equal(err.detail, "line 1, column 3: unknown cell 'O' at column 3 "
					"(expected one of .RGBPY)");

	/* The same text in first-wins mode stops at the first fault. */
	codec_error_init(&err);
	assert_int_equal(puyo_text_read(text, strlen(text), true, &field, &err), CODEC_E_INVALID);
	assert_int_equal(err.nfaults, 1);
	assert_int_equal(err.dropped, 0);
}

static void puyo_text_should_collect_in_lenient_mode_when_asked(void **state)
{
	(void)state;
	struct codec_error err;
	struct puyo_field field;
	const char *text = "X.....\n" T ".Z.\n" T8;
	error_init(&err, CODEC_FAULTS_MAX);
	assert_int_equal(puyo_text_read(text, strlen(text), false, &field, &err), CODEC_E_INVALID);
	const struct fault want[] = {
	    {"", 1, 1, "unknown cell 'X' at column 1 (expected one of .RGBPYO)"},
	    {"", 3, 0, "expected 6 characters, found 3"},
	    {"", 3, 2, "unknown cell 'Z' at column 2 (expected one of .RGBPYO)"},
	    {"", 12, 0, "expected 12 rows (13 with the hidden row), found 11"},
	};
	expect_faults(&err, want, sizeof want / sizeof want[0]);
}

static void puyo_text_should_count_faults_past_the_limit(void **state)
{
	(void)state;
	struct codec_error err;
	struct puyo_field field;
	/* 12 rows of 6 bad characters: 72 faults, over a limit of 10. */
	char text[12 * 7 + 1];
	for (int r = 0; r < 12; r++) {
		memcpy(text + 7 * r, "xxxxxx\n", 7);
	}
	text[sizeof text - 1] = '\0';
	error_init(&err, 10);
	assert_int_equal(puyo_text_read(text, strlen(text), true, &field, &err), CODEC_E_INVALID);
	assert_int_equal(err.nfaults, 10);
	assert_int_equal(err.dropped, 62);
}

/* ---- output ---------------------------------------------------------- */

static void puyo_should_write_results_and_fields(void **state)
{
	(void)state;
	struct puyo_result res = {3, 1000, true};
	char buf[128];
	assert_int_equal(puyo_text_result(&res, buf, sizeof buf), 2);
	assert_string_equal(buf, "3\n");
	res.chains = 19;
	assert_int_equal(puyo_text_result(&res, buf, 2), 3);
	assert_string_equal(buf, "1");

	struct puyo_field field;
	const char *text = EXAMPLE_TEXT;
	assert_int_equal(puyo_text_read(text, strlen(text), true, &field, NULL), CODEC_OK);
	assert_int_equal(puyo_text_field(&field, buf, sizeof buf), 84);
	assert_string_equal(buf, EXAMPLE_TEXT);
	assert_int_equal(puyo_text_field(&field, NULL, 0), 84);
	assert_int_equal(puyo_text_field(&field, buf, 8), 84);
	assert_string_equal(buf, "......\n");

	json_t *rows = puyo_json_rows(&field);
	assert_non_null(rows);
	char *dump = json_dumps(rows, JSON_COMPACT);
	assert_string_equal(dump, "[" EXAMPLE_ROWS "]");
	free(dump);
	json_decref(rows);

	text = "RGBPYO\n" T12;
	assert_int_equal(puyo_text_read(text, strlen(text), false, &field, NULL), CODEC_OK);
	assert_int_equal(puyo_text_field(&field, buf, sizeof buf), 91);
	assert_string_equal(buf, text);
	rows = puyo_json_rows(&field);
	assert_int_equal(json_array_size(rows), 13);
	assert_string_equal(json_string_value(json_array_get(rows, 0)), "RGBPYO");
	json_decref(rows);
}

struct puyo_answer {
	const struct puyo_field *field;
	const struct puyo_result *result;
};

static int puyo_write(const void *ctx, char *buf, size_t size)
{
	const struct puyo_answer *a = ctx;
	return puyo_json_write_result(a->field, a->result, buf, size);
}

/* Checks puyo_json_write_result() against the dump of the route's result
 * object, whole and (when cut) in every shorter buffer. */
static void puyo_assert_writes_like_the_dump(const struct puyo_field *field,
					     const struct puyo_result *r, bool cut)
{
	char *want = dump_line(json_pack("{sI sI sb so}", "chains", (json_int_t)r->chains, "score",
					 (json_int_t)r->score, "all_clear", r->all_clear, "field",
					 puyo_json_rows(field)));
	struct puyo_answer a = {field, r};
	assert_writes(want, puyo_write, &a, cut);
	free(want);
}

static void puyo_json_write_result_should_give_the_bytes_of_the_dump(void **state)
{
	(void)state;
	struct puyo_field field;
	struct puyo_result r = {0, 0, false};
	puyo_field_init(&field, PUYO_ROWS);
	puyo_assert_writes_like_the_dump(&field, &r, true);
	struct gen_rng rng;
	gen_rng_init(&rng, 11559);
	for (unsigned i = 0; i < 3000; i++) {
		/* Random cells of every kind, 12 or 13 rows, then the real run. */
		puyo_field_init(&field, gen_rng_below(&rng, 2) ? PUYO_ROWS_MAX : PUYO_ROWS);
		for (unsigned row = 0; row < field.rows; row++)
			for (unsigned c = 0; c < PUYO_COLS; c++)
				field.cell[row][c] = (uint8_t)gen_rng_below(&rng, PUYO_GARBAGE + 1);
		puyo_assert_writes_like_the_dump(&field, &r, i < 20);
		puyo_run(&field, &r);
		puyo_assert_writes_like_the_dump(&field, &r, i < 20);
	}
	for (uint64_t seed = 1; seed <= 200; seed++) {
		if (!gen_puyo_field(seed, 4, (unsigned)(seed % 4), &field))
			continue;
		puyo_run(&field, &r);
		puyo_assert_writes_like_the_dump(&field, &r, false);
	}
	/* A cell outside enum puyo_cell, an all clear, and the widest numbers. */
	field.cell[0][0] = 200;
	r = (struct puyo_result){UINT_MAX, UINT64_MAX, true};
	puyo_assert_writes_like_the_dump(&field, &r, true);
	r = (struct puyo_result){7, (uint64_t)INT64_MAX + 1, false};
	puyo_assert_writes_like_the_dump(&field, &r, true);
}

/* ---- data-driven cases ----------------------------------------------- */

/* Reads a whole file into a new NUL-terminated buffer; NULL if absent. */
static char *slurp(const char *dir, const char *name, size_t *len)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	assert_non_null(buf);
	size_t got;
	while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (cap - n - 1 == 0) {
			cap *= 2;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

static void check_expected_error(const char *name, const struct codec_error *err,
				 enum codec_status st, const char *expected)
{
	json_error_t jerr;
	json_t *want = json_loads(expected, 0, &jerr);
	if (!want)
		print_error("%s: bad expected-error.json: %s\n", name, jerr.text);
	assert_non_null(want);
	json_t *errors = json_object_get(want, "errors");
	unsigned status = (unsigned)json_integer_value(json_object_get(want, "status"));
	if (problem_http_status(st) != status || err->nfaults != json_array_size(errors))
		print_error("%s: got HTTP %u with %u faults (%s)\n", name, problem_http_status(st),
			    err->nfaults, err->detail);
	assert_int_equal(problem_http_status(st), status);
	assert_int_equal(err->nfaults, json_array_size(errors));

	size_t i;
	json_t *e;
	json_array_foreach(errors, i, e)
	{
		const struct codec_fault *f = &err->faults[i];
		json_t *p = json_object_get(e, "pointer");
		unsigned line = (unsigned)json_integer_value(json_object_get(e, "line"));
		unsigned column = (unsigned)json_integer_value(json_object_get(e, "column"));
		const char *pointer = p ? json_string_value(p) : "";
		if (strcmp(f->pointer, pointer) != 0 || f->line != line || f->column != column)
			print_error("%s: fault %zu at '%s' line %u column %u (%s), expected '%s' "
				    "line %u column %u\n",
				    name, i, f->pointer, f->line, f->column, f->detail, pointer,
				    line, column);
		assert_string_equal(f->pointer, pointer);
		assert_int_equal(f->line, line);
		assert_int_equal(f->column, column);
	}
	json_decref(want);
}

static void run_case(const char *name)
{
	char dir[300];
	snprintf(dir, sizeof dir, "%s/%s", CASES_DIR, name);
	size_t len = 0;
	char *json_in = slurp(dir, "input.json", &len);
	char *text_in = json_in ? NULL : slurp(dir, "input.txt", &len);
	char *expected = slurp(dir, "expected.txt", NULL);
	char *expected_error = slurp(dir, "expected-error.json", NULL);
	if (!(json_in || text_in) || !expected == !expected_error)
		print_error("%s: needs one input and one expected file\n", name);
	assert_true(json_in || text_in);
	assert_true(!expected != !expected_error);

	struct codec_error err;
	struct puyo_field field;
	enum codec_status st;
	codec_error_init(&err);
	if (json_in) {
		json_error_t jerr;
		json_t *root = json_loadb(json_in, len, 0, &jerr);
		if (!root)
			print_error("%s: input.json does not parse: %s\n", name, jerr.text);
		assert_non_null(root);
		st = puyo_json_read(root, "", false, &field, &err);
		json_decref(root);
	} else {
		st = puyo_text_read(text_in, len, false, &field, &err);
	}

	if (expected) {
		if (st != CODEC_OK)
			print_error("%s: unexpected fault %s\n", name, err.detail);
		assert_int_equal(st, CODEC_OK);
		struct puyo_result res;
		char out[32];
		puyo_run(&field, &res);
		puyo_text_result(&res, out, sizeof out);
		if (strcmp(out, expected) != 0)
			print_error("%s: answered %s", name, out);
		assert_string_equal(out, expected);
	} else {
		check_expected_error(name, &err, st, expected_error);
	}
	free(json_in);
	free(text_in);
	free(expected);
	free(expected_error);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void puyo_should_pass_every_data_driven_case(void **state)
{
	(void)state;
	DIR *d = opendir(CASES_DIR);
	if (!d)
		print_error("cannot open %s (run from the repository root)\n", CASES_DIR);
	assert_non_null(d);
	char *names[256];
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		assert_true(n < sizeof names / sizeof names[0]);
		names[n] = strdup(de->d_name);
		assert_non_null(names[n]);
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof names[0], compare_names);

	size_t errors = 0;
	for (size_t i = 0; i < n; i++) {
		print_message("case %s\n", names[i]);
		run_case(names[i]);
		errors += strncmp(names[i], "error-", 6) == 0;
		free(names[i]);
	}
	assert_true(n >= 20);
	assert_true(errors >= 10);
}

/* ---- one field per line (solve puyo --lines) --------------------------- */

/* xorshift64*: a fixed sequence, so a failure can be replayed. */
static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

/* The reference reading of a line: split at single spaces, the rows through
 * the Baekjoon text reader, then into planes. */
static enum codec_status lines_reference(const char *s, size_t len, struct puyo_planes *planes)
{
	char text[256];
	if (len + 2 > sizeof text)
		return CODEC_E_INVALID;
	unsigned rows = 1;
	for (size_t i = 0; i < len; i++) {
		text[i] = s[i] == ' ' ? '\n' : s[i];
		rows += s[i] == ' ';
		/* the text reader takes what this format does not */
		if (s[i] == '\n' || s[i] == '\r' || s[i] == '\t')
			return CODEC_E_INVALID;
	}
	text[len] = '\n';
	/* every row must be 6 bytes, and 12 or 13 of them */
	if ((rows != 12 && rows != 13) || len != rows * 7 - 1)
		return CODEC_E_INVALID;
	for (unsigned r = 0; r + 1 < rows; r++)
		if (s[r * 7 + 6] != ' ')
			return CODEC_E_INVALID;
	struct puyo_field f;
	struct codec_error err;
	codec_error_init(&err);
	enum codec_status st = puyo_text_read(text, len + 1, false, &f, &err);
	if (st == CODEC_OK)
		puyo_planes_from_field(planes, &f);
	return st;
}

static void puyo_lines_should_read_like_the_reference_on_every_path(void **state)
{
	(void)state;
	static const char cells[] = ".RGBPYO";
	static const char noise[] = ".RGBPYO ROxr\t\x80-";
	uint64_t seed = 84;
	unsigned good = 0, bad = 0;
	for (unsigned iter = 0; iter < 20000; iter++) {
		char line[128];
		unsigned rows = rng_next(&seed) % 2 ? 13 : 12;
		size_t len = 0;
		for (unsigned r = 0; r < rows; r++) {
			for (unsigned c = 0; c < 6; c++)
				line[len++] = cells[rng_next(&seed) % 7];
			if (r + 1 < rows)
				line[len++] = ' ';
		}
		unsigned edits = (unsigned)(rng_next(&seed) % 3);
		for (unsigned e = 0; e < edits; e++) {
			size_t at = (size_t)(rng_next(&seed) % len);
			char c = noise[rng_next(&seed) % (sizeof noise - 1)];
			if (rng_next(&seed) % 4 == 0 && len + 1 < sizeof line) {
				memmove(line + at + 1, line + at, len - at);
				line[at] = c;
				len++;
			} else if (rng_next(&seed) % 4 == 0 && len > 1) {
				memmove(line + at, line + at + 1, len - at - 1);
				len--;
			} else {
				line[at] = c;
			}
		}
		struct puyo_planes want;
		enum codec_status want_st = lines_reference(line, len, &want);
		/* with the AVX-512 reader (where this processor has it), then without */
		bool avx512 = cpu_switch_on(&puyo_lines_avx512);
		for (int pass = 0; pass < (avx512 ? 2 : 1); pass++) {
			cpu_switch_set(&puyo_lines_avx512, pass == 0);
			struct puyo_planes got;
			struct codec_error err;
			codec_error_init(&err);
			enum codec_status st = puyo_lines_read(line, len, 7, &got, &err);
			if (st != want_st)
				fail_msg("'%.*s' (pass %d): status %d, reference %d (%s)", (int)len,
					 line, pass, st, want_st, err.detail);
			if (st == CODEC_OK) {
				assert_memory_equal(&got, &want, sizeof got);
			} else {
				assert_int_equal(err.nfaults, 1);
				assert_int_equal(err.faults[0].line, 7);
			}
		}
		cpu_switch_set(&puyo_lines_avx512, true);
		if (want_st == CODEC_OK)
			good++;
		else
			bad++;
	}
	assert_true(good > 3000);
	assert_true(bad > 3000);
}

static void puyo_lines_should_name_what_is_wrong_and_where(void **state)
{
	(void)state;
	static const struct {
		const char *line;
		const char *detail;
	} cases[] = {
	    {"", "expected 12 or 13 rows separated by single spaces, found 0"},
	    {"...... ......", "expected 12 or 13 rows separated by single spaces, found 2"},
	    {"...... ...... ...... ...... ...... ...... ...... ...... ...... ...... ...... "
	     "....X.",
	     "row 12: unknown cell 'X' at column 5 (expected one of .RGBPYO)"},
	    {"...... ...... ...... ...... ...... ...... ...... ...... ...... ...... ...... "
	     ".....",
	     "row 12: expected 6 characters, found 5"},
	    {"...... ...... ...... ...... ...... ...... ...... ...... ...... ...... ......  "
	     "......",
	     "row 12: expected 6 characters, found 0"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct puyo_planes planes;
		struct codec_error err;
		codec_error_init(&err);
		assert_int_equal(
		    puyo_lines_read(cases[i].line, strlen(cases[i].line), 3, &planes, &err),
		    CODEC_E_INVALID);
		assert_int_equal(err.faults[0].line, 3);
		assert_non_null(strstr(err.detail, cases[i].detail));
	}
	/* a bad cell's column counts characters from the start of the line */
	const char *l =
	    "...... ...... ...... ...... ...... ...... ...... ...... ...... ...... ...... "
	    "....X.";
	struct puyo_planes planes;
	struct codec_error err;
	codec_error_init(&err);
	puyo_lines_read(l, strlen(l), 1, &planes, &err);
	assert_int_equal(err.faults[0].column, (unsigned)(strchr(l, 'X') - l) + 1);
}

/* ---- the JSON fast path (puyo_json_fast_planes) ------------------------ */

static void puyo_json_fast_should_take_the_canonical_case_only_and_read_it_as_jansson(void **state)
{
	(void)state;
#define ROWS11                                                                                     \
	"\"......\",\"......\",\"......\",\"......\",\"......\",\"......\",\"......\",\"......\"," \
	"\".Y....\",\".YG...\",\"RRYG..\""
#define ROWS11_SPACED                                                                              \
	"\"......\", \"......\", \"......\", \"......\", \"......\", \"......\", \"......\", "     \
	"\"......\", \".Y....\", \".YG...\", \"RRYG..\""
	static const struct {
		const char *body;
		bool taken;
	} cases[] = {
	    {"{\"field\":[" ROWS11 ",\"RRYGG.\"]}", true},
	    {" { \"field\" : [ \"OOOOOO\" , " ROWS11 " ,\n\"RRYGG.\" ] }\n", true},
	    {"{\"field\":[" ROWS11 "]}", false},			    /* 11 rows */
	    {"{\"field\":[" ROWS11 ",\"RRYGG\"]}", false},		    /* short row */
	    {"{\"field\":[" ROWS11 ",\"RRYGGX\"]}", false},		    /* bad cell */
	    {"{\"field\":[" ROWS11 ",\"RRYGG\\u002e\"]}", false},	    /* an escape */
	    {"{\"field\":[" ROWS11 ",\"RRYGG.\"],\"trace\":false}", false}, /* another member */
	    {"{\"field\":[" ROWS11 ",\"RRYGG.\"]}]", false},
	    {"{\"cases\":[{\"field\":[" ROWS11 ",\"RRYGG.\"]}]}", false},
	    /* the layouts read at once where the CPU can, and their near misses */
	    {"{\"field\": [" ROWS11_SPACED ", \"RRYGG.\"]}", true},
	    {"{\"field\": [\"..O...\", " ROWS11_SPACED ", \"RRYGG.\"]}", true},
	    {"{\"field\":[\"..O...\"," ROWS11 ",\"RRYGG.\"]}", true},
	    {"{\"field\": [" ROWS11_SPACED ", \"RRYGG.\"] }", true},
	    {"{\"field\": [" ROWS11_SPACED ",  \"RRYGG.\"]}", true},  /* two spaces */
	    {"{\"field\": [" ROWS11_SPACED ", \"RRYGG.\" ]}", true},  /* a space before ] */
	    {"{\"field\": [" ROWS11_SPACED ",\"RRYGG.\"]}", true},    /* mixed */
	    {"{\"field\": [" ROWS11_SPACED ", \"RRYGGy\"]}", false},  /* lower case */
	    {"{\"field\": [" ROWS11_SPACED ", \"RRYGG\"\"]}", false}, /* a quote */
	    {"{\"field\": [" ROWS11_SPACED ", \"RRYGG.\"]", false},   /* no } */
	    {"{\"field\": [" ROWS11_SPACED ", \"RRYGG.\"]}x", false}, /* more */
	    {"{\"field\": [" ROWS11_SPACED ", \"RRYGG.\", \"......\", \"......\"]}", false},
	};
#undef ROWS11
#undef ROWS11_SPACED
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *body = cases[i].body;
		struct puyo_field fast, full;
		struct puyo_planes any;
		unsigned nrows;
		bool taken = puyo_json_fast_planes(body, strlen(body), &any, &nrows);
		if (taken != cases[i].taken)
			fail_msg("'%s': taken %d, want %d", body, taken, cases[i].taken);
		if (!taken)
			continue;
		puyo_planes_to_field(&any, nrows, &fast);
		json_t *root = json_loads(body, JSON_REJECT_DUPLICATES, NULL);
		assert_non_null(root);
		assert_int_equal(puyo_json_read(root, "", false, &full, NULL), CODEC_OK);
		json_decref(root);
		assert_int_equal(fast.rows, full.rows);
		assert_memory_equal(fast.cell, full.cell, fast.rows * sizeof fast.cell[0]);
		/* straight into planes: those of the field jansson's path reads */
		struct puyo_planes planes, want;
		unsigned rows = 0;
		assert_true(puyo_json_fast_planes(body, strlen(body), &planes, &rows));
		assert_int_equal(rows, full.rows);
		puyo_planes_from_field(&want, &full);
		assert_memory_equal(&planes, &want, sizeof want);
	}
}

/*
 * How many random cases a differential test runs: `sample` in `make test`,
 * `full` under `make test-long` (DROPJUDGE_TEST_LONG=1 in the environment).
 */
static unsigned test_cases(unsigned sample, unsigned full)
{
	const char *v = getenv("DROPJUDGE_TEST_LONG");
	return v && strcmp(v, "1") == 0 ? full : sample;
}

/* The JSON fast path against jansson's path, on fields written in the
 * usual layouts and in others, then with a byte changed or cut short: a
 * body it takes is one jansson reads to the same rows and planes. */
static void puyo_json_fast_should_read_random_bodies_as_jansson_does(void **state)
{
	(void)state;
	static const char alphabet[] = ".RGBPYO";
	static const char noise[] = ".RGBPYOX\" ,]}[{\\\n y0";
	struct gen_rng rng;
	gen_rng_init(&rng, 20061);
	unsigned n = test_cases(20000, 1000000);
	for (unsigned i = 0; i < n; i++) {
		char body[512];
		unsigned rows = gen_rng_below(&rng, 8) == 0 ? 11 + (unsigned)gen_rng_below(&rng, 4)
				: gen_rng_below(&rng, 2)    ? PUYO_ROWS_MAX
							    : PUYO_ROWS;
		const char *sep = gen_rng_below(&rng, 2) ? ", " : ",";
		size_t len = (size_t)snprintf(body, sizeof body, "{\"field\":%s[",
					      gen_rng_below(&rng, 2) ? " " : "");
		for (unsigned r = 0; r < rows; r++) {
			if (r > 0)
				len += (size_t)snprintf(body + len, sizeof body - len, "%s",
							gen_rng_below(&rng, 16) ? sep : " , ");
			body[len++] = '"';
			for (unsigned c = 0; c < PUYO_COLS; c++)
				body[len++] = alphabet[gen_rng_below(&rng, 7)];
			body[len++] = '"';
		}
		len += (size_t)snprintf(body + len, sizeof body - len, "]}");
		if (gen_rng_below(&rng, 2)) /* one byte changed */
			body[gen_rng_below(&rng, len)] =
			    noise[gen_rng_below(&rng, sizeof noise - 1)];
		if (gen_rng_below(&rng, 8) == 0) /* cut short */
			len = (size_t)gen_rng_below(&rng, len);
		struct puyo_planes got, want;
		unsigned got_rows = 0;
		if (!puyo_json_fast_planes(body, len, &got, &got_rows))
			continue;
		json_t *root = json_loadb(body, len, JSON_REJECT_DUPLICATES, NULL);
		if (!root)
			fail_msg("'%.*s': taken, but not JSON", (int)len, body);
		struct puyo_field full;
		if (puyo_json_read(root, "", false, &full, NULL) != CODEC_OK)
			fail_msg("'%.*s': taken, but not a case", (int)len, body);
		json_decref(root);
		assert_int_equal(got_rows, full.rows);
		puyo_planes_from_field(&want, &full);
		assert_memory_equal(&got, &want, sizeof want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(puyo_json_should_report_the_first_fault_where_it_is),
	    cmocka_unit_test(puyo_json_should_read_rows_top_first_with_the_hidden_row),
	    cmocka_unit_test(puyo_json_should_put_the_case_pointer_first),
	    cmocka_unit_test(puyo_json_should_not_cut_an_escape_after_the_case_pointer),
	    cmocka_unit_test(puyo_json_should_fail_without_an_error_to_fill),
	    cmocka_unit_test(puyo_json_should_collect_every_fault_in_strict_mode),
	    cmocka_unit_test(puyo_json_should_report_one_floating_puyo_per_column),
	    cmocka_unit_test(puyo_text_should_report_the_first_fault_where_it_is),
	    cmocka_unit_test(puyo_text_should_read_rows_top_first),
	    cmocka_unit_test(puyo_text_should_collect_every_fault_in_strict_mode),
	    cmocka_unit_test(puyo_text_should_collect_in_lenient_mode_when_asked),
	    cmocka_unit_test(puyo_text_should_count_faults_past_the_limit),
	    cmocka_unit_test(puyo_should_write_results_and_fields),
	    cmocka_unit_test(puyo_json_write_result_should_give_the_bytes_of_the_dump),
	    cmocka_unit_test(puyo_should_pass_every_data_driven_case),
	    cmocka_unit_test(puyo_lines_should_read_like_the_reference_on_every_path),
	    cmocka_unit_test(puyo_lines_should_name_what_is_wrong_and_where),
	    cmocka_unit_test(
		puyo_json_fast_should_take_the_canonical_case_only_and_read_it_as_jansson),
	    cmocka_unit_test(puyo_json_fast_should_read_random_bodies_as_jansson_does),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
