/*
 * The statement PDF (see pdf.h): UTF-8 mapped to WinAnsiEncoding and laid out one line at a time
 * here; libharu measures the lines in the standard fonts and writes the file.
 */
#include "package/pdf.h"

#include <string.h>

#include "codec/utf8.h"
#include "mem/alloc.h"

/* A4 in points, and the margins on every side. */
#define PDF_PAGE_W   595
#define PDF_PAGE_H   842
#define PDF_MARGIN   56
#define PDF_LINE_W   (PDF_PAGE_W - 2 * PDF_MARGIN)
#define PDF_PARA_GAP 7	   /* points between paragraphs of a body block */
#define PDF_MEASURE  1024  /* bytes measured for a line: more than any line holds */
#define PDF_POOL     65536 /* bytes of each block of libharu's memory pool */

/* One row a style: font, size and line height in points, space around. */
static const struct {
	const char *font;
	int size;
	int leading;
	int above; /* points above the block, unless it starts a page */
	int below; /* points below the block */
	bool wrap_at_spaces;
} pdf_styles[] = {
    [PDF_TITLE] = {"Helvetica-Bold", 20, 24, 0, 8, true},
    [PDF_HEADING] = {"Helvetica-Bold", 14, 18, 10, 3, true},
    [PDF_SUBHEADING] = {"Helvetica-Bold", 12, 15, 6, 2, true},
    [PDF_BODY] = {"Helvetica", 11, 14, 0, 0, true},
    [PDF_MONO] = {"Courier", 10, 12, 2, 6, false},
};

/* libharu's allocator (dj_free() releases): the project's, which tests can make fail. */
static void *pdf_alloc(HPDF_UINT size)
{
	return dj_malloc(size);
}

/* The WinAnsi byte of code point cp in libharu's table of the encoding, a space for a tab,
 * else '?', one a character, which keeps the columns of a Courier block. */
static char pdf_winansi(HPDF_Encoder enc, unsigned long cp)
{
	cp = cp == '\t' ? ' ' : cp;
	for (unsigned code = 0x20; code <= 0xFF; code++)
		if (HPDF_Encoder_GetUnicode(enc, (HPDF_UINT16)code) == cp)
			return (char)code;
	return '?';
}

/* Whether libharu has not failed so far; a failure marks the document failed. */
static bool pdf_ok(struct pdf_doc *d)
{
	d->failed |= !d->pdf || HPDF_GetError(d->pdf) != HPDF_OK;
	return !d->failed;
}

/* Starts a new A4 page; false (and failed) when libharu fails. */
static bool pdf_new_page(struct pdf_doc *d)
{
	d->page = HPDF_AddPage(d->pdf);
	d->y = PDF_PAGE_H - PDF_MARGIN;
	return pdf_ok(d) && HPDF_Page_SetWidth(d->page, PDF_PAGE_W) == HPDF_OK &&
	       HPDF_Page_SetHeight(d->page, PDF_PAGE_H) == HPDF_OK;
}

void pdf_init(struct pdf_doc *d)
{
	*d = (struct pdf_doc){.pdf = HPDF_NewEx(NULL, pdf_alloc, dj_free, PDF_POOL, NULL)};
	pdf_new_page(d);
}

void pdf_free(struct pdf_doc *d)
{
	HPDF_Free(d->pdf);
	*d = (struct pdf_doc){.pdf = NULL};
}

/* Moves down by `points` of space, never onto a new page nor at its top. */
static void pdf_space(struct pdf_doc *d, int points)
{
	if (d->y != PDF_PAGE_H - PDF_MARGIN)
		d->y = d->y - points < PDF_MARGIN ? PDF_MARGIN : d->y - points;
}

/* Sets the WinAnsi bytes s[0..n) as one line in `style` and `font`, on a new page when full;
 * s[n] is briefly a NUL for libharu. Failure marks the document. */
