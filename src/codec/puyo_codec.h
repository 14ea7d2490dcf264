/*
 * Puyo codecs: the JSON case and the Baekjoon input text in, fields and
 * results out. Lenient mode (solving) takes 12 rows, or 13 with the hidden
 * row on top, of `.RGBPYO`. Strict mode (validation) holds the field to
 * Baekjoon 11559: 12 rows of `.RGBPY`, no puyo above an empty cell, text
 * lines each ended by '\n'; it records every fault.
 */
#ifndef DROPJUDGE_CODEC_PUYO_CODEC_H
#define DROPJUDGE_CODEC_PUYO_CODEC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "codec/error.h"
#include "dropjudge/puyo.h"
#include "dropjudge/puyo_search.h"

struct cpu_switch;

/* Read a case object {"field": [rows], "trace": bool, "id": ...}, faults below `pointer`
 * ("/field/4"), or the Baekjoon text (the rows, top first), into *field. Return the first
 * error's status. */
enum codec_status puyo_json_read(const json_t *case_obj, const char *pointer, bool strict,
				 struct puyo_field *field, struct codec_error *err);
enum codec_status puyo_text_read(const char *text, size_t len, bool strict,
				 struct puyo_field *field, struct codec_error *err);

/* The fast reader of a JSON body: true when body[0..len) is exactly {"field": [12 or 13 rows
 * of `.RGBPYO`]}, having filled the planes of the field puyo_json_read() would read and its
 * number of rows; false, reporting nothing, for any other body, which the caller reads
 * through jansson. */
bool puyo_json_fast_planes(const char *body, size_t len, struct puyo_planes *planes,
			   unsigned *rows);

/* Reads one line of `dropjudge solve puyo --lines` (without its line end: 12 or 13 rows of
 * `.RGBPYO`, top first, separated by single spaces) into planes; faults are CODEC_E_INVALID
 * at line `line`, columns counted in characters. Returns the first fault's status. */
enum codec_status puyo_lines_read(const char *s, size_t len, unsigned line,
				  struct puyo_planes *planes, struct codec_error *err);

/* Whether puyo_lines_read() takes puyo_lines_avx512_read() (cpu_switch_on() of core/cpu.h):
 * the processor has AVX-512 BW and VBMI, the build is not SIMD=0, and the tests have not
 * turned it off (cpu_switch_set()). */
extern struct cpu_switch puyo_lines_avx512;

/* The AVX-512 reader of a --lines line: true when s[0..len) is exactly 12 or 13 rows of
 * `.RGBPYO` separated by single spaces, having filled *planes; false for any other line. Only
 * when puyo_lines_avx512 is on; the tests hold it to the portable reader. */
bool puyo_lines_avx512_read(const char *s, size_t len, struct puyo_planes *planes);

/* New array of the field's rows, top first; NULL when out of memory. */
json_t *puyo_json_rows(const struct puyo_field *field);

/* Write {"chains":C,"score":S,"all_clear":B,"field":[rows]} and a newline, compact, the
 * Baekjoon output "C\n" or the field as Baekjoon text into buf; return the length as
 * snprintf does. */
int puyo_json_write_result(const struct puyo_field *field, const struct puyo_result *result,
			   char *buf, size_t size);
int puyo_text_result(const struct puyo_result *result, char *buf, size_t size);
int puyo_text_field(const struct puyo_field *field, char *buf, size_t size);

/* --- the JSON form of a Puyo search (puyo_search_json.c): {"field": [rows],
 * "add": 1..4, "pairs": [["R", "G"], ...], "limit": 1..100, "colors":
 * "RGBPY", "id": ...} in, the answer out --- */

#define PUYO_SEARCH_DEFAULT_ADD	  3
#define PUYO_SEARCH_DEFAULT_LIMIT 10

/* Reads a search request into *req; first fault CODEC_E_INVALID at its member ("/pairs/1/0"). */
enum codec_status puyo_search_json_read(const json_t *obj, struct puyo_search_request *req,
					struct codec_error *err);

/* The answer as a new JSON object; NULL when out of memory. */
json_t *puyo_search_json_answer(const struct puyo_search_request *req,
				const struct puyo_search_answer *ans);

#endif
