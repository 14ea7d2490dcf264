/*
 * Building a package (see package.h): the tests first, each checked by the strict validator and
 * solved by the cores, then the files of the chosen format into a sink, one function a format,
 * each following its published layout (docs/JUDGES.md).
 */
#include "package/package.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "dropjudge/gen.h"
#include "dropjudge/version.h"
#include "package/archive.h"
#include "problem/problem.h"
#include "package/statement.h"
#include "problem/text.h"
#include "mem/alloc.h"

/* Longest Baekjoon output of either problem, with room to spare. */
#define PKG_ANSWER_MAX 64

/* One test of a package. */
struct pkg_test {
	enum problem_kind kind;
	char name[64];		     /* base name in Kattis layouts: "01", "003-edge-empty-field" */
	struct problem_text input;   /* the input text */
	char answer[PKG_ANSWER_MAX]; /* the Baekjoon output text */
	size_t answer_len;
};

/* A package being built: its tests, then the files the format functions write. */
struct pkg_build {
	const struct package_request *req;
	const struct problem *p;
	struct pkg_test *test; /* the p->nsamples samples first, then the secret tests */
	unsigned count;	       /* tests made */
	struct statement statement;
	struct statement_example *examples; /* the samples, for the statement */
	struct pkg_sink *sink;
	struct codec_error *err;
	bool ok; /* no write has failed */
};

static void pkg_layout_kattis(struct pkg_build *b);
static void pkg_layout_polygon(struct pkg_build *b);
static void pkg_layout_domjudge(struct pkg_build *b);
static void pkg_layout_cms(struct pkg_build *b);

/* By format: name, layout, the programs' DJ_PROTOCOL_ macro, the validator's exits and prefix. */
static const struct pkg_format {
	const char *name;
	void (*layout)(struct pkg_build *b);
	const char *macro;
	int valid_exit, invalid_exit;
	const char *fault_prefix;
} pkg_formats[PACKAGE_FORMAT_COUNT] = {
    [PACKAGE_KATTIS] = {"kattis", pkg_layout_kattis, "DJ_PROTOCOL_KATTIS", 42, 43, ""},
    [PACKAGE_POLYGON] = {"polygon", pkg_layout_polygon, "DJ_PROTOCOL_TESTLIB", 0, 3, "FAIL "},
    [PACKAGE_DOMJUDGE] = {"domjudge", pkg_layout_domjudge, "DJ_PROTOCOL_KATTIS", 42, 43, ""},
    [PACKAGE_CMS] = {"cms", pkg_layout_cms, "DJ_PROTOCOL_CMS", 0, 1, ""},
};

const char *package_format_name(enum package_format format)
{
	return (unsigned)format < PACKAGE_FORMAT_COUNT ? pkg_formats[format].name : "unknown";
}

bool package_format_from_name(const char *name, enum package_format *format)
{
	for (unsigned f = 0; name && f < PACKAGE_FORMAT_COUNT; f++)
		if (strcmp(pkg_formats[f].name, name) == 0) {
			*format = (enum package_format)f;
			return true;
		}
	return false;
}

int package_file_name(const struct package_request *req, enum package_sink sink, char *buf,
		      size_t size)
{
	const struct problem *p = problem_find(req->problem);
	return snprintf(buf, size, "%s%s%s", p ? p->short_name : "package",
			req->format == PACKAGE_POLYGON ? "-polygon"
			: req->format == PACKAGE_CMS   ? "-cms"
						       : "",
			sink == PACKAGE_TAR_GZ ? ".tar.gz"
			: sink == PACKAGE_ZIP  ? ".zip"
					       : "");
}

enum codec_status package_check(const struct package_request *req, struct codec_error *err)
{
	const struct problem *p = problem_find(req->problem);
	if (!p)
		codec_error_at_param(err, CODEC_E_INVALID, "problem",
				     "must be monomino-domino or puyo");
	else if ((unsigned)req->format >= PACKAGE_FORMAT_COUNT)
		codec_error_at_param(err, CODEC_E_INVALID, "format",
				     "must be kattis, polygon, domjudge or cms");
	else if (req->tests < 1 || req->tests > PACKAGE_MAX_TESTS)
		codec_error_at_param(err, CODEC_E_INVALID, "tests", "must be 1..%d",
				     PACKAGE_MAX_TESTS);
	else if (p->has_chains && (req->min_chains < 1 || req->min_chains > GEN_PUYO_MAX_CHAINS))
		codec_error_at_param(err, CODEC_E_INVALID, "min_chains", "must be 1..%d",
				     GEN_PUYO_MAX_CHAINS);
	else
		return CODEC_OK;
	return err ? err->status : CODEC_E_INVALID;
}

