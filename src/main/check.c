/*
 * `dropjudge check` and `dropjudge validate` in the protocols of the contest
 * systems (testlib.h, the Kattis package format, CMS's task types, DMOJ's
 * custom checkers, as each documents them), judging as the service does.
 */
#include "main/commands.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dropjudge/judge.h"
#include "problem/problem.h"
#include "mem/alloc.h"

#define CHECK_MAX_FILE	     ((size_t)256 << 20) /* largest input, answer or output read */
#define CHECK_ANSWER_MAX     64			 /* either problem's output, with room to spare */
#define CHECK_MESSAGE_MAX    1024
#define CHECK_MAX_POSITIONAL 8

enum check_outcome {
	CHECK_OK,
	CHECK_WRONG,	    /* wrong answer */
	CHECK_PRESENTATION, /* same tokens, other layout */
	CHECK_FAIL,	    /* judge error: bad input, bad answer file, bad usage */
	CHECK_OUTCOMES
};

struct check_protocol;

/* One run of a checker or validator. */
struct check_run {
	const struct check_protocol *protocol;
	const struct problem *problem;
	const char *pos[CHECK_MAX_POSITIONAL]; /* the protocol's arguments */
	unsigned npos;
	unsigned extra; /* positional arguments past CHECK_MAX_POSITIONAL */
};

/* One protocol: its arguments' places, exit codes and report. */
struct check_protocol {
	const char *name;
	unsigned max_args;	       /* positional arguments of check, at least 3 */
	int answer, output;	       /* their positions after the input; output -1: stdin */
	int exit_code[CHECK_OUTCOMES]; /* of check, by outcome */
	int valid_exit, invalid_exit;  /* of validate; both 0: no validator */
	const char *fault_prefix;      /* before a validator's first message ("FAIL ") */
	/* Reports a check outcome; false when it could not (a judge error then). */
	bool (*report)(const struct check_run *run, enum check_outcome outcome, const char *msg);
};

/* --- Reports -------------------------------------------------------------- */

static const char *const check_testlib_prefix[CHECK_OUTCOMES] = {"ok ", "wrong answer ",
								 "wrong output format ", "FAIL "};
static const char *const check_testlib_outcome[CHECK_OUTCOMES] = {"accepted", "wrong-answer",
								  "presentation-error", "fail"};
static const char check_xml_special[] = "&<>\"";
static const char *const check_xml_entity[] = {"&amp;", "&lt;", "&gt;", "&quot;"};

/* testlib: verdict and message on stderr; the report file holds the
 * message, or with -appes testlib's XML <result outcome="...">. */
static bool check_report_testlib(const struct check_run *run, enum check_outcome outcome,
				 const char *msg)
{
	fprintf(stderr, "%s%s\n", check_testlib_prefix[outcome], msg);
	if (run->npos < 4)
		return true;
	bool appes = run->npos >= 5;
	FILE *f = fopen(run->pos[3], "w");
	if (f && appes)
		fprintf(f, "<?xml version=\"1.0\" encoding=\"utf-8\"?><result outcome = \"%s\">",
			check_testlib_outcome[outcome]);
	for (const char *c = msg; f && *c; c++) {
		const char *esc = appes ? strchr(check_xml_special, *c) : NULL;
		if (esc)
			fputs(check_xml_entity[esc - check_xml_special], f);
		else
			fputc(*c, f);
	}
	if (f && appes)
		fputs("</result>\n", f);
	bool ok = f && !ferror(f);
	if ((f && fclose(f) != 0) || !ok) {
		fprintf(stderr, "FAIL cannot write the report file %s: %s\n", run->pos[3],
			strerror(errno));
		return false;
	}
	return true;
}

static const char *const check_verdict_text[CHECK_OUTCOMES] = {"accepted", "wrong answer",
							       "presentation error", "judge error"};

/* Kattis: judgemessage.txt (and judgeerror.txt on a judge error) in the
 * feedback directory, the message on stderr too. */
