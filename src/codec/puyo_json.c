/*
 * The JSON form of a Puyo case, {"field": [rows, top first], "trace": bool},
 * in, and a field's rows out. Every fault is CODEC_E_INVALID at a pointer
 * under the case's own.
 */
#include "codec/puyo_codec.h"

#include <stdio.h>
#include <string.h>

#include "codec/decimal.h"
#include "codec/puyo_rows.h"

/*
 * Checks element `index` of "field" as row `row` of the field (row >=
 * PUYO_ROWS_MAX: check only) and stores its good cells. Returns whether
 * reading must stop.
 */
static bool read_row(struct puyo_rows *rd, const json_t *value, size_t index, unsigned row)
{
	if (!json_is_string(value)) {
		char where[32];
		snprintf(where, sizeof where, "/field/%zu", index);
		return puyo_rows_fault(rd, where, 0, 0, "expected a string");
	}
	return puyo_rows_check(rd, json_string_value(value), json_string_length(value),
			       (unsigned)index, row);
}

/* Reads the "field" member, which is present. */
static void read_field(struct puyo_rows *rd, const json_t *rows)
{
	if (!json_is_array(rows)) {
		puyo_rows_fault(rd, "/field", 0, 0, "must be an array");
		return;
	}

	size_t n = json_array_size(rows);
	bool size_ok = n == PUYO_ROWS || (!rd->strict && n == PUYO_ROWS_MAX);
	if (!size_ok) {
		bool stop;
		if (rd->strict)
			stop = puyo_rows_fault(rd, "/field", 0, 0, "expected %u rows, found %zu",
					       PUYO_ROWS, n);
		else
			stop =
			    puyo_rows_fault(rd, "/field", 0, 0,
					    "expected %u rows (%u with the hidden row), found %zu",
					    PUYO_ROWS, PUYO_ROWS_MAX, n);
		if (stop)
			return;
	}

	/* Rows past the largest field are only counted, not read. */
	size_t checked = rd->strict ? PUYO_ROWS : PUYO_ROWS_MAX;
	puyo_field_init(rd->field, size_ok ? (unsigned)n : PUYO_ROWS);
	for (size_t i = 0; i < n && i < checked; i++) {
		/* Strict mode keeps the first 12 rows for the floating check. */
		unsigned row = size_ok || rd->strict ? (unsigned)i : PUYO_ROWS_MAX;
		if (read_row(rd, json_array_get(rows, i), i, row))
			return;
	}
	if (rd->strict && n >= PUYO_ROWS)
		puyo_rows_check_floating(rd);
}

enum codec_status puyo_json_read(const json_t *case_obj, const char *pointer, bool strict,
				 struct puyo_field *field, struct codec_error *err)
{
	struct puyo_rows rd = {
	    .err = err, .pointer = pointer ? pointer : "", .strict = strict, .field = field};
	const char *key;
	json_t *value;

	puyo_field_init(field, PUYO_ROWS);
	if (!json_is_object(case_obj)) {
		puyo_rows_fault(&rd, "", 0, 0, "expected an object");
		return CODEC_E_INVALID;
	}

	/* json_object_foreach wants a non-const object; it does not modify it. */
	json_object_foreach((json_t *)case_obj, key, value)
	{
		if (strcmp(key, "field") == 0 || strcmp(key, "trace") == 0 ||
		    (strcmp(key, "id") == 0 && (json_is_string(value) || json_is_integer(value))))
			continue;
		/* Only as much as fits after the case pointer, which
		 * puyo_rows_fault() puts first: cutting there could split an escape ("~1"). */
		char where[CODEC_POINTER_MAX] = "";
		codec_pointer_append(where, sizeof where - strnlen(rd.pointer, sizeof where - 1),
				     key);
		if (puyo_rows_fault(
			&rd, where, 0, 0,
			strcmp(key, "id") == 0
			    ? "id must be a string or an integer"
			    : "unknown member; a case holds \"field\", \"trace\" and \"id\""))
			return CODEC_E_INVALID;
	}

	value = json_object_get(case_obj, "trace");
	if (value && !json_is_boolean(value) &&
	    puyo_rows_fault(&rd, "/trace", 0, 0, "expected a boolean"))
		return CODEC_E_INVALID;

	value = json_object_get(case_obj, "field");
	if (!value)
		puyo_rows_fault(&rd, "/field", 0, 0, "required");
	else
		read_field(&rd, value);
	return rd.failed ? CODEC_E_INVALID : CODEC_OK;
}

json_t *puyo_json_rows(const struct puyo_field *field)
{
	unsigned rows = field->rows == PUYO_ROWS_MAX ? PUYO_ROWS_MAX : PUYO_ROWS;
	json_t *array = json_array();

	if (!array)
		return NULL;
	for (unsigned r = 0; r < rows; r++) {
		char text[PUYO_COLS];
		for (unsigned c = 0; c < PUYO_COLS; c++)
			text[c] = puyo_cell_to_char(field->cell[r][c]);
		/* append_new takes the string, and fails on NULL. */
		if (json_array_append_new(array, json_stringn(text, PUYO_COLS)) != 0)
			goto out_free_array;
	}
	return array;

out_free_array:
	json_decref(array);
	return NULL;
}

/* Longest result: a 20-digit score, the keys and 13 quoted rows. */
#define PUYO_RESULT_MAX 256

/* The result's members up to the "[" of its field. */
static size_t write_head(char *text, const struct puyo_result *result)
{
	/* The same integers as the route's result object, printed as jansson
	 * does: as json_int_t. */
	size_t n = 0;
	n = codec_text_put(text, n, "{\"chains\":");
	n += codec_decimal_write(result->chains, text + n);
	n = codec_text_put(text, n, ",\"score\":");
	n += codec_json_int_write(result->score, text + n);
	return codec_text_put(text, n,
			      result->all_clear ? ",\"all_clear\":true,\"field\":["
						: ",\"all_clear\":false,\"field\":[");
}

int puyo_json_write_result(const struct puyo_field *field, const struct puyo_result *result,
			   char *buf, size_t size)
{
	char text[PUYO_RESULT_MAX];
	unsigned rows = field->rows == PUYO_ROWS_MAX ? PUYO_ROWS_MAX : PUYO_ROWS;
	size_t n = write_head(text, result);
	for (unsigned r = 0; r < rows; r++) {
		if (r > 0)
			text[n++] = ',';
		text[n] = '"';
		for (unsigned c = 0; c < PUYO_COLS; c++)
			text[n + 1 + c] = puyo_cell_to_char(field->cell[r][c]);
		text[n + 1 + PUYO_COLS] = '"';
		n += PUYO_COLS + 2;
	}
	n = codec_text_put(text, n, "]}\n");
	return codec_text_copy(buf, size, text, n);
}
