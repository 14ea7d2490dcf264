/*
 * Puyo codecs: the JSON case and the Baekjoon input text in, fields and
 * results out.
 *
 * Lenient mode (solving) takes 12 rows, or 13 with the hidden row on top,
 * of `.RGBPYO`, settles floating puyos later in the core, and accepts CRLF
 * and a missing final newline in text. Strict mode (validation) holds the
 * field to Baekjoon 11559: exactly 12 rows of 6 characters from `.RGBPY`,
 * no puyo above an empty cell, and for text exactly 12 lines each ended by
 * a newline and nothing after; it records every fault (codec/error.h
 * collect mode).
 */
#ifndef DROPJUDGE_CODEC_PUYO_CODEC_H
#define DROPJUDGE_CODEC_PUYO_CODEC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "codec/error.h"
#include "dropjudge/puyo.h"

/*
 * Reads a case object {"field": [12 or 13 strings], "trace": bool
 * (optional)} into *field. `pointer` is the case's JSON pointer ("" or
 * "/cases/3"); faults are reported at pointer + "/field/4" etc. Unknown
 * members are CODEC_E_INVALID. Returns the first error's status.
 */
enum codec_status puyo_json_read(const json_t *case_obj, const char *pointer, bool strict,
				 struct puyo_field *field, struct codec_error *err);

/* puyo_cell_to_char(), from a table: what the writers of rows use. */
char puyo_json_cell_char(uint8_t cell);

/*
 * The fast path of a JSON request body (codec/puyo_json_fast.c): returns
 * true when body[0..len) is exactly a case {"field": [12 or 13 strings of 6
 * characters of `.RGBPYO`]} with JSON whitespace where JSON allows it and
 * nothing else, having filled *field, which is then what jansson and
 * puyo_json_read() (lenient) make of it. Returns false for any other body,
 * reporting nothing and leaving *field unspecified: the caller reads the
 * body through jansson, whose path decides every other answer and error.
 */
bool puyo_json_fast_read(const char *body, size_t len, struct puyo_field *field);

/* puyo_json_fast_read() into the planes of the field (dropjudge/puyo.h)
 * and its number of rows, 12 or 13: the same bodies taken. */
bool puyo_json_fast_planes(const char *body, size_t len, struct puyo_planes *planes,
			   unsigned *rows);

/* Reads the Baekjoon text (the rows, top first) into *field. */
enum codec_status puyo_text_read(const char *text, size_t len, bool strict,
				 struct puyo_field *field, struct codec_error *err);

/*
 * Reads one line of `dropjudge solve puyo --lines`: s[0..len), without its
 * line end, is 12 rows (or 13, the hidden row first) of 6 characters of
 * `.RGBPYO`, separated by single spaces, top row first. `line` is its
 * 1-based number, where faults are reported (CODEC_E_INVALID, the column
 * counted in characters), into the planes of the field (puyo_planes_chains()
 * counts its chains). A line of exactly that layout is read by a fast path
 * straight into the planes; anything else goes through the shared row
 * checks (codec/puyo_rows.c), which decide the wording of every fault.
 * Returns the first fault's status, CODEC_OK when none.
 */
enum codec_status puyo_lines_read(const char *s, size_t len, unsigned line,
				  struct puyo_planes *planes, struct codec_error *err);

/* New array of the field's rows as strings, top first; NULL when out of
 * memory. */
json_t *puyo_json_rows(const struct puyo_field *field);

/*
 * Writes into buf exactly the bytes of the compact dump of the result object
 * {"chains":C,"score":S,"all_clear":B,"field":[rows]} (rows as
 * puyo_json_rows() gives them) followed by a newline. No allocation.
 * Returns the length as snprintf does (a value of size or more means the
 * output was cut; size 0 writes nothing).
 */
int puyo_json_write_result(const struct puyo_field *field, const struct puyo_result *result,
			   char *buf, size_t size);

/* Writes the Baekjoon output "C\n"; returns its length as snprintf does. */
int puyo_text_result(const struct puyo_result *result, char *buf, size_t size);

/* Writes the field as Baekjoon text (rows, each ended by '\n'); returns its
 * length as snprintf does. */
int puyo_text_field(const struct puyo_field *field, char *buf, size_t size);

#endif
