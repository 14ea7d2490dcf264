/*
 * The JSON form of a Puyo case, {"field": [rows, top first], "trace": bool},
 * in, and a field's rows as a JSON array out.
 *
 * Lenient mode (solving) takes 12 rows, or 13 with the hidden row on top, of
 * `.RGBPYO`. Strict mode (validation) takes exactly 12 rows of `.RGBPY` with
 * no puyo above an empty cell. Every fault is CODEC_E_INVALID at a JSON
 * pointer under the case's own pointer; reading goes on after a fault as long
 * as the error collects (codec/error.h), so validation lists them all.
 */
#include "codec/puyo_codec.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define ALPHABET_LENIENT ".RGBPYO"
#define ALPHABET_STRICT ".RGBPY"
#define UNKNOWN_CELL "unknown cell %s at column %u (expected one of %s)"
#define FLOATING "puyo at column %u floats above an empty cell"

struct json_reader {
	struct codec_error *err;              /* not owned; NULL allowed */
	const char *pointer;                  /* of the case object */
	bool strict;                          /* validation mode */
	bool failed;                          /* some fault was found */
	struct puyo_field *field;             /* not owned; receives the good cells */
	bool known[PUYO_ROWS_MAX][PUYO_COLS]; /* cell read from a good character */
};

/*
 * Records a fault at the case's pointer followed by `where` (already an RFC
 * 6901 suffix such as "/field/3"); returns whether reading must stop now.
 */
