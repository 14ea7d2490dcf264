/*
 * The input validator of this package for Puyo Puyo (Baekjoon 11559), in
 * its judge's protocol: the input on stdin; exit DJ_VALID_EXIT if valid,
 * else DJ_INVALID_EXIT with the first fault on stderr as
 * "<stdin>:LINE[:COLUMN]: rule". The rules of `dropjudge validate`, size and
 * alphabet generated above: exactly DJ_PUYO_ROWS lines of DJ_PUYO_COLS
 * characters from DJ_PUYO_ALPHABET, each ended by a lone '\n', nothing
 * after, and no puyo above an empty cell. Arguments (testlib's --testset,
 * Kattis's flags) are ignored. It starts no other program.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VAL_INPUT_MAX ((size_t)1 << 20)

/* Reports the fault and gives the exit code of an invalid input. */
static int __attribute__((format(printf, 3, 4)))
val_fault(unsigned line, unsigned column, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s<stdin>:%u", DJ_FAULT_PREFIX, line);
	if (column)
		fprintf(stderr, ":%u", column);
	fputs(": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return DJ_INVALID_EXIT;
}

/*
 * The length in bytes of the UTF-8 character at s[0..n), 1 for a byte that
 * starts none; *cp receives its code point, or -1 for such a byte.
 */
static size_t val_char(const unsigned char *s, size_t n, long *cp)
{
	size_t len = s[0] < 0x80		   ? 1
		     : s[0] >= 0xC2 && s[0] < 0xE0 ? 2
		     : s[0] >= 0xE0 && s[0] < 0xF0 ? 3
		     : s[0] >= 0xF0 && s[0] < 0xF5 ? 4
						   : 0;
	long v = len == 1 ? s[0] : len == 2 ? s[0] & 0x1F : len == 3 ? s[0] & 0x0F : s[0] & 0x07;
	for (size_t i = 1; i < len; i++) {
		if (i >= n || (s[i] & 0xC0) != 0x80) {
			len = 0;
			break;
		}
		v = v << 6 | (s[i] & 0x3F);
	}
	*cp = len ? v : -1;
	return len ? len : 1;
}

/* Checks one row (without its '\n', ended by one if newline); fills cells;
 * 0 or the exit code. */
static int val_row(unsigned line, const char *s, size_t n, int newline, char *cells)
{
	unsigned chars = 0;
	int cr = n && s[n - 1] == '\r';
	long cp;
	n -= (size_t)cr;
	for (size_t i = 0; i < n; chars++)
		i += val_char((const unsigned char *)s + i, n - i, &cp);
	if (chars != DJ_PUYO_COLS)
		return val_fault(line, 0, "expected %d characters, found %u", DJ_PUYO_COLS, chars);
	for (size_t i = 0, col = 1; i < n; col++) {
		size_t k = val_char((const unsigned char *)s + i, n - i, &cp);
		char shown[32];
		if (cp < 0)
			snprintf(shown, sizeof shown, "byte 0x%02X", (unsigned char)s[i]);
		else if (cp < 0x20 || cp >= 0x7f)
			snprintf(shown, sizeof shown, "U+%04lX", cp);
		else
			snprintf(shown, sizeof shown, "'%c'", (char)cp);
		if (cp <= 0 || cp >= 0x80 || !strchr(DJ_PUYO_ALPHABET, (int)cp))
			return val_fault(line, (unsigned)col,
					 "unknown cell %s at column %u (expected one of %s)", shown,
					 (unsigned)col, DJ_PUYO_ALPHABET);
		cells[col - 1] = (char)cp;
		i += k;
	}
	if (cr)
		return val_fault(line, DJ_PUYO_COLS + 1,
				 "carriage return at the end of the line (lines must end with "
				 "\"\\n\" only)");
	return newline ? 0 : val_fault(line, 0, "missing newline at the end of the line");
}

int main(void)
{
	static char text[VAL_INPUT_MAX + 1];
	char field[DJ_PUYO_ROWS][DJ_PUYO_COLS];
	size_t len = fread(text, 1, sizeof text, stdin);
	unsigned lines = 0;
	int rc = 0;

	if (len > VAL_INPUT_MAX)
		return val_fault(1, 0, "the input is larger than %zu bytes", (size_t)VAL_INPUT_MAX);
	for (size_t pos = 0; pos < len && !rc; lines++) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		if (lines < DJ_PUYO_ROWS)
			rc = val_row(lines + 1, text + pos, end - pos, nl != NULL, field[lines]);
		pos = end + 1;
	}
	if (!rc && lines != DJ_PUYO_ROWS)
		rc = val_fault(lines < DJ_PUYO_ROWS ? lines + 1 : DJ_PUYO_ROWS + 1, 0,
			       "expected %d rows, found %u", DJ_PUYO_ROWS, lines);
	/* column by column, the lowest puyo with an empty cell below it */
	for (unsigned c = 0; !rc && c < DJ_PUYO_COLS; c++)
		for (unsigned r = DJ_PUYO_ROWS - 1; !rc && r-- > 0;)
			if (field[r][c] != DJ_PUYO_EMPTY && field[r + 1][c] == DJ_PUYO_EMPTY)
				rc = val_fault(r + 1, 0,
					       "puyo at column %u floats above an empty cell",
					       c + 1);
	return rc ? rc : DJ_VALID_EXIT;
}