static bool check_report_kattis(const struct check_run *run, enum check_outcome outcome,
				const char *msg)
{
	char path[PATH_MAX], text[CHECK_MESSAGE_MAX + 64];
	snprintf(text, sizeof text, "%s: %s\n", check_verdict_text[outcome], msg);
	fputs(text, stderr);
	if (run->npos < 3) /* no feedback directory: a usage fault, said on stderr */
		return true;
	const char *dir = run->pos[2];
	const char *sep = *dir && dir[strlen(dir) - 1] == '/' ? "" : "/";
	const char *files[2] = {"judgemessage.txt",
				outcome == CHECK_FAIL ? "judgeerror.txt" : NULL};
	for (unsigned i = 0; i < 2 && files[i]; i++) {
		snprintf(path, sizeof path, "%s%s%s", dir, sep, files[i]);
		FILE *f = fopen(path, "w");
		bool ok = f && fputs(text, f) >= 0;
		if ((f && fclose(f) != 0) || !ok) {
			fprintf(stderr, "judge error: cannot write %s: %s\n", path,
				strerror(errno));
			return false;
		}
	}
	return true;
}

/* CMS, as the package's CMS checker: the score on stdout, one line for the
 * contestant on stderr: "translate:success" (CMS translates it) or why not. */
static bool check_report_cms(const struct check_run *run, enum check_outcome outcome,
			     const char *msg)
{
	(void)run;
	if (outcome == CHECK_FAIL) {
		fprintf(stderr, "%s\n", msg);
		return true;
	}
	printf("%s\n", outcome == CHECK_OK ? "1.0" : "0.0");
	if (outcome == CHECK_OK)
		fputs("translate:success\n", stderr);
	else
		fprintf(stderr, "%s: %s\n", check_verdict_text[outcome], msg);
	return fflush(stdout) == 0;
}

/* DMOJ: the verdict as feedback on stdout, the message on stderr. */
static bool check_report_dmoj(const struct check_run *run, enum check_outcome outcome,
			      const char *msg)
{
	(void)run;
	if (outcome != CHECK_FAIL)
		printf("%s\n", check_verdict_text[outcome]);
	fprintf(stderr, "%s: %s\n", check_verdict_text[outcome], msg);
	return fflush(stdout) == 0;
}

/* clang-format off */
static const struct check_protocol check_protocols[] = {
    /* name, max args, answer, output, exits (ok, wa, pe, fail), validate, prefix, report */
    {"testlib", 5, 2, 1, {0, 1, 2, 3}, 0, 3, "FAIL ", check_report_testlib},
    {"kattis", UINT_MAX, 1, -1, {42, 43, 43, 1}, 42, 43, "", check_report_kattis},
    {"cms", 3, 1, 2, {0, 0, 0, 1}, 0, 0, "", check_report_cms},
    {"dmoj", 3, 2, 1, {0, 1, 1, 2}, 0, 0, "", check_report_dmoj},
};
/* clang-format on */

static const struct check_protocol *check_protocol_find(const char *name, size_t len)
{
	for (size_t i = 0; name && i < sizeof check_protocols / sizeof check_protocols[0]; i++)
		if (strlen(check_protocols[i].name) == len &&
		    strncmp(check_protocols[i].name, name, len) == 0)
			return &check_protocols[i];
	return NULL;
}

/* --- Arguments and files -------------------------------------------------- */

/* Whether arg is a testlib validator's own flag (with a value; Polygon's). */
static bool check_is_testlib_validator_flag(const char *arg)
{
	static const char *const flags[] = {
	    "--testset",  "--group",	       "--testOverviewLogFileName", "--testMarkupFileName",
	    "--testCase", "--testCaseFileName"};
	for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
		if (strcmp(arg, flags[i]) == 0)
			return true;
	return false;
}

const char *check_flag(int argc, char *const argv[], int *i, const char *name, bool *missing)
{
	size_t n = strlen(name);
	if (strncmp(argv[*i], name, n) != 0)
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] != '\0')
		return NULL;
	if (*i + 1 >= argc) {
		*missing = true;
		return NULL;
	}
	return argv[++*i];
}

