/*
 * The output checker of this package, in the protocol its judge uses
 * (DJ_PROTOCOL_* above). It compares the contestant's output with the jury
 * answer as dropjudge does (judge_compare() above is the service's own
 * comparison): equal after trimming trailing blanks is accepted, the same
 * tokens in another layout a presentation error, anything else a wrong
 * answer naming the first wrong, missing or extra token. The jury answer
 * must hold DJ_ANSWER_TOKENS non-negative integers, else the run is a judge
 * error. It reads only its arguments' files and starts no other program.
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

/* Reads a whole file (NULL: stdin) into a new buffer; NULL with why set. */
static char *chk_read(const char *path, size_t *len, char *why, size_t size)
{
	FILE *f = path ? fopen(path, "rb") : stdin;
	size_t cap = 4096, n = 0;
	char *buf = NULL;
	if (!f) {
		snprintf(why, size, "cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		if (!buf || n + 1 >= cap) {
			char *p = NULL;
			if (buf)
				cap *= 2;
			if (cap <= CHK_FILE_MAX + 1)
				p = realloc(buf, cap);
			if (!p) {
				snprintf(why, size, "%s: too large or out of memory",
					 path ? path : "the output");
				free(buf);
				buf = NULL;
				break;
			}
			buf = p;
		}
		size_t got = fread(buf + n, 1, cap - 1 - n, f);
		n += got;
		if (got == 0) {
			buf[n] = '\0';
			*len = n;
			break;
		}
	}
	if (path)
		fclose(f);
	return buf;
}

static int chk_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Whether a jury answer is DJ_ANSWER_TOKENS non-negative integers of at
 * most 19 digits. */
static int chk_answer_is_valid(const char *s, size_t len)
{
	unsigned tokens = 0;
	size_t i = 0;
	for (;;) {
		while (i < len && chk_is_space(s[i]))
			i++;
		if (i == len)
			break;
		size_t digits = 0;
		while (i < len && s[i] >= '0' && s[i] <= '9') {
			i++;
			digits++;
		}
		if (digits == 0 || digits > 19 || (i < len && !chk_is_space(s[i])))
			return 0;
		tokens++;
	}
	return tokens == DJ_ANSWER_TOKENS;
}

/* Judges one run: fills msg, returns the outcome. */
static enum chk_outcome chk_judge(const char *input, const char *answer, const char *output,
				  char *msg, size_t size)
{
	char why[256];
	size_t answer_len = 0, output_len = 0, input_len = 0;
	enum chk_outcome outcome = CHK_FAIL;
	char *in = chk_read(input, &input_len, why, sizeof why);
	char *ans = NULL, *out = NULL;
	if (!in) {
		snprintf(msg, size, "the input: %s", why);
		goto out_free;
	}
	ans = chk_read(answer, &answer_len, why, sizeof why);
	if (!ans) {
		snprintf(msg, size, "the answer file: %s", why);
		goto out_free;
	}
	if (!chk_answer_is_valid(ans, answer_len)) {
		snprintf(msg, size,
			 "the answer file %s is not a %s answer (%d non-negative integer%s)",
			 answer, DJ_TITLE, DJ_ANSWER_TOKENS, DJ_ANSWER_TOKENS == 1 ? "" : "s");
		goto out_free;
	}
	out = chk_read(output, &output_len, why, sizeof why);
	if (!out) {
		snprintf(msg, size, "the output: %s", why);
		outcome = CHK_WRONG;
		goto out_free;
	}
	struct judge_report report;
	judge_compare(ans, answer_len, out, output_len, &report);
	snprintf(msg, size, "%s", report.message);
	outcome = report.verdict == JUDGE_ACCEPTED	       ? CHK_OK
		  : report.verdict == JUDGE_PRESENTATION_ERROR ? CHK_PRESENTATION
							       : CHK_WRONG;
out_free:
	free(in);
	free(ans);
	free(out);
	return outcome;
}

#if defined(DJ_PROTOCOL_TESTLIB)
static int chk_report(int argc, char **argv, enum chk_outcome outcome, const char *msg)
{
	static const char *const prefix[] = {"ok ", "wrong answer ", "wrong output format ",
					     "FAIL "};
	static const char *const appes[] = {"accepted", "wrong-answer", "presentation-error",
					    "fail"};
	static const int code[] = {0, 1, 2, 3};
	fprintf(stderr, "%s%s\n", prefix[outcome], msg);
	if (argc >= 5) {
		FILE *f = fopen(argv[4], "w");
		if (!f) {
			fprintf(stderr, "FAIL cannot write %s: %s\n", argv[4], strerror(errno));
			return 3;
		}
		if (argc >= 6) {
			fprintf(f,
				"<?xml version=\"1.0\" encoding=\"utf-8\"?>"
				"<result outcome = \"%s\">",
				appes[outcome]);
			for (const char *c = msg; *c; c++) {
				if (*c == '&')
					fputs("&amp;", f);
				else if (*c == '<')
					fputs("&lt;", f);
				else if (*c == '>')
					fputs("&gt;", f);
				else if (*c == '"')
					fputs("&quot;", f);
				else
					fputc(*c, f);
			}
			fputs("</result>\n", f);
		} else {
			fputs(msg, f);
		}
		if (fclose(f) != 0)
			return 3;
	}
	return code[outcome];
}

int main(int argc, char **argv)
{
	char msg[CHK_MESSAGE_MAX];
	if (argc < 4 || argc > 6) {
		fprintf(stderr, "FAIL usage: %s input output answer [report [-appes]]\n", argv[0]);
		return 3;
	}
	enum chk_outcome outcome = chk_judge(argv[1], argv[3], argv[2], msg, sizeof msg);
	return chk_report(argc, argv, outcome, msg);
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
