/*
 * The SVG writer: bounded appends into a caller's buffer, and the frame of
 * every document (declaration, SVG 1.1 doctype, root element, title and
 * description).
 */
#include "svg.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>

void svg_init(struct svg_out *out, char *buf, size_t size)
{
	out->buf = buf;
	out->size = size;
	out->len = 0;
	if (buf && size > 0)
		buf[0] = '\0';
}

void svg_printf(struct svg_out *out, const char *fmt, ...)
{
	va_list ap;
	char *at = NULL;
	size_t room = 0;
	if (out->buf && out->len < out->size) {
		at = out->buf + out->len;
		room = out->size - out->len;
	}
	va_start(ap, fmt);
	int n = vsnprintf(at, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		out->len += (size_t)n;
}

void svg_begin(struct svg_out *out, unsigned width, unsigned height, const char *title,
	       const char *desc)
{
	svg_printf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
			"<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
			"\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n");
	svg_printf(out,
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%u\" "
		   "height=\"%u\" viewBox=\"0 0 %u %u\" font-family=\"DejaVu Sans, Verdana, "
		   "sans-serif\">\n<title>%s</title>\n<desc>%s</desc>\n",
		   width, height, width, height, title, desc);
}

void svg_end(struct svg_out *out)
{
	svg_printf(out, "</svg>\n");
}

int svg_result(const struct svg_out *out)
{
	return out->len > INT_MAX ? -1 : (int)out->len;
}
