/*
 * A small PDF writer for statements (CMS's statement.pdf): plain text on A4 pages in the standard
 * fonts, long lines wrapped; uncompressed and without a date, so the same text gives the same
 * bytes. Private to src/package.
 */
#ifndef DROPJUDGE_PACKAGE_PDF_H
#define DROPJUDGE_PACKAGE_PDF_H

#include <stdbool.h>

#include "problem/text.h"

/* How a block is set; each style is one row of the table in pdf.c. */
enum pdf_style {
	PDF_TITLE,	/* Helvetica-Bold 20 pt */
	PDF_HEADING,	/* Helvetica-Bold 14 pt, space above */
	PDF_SUBHEADING, /* Helvetica-Bold 12 pt, space above */
	PDF_BODY,	/* Helvetica 11 pt, wrapped at spaces; a blank line is a paragraph gap */
	PDF_MONO,	/* Courier 10 pt, every line kept as it is, wrapped at the margin */
};

/* A document being laid out: caller-owned, started by pdf_init(). */
struct pdf_doc {
	struct problem_text *pages; /* one content stream per page; owned */
	unsigned npages;	    /* pages started, >= 1 once anything was added */
	int y;			    /* top of the next line, points above the page's bottom edge */
	bool failed;		    /* an allocation failed: the document is incomplete */
};

/* Starts an empty document (nothing allocated); pdf_free() empties it again. */
void pdf_init(struct pdf_doc *d);
void pdf_free(struct pdf_doc *d);

/*
 * Lays out the NUL-terminated UTF-8 `text` in `style` below what is there.
 * Characters outside WinAnsiEncoding are shown as '?' (see pdf.c). Out of
 * memory marks the document failed; later calls then do nothing.
 */
void pdf_add(struct pdf_doc *d, enum pdf_style style, const char *text);

/*
 * Appends the whole PDF file to out, with `title` (UTF-8) as its document
 * title; a document with nothing added is one blank page. A failed document
 * marks out failed. The document itself is left as it is.
 */
void pdf_finish(const struct pdf_doc *d, const char *title, struct problem_text *out);

#endif
