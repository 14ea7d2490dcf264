/*
 * The SVG writer shared by the pictures (private to src/render): appends
 * formatted text to a caller's buffer, counting what would not fit, and
 * writes the document's head and tail.
 */
#ifndef DROPJUDGE_RENDER_SVG_H
#define DROPJUDGE_RENDER_SVG_H

#include <stddef.h>

/* Output being written. len counts every byte asked for, written or not. */
struct svg_out {
	char *buf;   /* caller's, not owned; may be NULL when size is 0 */
	size_t size; /* bytes of buf */
	size_t len;  /* bytes of the whole document so far */
};

/* Starts writing into buf[0..size); buf stays NUL-terminated when size > 0. */
void svg_init(struct svg_out *out, char *buf, size_t size);

/* Appends formatted text (no escaping: callers write only markup and numbers). */
void svg_printf(struct svg_out *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Writes the XML declaration, the SVG 1.1 doctype, the root element of
 * width x height pixels and its <title> and <desc>. */
void svg_begin(struct svg_out *out, unsigned width, unsigned height, const char *title,
	       const char *desc);

/* Closes the root element. */
void svg_end(struct svg_out *out);

/* The length to return: out->len, or -1 when it does not fit in an int. */
int svg_result(const struct svg_out *out);

#endif
