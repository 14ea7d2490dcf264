/*
 * The output checker of this package, in its judge's protocol
 * (DJ_PROTOCOL_* above). It compares output and jury answer with
 * judge_compare() above, the service's own comparison: equal after trimming
 * trailing blanks is accepted, the same tokens in another layout a
 * presentation error, else a wrong answer naming the first wrong, missing or
 * extra token. A jury answer not of DJ_ANSWER_TOKENS non-negative integers
 * is a judge error. It reads only its arguments' files, starts no program.
 *   testlib  check input output answer [report [-appes]]
 *            exit 0 ok, 1 wrong answer, 2 presentation error, 3 fail
 *   kattis   output_validator input answer feedback_dir [flags] < output
 *            exit 42 accepted, 43 rejected; judgemessage.txt in feedback_dir
 *   cms      checker input correct_output contestant_output
 *            outcome (1.0 or 0.0) on stdout, one message line on stderr
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHK_FILE_MAX	((size_t)64 << 20) /* largest file read */
#define CHK_MESSAGE_MAX (JUDGE_MESSAGE_MAX + 256)

enum chk_outcome { CHK_OK, CHK_WRONG, CHK_PRESENTATION, CHK_FAIL };

/* Reads the whole file `what` of the run (path NULL: stdin) into a new
 * buffer; NULL with msg set. */
static char *chk_read(const char *what, const char *path, size_t *len, char *msg, size_t size)
{
	FILE *f = path ? fopen(path, "rb") : stdin;
	size_t cap = 4096, n = 0, got;
	char why[256], *buf = f ? malloc(cap) : NULL;
	if (!f)
		snprintf(why, sizeof why, "cannot read %s: %s", path, strerror(errno));
	while (buf && (got = fread(buf + n, 1, cap - 1 - n, f)) > 0) {
		n += got;
		if (n + 1 == cap) {
			char *p = cap < CHK_FILE_MAX ? realloc(buf, cap *= 2) : NULL;
			if (!p)
				free(buf);
			buf = p;
		}
	}
	if (f && !buf)
		snprintf(why, sizeof why, "%s: too large or out of memory",
			 path ? path : "the output");
	if (f && path)
		fclose(f);
	*len = n;
	if (buf)
		buf[n] = '\0';
	else
		snprintf(msg, size, "%s: %s", what, why);
	return buf;
}

/* Whether a jury answer is DJ_ANSWER_TOKENS non-negative integers of at
 * most 19 digits. */
static int chk_answer_is_valid(const char *s, size_t len)
{
	static const char space[] = " \t\r\n";
	unsigned tokens = 0;
	for (size_t i = strspn(s, space); i < len; tokens++) {
		size_t digits = strspn(s + i, "0123456789");
		size_t blank = strspn(s + i + digits, space);
		if (digits == 0 || digits > 19 || (blank == 0 && i + digits < len))
			return 0;
		i += digits + blank;
	}
	return tokens == DJ_ANSWER_TOKENS;
}

/* Judges one run: fills msg, returns the outcome. */
static enum chk_outcome chk_judge(const char *input, const char *answer, const char *output,
				  char *msg, size_t size)
{
	size_t answer_len = 0, output_len = 0, input_len = 0;
	enum chk_outcome outcome = CHK_FAIL;
	char *in = chk_read("the input", input, &input_len, msg, size);
	char *ans = in ? chk_read("the answer file", answer, &answer_len, msg, size) : NULL;
	char *out = NULL;
	if (ans && !chk_answer_is_valid(ans, answer_len)) {
		snprintf(msg, size,
			 "the answer file %s is not a %s answer (%d non-negative integer%s)",
			 answer, DJ_TITLE, DJ_ANSWER_TOKENS, DJ_ANSWER_TOKENS == 1 ? "" : "s");
	} else if (ans) {
		out = chk_read("the output", output, &output_len, msg, size);
		outcome = CHK_WRONG;
	}
	if (out) {
		struct judge_report report;
		judge_compare(ans, answer_len, out, output_len, &report);
		snprintf(msg, size, "%s", report.message);
		outcome = report.verdict == JUDGE_ACCEPTED	       ? CHK_OK
			  : report.verdict == JUDGE_PRESENTATION_ERROR ? CHK_PRESENTATION
								       : CHK_WRONG;
	}
	free(in);
	free(ans);
	free(out);
	return outcome;
}

