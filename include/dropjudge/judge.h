/* The checker: compares a contestant's output with the expected one as a judge does. Pure: no
 * allocation, no I/O. */
#ifndef DROPJUDGE_JUDGE_H
#define DROPJUDGE_JUDGE_H

#include <stddef.h>

enum judge_verdict {
	JUDGE_ACCEPTED = 0,	      /* equal after trimming trailing blanks */
	JUDGE_PRESENTATION_ERROR = 1, /* same tokens, other layout */
	JUDGE_WRONG_ANSWER = 2,
};

#define JUDGE_MESSAGE_MAX 256

struct judge_report {
	enum judge_verdict verdict;
	char message[JUDGE_MESSAGE_MAX]; /* NUL-terminated, for people */
};

/*
 * Judges `found` against `expected`:
 * - accepted when both are equal after trimming trailing spaces (and tabs and
 *   carriage returns) on each line and trailing blank lines;
 * - presentation error when they hold the same whitespace-separated tokens;
 * - wrong answer otherwise; the message names the first differing token, its
 *   line in `found`, expected vs found, or the missing or extra tokens.
 * Neither buffer needs a terminating NUL.
 */
void judge_compare(const char *expected, size_t expected_len, const char *found, size_t found_len,
		   struct judge_report *report);

/* "accepted", "presentation_error" or "wrong_answer". */
const char *judge_verdict_name(enum judge_verdict verdict);

#endif