int command_usage(const char *cmd, bool own_help, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "dropjudge: %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "; try 'dropjudge %s%s--help'\n", own_help ? cmd : "", own_help ? " " : "");
	return 2;
}

/* Reads the arguments into *run: --problem and --protocol (winning over `protocol` and
 * `problem` from the program name), positional ones for the rest. False with the usage
 * fault on stderr, also for a validator of a protocol that has none. */
static bool check_parse(int argc, char *const argv[], bool validator, const char *protocol,
			size_t protocol_len, const char *problem, struct check_run *run)
{
	const char *cmd = validator ? "validate" : "check";
	/* only testlib and kattis have validators (validate_run) */
	const char *expected = validator ? "testlib or kattis" : "testlib, kattis, cms or dmoj";
	*run = (struct check_run){.protocol = check_protocol_find(protocol, protocol_len)};
	for (int i = 0; i < argc; i++) {
		bool missing = false;
		const char *v;
		if ((v = check_flag(argc, argv, &i, "--problem", &missing))) {
			problem = v;
		} else if ((v = check_flag(argc, argv, &i, "--protocol", &missing))) {
			run->protocol = check_protocol_find(v, strlen(v));
			if (!run->protocol) {
				command_usage(cmd, false, "unknown protocol '%s' (expected %s)", v,
					      expected);
				return false;
			}
		} else if (missing) {
			command_usage(cmd, false, "%s needs a value", argv[i]);
			return false;
		} else if (validator && check_is_testlib_validator_flag(argv[i])) {
			i++; /* testlib's validator flags: accepted and ignored */
		} else if (run->npos < CHECK_MAX_POSITIONAL) {
			run->pos[run->npos++] = argv[i];
		} else {
			run->extra++;
		}
	}
	if (!run->protocol) {
		command_usage(cmd, false, "missing --protocol (%s)", expected);
		return false;
	}
	if (!problem || !*problem)
		problem = getenv("DROPJUDGE_PROBLEM");
	run->problem = problem_find(problem);
	if (!run->problem && problem && *problem)
		command_usage(cmd, false, "unknown problem '%s' (expected monomino-domino or puyo)",
			      problem);
	else if (!run->problem)
		command_usage(cmd, false, "missing --problem (monomino-domino or puyo)");
	else if (validator && !run->protocol->invalid_exit)
		command_usage(cmd, false,
			      "the %s protocol has no validator (use testlib or kattis)",
			      run->protocol->name);
	return run->problem && (!validator || run->protocol->invalid_exit);
}

char *check_read_all(FILE *in, size_t max, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = NULL;
	for (;;) {
		char *p = dj_realloc(buf, cap);
		if (!p) {
			errno = ENOMEM;
			break;
		}
		buf = p;
		n += fread(buf + n, 1, cap - 1 - n, in);
		if (n > max) {
			errno = EFBIG;
			break;
		}
		if (n < cap - 1) { /* the end, or an error (errno set by the read) */
			if (ferror(in))
				break;
			buf[n] = '\0';
			*len = n;
			return buf;
		}
		cap = cap * 2 < max + 2 ? cap * 2 : max + 2;
	}
	dj_free(buf);
	return NULL;
}

/* Reads a whole file (path NULL: stdin) into a new buffer, NUL-terminated.
 * Returns it, or NULL with the reason, after `what` ("the input: "), in why. */
static char *check_read(const char *path, const char *what, size_t *len, char *why, size_t whylen)
{
	FILE *f = path ? fopen(path, "rb") : stdin;
	const char *name = path ? path : "<stdin>";
	char *buf = f ? check_read_all(f, CHECK_MAX_FILE, len) : NULL;
	if (!buf && f && (errno == EFBIG || errno == ENOMEM))
		codec_format(why, whylen, "%s%s: %s", what, name,
			     errno == EFBIG ? "file too large" : "out of memory");
	else if (!buf)
		codec_format(why, whylen, "%scannot read %s: %s", what, name, strerror(errno));
	if (f && path)
		fclose(f);
	return buf;
}

