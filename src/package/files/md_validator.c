/*
 * The input validator of this package for Monomino-Domino (Baekjoon 20061),
 * in its judge's protocol: the input on stdin; exit DJ_VALID_EXIT if valid,
 * else DJ_INVALID_EXIT with the first fault on stderr as
 * "<stdin>:LINE:COLUMN: rule, got VALUE". The rules of `dropjudge validate`,
 * limits generated above: line 1 holds N, DJ_MD_MIN_N <= N <= DJ_MD_MAX_N,
 * then N lines "t x y" with the block inside the red board; plain integers
 * (no '+', leading zeros or "-0") split by single spaces, each line ended by
 * a lone '\n', nothing after line N + 1. Arguments (testlib's --testset,
 * Kattis's flags) are ignored. It starts no other program.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VAL_SHOWN     16		   /* bytes of a token shown, as `dropjudge validate` */
#define VAL_VALUE_MAX 100000000000000000LL /* digits stop being read at this: v * 10 + 9 fits */
#define VAL_INPUT_MAX ((size_t)64 << 20)

/* One integer token of a line. */
struct val_token {
	long long value;
	unsigned column;	       /* 1-based, in bytes */
	char shown[4 * VAL_SHOWN + 4]; /* as written, escaped, cut */
};

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

/* Writes the first VAL_SHOWN bytes of s[0..n) into out, escaped, "..." if cut. */
static void val_show(const char *s, size_t n, char *out)
{
	size_t k = 0;
	for (size_t i = 0; i < n && i < VAL_SHOWN; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f && c != '\\')
			out[k++] = (char)c;
		else
			k += (size_t)sprintf(out + k, "\\x%02X", c);
	}
	strcpy(out + k, n > VAL_SHOWN ? "..." : "");
}

/* Checks the integers of a line: N on line 1, a placement "t x y" against
 * the red board after it. */
static int val_values(unsigned line, const struct val_token *tok, long long *n)
{
	long long t = tok[0].value;
	if (line == 1 && t < 0)
		return val_fault(1, tok[0].column, "N must be 0 or more, got %s", tok[0].shown);
	if (line == 1 && (t < DJ_MD_MIN_N || t > DJ_MD_MAX_N))
		return val_fault(1, tok[0].column, "N must be %d..%d, got %s", DJ_MD_MIN_N,
				 DJ_MD_MAX_N, tok[0].shown);
	if (line == 1)
		*n = t;
	else if (t < 1 || t > DJ_MD_TYPES)
		return val_fault(line, tok[0].column, "%s, got %s", DJ_MD_RULE_T, tok[0].shown);
	else if (tok[1].value < 0 || tok[1].value > dj_md_max_x[t])
		return val_fault(line, tok[1].column, "%s, got %s", dj_md_rule_x[t], tok[1].shown);
	else if (tok[2].value < 0 || tok[2].value > dj_md_max_y[t])
		return val_fault(line, tok[2].column, "%s, got %s", dj_md_rule_y[t], tok[2].shown);
	return 0;
}

/* Checks one line (without its '\n'), N's (setting *count) or a placement's:
 * 0, or the exit code of its first fault in the order of its bytes. */
static int val_line(unsigned line, const char *s, size_t n, long long *count)
{
	struct val_token tok[3];
	size_t i = 0;
	unsigned ntok = 0, extra = 0, want = line == 1 ? 1 : 3;
	while (i < n) {
		size_t blank = i;
		i += strspn(s + i, " \t");
		if (i < n && s[i] == '\r')
			return val_fault(
			    line, (unsigned)i + 1,
			    "unexpected carriage return (lines must end with \\n alone)");
		if (i == n)
			return val_fault(line, (unsigned)blank + 1, "trailing whitespace");
		if (i > blank && ntok == 0)
			return val_fault(line, (unsigned)blank + 1, "leading whitespace");
		if (ntok > 0 && (s[blank] == '\t' || i > blank + 1))
			return val_fault(line, (unsigned)blank + 1 + (s[blank] != '\t'),
					 "expected a single space between integers");
		size_t start = i;
		while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			i++;
		struct val_token t = {.column = (unsigned)start + 1};
		val_show(s + start, i - start, t.shown);
		size_t d = start + (s[start] == '-' || s[start] == '+');
		if (d == i || strspn(s + d, "0123456789") < i - d)
			return val_fault(line, t.column, "expected an integer, found '%s'",
					 t.shown);
		long long v = 0;
		for (size_t k = d; k < i && v < VAL_VALUE_MAX; k++)
			v = v * 10 + (s[k] - '0');
		if (s[start] == '+' || (s[d] == '0' && i - d > 1) || (s[start] == '-' && v == 0))
			return val_fault(line, t.column,
					 "expected an integer without '+', leading zeros or '-0', "
					 "found '%s'",
					 t.shown);
		t.value = s[start] == '-' ? -v : v;
		if (ntok < want)
			tok[ntok] = t;
		else if (ntok == want)
			extra = t.column;
		ntok++;
	}
	if (line == 1 && ntok == 0)
		return val_fault(1, 0, "expected N, the number of placements");
	if (ntok != want)
		return val_fault(line, ntok > want ? extra : 0, "expected %u integer%s, found %u",
				 want, want == 1 ? "" : "s", ntok);
	return val_values(line, tok, count);
}

int main(void)
{
	size_t len = 0, cap = 1 << 16;
	char *text = malloc(cap + 1);
	for (size_t got; text && (got = fread(text + len, 1, cap - len, stdin)) > 0;) {
		len += got;
		if (len == cap && cap < VAL_INPUT_MAX) {
			char *p = realloc(text, (cap *= 2) + 1);
			if (!p)
				free(text);
			text = p;
		}
	}
	if (!text)
		return val_fault(1, 0, "out of memory");
	text[len] = '\0'; /* ends the last line's scans */

	long long n = 0;
	unsigned line = 1;
	int rc = 0;
	for (size_t pos = 0; !rc && (pos < len || line == 1); line++) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		if ((long long)line > n + 1)
			rc = val_fault(line, 1, "expected the end of the input after line %lld",
				       n + 1);
		else
			rc = val_line(line, text + pos, end - pos, &n);
		if (!rc && !nl)
			rc = val_fault(line, (unsigned)(end - pos) + 1,
				       "missing newline at the end of the input");
		pos = end + 1;
	}
	if (!rc && (long long)line - 2 < n)
		rc = val_fault(line, 0, "expected %lld placement%s, found %u", n, n == 1 ? "" : "s",
			       line - 2);
	free(text);
	return rc ? rc : DJ_VALID_EXIT;
}
