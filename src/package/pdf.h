/*
 * The statement PDF (CMS's statement.pdf): plain text on A4 in the standard fonts, wrapped, by
 * libharu; uncompressed and undated: the same text gives the same bytes. Private to src/package.
 */
#ifndef DROPJUDGE_PACKAGE_PDF_H
#define DROPJUDGE_PACKAGE_PDF_H

#include <hpdf.h>
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
	HPDF_Doc pdf;	/* libharu's document; owned */
	HPDF_Page page; /* the page being filled */
	int y;		/* top of the next line, points above the page's bottom edge */
	bool failed;	/* libharu failed (out of memory): the document is incomplete */
};

/* Starts a document of one blank page (failed if libharu fails); pdf_free() releases it. */
void pdf_init(struct pdf_doc *d);
void pdf_free(struct pdf_doc *d);

/* Lays out the NUL-terminated UTF-8 `text` in `style` below what is there; characters outside
 * WinAnsiEncoding are shown as '?'. A failure marks the document failed; later calls do nothing. */
void pdf_add(struct pdf_doc *d, enum pdf_style style, const char *text);

/* Appends the PDF file, titled `title` (UTF-8), to out; a failed document marks out failed. */
void pdf_finish(struct pdf_doc *d, const char *title, struct problem_text *out);

#endif
