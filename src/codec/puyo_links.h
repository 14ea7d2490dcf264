/*
 * Links into the Puyo simulators players use, puyop.com and Puyo Nexus's
 * chain simulator (the formats are described in puyo_links.c): a field
 * goes out as each site's field string and URL, and comes in from either.
 * A decoded field has 13 rows when its hidden row holds a puyo, else 12.
 */
#ifndef DROPJUDGE_CODEC_PUYO_LINKS_H
#define DROPJUDGE_CODEC_PUYO_LINKS_H

#include <jansson.h>
#include <stddef.h>

#include "codec/error.h"
#include "dropjudge/puyo.h"

/* A buffer size that fits every field string and URL, with the NUL. */
#define PUYO_LINKS_URL_MAX 160

#define PUYO_LINKS_PUYOP_URL "http://www.puyop.com/s/"
#define PUYO_LINKS_NEXUS_URL "https://puyonexus.com/chainsim/?w=6&h=12&chain="

/* The field strings and URLs of `field`; each returns its length as
 * snprintf does. A 12-row field has an empty hidden row. */
int puyo_links_puyop(const struct puyo_field *field, char *buf, size_t size);
int puyo_links_nexus(const struct puyo_field *field, char *buf, size_t size);
int puyo_links_puyop_url(const struct puyo_field *field, char *buf, size_t size);
int puyo_links_nexus_url(const struct puyo_field *field, char *buf, size_t size);

/* Decode s[0..len), a field string or a URL of the site, into *field;
 * faults are CODEC_E_INVALID at `pointer` (NULL: none). */
enum codec_status puyo_links_read_puyop(const char *s, size_t len, const char *pointer,
					struct puyo_field *field, struct codec_error *err);
enum codec_status puyo_links_read_nexus(const char *s, size_t len, const char *pointer,
					struct puyo_field *field, struct codec_error *err);

/* Reads a Puyo case whose field is "field" (rows), "puyop" or
 * "puyo_nexus", faults under `pointer`. Returns the first fault's status. */
enum codec_status puyo_links_read_case(const json_t *case_obj, const char *pointer,
				       struct puyo_field *field, struct codec_error *err);

/* New {"puyop": URL, "puyo_nexus": URL} of the field; NULL when out of memory. */
json_t *puyo_links_json(const struct puyo_field *field);

#endif
