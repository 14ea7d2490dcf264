/*
 * What a package holds of each problem: its names, the original limits,
 * the statement source, the public examples, the edge cases, how the other
 * tests are generated, and how a test is checked and solved. Private to
 * src/package.
 */
#ifndef DROPJUDGE_PACKAGE_PROBLEMS_H
#define DROPJUDGE_PACKAGE_PROBLEMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/error.h"
#include "package/text.h"

/* Kinds of tests, in the order a package holds them. */
enum pkg_kind {
	PKG_SAMPLE, /* a public example of the original statement */
	PKG_EDGE,   /* a hand-made edge case */
	PKG_RANDOM, /* generated, small */
	PKG_LARGE,  /* generated, at the size limits */
	PKG_CHAINS, /* Puyo: generated with at least min_chains chains */
};

/* A hand-written test: a name for its file and its input text. */
struct pkg_case {
	const char *name; /* [a-z0-9-]+ */
	const char *input;
};

struct pkg_problem {
	const char *id;		/* "monomino-domino": the URL and --problem name */
	const char *short_name; /* "monominodomino": [a-z0-9]+, Kattis's directory name */
	const char *title;
	unsigned baekjoon;	/* problem number */
	unsigned time_limit_ms; /* Baekjoon's limit */
	unsigned memory_mib;	/* Baekjoon's limit */
	const char *legend;	/* statement source (statement.h's Markdown subset) */
	const char *input_format;
	const char *output_format;
	const struct pkg_case *samples; /* the public examples, in order */
	unsigned nsamples;
	const struct pkg_case *edges; /* edge cases, in order */
	unsigned nedges;
	bool has_chains; /* makes PKG_CHAINS tests */
	/*
	 * Appends the input text of a generated test of `kind` (random,
	 * large, chains) drawn from `seed` to out. False with err set when no
	 * case could be made.
	 */
	bool (*generate)(enum pkg_kind kind, uint64_t seed, unsigned min_chains,
			 struct pkg_text *out, struct codec_error *err);
	/* The strict validator of POST /v1/{problem}/validate, every fault
	 * into err (collect mode). */
	void (*validate)(const char *text, size_t len, struct codec_error *err);
	/* Solves an input as POST /v1/{problem} does; writes the Baekjoon
	 * output text into answer (size bytes) and returns its length, or -1
	 * with err set. */
	int (*solve)(const char *text, size_t len, char *answer, size_t size,
		     struct codec_error *err);
	const char *solution;	  /* C source of an accepted solution */
	const char *solution_end; /* its end */
	unsigned answer_tokens;	  /* integers in a Baekjoon answer */
	/* Appends the C definitions of its rules that the package's input
	 * validator reads (limits, board sizes, alphabet, rule texts), made
	 * from the tables of the cores and codecs. */
	void (*constants)(struct pkg_text *out);
	const char *validator;	   /* fixed C source of the input validator */
	const char *validator_end; /* its end */
};

/* The problem named `id`, or NULL. */
const struct pkg_problem *pkg_problem_find(const char *id);

/* "sample", "edge", "random", "large", "chains". */
const char *pkg_kind_name(enum pkg_kind kind);

#endif