#if defined(DJ_PROTOCOL_TESTLIB)
/* Reports the outcome as testlib does: its exit code is the outcome's order. */
static int chk_report(int argc, char **argv, enum chk_outcome outcome, const char *msg)
{
	static const char *const prefix[] = {"ok ", "wrong answer ", "wrong output format ",
					     "FAIL "};
	static const char *const appes[] = {"accepted", "wrong-answer", "presentation-error",
					    "fail"};
	static const char special[] = "&<>\"";
	static const char *const entity[] = {"&amp;", "&lt;", "&gt;", "&quot;"};
	fprintf(stderr, "%s%s\n", prefix[outcome], msg);
	if (argc < 5)
		return (int)outcome;
	FILE *f = fopen(argv[4], "w");
	if (!f) {
		fprintf(stderr, "FAIL cannot write %s: %s\n", argv[4], strerror(errno));
		return 3;
	}
	if (argc >= 6) {
		fprintf(f, "<?xml version=\"1.0\" encoding=\"utf-8\"?><result outcome = \"%s\">",
			appes[outcome]);
		for (const char *c = msg; *c; c++) {
			const char *e = strchr(special, *c);
			if (e)
				fputs(entity[e - special], f);
			else
				fputc(*c, f);
		}
		fputs("</result>\n", f);
	} else {
		fputs(msg, f);
	}
	return fclose(f) == 0 ? (int)outcome : 3;
}

int main(int argc, char **argv)
{
	char msg[CHK_MESSAGE_MAX];
	if (argc < 4 || argc > 6) {
		fprintf(stderr, "FAIL usage: %s input output answer [report [-appes]]\n", argv[0]);
		return 3;
	}
	return chk_report(argc, argv, chk_judge(argv[1], argv[3], argv[2], msg, sizeof msg), msg);
}
#elif defined(DJ_PROTOCOL_KATTIS) || defined(DJ_PROTOCOL_CMS)
static const char *const chk_verdict[] = {"accepted", "wrong answer", "presentation error",
					  "judge error"};

#if defined(DJ_PROTOCOL_KATTIS)
/* Writes text into dir/name; 0 when it cannot. */
static int chk_write(const char *dir, const char *name, const char *text)
{
	char path[4096];
	size_t n = strlen(dir);
	snprintf(path, sizeof path, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "judge error: cannot write %s: %s\n", path, strerror(errno));
		return 0;
	}
	int ok = fputs(text, f) >= 0;
	return fclose(f) == 0 && ok;
}

int main(int argc, char **argv)
{
	char msg[CHK_MESSAGE_MAX], text[CHK_MESSAGE_MAX + 32];
	if (argc < 4) {
		fprintf(stderr,
			"judge error: usage: %s input answer feedback_dir [flags] < output\n",
			argv[0]);
		return 1;
	}
	enum chk_outcome outcome = chk_judge(argv[1], argv[2], NULL, msg, sizeof msg);
	snprintf(text, sizeof text, "%s: %s\n", chk_verdict[outcome], msg);
	fputs(text, stderr);
	if (!chk_write(argv[3], "judgemessage.txt", text))
		return 1;
	if (outcome == CHK_FAIL) {
		chk_write(argv[3], "judgeerror.txt", text);
		return 1;
	}
	return outcome == CHK_OK ? 42 : 43;
}
#else
int main(int argc, char **argv)
{
	char msg[CHK_MESSAGE_MAX];
	if (argc != 4) {
		fprintf(stderr, "usage: %s input correct_output contestant_output\n", argv[0]);
		return 1;
	}
	enum chk_outcome outcome = chk_judge(argv[1], argv[2], argv[3], msg, sizeof msg);
	if (outcome == CHK_FAIL) {
		fprintf(stderr, "%s\n", msg);
		return 1;
	}
	printf("%s\n", outcome == CHK_OK ? "1.0" : "0.0");
	if (outcome == CHK_OK)
		fprintf(stderr, "translate:success\n");
	else
		fprintf(stderr, "%s: %s\n", chk_verdict[outcome], msg);
	return fflush(stdout) == 0 ? 0 : 1;
}
#endif
#else
#error "define DJ_PROTOCOL_TESTLIB, DJ_PROTOCOL_KATTIS or DJ_PROTOCOL_CMS"
#endif
