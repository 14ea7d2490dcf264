/*
 * The JSON form of a Puyo search (dropjudge/puyo_search.h): the request
 * {"field": [12 or 13 rows], "add": 1..4, "pairs": [["R", "G"], ...],
 * "limit": 1..100, "colors": "RGBPY", "id": ...} in, the answer out.
 */
#ifndef DROPJUDGE_CODEC_PUYO_SEARCH_CODEC_H
#define DROPJUDGE_CODEC_PUYO_SEARCH_CODEC_H

#include <jansson.h>

#include "codec/error.h"
#include "dropjudge/puyo_search.h"

#define PUYO_SEARCH_DEFAULT_ADD	  3
#define PUYO_SEARCH_DEFAULT_LIMIT 10

/* Reads a search request into *req; the first fault is CODEC_E_INVALID
 * at its member ("/pairs/1/0"). */
enum codec_status puyo_search_json_read(const json_t *obj, struct puyo_search_request *req,
					struct codec_error *err);

/* The answer as a new JSON object; NULL when out of memory. */
json_t *puyo_search_json_answer(const struct puyo_search_request *req,
				const struct puyo_search_answer *ans);

#endif
