/*
 * The statement PDF (src/package/pdf.h, written by libharu): every file
 * is read back here as a PDF reader starts, from the end: startxref, the
 * cross-reference table, each object at its recorded offset, each stream
 * as long as its /Length object says, each page's fonts, and the page
 * tree's /Count against the page objects. The text shown is collected from the content streams'
 * strings, so that the edge cases (empty text, lines wider than the page, many pages, characters
 * outside WinAnsiEncoding) are checked for what the page shows. Every allocation made to fail in
 * turn must leave the output marked failed and nothing leaked (run under SANITIZER=address to see
 * leaks). The same files are checked by qpdf and pdftotext in tests/judges.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mem/alloc.h"
#include "package/pdf.h"

/* What a finished file holds, as read back. */
struct shown {
	char text[65536];   /* every string shown, each followed by '\n' */
	size_t len;	    /* bytes in text */
	unsigned lines;	    /* strings shown */
	unsigned longest;   /* bytes of the longest string */
	unsigned pages;	    /* page objects */
	unsigned mono;	    /* strings shown in Courier */
	unsigned max_count; /* /Count of the page tree */
};

/* The objects of the file read back: their offsets by number. */
static size_t offsets[4096];

static const char *find(const char *hay, size_t n, const char *needle)
{
	size_t k = strlen(needle);
	for (size_t i = 0; i + k <= n; i++)
		if (memcmp(hay + i, needle, k) == 0)
			return hay + i;
	return NULL;
}

static const char *find_last(const char *hay, size_t n, const char *needle)
{
	const char *last = NULL;
	for (const char *p = hay; (p = find(p, n - (size_t)(p - hay), needle)); p++)
		last = p;
	return last;
}

/* The body of object `num`, checked to start with its "num 0 obj" line. */
static const char *object(const char *d, unsigned num)
{
	char head[32];
	int k = snprintf(head, sizeof head, "%u 0 obj\n", num);
	assert_true(num < sizeof offsets / sizeof *offsets && offsets[num] > 0);
	assert_memory_equal(d + offsets[num], head, (size_t)k);
	return d + offsets[num] + k;
}

/*
 * Reads the strings of one content stream s[0..n) into sh: each shown as
 * libharu writes a line (BT, font and size, position, string, ET), the
 * font resolved through the page's resources: fonts[k] is the BaseFont
 * of /Fk.
 */
static void collect(const char *s, size_t n, char fonts[][32], struct shown *sh)
{
	for (const char *p = s; (p = find(p, n - (size_t)(p - s), "BT\n/F"));) {
		char *end;
		unsigned f = (unsigned)strtoul(p + 5, &end, 10);
		assert_true(f > 0 && f < 8 && fonts[f][0]);
		unsigned size = (unsigned)strtoul(end, &end, 10);
		assert_memory_equal(end, " Tf\n", 4);
		bool mono = strcmp(fonts[f], "Courier") == 0;
		/* Each style's font and size (the table of pdf.c). */
		if (mono)
			assert_int_equal(size, 10);
		else
			assert_true(strncmp(fonts[f], "Helvetica", 9) == 0 && size >= 11);
		p = strstr(end, " Td\n");
		assert_non_null(p);
		p += 4;
		unsigned len = 0;
		/* libharu writes no string for an empty line. */
		if (strncmp(p, "ET\n", 3) != 0) {
			assert_int_equal(*p, '(');
			for (p++; *p != ')'; p++, len++) {
				char c = *p;
				if (c == '\\') {
					p++;
					if (*p >= '0' && *p <= '7') {
						c = (char)((p[0] - '0') * 64 + (p[1] - '0') * 8 +
							   (p[2] - '0'));
						p += 2;
					} else {
						c = *p;
					}
				}
				assert_true(sh->len + 2 < sizeof sh->text);
				sh->text[sh->len++] = c;
			}
			assert_memory_equal(p, ") Tj\nET\n", 8);
		}
		sh->text[sh->len++] = '\n';
		sh->text[sh->len] = '\0';
		sh->lines++;
		sh->mono += mono;
		if (len > sh->longest)
			sh->longest = len;
	}
}

