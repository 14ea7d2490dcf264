/*
 * Statement rendering (see statement.h): one reader walks the Markdown subset, and a table per
 * style says what each construct becomes and how text is escaped.
 */
#include "package/statement.h"
#include "package/pdf.h"

#include <stdbool.h>
#include <string.h>

/* What the constructs of the subset become in one style. */
struct markup {
	const char *para_open, *para_close;
	const char *list_open, *list_close, *item_open, *item_close;
	const char *pre_open, *pre_close;
	const char *code_open, *code_close;
	const char *bold_open, *bold_close;
	const char *const *escapes; /* by byte, what a character of text becomes; NULL: itself */
	bool markdown;		    /* the source is copied as it is */
};

static const char *const esc_html[256] = {['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;"};
static const char *const esc_latex[256] = {['\\'] = "\\textbackslash{}",
					   ['^'] = "\\^{}",
					   ['~'] = "\\~{}",
					   ['<'] = "\\textless{}",
					   ['>'] = "\\textgreater{}",
					   ['{'] = "\\{",
					   ['}'] = "\\}",
					   ['$'] = "\\$",
					   ['&'] = "\\&",
					   ['#'] = "\\#",
					   ['_'] = "\\_",
					   ['%'] = "\\%"};

/* Appends the character c of text as m escapes it. */
static void render_char(const struct markup *m, char c, struct problem_text *out)
{
	const char *esc = m->escapes ? m->escapes[(unsigned char)c] : NULL;
	if (esc)
		problem_text_puts(out, esc);
	else
		problem_text_put(out, &c, 1);
}

static const struct markup markup_html = {
    "<p>",	"</p>\n", "<ul>\n",  "</ul>\n",	 "<li>",      "</li>\n", "<pre>",
    "</pre>\n", "<code>", "</code>", "<strong>", "</strong>", esc_html,	 false,
};

static const struct markup markup_latex = {
    "",		 "\n\n", "\\begin{itemize}\n",	"\\end{itemize}\n\n",
    "\\item ",	 "\n",	 "\\begin{verbatim}\n", "\\end{verbatim}\n\n",
    "\\texttt{", "}",	 "\\textbf{",		"}",
    esc_latex,	 false,
};

static const struct markup markup_markdown = {.markdown = true};

/* Plain text for the PDF: paragraphs end in a blank line, items are bulleted lines, `code` is
 * quoted (U+2022 and U+2018/U+2019, which WinAnsi has), bold is dropped. */
static const struct markup markup_plain = {
    "", "\n\n", "",   "\n",  "\xE2\x80\xA2 ", "\n", "", "\n", "\xE2\x80\x98", "\xE2\x80\x99",
    "", "",	NULL, false,
};

/* Renders the inline text of one line: `code` and **bold**. */
static void render_inline(const struct markup *m, const char *s, size_t n, struct problem_text *out)
{
	bool code = false, bold = false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '`') {
			problem_text_puts(out, code ? m->code_close : m->code_open);
			code = !code;
		} else if (!code && s[i] == '*' && i + 1 < n && s[i + 1] == '*') {
			problem_text_puts(out, bold ? m->bold_close : m->bold_open);
			bold = !bold;
			i++;
		} else {
			render_char(m, s[i], out);
		}
	}
}

/* Renders a block of the subset. */
static void render_block(const struct markup *m, const char *src, struct problem_text *out)
{
	if (m->markdown) {
		problem_text_puts(out, src);
		problem_text_puts(out, "\n\n");
		return;
	}
	enum { NONE, PARA, LIST, PRE } in = NONE; /* the open block, ended by closing[in] */
	const char *const closing[] = {"", m->para_close, m->list_close, m->pre_close};
	for (const char *line = src; *line;) {
		size_t n = strcspn(line, "\n");
		bool blank = n == 0;
		bool fence = n >= 3 && strncmp(line, "```", 3) == 0;
		bool item = n >= 2 && strncmp(line, "- ", 2) == 0;
		if (in == PRE && !fence) {
			for (size_t i = 0; i < n; i++)
				render_char(m, line[i], out);
			problem_text_puts(out, "\n");
		} else if (blank || fence || (item && in == PARA) || (!item && in == LIST)) {
			bool open_pre = fence && in != PRE; /* else a fence closes the block */
			problem_text_puts(out, closing[in]);
			in = NONE;
			if (open_pre) {
				problem_text_puts(out, m->pre_open);
				in = PRE;
			}
		}
		if (!blank && !fence && in != PRE) {
			if (item) {
				if (in == NONE)
					problem_text_puts(out, m->list_open);
				in = LIST;
				problem_text_puts(out, m->item_open);
				render_inline(m, line + 2, n - 2, out);
				problem_text_puts(out, m->item_close);
			} else {
				problem_text_puts(out, in == NONE ? m->para_open : "\n");
				in = PARA;
				render_inline(m, line, n, out);
			}
		}
		line += n + (line[n] == '\n');
	}
	problem_text_puts(out, closing[in]);
}

/* "1 second", "2 seconds", "1.5 seconds". */
static void render_time(const struct statement *st, struct problem_text *out)
{
	unsigned ms = st->time_limit_ms;
	if (ms % 1000 == 0)
		problem_text_printf(out, "%u second%s", ms / 1000, ms == 1000 ? "" : "s");
	else
		problem_text_printf(out, "%u.%03u seconds", ms / 1000, ms % 1000);
}

