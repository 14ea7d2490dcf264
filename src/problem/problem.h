/*
 * One problem, described once for the routes, the command line and the
 * packages: a file (md.c, puyo.c) fills a `struct problem`, a row of
 * table.c lists it. A case is read (JSON or text) -> the core -> encoded.
 * Operations are pure apart from allocation.
 */
#ifndef DROPJUDGE_PROBLEM_PROBLEM_H
#define DROPJUDGE_PROBLEM_PROBLEM_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/error.h"
#include "dropjudge/md.h"
#include "dropjudge/puyo.h"
#include "problem/text.h"

/* The number of elements of an array. */
#define PROBLEM_COUNT(a) ((unsigned)(sizeof(a) / sizeof((a)[0])))

/* A trace longer than this many steps is refused (422 at "/trace"). */
#define PROBLEM_MAX_TRACE_STEPS 10000

/* What a read may take of one case. */
struct problem_limits {
	unsigned long max_blocks; /* placements in one Monomino-Domino case; 0: no limit */
};

/* The final state of one solved case, before it is encoded. */
struct problem_outcome {
	union {
		struct md_game md;
		struct {
			struct puyo_field field; /* the final field, once solved */
			struct puyo_result result;
			struct puyo_field input; /* the field as given */
		} puyo;
	} u;
	json_t *steps; /* owned trace array, NULL without trace */
};

/* Frees what an outcome owns (its trace). */
void problem_outcome_release(struct problem_outcome *out);

#define PROBLEM_PACKED_MAX 48 /* bytes of a packed outcome at most (outcome_pack) */

struct problem_text_stream; /* a problem's text push parser and game, its own */

/* Kinds of package tests, in the order a package holds them. */
enum problem_kind {
	PROBLEM_SAMPLE, /* a public example of the original statement */
	PROBLEM_EDGE,	/* a hand-made edge case */
	PROBLEM_RANDOM, /* generated, small */
	PROBLEM_LARGE,	/* generated, at the size limits */
	PROBLEM_CHAINS, /* Puyo: generated with at least min_chains chains */
};

/* A hand-written test: a name for its file and its input text. */
struct problem_case {
	const char *name; /* [a-z0-9-]+ */
	const char *input;
};

/* What GET .../generate asks for (the route has read the parameters). */
struct problem_gen {
	uint64_t seed;
	uint64_t n;	     /* Monomino-Domino: placements */
	uint64_t colors;     /* Puyo: colours */
	uint64_t min_chains; /* Puyo: chains at least */
	bool with_answer;    /* JSON: add the answer and the expected output */
	bool text;	     /* the Baekjoon input text instead of JSON */
};

struct problem {
	const char *id;		/* path segment and --problem name, "monomino-domino" */
	const char *short_name; /* [a-z0-9]+, Kattis's directory name */
	const char *title;	/* "Monomino-Domino" */
	unsigned baekjoon;	/* problem number */
	unsigned time_limit_ms; /* Baekjoon's limit */
	unsigned memory_mib;	/* Baekjoon's limit */

	/* Solves one case from a JSON object at `pointer`; trace fills ->steps. */
	enum codec_status (*solve_json)(const json_t *case_obj, const char *pointer,
					const struct problem_limits *limits, bool trace,
					struct problem_outcome *out, struct codec_error *err);
	/* Optional fast reader of the canonical JSON case without a trace:
	 * false (nothing reported) sends the body down the jansson path. */
	bool (*solve_json_fast)(const char *body, size_t len, const struct problem_limits *limits,
				struct problem_outcome *out);
	/* Solves one case from the Baekjoon input text. */
	enum codec_status (*solve_text)(const char *text, size_t len,
					const struct problem_limits *limits, bool trace,
					struct problem_outcome *out, struct codec_error *err);
	/* Optional: solve_text without a trace as a push parser. new: NULL
	 * when out of memory, faults into err (kept alive by the caller). end:
	 * once, fills *out as solve_text would. free: NULL is ignored. */
	struct problem_text_stream *(*text_stream_new)(const struct problem_limits *limits,
						       struct codec_error *err);
	void (*text_stream_feed)(struct problem_text_stream *s, const char *data, size_t len);
	enum codec_status (*text_stream_end)(struct problem_text_stream *s,
					     struct problem_outcome *out, struct codec_error *err);
	void (*text_stream_free)(struct problem_text_stream *s);
	/* Optional: solve_json (case_obj) or solve_text with a trace written into
	 * *trace (the caller's): the compact "steps" without brackets, their count
	 * in *steps. 1; 0 (nothing kept) for a fault or a trace too long, left to
	 * solve_*; -1 when out of memory. */
	int (*trace)(const json_t *case_obj, const char *pointer, const char *text, size_t len,
		     const struct problem_limits *limits, struct problem_outcome *out,
		     struct problem_text *trace, size_t *steps);

