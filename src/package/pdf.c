/*
 * The statement PDF writer (see pdf.h): UTF-8 mapped to WinAnsiEncoding, laid out one line at a
 * time with the widths of Adobe's font metrics, then the objects and their cross-reference table.
 */
#include "package/pdf.h"

#include <stdint.h>
#include <string.h>

#include "codec/utf8.h"
#include "mem/alloc.h"

/* A4 in points, and the margins on every side. */
#define PDF_PAGE_W   595
#define PDF_PAGE_H   842
#define PDF_MARGIN   56
#define PDF_LINE_W   ((PDF_PAGE_W - 2 * PDF_MARGIN) * 1000) /* in 1/1000 pt */
#define PDF_PARA_GAP 7 /* points between paragraphs of a body block */

enum pdf_font { PDF_F_REGULAR, PDF_F_BOLD, PDF_F_MONO };

static const char *const pdf_font_names[] = {"Helvetica", "Helvetica-Bold", "Courier"};

/* One row a style: font, size and line height in points, space around. */
static const struct {
	enum pdf_font font;
	int size;
	int leading;
	int above; /* points above the block, unless it starts a page */
	int below; /* points below the block */
	bool wrap_at_spaces;
} pdf_styles[] = {
    [PDF_TITLE] = {PDF_F_BOLD, 20, 24, 0, 8, true},
    [PDF_HEADING] = {PDF_F_BOLD, 14, 18, 10, 3, true},
    [PDF_SUBHEADING] = {PDF_F_BOLD, 12, 15, 6, 2, true},
    [PDF_BODY] = {PDF_F_REGULAR, 11, 14, 0, 0, true},
    [PDF_MONO] = {PDF_F_MONO, 10, 12, 2, 6, false},
};

/*
 * Widths of the WinAnsi codes 32..255 in 1/1000 em, from Adobe's AFM files
 * of the standard fonts; sixteen codes a row. Codes WinAnsi leaves unused
 * (127, 129, 141, 143, 144, 157) are never written.
 */
/* clang-format off */
static const uint16_t pdf_helvetica[224] = {
	 278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, /* 32.. */
	 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, /* 48.. */
	1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, /* 64.. */
	 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, /* 80.. */
	 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, /* 96.. */
	 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, 350, /* 112.. */
	 556, 350, 222, 556, 333,1000, 556, 556, 333,1000, 667, 333,1000, 350, 611, 350, /* 128.. */
	 350, 222, 222, 333, 333, 350, 556,1000, 333,1000, 500, 333, 944, 350, 500, 667, /* 144.. */
	 278, 333, 556, 556, 556, 556, 260, 556, 333, 737, 370, 556, 584, 333, 737, 333, /* 160.. */
	 400, 584, 333, 333, 333, 556, 537, 278, 333, 333, 365, 556, 834, 834, 834, 611, /* 176.. */
	 667, 667, 667, 667, 667, 667,1000, 722, 667, 667, 667, 667, 278, 278, 278, 278, /* 192.. */
	 722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667, 611, /* 208.. */
	 556, 556, 556, 556, 556, 556, 889, 500, 556, 556, 556, 556, 278, 278, 278, 278, /* 224.. */
	 556, 556, 556, 556, 556, 556, 556, 584, 611, 556, 556, 556, 556, 500, 556, 500, /* 240.. */
};

static const uint16_t pdf_helvetica_bold[224] = {
	 278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278, /* 32.. */
	 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611, /* 48.. */
	 975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778, /* 64.. */
	 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556, /* 80.. */
	 333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611, /* 96.. */
	 611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584, 350, /* 112.. */
	 556, 350, 278, 556, 500,1000, 556, 556, 333,1000, 667, 333,1000, 350, 611, 350, /* 128.. */
	 350, 278, 278, 500, 500, 350, 556,1000, 333,1000, 556, 333, 944, 350, 500, 667, /* 144.. */
	 278, 333, 556, 556, 556, 556, 280, 556, 333, 737, 370, 556, 584, 333, 737, 333, /* 160.. */
	 400, 584, 333, 333, 333, 611, 556, 278, 333, 333, 365, 556, 834, 834, 834, 611, /* 176.. */
	 722, 722, 722, 722, 722, 722,1000, 722, 667, 667, 667, 667, 278, 278, 278, 278, /* 192.. */
	 722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667, 611, /* 208.. */
	 556, 556, 556, 556, 556, 556, 889, 556, 556, 556, 556, 556, 278, 278, 278, 278, /* 224.. */
	 611, 611, 611, 611, 611, 611, 611, 584, 611, 611, 611, 611, 611, 556, 611, 556, /* 240.. */
};
/* clang-format on */

/* Width of WinAnsi byte c (32 or more: pdf_winansi() gives no control
 * character) in font f, in 1/1000 em. */
