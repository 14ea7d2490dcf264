/*
 * Problem statements from one source in a small Markdown subset (paragraphs, "- " items, "```"
 * blocks, `code`, **bold**), rendered as Markdown, HTML, Kattis or Polygon LaTeX, or a PDF.
 * Private to src/package.
 */
#ifndef DROPJUDGE_PACKAGE_STATEMENT_H
#define DROPJUDGE_PACKAGE_STATEMENT_H

#include "problem/text.h"

struct statement_example {
	const char *input;  /* the input text, NUL-terminated */
	const char *output; /* the expected output text */
};

struct statement {
	const char *title;  /* "Monomino-Domino" */
	const char *source; /* "Baekjoon Online Judge 20061" */
	const char *legend; /* the rules, in the Markdown subset */
	const char *input;  /* the input format */
	const char *output; /* the output format */
	unsigned time_limit_ms;
	unsigned memory_mib;
	const struct statement_example *examples;
	unsigned nexamples;
};

enum statement_style {
	STATEMENT_MARKDOWN,
	STATEMENT_HTML,
	STATEMENT_KATTIS_LATEX,
	STATEMENT_POLYGON_LATEX,
	STATEMENT_PDF, /* a PDF file: the output is bytes, not text */
};

/* Appends the whole statement in `style` to out. */
void statement_render(const struct statement *st, enum statement_style style,
		      struct problem_text *out);

#endif