/* Reads page object `body`: its fonts, then the strings of its contents. */
static void read_page(const char *d, const char *body, struct shown *sh)
{
	static char fonts[8][32];
	memset(fonts, 0, sizeof fonts);
	size_t n = (size_t)(strstr(body, "endobj\n") - body);
	const char *f = find(body, n, "/Font <<\n"); /* none on a blank page */
	for (f = f ? f + 9 : ""; strncmp(f, "/F", 2) == 0; f = strchr(f, '\n') + 1) {
		char *end;
		unsigned k = (unsigned)strtoul(f + 2, &end, 10);
		unsigned num = (unsigned)strtoul(end, NULL, 10);
		assert_true(k > 0 && k < 8);
		const char *base = strstr(object(d, num), "/BaseFont /");
		assert_non_null(base);
		assert_int_equal(sscanf(base + 11, "%31[A-Za-z-]", fonts[k]), 1);
	}
	const char *c = find(body, n, "/Contents ");
	assert_non_null(c);
	const char *stream = object(d, (unsigned)strtoul(c + 10, NULL, 10));
	char *end;
	assert_memory_equal(stream, "<<\n/Length ", 11);
	unsigned length_obj = (unsigned)strtoul(stream + 11, &end, 10);
	assert_memory_equal(end, " 0 R\n>>\nstream\r\n", 16);
	const char *data = end + 16;
	size_t len = strtoul(object(d, length_obj), NULL, 10);
	assert_memory_equal(data + len, "\nendstream\nendobj\n", 18);
	collect(data, len, fonts, sh);
}

/*
 * Checks the file's structure as a reader finds it, and reads what it
 * shows: startxref, the cross-reference table, each object at its
 * recorded offset, each page's content stream as long as its /Length
 * object says, and the page tree's /Count against the page objects.
 */
static void read_back(const struct problem_text *pdf, struct shown *sh)
{
	const char *d = pdf->data;
	size_t n = pdf->len;
	memset(sh, 0, sizeof *sh);
	memset(offsets, 0, sizeof offsets);
	assert_false(pdf->failed);
	assert_non_null(d);
	assert_memory_equal(d, "%PDF-1.3\n%", 10);
	assert_memory_equal(d + n - 6, "%%EOF\n", 6);
	const char *sx = find_last(d, n, "startxref\n");
	assert_non_null(sx);
	size_t xref = strtoul(sx + 10, NULL, 10);
	assert_true(xref < n);
	assert_memory_equal(d + xref, "xref\n0 ", 7);
	char *end;
	unsigned size = (unsigned)strtoul(d + xref + 7, &end, 10);
	assert_true(size < sizeof offsets / sizeof *offsets);
	assert_memory_equal(end, "\n0000000000 65535 f\r\n", 21);
	const char *entry = end + 21;
	for (unsigned i = 1; i < size; i++, entry += 20) {
		assert_memory_equal(entry + 10, " 00000 n\r\n", 10);
		offsets[i] = strtoul(entry, NULL, 10);
		assert_true(offsets[i] > 0 && offsets[i] < n);
		object(d, i);
	}
	/* Pages in the order of their objects, which is the order they were added. */
	for (unsigned i = 1; i < size; i++) {
		const char *body = object(d, i);
		if (strncmp(body, "<<\n/Type /Page\n", 15) == 0) {
			sh->pages++;
			read_page(d, body, sh);
		}
		if (strncmp(body, "<<\n/Type /Pages\n", 16) == 0)
			sh->max_count = (unsigned)strtoul(strstr(body, "/Count ") + 7, NULL, 10);
	}
	assert_memory_equal(entry, "trailer\n<<\n/Root ", 17);
	char trailer[32];
	snprintf(trailer, sizeof trailer, "/Size %u\n", size);
	assert_non_null(find(entry, (size_t)(sx - entry), trailer));
	assert_true(sh->pages >= 1);
	assert_int_equal(sh->max_count, sh->pages);
}