static unsigned pdf_width(enum pdf_font f, unsigned char c)
{
	if (f == PDF_F_MONO)
		return 600;
	return f == PDF_F_BOLD ? pdf_helvetica_bold[c - 32] : pdf_helvetica[c - 32];
}

/* The code points of WinAnsi's 0x80..0x9F (0: unused code). */
static const uint16_t pdf_winansi_high[32] = {
    0x20AC, 0,	    0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0,	    0x017D, 0,	    0,	    0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,	    0x017E, 0x0178,
};

/*
 * The WinAnsi byte of code point cp: the same byte for printable ASCII and
 * U+00A0..U+00FF, 0x80..0x9F for the typographic characters WinAnsi has
 * (curly quotes, dashes, the bullet, the euro sign ...), a space for a tab,
 * else '?', one a character, which keeps the columns of a Courier block.
 */
static char pdf_winansi(unsigned long cp)
{
	if (cp == '\t')
		return ' ';
	if ((cp >= 0x20 && cp < 0x7F) || (cp >= 0xA0 && cp <= 0xFF))
		return (char)cp;
	for (unsigned i = 0; i < 32; i++)
		if (pdf_winansi_high[i] && pdf_winansi_high[i] == cp)
			return (char)(0x80 + i);
	return '?';
}

void pdf_init(struct pdf_doc *d)
{
	*d = (struct pdf_doc){.pages = NULL};
}

void pdf_free(struct pdf_doc *d)
{
	for (unsigned i = 0; i < d->npages; i++)
		problem_text_free(&d->pages[i]);
	dj_free(d->pages);
	pdf_init(d);
}

/* Starts a new page; false (and failed) when out of memory. */
static bool pdf_new_page(struct pdf_doc *d)
{
	struct problem_text *p = dj_realloc(d->pages, (d->npages + 1) * sizeof *p);
	if (!p) {
		d->failed = true;
		return false;
	}
	d->pages = p;
	problem_text_init(&d->pages[d->npages++]);
	d->y = PDF_PAGE_H - PDF_MARGIN;
	return true;
}

/* Moves down by `points` of space, never onto a new page nor at its top. */
static void pdf_space(struct pdf_doc *d, int points)
{
	if (d->npages > 0 && d->y != PDF_PAGE_H - PDF_MARGIN)
		d->y = d->y - points < PDF_MARGIN ? PDF_MARGIN : d->y - points;
}

/* Sets the WinAnsi bytes s[0..n) as one line in `style`, on a new page when full. */
static void pdf_line(struct pdf_doc *d, enum pdf_style style, const char *s, size_t n)
{
	int size = pdf_styles[style].size, leading = pdf_styles[style].leading;
	if ((d->npages == 0 || d->y - leading < PDF_MARGIN) && !pdf_new_page(d))
		return;
	struct problem_text *t = &d->pages[d->npages - 1];
	d->y -= leading;
	problem_text_printf(t, "BT /F%d %d Tf %d %d Td (", (int)pdf_styles[style].font + 1, size,
			    PDF_MARGIN, d->y + (leading - size) / 2);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '(' || c == ')' || c == '\\')
			problem_text_printf(t, "\\%c", c);
		else if (c < 0x20 || c >= 0x7F)
			problem_text_printf(t, "\\%03o", c);
		else
			problem_text_put(t, (const char *)&c, 1);
	}
	problem_text_puts(t, ") Tj ET\n");
	if (t->failed)
		d->failed = true;
}

/* Sets the source line s[0..n) wrapped at the margin: at the last space that
 * fits (dropping the spaces there) if the style wraps at spaces and a word
 * fits, else at the last character that fits. An empty line is a paragraph
 * gap in body text, an empty line in a Courier block. */
static void pdf_wrapped(struct pdf_doc *d, enum pdf_style style, const char *s, size_t n)
{
	enum pdf_font font = pdf_styles[style].font;
	long max = PDF_LINE_W / pdf_styles[style].size;
	bool at_spaces = pdf_styles[style].wrap_at_spaces;
	if (n == 0 && at_spaces) {
		pdf_space(d, PDF_PARA_GAP);
		return;
	}
	do {
		size_t fit = 0, space = 0;
		long w = 0;
		while (fit < n && w + (long)pdf_width(font, (unsigned char)s[fit]) <= max) {
			w += pdf_width(font, (unsigned char)s[fit]);
			if (s[fit] == ' ')
				space = fit;
			fit++;
		}
		size_t take = fit == n ? n : at_spaces && space > 0 ? space : fit ? fit : 1;
		pdf_line(d, style, s, take);
		s += take;
		n -= take;
		while (at_spaces && n > 0 && *s == ' ') {
			s++;
			n--;
		}
	} while (n > 0 && !d->failed);
}

