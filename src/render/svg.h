/* The SVG writer shared by the pictures (private to src/render): appends
 * formatted text to a caller's buffer, counting what would not fit. */
#ifndef DROPJUDGE_RENDER_SVG_H
#define DROPJUDGE_RENDER_SVG_H

#include <stdbool.h>
#include <stddef.h>

/* Output being written. len counts every byte asked for, written or not. */
struct svg_out {
	char *buf;   /* caller's, not owned; may be NULL when size is 0 */
	size_t size; /* bytes of buf */
	size_t len;  /* bytes of the whole document so far */
};

/* Appends formatted text (no escaping: callers write only markup and numbers). */
void svg_printf(struct svg_out *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Writes <rect x y width height ATTRS/>, with class `cls` unless NULL, ATTRS formatted from `fmt`.
 */
void svg_rect(struct svg_out *out, const char *cls, unsigned x, unsigned y, unsigned w, unsigned h,
	      const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* Starts writing into buf[0..size) (NUL-terminated when size > 0): the XML declaration, the
 * SVG 1.1 doctype, the root element of width x height pixels and its <title> and <desc>. */
void svg_begin(struct svg_out *out, char *buf, size_t size, unsigned width, unsigned height,
	       const char *title, const char *desc);

/* Closes the root element; returns the document's length, or -1 when it does not fit in an int. */
int svg_end(struct svg_out *out);

/* Where the frames of a picture go: `count` frames of w x h pixels in rows of
 * at most `max_cols`, or, animated, all in one place, each shown in turn for
 * SVG_FRAME_MS, looping (SMIL). */
#define SVG_FRAME_MS 800

struct svg_grid {
	unsigned count;		/* frames, at least 1 */
	unsigned cols;		/* frames a row */
	unsigned w, h;		/* pixels of a frame */
	unsigned width, height; /* pixels of the whole picture */
	bool animate;		/* all frames at (0, 0), shown in turn */
};

struct svg_grid svg_grid_of(unsigned count, unsigned max_cols, unsigned w, unsigned h,
			    bool animate);
/* Opens frame `index` (0-based) in its place: a nested <svg class="frame">
 * with id "step-K" (step > 0) or "final". */
void svg_frame_open(struct svg_out *out, const struct svg_grid *g, unsigned index, unsigned step);
/* Animated: the <animate> that shows frame `index` in its turn (else nothing). */
void svg_grid_animate(struct svg_out *out, const struct svg_grid *g, unsigned index);

enum svg_anchor { SVG_START, SVG_MIDDLE };

/* Writes the text of `fmt` (at most 127 bytes, no markup) with its anchor at (x, y) (y the
 * baseline) in `fill`, squeezed to `max_width` pixels (0: no bound) when it may be wider. */
void svg_text(struct svg_out *out, unsigned x, unsigned y, unsigned font, bool bold,
	      enum svg_anchor anchor, unsigned max_width, const char *fill, const char *fmt, ...)
    __attribute__((format(printf, 9, 10)));

#endif