/* Validates and solves test t; a failure is a bug in the package data or the generators. */
static bool pkg_test_finish(const struct problem *p, struct pkg_test *t, struct codec_error *err)
{
	struct codec_error check;
	if (t->input.failed) {
		codec_error_set(err, CODEC_E_INTERNAL, "out of memory");
		return false;
	}
	codec_error_init(&check);
	p->validate_text(t->input.data, t->input.len, &check);
	int n = codec_error_is_set(&check) ? -1
					   : problem_answer(p, t->input.data, t->input.len,
							    t->answer, sizeof t->answer, &check);
	if (n < 0 || (size_t)n >= sizeof t->answer) {
		codec_error_set(err, CODEC_E_INTERNAL, "test %s is not a valid input: %s", t->name,
				codec_error_is_set(&check) ? check.detail : "answer too long");
		return false;
	}
	t->answer_len = (size_t)n;
	return true;
}

/* Whether req->stop says to stop; err then holds what stop recorded, else CODEC_E_INTERNAL. */
static bool pkg_stopped(const struct package_request *req, struct codec_error *err)
{
	if (!req->stop || !req->stop(req->stop_ctx, err))
		return false;
	codec_error_set(err, CODEC_E_INTERNAL, "the build stopped"); /* first wins */
	return true;
}

/* Makes the samples, then req->tests secret tests (edges, random, large, Puyo's long chains) from
 * a stream seeded by req->seed; on failure those made stay in b, for pkg_build() to free. */
static bool pkg_tests_make(struct pkg_build *b)
{
	const struct problem *p = b->p;
	const struct package_request *req = b->req;
	unsigned edges = req->tests < p->nedges ? req->tests : p->nedges;
	unsigned rest = req->tests - edges;
	unsigned chains = p->has_chains && rest ? (rest / 4 ? rest / 4 : 1) : 0;
	unsigned large = rest - chains >= 2 ? ((rest - chains) / 4 ? (rest - chains) / 4 : 1) : 0;
	unsigned random = rest - chains - large;
	struct gen_rng rng;

	b->test = dj_calloc(p->nsamples + req->tests, sizeof *b->test);
	b->examples = dj_calloc(p->nsamples ? p->nsamples : 1, sizeof *b->examples);
	if (!b->test || !b->examples) {
		codec_error_set(b->err, CODEC_E_INTERNAL, "out of memory");
		return false;
	}
	gen_rng_init(&rng, req->seed);
	for (unsigned i = 0; i < p->nsamples + req->tests; i++) {
		struct pkg_test *t = &b->test[i];
		unsigned secret = i - p->nsamples + 1; /* 1-based, for secret tests */
		if (pkg_stopped(req, b->err))
			return false;
		problem_text_init(&t->input);
		b->count++;
		if (i < p->nsamples) {
			t->kind = PROBLEM_SAMPLE;
			snprintf(t->name, sizeof t->name, "%02u", i + 1);
			problem_text_puts(&t->input, p->samples[i].input);
			b->examples[i].input = t->input.data;
			b->examples[i].output = t->answer;
		} else if (secret <= edges) {
			t->kind = PROBLEM_EDGE;
			snprintf(t->name, sizeof t->name, "%03u-edge-%s", secret,
				 p->edges[secret - 1].name);
			problem_text_puts(&t->input, p->edges[secret - 1].input);
		} else {
			unsigned k = secret - edges;
			t->kind = k <= random		? PROBLEM_RANDOM
				  : k <= random + large ? PROBLEM_LARGE
							: PROBLEM_CHAINS;
			snprintf(t->name, sizeof t->name, "%03u-%s", secret,
				 problem_kind_name(t->kind));
			if (!p->generate_test(t->kind, gen_rng_next(&rng), req->min_chains,
					      &t->input, b->err))
				return false;
		}
		if (!pkg_test_finish(p, t, b->err))
			return false;
	}
	return true;
}

