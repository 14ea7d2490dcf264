/* The SVG writer: bounded appends into a caller's buffer, and the frame of
 * every document. */
#include "svg.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>

__attribute__((format(printf, 2, 0))) static void svg_vprintf(struct svg_out *out, const char *fmt,
							      va_list ap)
{
	bool room = out->buf && out->len < out->size;
	int n =
	    vsnprintf(room ? out->buf + out->len : NULL, room ? out->size - out->len : 0, fmt, ap);
	if (n > 0)
		out->len += (size_t)n;
}

void svg_printf(struct svg_out *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	svg_vprintf(out, fmt, ap);
	va_end(ap);
}

void svg_rect(struct svg_out *out, const char *cls, unsigned x, unsigned y, unsigned w, unsigned h,
	      const char *fmt, ...)
{
	va_list ap;
	svg_printf(out, "<rect%s%s%s x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" ",
		   cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "", x, y, w, h);
	va_start(ap, fmt);
	svg_vprintf(out, fmt, ap);
	va_end(ap);
	svg_printf(out, "/>\n");
}

void svg_begin(struct svg_out *out, char *buf, size_t size, unsigned width, unsigned height,
	       const char *title, const char *desc)
{
	*out = (struct svg_out){buf, size, 0};
	svg_printf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
			"<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
			"\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n");
	svg_printf(out,
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%u\" "
		   "height=\"%u\" viewBox=\"0 0 %u %u\" font-family=\"DejaVu Sans, Verdana, "
		   "sans-serif\">\n<title>%s</title>\n<desc>%s</desc>\n",
		   width, height, width, height, title, desc);
}

/* How wide `text` (ASCII) may be drawn at `font` pixels, on the generous
 * side of DejaVu Sans's and Verdana's advances (hundredths of an em). */
static unsigned svg_text_width(const char *text, unsigned font, bool bold)
{
	unsigned em100 = 0;
	for (const char *c = text; *c; c++) {
		if (*c == ' ')
			em100 += 35;
		else if (*c == 'm' || *c == 'w' || *c == 'M' || *c == 'W')
			em100 += bold ? 110 : 100;
		else if (*c == 'i' || *c == 'l' || *c == 'j' || *c == '.' || *c == ',')
			em100 += bold ? 40 : 32;
		else
			em100 += bold ? 74 : 66;
	}
	return (em100 * font + 99) / 100;
}

void svg_text(struct svg_out *out, unsigned x, unsigned y, unsigned font, bool bold,
	      enum svg_anchor anchor, unsigned max_width, const char *fill, const char *fmt, ...)
{
	char text[128];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	svg_printf(out, "<text x=\"%u\" y=\"%u\" font-size=\"%u\"%s%s fill=\"%s\"", x, y, font,
		   bold ? " font-weight=\"bold\"" : "",
		   anchor == SVG_MIDDLE ? " text-anchor=\"middle\"" : "", fill);
	if (max_width && svg_text_width(text, font, bold) > max_width)
		svg_printf(out, " textLength=\"%u\" lengthAdjust=\"spacingAndGlyphs\"", max_width);
	svg_printf(out, ">%s</text>\n", text);
}

int svg_end(struct svg_out *out)
{
	svg_printf(out, "</svg>\n");
	return out->len > INT_MAX ? -1 : (int)out->len;
}

struct svg_grid svg_grid_of(unsigned count, unsigned max_cols, unsigned w, unsigned h, bool animate)
{
	struct svg_grid g = {.count = count ? count : 1, .w = w, .h = h, .animate = animate};
	g.cols = animate ? 1 : (g.count < max_cols ? g.count : max_cols);
	g.width = g.cols * w;
	g.height = animate ? h : (g.count + g.cols - 1) / g.cols * h;
	return g;
}

void svg_frame_open(struct svg_out *out, const struct svg_grid *g, unsigned index, unsigned step)
{
	if (step)
		svg_printf(out, "<svg class=\"frame\" id=\"step-%u\"", step);
	else
		svg_printf(out, "<svg class=\"frame\" id=\"final\"");
	svg_printf(out, " x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\">\n",
		   g->animate ? 0 : index % g->cols * g->w, g->animate ? 0 : index / g->cols * g->h,
		   g->w, g->h, g->w, g->h);
}

void svg_grid_animate(struct svg_out *out, const struct svg_grid *g, unsigned index)
{
	if (!g->animate || g->count < 2)
		return;
	/* Discrete values hold from their key time to the next one. */
	const char *values = index == 0		     ? "visible;hidden"
			     : index + 1 == g->count ? "hidden;visible"
						     : "hidden;visible;hidden";
	svg_printf(out,
		   "<animate attributeName=\"visibility\" calcMode=\"discrete\" dur=\"%lums\" "
		   "repeatCount=\"indefinite\" values=\"%s\" keyTimes=\"0",
		   (unsigned long)g->count * SVG_FRAME_MS, values);
	/* The key times index / count (shown) and (index + 1) / count (hidden),
	 * as "0.1234", where they fall inside the loop. */
	for (unsigned k = index; k <= index + 1; k++) {
		unsigned long t = (unsigned long)k * 10000u / g->count;
		if (k > 0 && k < g->count)
			svg_printf(out, ";%lu.%04lu", t / 10000u, t % 10000u);
	}
	svg_printf(out, "\"/>\n");
}