	/* New result object; takes out->steps. NULL when out of memory. */
	json_t *(*outcome_json)(struct problem_outcome *out);
	/* The bytes outcome_json would give for an outcome without steps,
	 * compact with a final newline, into buf; the length as snprintf. */
	int (*outcome_write)(const struct problem_outcome *out, char *buf, size_t size);
	/* Optional: an outcome without steps packed into buf (at most
	 * PROBLEM_PACKED_MAX bytes; 0: cannot be), and read back by unpack
	 * (as much as outcome_write reads), each returning the bytes. */
	size_t (*outcome_pack)(const struct problem_outcome *out, unsigned char *buf);
	size_t (*outcome_unpack)(const unsigned char *buf, struct problem_outcome *out);
	/* The Baekjoon output text; returns its length as snprintf does. */
	int (*outcome_text)(const struct problem_outcome *out, char *buf, size_t size);
	/* Optional: new {"puyop", "puyo_nexus"} links of the case as given;
	 * NULL when out of memory. */
	json_t *(*outcome_links)(const struct problem_outcome *out);

	/* Checks a case against the strict Baekjoon constraints, every fault into err. */
	void (*validate_json)(const json_t *case_obj, const char *pointer,
			      const struct problem_limits *limits, struct codec_error *err);
	void (*validate_text)(const char *text, size_t len, struct codec_error *err);

	/* A generated case: the Baekjoon text into *text (g->text), else a
	 * new JSON object into *obj (NULL: out of memory). A status with err
	 * set when none can be made (422 at the parameter at fault). */
	enum codec_status (*generate)(const struct problem_gen *g, struct problem_text *text,
				      json_t **obj, struct codec_error *err);
	/* Appends the input text of a package test of `kind` (random, large,
	 * chains) drawn from `seed`. False with err set when none was made. */
	bool (*generate_test)(enum problem_kind kind, uint64_t seed, unsigned min_chains,
			      struct problem_text *out, struct codec_error *err);

	/* The package: statement (statement.h's Markdown subset), examples,
	 * edge cases, solution and validator sources, the integers of an
	 * answer, and the rules' C definitions the validator reads. */
	const char *legend;
	const char *input_format;
	const char *output_format;
	const struct problem_case *samples;
	unsigned nsamples;
	const struct problem_case *edges;
	unsigned nedges;
	bool has_chains; /* makes PROBLEM_CHAINS tests */
	const char *solution;
	const char *solution_end;
	const char *validator;
	const char *validator_end;
	unsigned answer_tokens;
	void (*constants)(struct problem_text *out);
};

extern const struct problem problem_md;
extern const struct problem problem_puyo;

/* Every problem, in the order GET /v1 lists them; *count gets how many. */
const struct problem *const *problem_all(size_t *count);

/* The problem named `id`, or NULL. */
const struct problem *problem_find(const char *id);

/* Solves a text without a limit, its Baekjoon output into answer: the
 * length as snprintf, or -1 with err set. */
int problem_answer(const struct problem *p, const char *text, size_t len, char *answer, size_t size,
		   struct codec_error *err);

/* Adds "answer" and "expected" (the Baekjoon output) to a generated case
 * obj; NULL (obj released) when out of memory or obj is NULL. */
json_t *problem_with_answer(const struct problem *p, json_t *obj, struct problem_outcome *out);

/* Sets err to "out of memory" (CODEC_E_INTERNAL) and returns that status. */
enum codec_status problem_oom(struct codec_error *err);

/* "sample", "edge", "random", "large", "chains". */
const char *problem_kind_name(enum problem_kind kind);

#endif