/* --- Writing files -------------------------------------------------------- */

/* Puts one file, asking req->stop first: a build whose client has gone stops here too. */
static void pkg_put(struct pkg_build *b, const char *path, const char *data, size_t len,
		    bool executable)
{
	if (b->ok && (pkg_stopped(b->req, b->err) ||
		      !pkg_sink_put(b->sink, path, data, len, executable, b->err)))
		b->ok = false;
}

/* Puts a built text, then frees it; out of memory fails the build. */
static void pkg_put_text(struct pkg_build *b, const char *path, struct problem_text *t,
			 bool executable)
{
	if (t->failed && b->ok) {
		codec_error_set(b->err, CODEC_E_INTERNAL, "out of memory");
		b->ok = false;
	}
	pkg_put(b, path, t->data ? t->data : "", t->len, executable);
	problem_text_free(t);
}

static void pkg_put_statement(struct pkg_build *b, const char *path, enum statement_style style)
{
	struct problem_text t;
	problem_text_init(&t);
	statement_render(&b->statement, style, &t);
	pkg_put_text(b, path, &t, false);
}

/*
 * The validator and checker: self-contained C sources the judge compiles, definitions from
 * dropjudge's tables (the problem's limits and alphabet, the protocol's exit codes), then a fixed
 * source of src/package/files and for the checker src/core/judge.c, assembled in by blobs.S: a
 * change of rules is a change of the tables.
 */
extern const char pkg_checker_c[], pkg_checker_c_end[];
extern const char pkg_judge_h[], pkg_judge_h_end[];
extern const char pkg_judge_c[], pkg_judge_c_end[];

/* Puts the checker (or validator) source of the format's protocol at path. */
static void pkg_put_program(struct pkg_build *b, const char *path, bool checker)
{
	static const char self[] = "#include \"dropjudge/judge.h\"\n";
	const struct problem *p = b->p;
	const struct pkg_format *fmt = &pkg_formats[b->req->format];
	struct problem_text t;
	problem_text_init(&t);
	problem_text_printf(
	    &t,
	    "/* Generated by dropjudge " DROPJUDGE_VERSION
	    " from its tables for %s (Baekjoon %u):\n"
	    " * the problem's rules and the judge's protocol. The program follows. */\n"
	    "#define %s 1\n#define DJ_TITLE \"%s\"\n#define DJ_ANSWER_TOKENS %u\n",
	    p->title, p->baekjoon, fmt->macro, p->title, p->answer_tokens);
	if (checker) {
		const char *at = strstr(pkg_judge_c, self);
		const char *rest = at ? at + sizeof self - 1 : pkg_judge_c;
		problem_text_puts(&t,
				  "\n/* dropjudge's comparison: include/dropjudge/judge.h */\n");
		problem_text_put(&t, pkg_judge_h, (size_t)(pkg_judge_h_end - pkg_judge_h));
		problem_text_puts(&t, "\n/* dropjudge's comparison: src/core/judge.c */\n");
		/* judge.c without its include of judge.h, which is above */
		problem_text_put(&t, pkg_judge_c, at ? (size_t)(at - pkg_judge_c) : 0);
		problem_text_put(&t, rest, (size_t)(pkg_judge_c_end - rest));
		problem_text_puts(&t, "\n");
		problem_text_put(&t, pkg_checker_c, (size_t)(pkg_checker_c_end - pkg_checker_c));
	} else {
		problem_text_printf(&t,
				    "#define DJ_VALID_EXIT %d\n#define DJ_INVALID_EXIT "
				    "%d\n#define DJ_FAULT_PREFIX \"%s\"\n",
				    fmt->valid_exit, fmt->invalid_exit, fmt->fault_prefix);
		p->constants(&t);
		problem_text_puts(&t, "\n");
		problem_text_put(&t, p->validator, (size_t)(p->validator_end - p->validator));
	}
	pkg_put_text(b, path, &t, false);
}

/* The accepted solution, dir/SHORT_NAME.c. */
static void pkg_put_solution(struct pkg_build *b, const char *dir)
{
	char path[128];
	snprintf(path, sizeof path, "%s/%s.c", dir, b->p->short_name);
	pkg_put(b, path, b->p->solution, (size_t)(b->p->solution_end - b->p->solution), false);
}

