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

/* Reads the Baekjoon text (the rows, top first) into *field. */
enum codec_status puyo_text_read(const char *text, size_t len, bool strict,
				 struct puyo_field *field, struct codec_error *err);

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
