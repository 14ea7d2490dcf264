/*
 * The checker behind POST /v1/{problem}/judge (see judge.h). Both buffers are
 * plain bytes, NUL bytes allowed. Messages are plain ASCII (other bytes shown
 * as \xNN, long tokens cut), so that they fit JUDGE_MESSAGE_MAX and are valid
 * UTF-8. Pure: no allocation, no I/O, no global state.
 */
#include "dropjudge/judge.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* At most this many characters of a token are shown in a message. */
#define JUDGE_SHOW_MAX 40

/* Room for a shown token: quote, JUDGE_SHOW_MAX characters, "...' (N bytes)"
 * with N up to 20 digits, and the NUL. */
#define JUDGE_QUOTED_MAX (1 + JUDGE_SHOW_MAX + 6 + 20 + 7 + 1)

/* A read position in one of the two outputs. */
struct judge_cursor {
	const char *buf; /* the output, not NUL-terminated */
	size_t len;	 /* bytes in buf */
	size_t pos;	 /* next byte to read, 0..len */
	size_t line;	 /* 1-based line of buf[pos] */
};

/* One whitespace-separated token. */
struct judge_token {
	const char *text; /* first byte, inside the cursor's buffer */
	size_t len;	  /* bytes, >= 1 */
	size_t line;	  /* 1-based line it starts on */
};

/* What parts tokens: C's white space, whatever the locale. */
static bool judge_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Reads the next token; returns false at the end of the output. */
static bool judge_next_token(struct judge_cursor *cur, struct judge_token *tok)
{
	while (cur->pos < cur->len && judge_is_space(cur->buf[cur->pos])) {
		if (cur->buf[cur->pos] == '\n')
			cur->line++;
		cur->pos++;
	}
	if (cur->pos == cur->len)
		return false;
	tok->text = cur->buf + cur->pos;
	tok->line = cur->line;
	while (cur->pos < cur->len && !judge_is_space(cur->buf[cur->pos]))
		cur->pos++;
	tok->len = (size_t)(cur->buf + cur->pos - tok->text);
	return true;
}

/* Tokens left after the cursor. */
static size_t judge_count_tokens(struct judge_cursor *cur)
{
	struct judge_token tok;
	size_t n = 0;
	while (judge_next_token(cur, &tok))
		n++;
	return n;
}

/* Length of the output once its trailing spaces, tabs, CRs and newlines are cut. */
static size_t judge_content_len(const char *buf, size_t len)
{
	while (len > 0 && (buf[len - 1] == ' ' || buf[len - 1] == '\t' || buf[len - 1] == '\r' ||
			   buf[len - 1] == '\n'))
		len--;
	return len;
}

/* Length of the line starting at buf[pos], without its '\n'. */
static size_t judge_line_len(const char *buf, size_t len, size_t pos)
{
	const char *nl = memchr(buf + pos, '\n', len - pos);
	return nl ? (size_t)(nl - (buf + pos)) : len - pos;
}

/* Whether the outputs are equal line by line after trimming; *line: the first line (1-based)
 * that differs. */
static bool judge_lines_equal(const char *a, size_t alen, const char *b, size_t blen, size_t *line)
{
	size_t apos = 0, bpos = 0;
	alen = a ? judge_content_len(a, alen) : 0;
	blen = b ? judge_content_len(b, blen) : 0;
	*line = 1;
	while (apos < alen && bpos < blen) {
		size_t al = judge_line_len(a, alen, apos);
		size_t bl = judge_line_len(b, blen, bpos);
		/* a line holds no '\n': only its trailing blanks are cut */
		size_t at = judge_content_len(a + apos, al), bt = judge_content_len(b + bpos, bl);
		if (at != bt || memcmp(a + apos, b + bpos, at) != 0)
			return false;
		apos += al + 1;
		bpos += bl + 1;
		(*line)++;
	}
	return apos >= alen && bpos >= blen;
}

