/*
 * Links into the Puyo simulators players use: puyop.com and Puyo Nexus's
 * chain simulator. A field goes out as each site's field string and URL,
 * and comes in from either (the bare string or the URL).
 *
 * puyop.com (URL http://www.puyop.com/s/FIELD, moves may follow after '_'):
 * one character of 0-9a-zA-Z[] (values 0..63) per pair of columns, value
 * left * 8 + right, colours 0 empty, 1 red, 2 green, 3 blue, 4 yellow,
 * 5 purple, 6 garbage; pairs row by row from the 13th row down, left to
 * right; the empty pairs before the first puyo are left out.
 *
 * Puyo Nexus (URL https://puyonexus.com/chainsim/?w=6&h=12&chain=CHAIN):
 * one character per cell of the 6 x (12 + 1 hidden) board, rows top down,
 * the character of each PuyoType in the simulator's URL alphabet
 * (0 none, 4 red, 7 green, 5 blue, 6 yellow, 8 purple, 1 garbage; B point,
 * C sun, A hard, 3 iron, 2 block are other rules' puyos); leading empty
 * cells are left out.
 *
 * A decoded field has 13 rows when its hidden row holds a puyo, else 12.
 * Decoders locate faults at a JSON pointer (the string's member) and name
 * the character. Nothing here allocates.
 */
#ifndef DROPJUDGE_CODEC_PUYO_LINKS_H
#define DROPJUDGE_CODEC_PUYO_LINKS_H

#include <jansson.h>
#include <stddef.h>

#include "codec/error.h"
#include "dropjudge/puyo.h"

/* Buffer sizes that always fit, with the NUL. */
#define PUYO_LINKS_PUYOP_MAX (PUYO_ROWS_MAX * PUYO_COLS / 2 + 1)
#define PUYO_LINKS_NEXUS_MAX (PUYO_ROWS_MAX * PUYO_COLS + 1)
#define PUYO_LINKS_URL_MAX   160

#define PUYO_LINKS_PUYOP_URL "http://www.puyop.com/s/"
#define PUYO_LINKS_NEXUS_URL "https://puyonexus.com/chainsim/?w=6&h=12&chain="

/* The field strings and URLs of `field`; each returns its length as
 * snprintf does. A 12-row field has an empty hidden row. */
int puyo_links_puyop(const struct puyo_field *field, char *buf, size_t size);
int puyo_links_nexus(const struct puyo_field *field, char *buf, size_t size);
int puyo_links_puyop_url(const struct puyo_field *field, char *buf, size_t size);
int puyo_links_nexus_url(const struct puyo_field *field, char *buf, size_t size);

/*
 * Decode s[0..len), a field string or a URL of the site, into *field.
 * Faults are CODEC_E_INVALID at `pointer` (NULL: none); nothing is kept.
 * Returns the status of the first fault, CODEC_OK when none.
 */
enum codec_status puyo_links_read_puyop(const char *s, size_t len, const char *pointer,
					struct puyo_field *field, struct codec_error *err);
enum codec_status puyo_links_read_nexus(const char *s, size_t len, const char *pointer,
					struct puyo_field *field, struct codec_error *err);

/*
 * Reads a Puyo case that gives its field in one of three ways: "field"
 * (rows, puyo_json_read in lenient mode), "puyop" or "puyo_nexus" (a
 * string or URL as above), with an optional boolean "trace". Faults are
 * located under `pointer` ("" for the root). Returns the first fault's
 * status.
 */
enum codec_status puyo_links_read_case(const json_t *case_obj, const char *pointer,
				       struct puyo_field *field, struct codec_error *err);

/* New {"puyop": URL, "puyo_nexus": URL} of the field; NULL when out of memory. */
json_t *puyo_links_json(const struct puyo_field *field);

#endif