/* A Kattis (and DOMjudge) program directory: dir/source, and dir/build compiling it to dir/run. */
static void pkg_put_built(struct pkg_build *b, const char *dir, const char *source, bool checker)
{
	char path[128];
	struct problem_text t;
	snprintf(path, sizeof path, "%s/%s", dir, source);
	pkg_put_program(b, path, checker);
	problem_text_init(&t);
	problem_text_printf(&t,
			    "#!/bin/sh\n# Builds this %s into ./run; the judge runs it in this "
			    "directory.\nexec gcc -O2 -std=c11 -o run %s\n",
			    checker ? "output validator" : "input validator", source);
	snprintf(path, sizeof path, "%s/build", dir);
	pkg_put_text(b, path, &t, true);
}

/* Starts a metadata file: `head`, which ends by opening a comment, then what made the package,
 * and the end of an XML comment; in XML without the flags' dashes (no "--" in a comment). */
static void pkg_meta_open(const struct pkg_build *b, struct problem_text *t, const char *head)
{
	bool xml = strncmp(head, "<?xml", 5) == 0;
	const char *dashes = xml ? "" : "--";
	problem_text_init(t);
	problem_text_printf(t,
			    "%s Made by dropjudge " DROPJUDGE_VERSION " (generator %d): dropjudge "
			    "package %sproblem %s %sformat %s %stests %u %sseed %" PRIu64,
			    head, GEN_VERSION, dashes, b->p->id, dashes,
			    package_format_name(b->req->format), dashes, b->req->tests, dashes,
			    b->req->seed);
	if (b->p->has_chains)
		problem_text_printf(t, " %smin-chains %u", dashes, b->req->min_chains);
	problem_text_puts(t, xml ? " -->\n" : "\n");
}

/* The legacy Kattis format (and its ICPC subset, which DOMjudge reads): problem.yaml, whose time
 * limit is a comment (the format derives one), the tests, the validators, the solution. */
static void pkg_layout_kattis(struct pkg_build *b)
{
	const struct problem *p = b->p;
	char path[128];
	struct problem_text t;
	pkg_meta_open(b, &t,
		      "# Kattis problem package format, legacy version:\n"
		      "# https://www.kattis.com/problem-package-format/spec/legacy.html\n"
		      "problem_format_version: legacy\n#");
	problem_text_printf(&t,
			    "# Time limit on Baekjoon: %u ms (the legacy format derives the time "
			    "limit from\n# the accepted submissions).\n"
			    "name: %s\nsource: Baekjoon Online Judge %u\n"
			    "source_url: https://www.acmicpc.net/problem/%u\n"
			    "validation: custom\nlimits:\n  memory: %u\n",
			    p->time_limit_ms, p->title, p->baekjoon, p->baekjoon, p->memory_mib);
	pkg_put_text(b, "problem.yaml", &t, false);
	pkg_put_statement(b, "problem_statement/problem.en.tex", STATEMENT_KATTIS_LATEX);
	for (unsigned i = 0; i < b->count; i++) {
		const struct pkg_test *test = &b->test[i];
		const char *dir = test->kind == PROBLEM_SAMPLE ? "sample" : "secret";
		snprintf(path, sizeof path, "data/%s/%s.in", dir, test->name);
		pkg_put(b, path, test->input.data, test->input.len, false);
		snprintf(path, sizeof path, "data/%s/%s.ans", dir, test->name);
		pkg_put(b, path, test->answer, test->answer_len, false);
	}
	pkg_put_built(b, "input_validators/dropjudge", "validator.c", false);
	pkg_put_built(b, "output_validators/dropjudge", "checker.c", true);
	pkg_put_solution(b, "submissions/accepted");
}

static void pkg_layout_domjudge(struct pkg_build *b)
{
	struct problem_text t;
	unsigned ms = b->p->time_limit_ms;
	pkg_layout_kattis(b);
	pkg_meta_open(b, &t,
		      "; DOMjudge problem metadata (DOMjudge manual, \"Problem format "
		      "specification\").\n;");
	problem_text_printf(&t, "name = \"%s\"\ntimelimit = %u", b->p->title, ms / 1000);
	if (ms % 1000)
		problem_text_printf(&t, ".%03u", ms % 1000);
	problem_text_puts(&t, "\n");
	pkg_put_text(b, "domjudge-problem.ini", &t, false);
	pkg_put_statement(b, "problem.html", STATEMENT_HTML);
	pkg_put_statement(b, "statement.md", STATEMENT_MARKDOWN);
}