static void pdf_line(struct pdf_doc *d, enum pdf_style style, HPDF_Font font, char *s, size_t n)
{
	int size = pdf_styles[style].size, leading = pdf_styles[style].leading;
	if (d->y - leading < PDF_MARGIN && !pdf_new_page(d))
		return;
	d->y -= leading;
	char end = s[n];
	s[n] = '\0';
	HPDF_Page_BeginText(d->page);
	HPDF_Page_SetFontAndSize(d->page, font, (HPDF_REAL)size);
	HPDF_Page_TextOut(d->page, PDF_MARGIN, (HPDF_REAL)(d->y + (leading - size) / 2), s);
	HPDF_Page_EndText(d->page);
	s[n] = end;
}

/* Sets the lines of s[0..n) (s[n] is '\n' or a NUL), broken where full: after the last space
 * that fits if the style wraps at spaces and a word fits (dropping the spaces), else after the
 * last character that fits; an empty line is a gap in body text. Failure marks the document. */
static void pdf_lines(struct pdf_doc *d, enum pdf_style style, char *s, size_t n)
{
	HPDF_Font font = HPDF_GetFont(d->pdf, pdf_styles[style].font, "WinAnsiEncoding");
	HPDF_REAL size = (HPDF_REAL)pdf_styles[style].size;
	bool at_spaces = pdf_styles[style].wrap_at_spaces, newline;
	do {
		HPDF_UINT len = n < PDF_MEASURE ? (HPDF_UINT)n : PDF_MEASURE;
		const HPDF_BYTE *b = (const HPDF_BYTE *)s;
		size_t take = 0;
		for (int wrap = at_spaces; take == 0 && wrap >= 0; wrap--)
			take =
			    HPDF_Font_MeasureText(font, b, len, PDF_LINE_W, size, 0, 0, wrap, NULL);
		take = take || n == 0 ? take : 1;
		newline = take > 0 && s[take - 1] == '\n';
		if (take == newline && at_spaces)
			pdf_space(d, PDF_PARA_GAP);
		else
			pdf_line(d, style, font, s, take - newline);
		size_t spaces = at_spaces && !newline ? strspn(s + take, " ") : 0;
		s += take + spaces;
		n -= take + spaces;
	} while ((n > 0 || newline) && pdf_ok(d)); /* a newline at the end leaves an empty line */
}

void pdf_add(struct pdf_doc *d, enum pdf_style style, const char *text)
{
	HPDF_Encoder enc = pdf_ok(d) ? HPDF_GetEncoder(d->pdf, "WinAnsiEncoding") : NULL;
	size_t len = strlen(text), n = 0;
	char *bytes = enc ? dj_calloc(len + 1, 1) : NULL; /* NUL-terminated as it is filled */
	if (!bytes) {
		d->failed = true;
		return;
	}
	for (size_t i = 0; i < len;) {
		unsigned long cp;
		size_t k = codec_utf8_decode(text + i, len - i, &cp);
		bytes[n++] = text[i] == '\n' ? '\n' : k ? pdf_winansi(enc, cp) : '?';
		i += k ? k : 1;
	}
	pdf_space(d, pdf_styles[style].above);
	/* A trailing newline ends the last line; it does not start another. */
	pdf_lines(d, style, bytes, n > 0 && bytes[n - 1] == '\n' ? n - 1 : n);
	pdf_space(d, pdf_styles[style].below);
	dj_free(bytes);
}

void pdf_finish(struct pdf_doc *d, const char *title, struct problem_text *out)
{
	if (pdf_ok(d)) {
		HPDF_UseUTFEncodings(d->pdf);
		HPDF_SetCurrentEncoder(d->pdf, "UTF-8");
		HPDF_SetInfoAttr(d->pdf, HPDF_INFO_TITLE, title);
		HPDF_SaveToStream(d->pdf);
	}
	HPDF_UINT32 size = pdf_ok(d) ? HPDF_GetStreamSize(d->pdf) : 0;
	HPDF_BYTE *buf = size ? dj_malloc(size) : NULL;
	if (!buf || HPDF_ResetStream(d->pdf) != HPDF_OK ||
	    HPDF_ReadFromStream(d->pdf, buf, &size) != HPDF_OK)
		d->failed = true;
	else
		problem_text_put(out, (const char *)buf, size);
	dj_free(buf);
	out->failed |= d->failed;
}