/* Markdown and HTML: the same outline. */
static void render_page(const struct statement *st, const struct markup *m,
			struct problem_text *out)
{
	bool md = m->markdown;
	if (!md)
		problem_text_printf(
		    out,
		    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
		    "charset=\"utf-8\">\n<title>%s</title>\n</head>\n<body>\n<h1>%s</h1>\n",
		    st->title, st->title);
	else
		problem_text_printf(out, "# %s\n\n", st->title);
	problem_text_puts(out, md ? "Time limit: " : "<p>Time limit: ");
	render_time(st, out);
	problem_text_printf(out, ". Memory limit: %u MiB. Source: %s.%s", st->memory_mib,
			    st->source, md ? "\n\n" : "</p>\n");
	render_block(m, st->legend, out);
	problem_text_puts(out, md ? "## Input\n\n" : "<h2>Input</h2>\n");
	render_block(m, st->input, out);
	problem_text_puts(out, md ? "## Output\n\n" : "<h2>Output</h2>\n");
	render_block(m, st->output, out);
	problem_text_puts(out, md ? "## Examples\n\n" : "<h2>Examples</h2>\n");
	for (unsigned i = 0; i < st->nexamples; i++) {
		problem_text_printf(out,
				    md ? "### Example %u\n\nInput:\n\n```\n"
				       : "<h3>Example %u</h3>\n<p>Input:</p>\n<pre>",
				    i + 1);
		for (const char *c = st->examples[i].input; *c; c++)
			render_char(m, *c, out);
		problem_text_puts(out,
				  md ? "```\n\nOutput:\n\n```\n" : "</pre>\n<p>Output:</p>\n<pre>");
		for (const char *c = st->examples[i].output; *c; c++)
			render_char(m, *c, out);
		problem_text_puts(out, md ? "```\n\n" : "</pre>\n");
	}
	if (!md)
		problem_text_puts(out, "</body>\n</html>\n");
}

/* LaTeX: Kattis problemtools' \problemname and sections, no samples (it adds data/sample's); or
 * Polygon's olymp.sty \begin{problem}{title}{in}{out}{time}{memory}. */
static void render_latex(const struct statement *st, bool polygon, struct problem_text *out)
{
	problem_text_puts(out, polygon ? "\\begin{problem}{" : "\\problemname{");
	for (const char *c = st->title; *c; c++)
		render_char(&markup_latex, *c, out);
	if (polygon) {
		problem_text_puts(out, "}{standard input}{standard output}{");
		render_time(st, out);
		problem_text_printf(out, "}{%u megabytes", st->memory_mib);
	}
	problem_text_puts(out, "}\n\n");
	render_block(&markup_latex, st->legend, out);
	problem_text_puts(out, polygon ? "\\InputFile\n\n" : "\\section*{Input}\n\n");
	render_block(&markup_latex, st->input, out);
	problem_text_puts(out, polygon ? "\\OutputFile\n\n" : "\\section*{Output}\n\n");
	render_block(&markup_latex, st->output, out);
	if (!polygon)
		return;
	problem_text_puts(out, "\\Examples\n\n");
	for (unsigned i = 0; i < st->nexamples; i++)
		problem_text_printf(out, "\\exmp{%s}{%s}%%\n", st->examples[i].input,
				    st->examples[i].output);
	problem_text_puts(out, "\n\\end{problem}\n");
}

/* Adds what t holds and the plain text of block src as body text, then empties t. */
static void render_pdf_body(struct pdf_doc *d, const char *src, struct problem_text *t)
{
	render_block(&markup_plain, src, t);
	pdf_add(d, PDF_BODY, t->data && !t->failed ? t->data : "");
	d->failed |= t->failed;
	problem_text_free(t);
}

/* The PDF (CMS): the outline of the Markdown page, as plain text with headings. */
static void render_pdf(const struct statement *st, struct problem_text *out)
{
	struct pdf_doc d;
	struct problem_text t;
	pdf_init(&d);
	problem_text_init(&t);
	pdf_add(&d, PDF_TITLE, st->title);
	problem_text_puts(&t, "Time limit: ");
	render_time(st, &t);
	problem_text_printf(&t, ". Memory limit: %u MiB. Source: %s.\n\n", st->memory_mib,
			    st->source);
	render_pdf_body(&d, st->legend, &t);
	pdf_add(&d, PDF_HEADING, "Input");
	render_pdf_body(&d, st->input, &t);
	pdf_add(&d, PDF_HEADING, "Output");
	render_pdf_body(&d, st->output, &t);
	pdf_add(&d, PDF_HEADING, "Examples");
	for (unsigned i = 0; i < st->nexamples; i++) {
		problem_text_printf(&t, "Example %u", i + 1);
		pdf_add(&d, PDF_SUBHEADING, t.data && !t.failed ? t.data : "");
		problem_text_free(&t);
		pdf_add(&d, PDF_BODY, "Input:");
		pdf_add(&d, PDF_MONO, st->examples[i].input);
		pdf_add(&d, PDF_BODY, "Output:");
		pdf_add(&d, PDF_MONO, st->examples[i].output);
	}
	pdf_finish(&d, st->title, out);
	pdf_free(&d);
}

void statement_render(const struct statement *st, enum statement_style style,
		      struct problem_text *out)
{
	if (style == STATEMENT_PDF)
		render_pdf(st, out);
	else if (style == STATEMENT_KATTIS_LATEX || style == STATEMENT_POLYGON_LATEX)
		render_latex(st, style == STATEMENT_POLYGON_LATEX, out);
	else
		render_page(st, style == STATEMENT_HTML ? &markup_html : &markup_markdown, out);
}