/* Lays out blocks (style, text; NULL text ends them) and reads the file back. */
static void layout(struct shown *sh, const char *title, const enum pdf_style *styles,
		   const char *const *texts)
{
	struct pdf_doc d;
	struct problem_text out;
	pdf_init(&d);
	problem_text_init(&out);
	for (unsigned i = 0; texts[i]; i++)
		pdf_add(&d, styles[i], texts[i]);
	pdf_finish(&d, title, &out);
	read_back(&out, sh);
	pdf_free(&d);
	problem_text_free(&out);
}

static struct shown sh; /* large: not on the stack */

static void pdf_should_write_one_blank_page_for_an_empty_document(void **state)
{
	(void)state;
	static const enum pdf_style none[] = {PDF_BODY};
	static const char *const nothing[] = {NULL};
	layout(&sh, "", none, nothing);
	assert_int_equal(sh.pages, 1);
	assert_int_equal(sh.lines, 0);
	static const enum pdf_style styles[] = {PDF_BODY, PDF_TITLE, PDF_MONO, PDF_BODY};
	static const char *const empty[] = {"", "", "", "\n\n\n", NULL};
	layout(&sh, "", styles, empty);
	assert_int_equal(sh.pages, 1);
	/* Empty body text and an empty title are gaps; an empty Courier block is
	 * one empty line. */
	assert_int_equal(sh.lines, 1);
	assert_int_equal(sh.mono, 1);
	assert_int_equal(sh.len, 1);
}

static void pdf_should_wrap_a_line_wider_than_the_page(void **state)
{
	(void)state;
	static char word[2001], words[2001];
	memset(word, 'x', 2000);
	for (unsigned i = 0; i < 2000; i++)
		words[i] = i % 5 == 4 ? ' ' : 'w';
	static const enum pdf_style styles[] = {PDF_MONO, PDF_BODY, PDF_BODY};
	const char *const texts[] = {word, word, words, NULL};
	layout(&sh, "Wide", styles, texts);
	/* Courier 10 pt: 600 units a character, 483 pt a line, 80 characters. */
	const char *p = sh.text;
	for (unsigned i = 0; i < 25; i++, p += 81) {
		assert_memory_equal(p, word, 80);
		assert_int_equal(p[80], '\n');
	}
	/* Helvetica 11 pt, 'x' 500 units: 87 characters fit, a word that
	 * does not fit any line is broken where the line is full. */
	for (unsigned i = 0; i < 22; i++, p += 88) {
		assert_memory_equal(p, word, 87);
		assert_int_equal(p[87], '\n');
	}
	assert_memory_equal(p, word, 2000 - 22 * 87);
	p += 2000 - 22 * 87 + 1;
	/* Words are never broken: every line holds whole "wwww" words. */
	unsigned ws = 0;
	for (; *p; p++) {
		if (*p == 'w')
			ws++;
		else
			assert_true(*p == '\n' || (*p == ' ' && p[-1] == 'w' && p[1] == 'w') ||
				    (*p == ' ' && p[1] == '\n'));
		if (*p == '\n')
			assert_int_equal(ws % 4, 0);
	}
	assert_int_equal(ws, 1600);
	assert_true(sh.longest <= 87);
}

static void pdf_should_break_pages_and_keep_every_line_in_order(void **state)
{
	(void)state;
	static char text[20000];
	size_t n = 0;
	for (unsigned i = 0; i < 1000; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "line %u\n", i);
	static const enum pdf_style styles[] = {PDF_TITLE, PDF_MONO};
	const char *const texts[] = {"Many", text, NULL};
	layout(&sh, "Many", styles, texts);
	/* 730 pt between the margins, 12 pt a Courier line: 60 lines a page. */
	assert_int_equal(sh.pages, 17);
	assert_int_equal(sh.mono, 1000);
	assert_string_equal(sh.text + 5, text);
}