static bool json_fault(struct json_reader *rd, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bool json_fault(struct json_reader *rd, const char *where, const char *fmt, ...)
{
	char pointer[CODEC_POINTER_MAX];
	char detail[CODEC_DETAIL_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof detail, fmt, ap);
	va_end(ap);
	snprintf(pointer, sizeof pointer, "%s%s", rd->pointer, where);
	rd->failed = true;
	codec_error_at_pointer(rd->err, CODEC_E_INVALID, pointer, "%s", detail);
	return !rd->err || codec_error_is_full(rd->err);
}

/* Writes "/" and the member name escaped as RFC 6901 says (~0, ~1). */
static void pointer_token(char *out, size_t size, const char *name)
{
	size_t n = 0;

	if (size < 2)
		return;
	out[n++] = '/';
	for (const char *p = name; *p && n + 3 < size; p++) {
		if (*p == '~' || *p == '/') {
			out[n++] = '~';
			out[n++] = *p == '~' ? '0' : '1';
		} else {
			out[n++] = *p;
		}
	}
	out[n] = '\0';
}

/*
 * Measures the character at s[0..n) (n >= 1): returns its length in bytes
 * (1 for a byte that does not start valid UTF-8) and, when `shown` is not
 * NULL, writes how a fault names it: 'X' for printable ASCII, U+XXXX for any
 * other character, "byte 0xNN" for a byte that is not UTF-8.
 */
static size_t char_measure(const unsigned char *s, size_t n, char *shown, size_t size)
{
	unsigned long cp = s[0];
	size_t len = 1;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else if (s[0] >= 0x80)
		len = 0; /* not a lead byte */
	if (len > 1) {
		cp = s[0] & (0x7fu >> len);
		for (size_t i = 1; i < len; i++) {
			if (i >= n || (s[i] & 0xc0) != 0x80) {
				len = 0;
				break;
			}
			cp = cp << 6 | (s[i] & 0x3fu);
		}
	}
	if (shown) {
		if (len == 0)
			snprintf(shown, size, "byte 0x%02X", s[0]);
		else if (cp >= 0x20 && cp < 0x7f)
			snprintf(shown, size, "'%c'", (char)cp);
		else
			snprintf(shown, size, "U+%04lX", cp);
	}
	return len ? len : 1;
}

/*
 * Checks element `index` of "field" as row `row` of the field (row >=
 * PUYO_ROWS_MAX: check only) and stores its good cells. Returns whether
 * reading must stop.
 */
static bool read_row(struct json_reader *rd, const json_t *value, size_t index, unsigned row)
{
	const char *alphabet = rd->strict ? ALPHABET_STRICT : ALPHABET_LENIENT;
	char where[32];

	snprintf(where, sizeof where, "/field/%zu", index);
	if (!json_is_string(value))
		return json_fault(rd, where, "expected a string");

	const char *text = json_string_value(value);
	const unsigned char *s = (const unsigned char *)text;
	size_t len = json_string_length(value);
	unsigned chars = 0;
	for (size_t pos = 0; pos < len; chars++)
		pos += char_measure(s + pos, len - pos, NULL, 0);
	if (chars != PUYO_COLS &&
	    json_fault(rd, where, "expected %u characters, found %u", PUYO_COLS, chars))
		return true;

	size_t pos = 0;
	for (unsigned col = 0; col < PUYO_COLS && pos < len; col++) {
		char shown[24];
		size_t used = char_measure(s + pos, len - pos, shown, sizeof shown);
		int cell = used == 1 ? puyo_cell_from_char(text[pos]) : -1;
		if (cell == PUYO_GARBAGE && rd->strict)
			cell = -1;
		pos += used;
		if (cell < 0) {
			if (json_fault(rd, where, UNKNOWN_CELL, shown, col + 1, alphabet))
				return true;
			continue;
		}
		if (row < PUYO_ROWS_MAX) {
			rd->field->cell[row][col] = (uint8_t)cell;
			rd->known[row][col] = true;
		}
	}
	return false;
}

/*
 * Strict mode: reports, for each column, the lowest puyo that has a known
 * empty cell somewhere below it, at its row. Cells whose character was bad
 * are skipped.
 */
static void check_floating(struct json_reader *rd)
{
	for (unsigned c = 0; c < PUYO_COLS; c++) {
		bool gap = false;
		for (unsigned r = PUYO_ROWS; r-- > 0;) {
			if (!rd->known[r][c])
				continue;
			if (rd->field->cell[r][c] == PUYO_EMPTY) {
				gap = true;
			} else if (gap) {
				char where[32];
				snprintf(where, sizeof where, "/field/%u", r);
				if (json_fault(rd, where, FLOATING, c + 1))
					return;
				break;
			}
		}
	}
}

/* Reads the "field" member, which is present. */
static void read_field(struct json_reader *rd, const json_t *rows)
{
	if (!json_is_array(rows)) {
		json_fault(rd, "/field", "must be an array");
		return;
	}

	size_t n = json_array_size(rows);
	bool size_ok = n == PUYO_ROWS || (!rd->strict && n == PUYO_ROWS_MAX);
	if (!size_ok) {
		bool stop;
		if (rd->strict)
			stop = json_fault(rd, "/field", "expected %u rows, found %zu", PUYO_ROWS,
					  n);
		else
			stop = json_fault(rd, "/field",
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
		check_floating(rd);
}

enum codec_status puyo_json_read(const json_t *case_obj, const char *pointer,
				 bool strict, struct puyo_field *field,
				 struct codec_error *err)
{
	struct json_reader rd = {
		.err = err, .pointer = pointer ? pointer : "", .strict = strict, .field = field};
	const char *key;
	json_t *value;

	puyo_field_init(field, PUYO_ROWS);
	if (!json_is_object(case_obj)) {
		json_fault(&rd, "", "expected an object");
		return CODEC_E_INVALID;
	}

	/* json_object_foreach wants a non-const object; it does not modify it. */
	json_object_foreach((json_t *)case_obj, key, value) {
		if (strcmp(key, "field") == 0 || strcmp(key, "trace") == 0)
			continue;
		char where[CODEC_POINTER_MAX];
		pointer_token(where, sizeof where, key);
		if (json_fault(&rd, where, "unknown member"))
			return CODEC_E_INVALID;
	}

	value = json_object_get(case_obj, "trace");
	if (value && !json_is_boolean(value) && json_fault(&rd, "/trace", "expected a boolean"))
		return CODEC_E_INVALID;

	value = json_object_get(case_obj, "field");
	if (!value)
		json_fault(&rd, "/field", "required");
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