void pdf_add(struct pdf_doc *d, enum pdf_style style, const char *text)
{
	if (d->failed)
		return;
	size_t len = strlen(text);
	char *bytes = dj_malloc(len + 1);
	if (!bytes) {
		d->failed = true;
		return;
	}
	size_t n = 0;
	for (size_t i = 0; i < len;) {
		unsigned long cp;
		size_t k = codec_utf8_decode(text + i, len - i, &cp);
		bytes[n++] = text[i] == '\n' ? '\n' : k ? pdf_winansi(cp) : '?';
		i += k ? k : 1;
	}
	pdf_space(d, pdf_styles[style].above);
	/* A trailing newline ends the last line; it does not start another. */
	if (n > 0 && bytes[n - 1] == '\n')
		n--;
	for (size_t i = 0; i <= n && !d->failed;) {
		size_t end = i;
		while (end < n && bytes[end] != '\n')
			end++;
		pdf_wrapped(d, style, bytes + i, end - i);
		i = end + 1;
	}
	if (n == 0 && d->npages == 0)
		pdf_new_page(d);
	pdf_space(d, pdf_styles[style].below);
	dj_free(bytes);
}

/* The UTF-8 s as a PDF text string: UTF-16BE with its byte order mark, in hex. */
static void pdf_text_string(struct problem_text *out, const char *s)
{
	size_t len = strlen(s);
	problem_text_puts(out, "<FEFF");
	for (size_t i = 0; i < len;) {
		unsigned long cp;
		size_t k = codec_utf8_decode(s + i, len - i, &cp);
		if (!k)
			cp = 0xFFFD;
		i += k ? k : 1;
		if (cp >= 0x10000) {
			cp -= 0x10000;
			problem_text_printf(out, "%04lX%04lX", 0xD800 + (cp >> 10),
					    0xDC00 + (cp & 0x3FF));
		} else {
			problem_text_printf(out, "%04lX", cp);
		}
	}
	problem_text_puts(out, ">");
}

void pdf_finish(const struct pdf_doc *d, const char *title, struct problem_text *out)
{
	static const struct problem_text blank = {NULL, 0, 0, false};
	unsigned npages = d->npages ? d->npages : 1;
	unsigned nobj = 6 + 2 * npages; /* objects 1..nobj */
	size_t start = out->len;
	size_t *offset = dj_calloc(nobj + 1, sizeof *offset);
	if (d->failed || !offset) {
		dj_free(offset);
		out->failed = true;
		return;
	}
	/* The second line's bytes above 127 mark the file as binary (PDF 7.5.2). */
	problem_text_puts(out, "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n");
	offset[1] = out->len - start;
	problem_text_puts(out, "1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n");
	offset[2] = out->len - start;
	problem_text_puts(out, "2 0 obj\n<< /Type /Pages /Kids [");
	for (unsigned i = 0; i < npages; i++)
		problem_text_printf(out, "%s%u 0 R", i ? " " : "", 7 + 2 * i);
	problem_text_printf(out, "] /Count %u >>\nendobj\n", npages);
	offset[3] = out->len - start;
	problem_text_puts(out, "3 0 obj\n<< /Title ");
	pdf_text_string(out, title);
	problem_text_puts(out, " /Producer (dropjudge) >>\nendobj\n");
	for (unsigned f = 0; f < 3; f++) {
		offset[4 + f] = out->len - start;
		problem_text_printf(out,
				    "%u 0 obj\n<< /Type /Font /Subtype /Type1 /BaseFont /%s "
				    "/Encoding /WinAnsiEncoding >>\nendobj\n",
				    4 + f, pdf_font_names[f]);
	}
	for (unsigned i = 0; i < npages; i++) {
		const struct problem_text *c = d->npages ? &d->pages[i] : &blank;
		unsigned page = 7 + 2 * i;
		offset[page] = out->len - start;
		problem_text_printf(out,
				    "%u 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] "
				    "/Resources << /Font << /F1 4 0 R /F2 5 0 R /F3 6 0 R >> >> "
				    "/Contents %u 0 R >>\nendobj\n",
				    page, PDF_PAGE_W, PDF_PAGE_H, page + 1);
		offset[page + 1] = out->len - start;
		problem_text_printf(out, "%u 0 obj\n<< /Length %zu >>\nstream\n", page + 1, c->len);
		problem_text_put(out, c->data ? c->data : "", c->len);
		problem_text_puts(out, "\nendstream\nendobj\n");
	}
	size_t xref = out->len - start;
	/* Each entry is exactly 20 bytes, its end of line " \n" (PDF 7.5.4). */
	problem_text_printf(out, "xref\n0 %u\n0000000000 65535 f \n", nobj + 1);
	for (unsigned i = 1; i <= nobj; i++)
		problem_text_printf(out, "%010zu 00000 n \n", offset[i]);
	problem_text_printf(
	    out, "trailer\n<< /Size %u /Root 1 0 R /Info 3 0 R >>\nstartxref\n%zu\n%%%%EOF\n",
	    nobj + 1, xref);
	dj_free(offset);
}