static void pdf_should_map_text_to_winansi_and_show_the_rest_as_question_marks(void **state)
{
	(void)state;
	static const enum pdf_style styles[] = {PDF_BODY, PDF_MONO};
	static const char *const texts[] = {
	    "\xE2\x80\x98q\xE2\x80\x99 \xE2\x80\x9C"
	    "d\xE2\x80\x9D \xE2\x80\x93 \xE2\x80\x94 \xE2\x80\xA2 \xE2\x80\xA6 \xE2\x82\xAC "
	    "\xC3\xA9 (a) \\ b",
	    "\xE6\xBC\xA2|\x01|\xFF|\xE2\x89\xA4|\t|\xF0\x9F\x98\x80|",
	    NULL,
	};
	layout(&sh, "Caf\xC3\xA9 \xF0\x9F\x98\x80", styles, texts);
	assert_string_equal(sh.text, "\x91q\x92 \x93"
				     "d\x94 \x96 \x97 \x95 \x85 \x80 \xE9 (a) \\ b\n"
				     "?|?|?|?| |?|\n");
}

static void pdf_should_write_the_title_as_utf16(void **state)
{
	(void)state;
	struct pdf_doc d;
	struct problem_text out;
	pdf_init(&d);
	problem_text_init(&out);
	/* Beyond WinAnsi and Latin-1 too (U+2605); libharu writes a character
	 * outside the Basic Multilingual Plane (U+1F600) as a space. */
	pdf_finish(&d, "Caf\xC3\xA9 \xE2\x98\x85 \xF0\x9F\x98\x80", &out);
	assert_false(out.failed);
	assert_non_null(strstr(out.data, "/Title <FEFF00430061006600E90020260500200020>"));
	pdf_free(&d);
	problem_text_free(&out);
}

/* --- Failure injection through the allocation seam (mem/alloc.h) ------- */

static long allocs_left = -1; /* allocations to allow before failing; < 0: never fail */
static bool refused;	      /* an allocation was refused */

static int chaos_refuse(void)
{
	if (allocs_left == 0) {
		refused = true;
		return 1;
	}
	if (allocs_left > 0)
		allocs_left--;
	return 0;
}

static void *chaos_malloc(size_t size)
{
	return chaos_refuse() ? NULL : malloc(size);
}

static void *chaos_realloc(void *p, size_t size)
{
	return chaos_refuse() ? NULL : realloc(p, size);
}

static void pdf_should_mark_the_output_failed_whichever_allocation_fails(void **state)
{
	(void)state;
	static char text[4000];
	size_t n = 0;
	for (unsigned i = 0; i < 300; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "%u\n", i);
	for (long k = 0;; k++) {
		struct pdf_doc d;
		struct problem_text out;
		problem_text_init(&out);
		allocs_left = k;
		refused = false;
		dj_alloc_set(chaos_malloc, chaos_realloc, free);
		pdf_init(&d); /* libharu's document and first page: allocations too */
		pdf_add(&d, PDF_TITLE, "T");
		pdf_add(&d, PDF_MONO, text);
		pdf_finish(&d, "T", &out);
		bool done = !refused;
		dj_alloc_set(NULL, NULL, NULL);
		if (done) {
			read_back(&out, &sh);
			assert_int_equal(sh.lines, 301);
		} else {
			assert_true(out.failed);
		}
		pdf_free(&d);
		problem_text_free(&out);
		if (done)
			break;
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(pdf_should_write_one_blank_page_for_an_empty_document),
	    cmocka_unit_test(pdf_should_wrap_a_line_wider_than_the_page),
	    cmocka_unit_test(pdf_should_break_pages_and_keep_every_line_in_order),
	    cmocka_unit_test(pdf_should_map_text_to_winansi_and_show_the_rest_as_question_marks),
	    cmocka_unit_test(pdf_should_write_the_title_as_utf16),
	    cmocka_unit_test(pdf_should_mark_the_output_failed_whichever_allocation_fails),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