static void pkg_layout_polygon(struct pkg_build *b)
{
	const struct problem *p = b->p;
	char path[128];
	struct problem_text x;
	pkg_meta_open(b, &x, "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"no\"?>\n<!--");
	problem_text_printf(&x,
			    "<problem revision=\"1\" short-name=\"%s\">\n"
			    "    <names>\n"
			    "        <name language=\"english\" value=\"%s\"/>\n"
			    "    </names>\n"
			    "    <statements>\n"
			    "        <statement charset=\"UTF-8\" language=\"english\" "
			    "path=\"statements/english/problem.tex\" type=\"application/x-tex\"/>\n"
			    "    </statements>\n"
			    "    <judging input-file=\"\" output-file=\"\">\n"
			    "        <testset name=\"tests\">\n"
			    "            <time-limit>%u</time-limit>\n"
			    "            <memory-limit>%llu</memory-limit>\n"
			    "            <test-count>%u</test-count>\n"
			    "            <input-path-pattern>tests/%%02d</input-path-pattern>\n"
			    "            <answer-path-pattern>tests/%%02d.a</answer-path-pattern>\n"
			    "            <tests>\n",
			    p->id, p->title, p->time_limit_ms,
			    (unsigned long long)p->memory_mib << 20, b->count);
	for (unsigned i = 0; i < b->count; i++) {
		const struct pkg_test *t = &b->test[i];
		problem_text_printf(&x, "                <test method=\"manual\"%s/>\n",
				    t->kind == PROBLEM_SAMPLE ? " sample=\"true\"" : "");
		snprintf(path, sizeof path, "tests/%02u", i + 1);
		pkg_put(b, path, t->input.data, t->input.len, false);
		snprintf(path, sizeof path, "tests/%02u.a", i + 1);
		pkg_put(b, path, t->answer, t->answer_len, false);
	}
	problem_text_printf(&x,
			    "            </tests>\n"
			    "        </testset>\n"
			    "    </judging>\n"
			    "    <files>\n"
			    "        <executables>\n"
			    "            <executable>\n"
			    "                <source path=\"files/check.c\" type=\"c.gcc\"/>\n"
			    "            </executable>\n"
			    "            <executable>\n"
			    "                <source path=\"files/validator.c\" type=\"c.gcc\"/>\n"
			    "            </executable>\n"
			    "        </executables>\n"
			    "    </files>\n"
			    "    <assets>\n"
			    "        <checker type=\"testlib\">\n"
			    "            <source path=\"files/check.c\" type=\"c.gcc\"/>\n"
			    "        </checker>\n"
			    "        <validators>\n"
			    "            <validator>\n"
			    "                <source path=\"files/validator.c\" type=\"c.gcc\"/>\n"
			    "            </validator>\n"
			    "        </validators>\n"
			    "        <solutions>\n"
			    "            <solution tag=\"main\">\n"
			    "                <source path=\"solutions/%s.c\" type=\"c.gcc\"/>\n"
			    "            </solution>\n"
			    "        </solutions>\n"
			    "    </assets>\n"
			    "</problem>\n",
			    p->short_name);
	pkg_put_text(b, "problem.xml", &x, false);
	pkg_put_statement(b, "statements/english/problem.tex", STATEMENT_POLYGON_LATEX);
	pkg_put_statement(b, "statement.md", STATEMENT_MARKDOWN);
	pkg_put_program(b, "files/check.c", true);
	pkg_put_program(b, "files/validator.c", false);
	pkg_put_solution(b, "solutions");
}

/* CMS's italy_yaml layout: task.yaml (standard input and output, the samples public);
 * check/build makes the comparator check/checker before the import. */