/* A token quoted for a message, backslash and non-printable bytes escaped, cut after
 * JUDGE_SHOW_MAX characters with its length. */
static void judge_quote(char *dst, size_t cap, const struct judge_token *tok)
{
	size_t n = 0, i;
	dst[n++] = '\'';
	for (i = 0; i < tok->len; i++) {
		unsigned char c = (unsigned char)tok->text[i];
		size_t need = (c >= 0x20 && c < 0x7f && c != '\\') ? 1 : c == '\\' ? 2 : 4;
		if (n - 1 + need > JUDGE_SHOW_MAX)
			break;
		if (need == 1)
			dst[n++] = (char)c;
		else
			n += (size_t)snprintf(dst + n, cap - n, need == 2 ? "\\%c" : "\\x%02x", c);
	}
	if (i < tok->len)
		snprintf(dst + n, cap - n, "...' (%zu bytes)", tok->len);
	else
		snprintf(dst + n, cap - n, "'");
}

void judge_compare(const char *expected, size_t expected_len, const char *found, size_t found_len,
		   struct judge_report *report)
{
	/* a NULL buffer reads as empty, whatever its length says */
	struct judge_cursor exp = {expected, expected ? expected_len : 0, 0, 1};
	struct judge_cursor out = {found, found ? found_len : 0, 0, 1};
	struct judge_token et, ft;
	char eq[JUDGE_QUOTED_MAX], fq[JUDGE_QUOTED_MAX];
	size_t line, index = 0;
	/* Two tokens, two numbers and the words of the longest message. */
	_Static_assert(2 * JUDGE_QUOTED_MAX + 2 * 20 + 48 <= JUDGE_MESSAGE_MAX,
		       "a differing-token message fits its buffer");
	if (judge_lines_equal(expected, expected_len, found, found_len, &line)) {
		report->verdict = JUDGE_ACCEPTED;
		size_t n = judge_count_tokens(&exp);
		snprintf(report->message, sizeof report->message, "ok: %zu token%s", n,
			 n == 1 ? "" : "s");
		return;
	}
	/* the first token pair that differs, or the end of both */
	bool have_e, have_f;
	do {
		have_e = judge_next_token(&exp, &et);
		have_f = judge_next_token(&out, &ft);
		index++;
	} while (have_e && have_f && et.len == ft.len && memcmp(et.text, ft.text, et.len) == 0);
	if (!have_e && !have_f) {
		report->verdict = JUDGE_PRESENTATION_ERROR;
		snprintf(report->message, sizeof report->message,
			 "the tokens are right but the layout differs "
			 "from the expected output at line %zu "
			 "(spaces or line breaks)",
			 line);
		return;
	}
	report->verdict = JUDGE_WRONG_ANSWER;
	if (have_e)
		judge_quote(eq, sizeof eq, &et);
	if (have_f)
		judge_quote(fq, sizeof fq, &ft);
	if (have_e && have_f)
		snprintf(report->message, sizeof report->message,
			 "token %zu (line %zu of the output): "
			 "expected %s, found %s",
			 index, ft.line, eq, fq);
	else if (have_e) /* the tokens after et count too */
		snprintf(report->message, sizeof report->message,
			 "missing tokens: expected %zu, the output has %zu; "
			 "token %zu should be %s",
			 index + judge_count_tokens(&exp), index - 1, index, eq);
	else
		snprintf(report->message, sizeof report->message,
			 "extra tokens: expected %zu, the output has %zu; "
			 "token %zu (line %zu of the output) is %s",
			 index - 1, index + judge_count_tokens(&out), index, ft.line, fq);
}

const char *judge_verdict_name(enum judge_verdict verdict)
{
	static const char *const names[] = {"accepted", "presentation_error", "wrong_answer"};
	return (unsigned)verdict <= JUDGE_WRONG_ANSWER ? names[verdict] : "unknown";
}