void check_format_error(char *out, size_t size, const char *name, const struct codec_error *err,
			unsigned i)
{
	const struct codec_fault *f = i < err->nfaults ? &err->faults[i] : NULL;
	if (f && f->line && f->column)
		codec_format(out, size, "%s:%u:%u: %s", name, f->line, f->column, f->detail);
	else if (f && f->line)
		codec_format(out, size, "%s:%u: %s", name, f->line, f->detail);
	else
		codec_format(out, size, "%s: %s", name, f ? f->detail : err->detail);
}

/* --- check ---------------------------------------------------------------- */

/* Judges one run: fills msg, returns the outcome. Every fault on the jury's side (usage,
 * input, answer file, or an answer disagreeing with dropjudge's) is CHECK_FAIL. */
static enum check_outcome check_judge(const struct check_run *run, char *msg, size_t size)
{
	const struct check_protocol *pr = run->protocol;
	char why[CHECK_MESSAGE_MAX];
	enum check_outcome outcome = CHECK_FAIL;
	char *input = NULL, *answer = NULL, *output = NULL;
	size_t input_len, answer_len, output_len;

	if (run->npos < 3 || run->npos + run->extra > pr->max_args) {
		codec_format(msg, size, "%s checker arguments: input, %s (got %u argument%s)",
			     pr->name,
			     pr->output < 0 ? "answer, feedback directory, output on stdin"
			     : pr->answer < pr->output ? "answer, output"
						       : "output, answer",
			     run->npos + run->extra, run->npos + run->extra == 1 ? "" : "s");
		return CHECK_FAIL;
	}
	/* testlib's fifth argument */
	if (pr->report == check_report_testlib && run->npos == 5 &&
	    strcmp(run->pos[4], "-appes") != 0 && strcmp(run->pos[4], "-APPES") != 0) {
		codec_format(msg, size, "the fifth argument must be -appes, not '%s'", run->pos[4]);
		return CHECK_FAIL;
	}
	input = check_read(run->pos[0], "the input: ", &input_len, msg, size);
	if (!input)
		goto out_free;
	struct codec_error err;
	codec_error_init(&err);
	char expected[CHECK_ANSWER_MAX];
	int n = problem_answer(run->problem, input, input_len, expected, sizeof expected, &err);
	if (n < 0 || (size_t)n >= sizeof expected) {
		check_format_error(why, sizeof why, run->pos[0], &err, 0);
		codec_format(msg, size, "the input is not a valid %s case: %s", run->problem->title,
			     why);
		goto out_free;
	}
	answer = check_read(run->pos[pr->answer], "the answer file: ", &answer_len, msg, size);
	if (!answer)
		goto out_free;
	struct judge_report report;
	judge_compare(expected, (size_t)n, answer, answer_len, &report);
	if (report.verdict == JUDGE_WRONG_ANSWER) {
		codec_format(msg, size,
			     "the answer file %s disagrees with dropjudge's answer (%s): %s",
			     run->pos[pr->answer], run->problem->title, report.message);
		goto out_free;
	}
	output = check_read(pr->output < 0 ? NULL : run->pos[pr->output],
			    "the output: ", &output_len, msg, size);
	if (!output) {
		outcome = CHECK_WRONG;
		goto out_free;
	}
	judge_compare(expected, (size_t)n, output, output_len, &report);
	codec_format(msg, size, "%s", report.message);
	outcome = report.verdict == JUDGE_ACCEPTED	       ? CHECK_OK
		  : report.verdict == JUDGE_PRESENTATION_ERROR ? CHECK_PRESENTATION
							       : CHECK_WRONG;
out_free:
	dj_free(input);
	dj_free(answer);
	dj_free(output);
	return outcome;
}

/* --- validate ------------------------------------------------------------- */