static void pkg_layout_cms(struct pkg_build *b)
{
	const struct problem *p = b->p;
	char path[128];
	struct problem_text t;
	pkg_meta_open(b, &t,
		      "# CMS task, italy_yaml layout: sh check/build, then cmsImportTask -L "
		      "italy_yaml .\n#");
	problem_text_printf(&t,
			    "name: %s\ntitle: %s\ntime_limit: %u.%03u\nmemory_limit: %u\n"
			    "n_input: %u\ninfile: \"\"\noutfile: \"\"\ntoken_mode: disabled\n"
			    "public_testcases: \"",
			    p->short_name, p->title, p->time_limit_ms / 1000,
			    p->time_limit_ms % 1000, p->memory_mib, b->count);
	for (unsigned i = 0; i < p->nsamples; i++)
		problem_text_printf(&t, "%s%u", i ? "," : "", i);
	problem_text_puts(&t, "\"\n");
	pkg_put_text(b, "task.yaml", &t, false);
	for (unsigned i = 0; i < b->count; i++) {
		const struct pkg_test *test = &b->test[i];
		snprintf(path, sizeof path, "input/input%u.txt", i);
		pkg_put(b, path, test->input.data, test->input.len, false);
		snprintf(path, sizeof path, "output/output%u.txt", i);
		pkg_put(b, path, test->answer, test->answer_len, false);
	}
	static const char build[] = "#!/bin/sh\n# Builds check/checker, which cmsImportTask takes "
				    "as the comparator;\n# run it before the import, on a machine "
				    "like the workers.\ncd \"$(dirname \"$0\")\" && exec gcc -O2 "
				    "-std=c11 -static -o checker checker.c\n";
	pkg_put_program(b, "check/checker.c", true);
	pkg_put(b, "check/build", build, sizeof build - 1, true);
	pkg_put_statement(b, "statement/statement.md", STATEMENT_MARKDOWN);
	pkg_put_statement(b, "statement/statement.html", STATEMENT_HTML);
	pkg_put_statement(b, "statement/statement.pdf", STATEMENT_PDF);
	pkg_put_solution(b, "sol");
}

/* Builds into a sink opened on `path` (NULL: memory). */
static enum codec_status pkg_build(const struct package_request *req, enum package_sink sink,
				   const char *path, char **data, size_t *len,
				   struct codec_error *err)
{
	struct pkg_build b = {.req = req, .err = err, .ok = true};
	char prefix[64] = "", source[48];
	enum codec_status st = CODEC_E_INTERNAL;

	if (package_check(req, err) != CODEC_OK)
		return err ? err->status : CODEC_E_INVALID;
	b.p = problem_find(req->problem);
	if (!pkg_tests_make(&b))
		goto out;
	snprintf(source, sizeof source, "Baekjoon Online Judge %u", b.p->baekjoon);
	b.statement = (struct statement){
	    .title = b.p->title,
	    .source = source,
	    .legend = b.p->legend,
	    .input = b.p->input_format,
	    .output = b.p->output_format,
	    .time_limit_ms = b.p->time_limit_ms,
	    .memory_mib = b.p->memory_mib,
	    .examples = b.examples,
	    .nexamples = b.p->nsamples,
	};
	/* Kattis and CMS archives hold the package directory, named by the problem. */
	if (req->format == PACKAGE_KATTIS || req->format == PACKAGE_CMS)
		snprintf(prefix, sizeof prefix, "%s/", b.p->short_name);
	b.sink = pkg_sink_open(sink, path, prefix, err);
	if (!b.sink)
		goto out;
	pkg_formats[req->format].layout(&b);
	st = pkg_sink_close(b.sink, b.ok, data, len, err);
out:
	for (unsigned i = 0; i < b.count; i++)
		problem_text_free(&b.test[i].input);
	dj_free(b.test);
	dj_free(b.examples);
	return st != CODEC_OK && err ? err->status : st; /* what failed first */
}

enum codec_status package_build_memory(const struct package_request *req, enum package_sink sink,
				       char **data, size_t *len, struct codec_error *err)
{
	if (sink == PACKAGE_DIRECTORY)
		return codec_error_set(err, CODEC_E_INTERNAL,
				       "a directory cannot be built in memory");
	*data = NULL;
	*len = 0;
	return pkg_build(req, sink, NULL, data, len, err);
}

enum codec_status package_build_path(const struct package_request *req, enum package_sink sink,
				     const char *path, struct codec_error *err)
{
	return pkg_build(req, sink, path, NULL, NULL, err);
}