/* Validates one input (a file or stdin): the protocol's exit code, the faults on stderr. */
static int validate_run(const struct check_run *run)
{
	char msg[CHECK_MESSAGE_MAX];
	const struct check_protocol *pr = run->protocol;
	if (run->npos + run->extra > 1) {
		command_usage("validate", false, "unexpected argument '%s'", run->pos[1]);
		return pr->invalid_exit;
	}
	const char *path = run->npos == 1 && strcmp(run->pos[0], "-") != 0 ? run->pos[0] : NULL;
	const char *name = path ? path : "<stdin>";
	size_t len;
	char *text = check_read(path, "", &len, msg, sizeof msg);
	if (!text) {
		fprintf(stderr, "%s%s\n", pr->fault_prefix, msg);
		return pr->invalid_exit;
	}
	/* Collect mode: every fault, into storage lent to the error. */
	struct {
		struct codec_error err;
		struct codec_fault faults[CODEC_FAULTS_MAX];
	} *collect = dj_malloc(sizeof *collect);
	if (!collect) {
		dj_free(text);
		fprintf(stderr, "out of memory\n");
		return pr->invalid_exit;
	}
	struct codec_error *err = &collect->err;
	codec_error_collect(err, collect->faults, CODEC_FAULTS_MAX);
	run->problem->validate_text(text, len, err);
	dj_free(text);
	bool valid = !codec_error_is_set(err);
	/* every fault, or the error's detail when it has none */
	for (unsigned i = 0; i < err->nfaults || (i == 0 && !valid); i++) {
		check_format_error(msg, sizeof msg, name, err, i);
		fprintf(stderr, "%s%s\n", i == 0 ? pr->fault_prefix : "", msg);
	}
	if (err->dropped)
		fprintf(stderr, "%s: %u more faults not shown\n", name, err->dropped);
	dj_free(collect);
	return valid ? pr->valid_exit : pr->invalid_exit;
}

/* Runs a check, or a validation, with the protocol and problem from the name, if any. */
static int check_run_named(int argc, char *const argv[], bool validator, const char *protocol,
			   size_t plen, const char *problem)
{
	struct check_run run;
	char msg[CHECK_MESSAGE_MAX];
	if (!check_parse(argc, argv, validator, protocol, plen, problem, &run))
		return run.protocol && !validator ? run.protocol->exit_code[CHECK_FAIL] : 2;
	if (validator)
		return validate_run(&run);
	enum check_outcome outcome = check_judge(&run, msg, sizeof msg);
	if (!run.protocol->report(&run, outcome, msg))
		outcome = CHECK_FAIL;
	return run.protocol->exit_code[outcome];
}

int check_main(int argc, char *const argv[])
{
	return check_run_named(argc, argv, false, NULL, 0, NULL);
}

int validate_main(int argc, char *const argv[])
{
	return check_run_named(argc, argv, true, NULL, 0, NULL);
}

/* --- By name -------------------------------------------------------------- */

/* Names a judge may run the program under; protocol NULL: the name is a
 * prefix, followed by PROTOCOL[-PROBLEM]. */
static const struct {
	const char *name;
	bool validator;
	const char *protocol;
} check_names[] = {
    {"output_validator", false, "kattis"},
    {"input_validator", true, "kattis"},
    {"check", false, "testlib"},
    {"validator", true, "testlib"},
    {"checker", false, "cms"},
    {"dropjudge-checker-", false, NULL},
    {"dropjudge-validator-", true, NULL},
};

int check_main_by_name(int argc, char *const argv[])
{
	if (argc < 1 || !argv[0])
		return -1;
	const char *base = strrchr(argv[0], '/');
	base = base ? base + 1 : argv[0];
	for (size_t i = 0; i < sizeof check_names / sizeof check_names[0]; i++) {
		const char *name = check_names[i].name, *protocol = check_names[i].protocol;
		size_t len = strlen(name);
		if (protocol ? strcmp(base, name) != 0 : strncmp(base, name, len) != 0)
			continue;
		protocol = protocol ? protocol : base + len;
		const char *dash = strchr(protocol, '-');
		return check_run_named(argc - 1, argv + 1, check_names[i].validator, protocol,
				       dash ? (size_t)(dash - protocol) : strlen(protocol),
				       dash ? dash + 1 : NULL);
	}
	return -1;
}
