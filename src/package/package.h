/*
 * Problem packages for contest systems: one call builds a complete package
 * of either problem for Kattis, Polygon, DOMjudge or CMS (statement, sample and
 * secret tests with their answers, input validator, output validator or
 * checker, limits and the format's metadata) and writes it as a zip, a
 * tar.gz or a directory, through libarchive.
 *
 * A package is a function of its request: the same problem, format, test
 * count, seed and chain count give the same files, byte for byte, on every
 * machine (the generators are gen.h's; archive timestamps are fixed).
 * Tests are computed with the cores and written with the codecs' text
 * formats, so that every answer is what `dropjudge solve` and
 * POST /v1/{problem} answer. The validator and checker of a package are
 * self-contained C sources that the judge compiles (programs.h); they run
 * where dropjudge is not installed.
 *
 * The package layer sits between route/main and codec: it uses the cores,
 * the codecs' error type and libarchive, and nothing of HTTP.
 */
#ifndef DROPJUDGE_PACKAGE_PACKAGE_H
#define DROPJUDGE_PACKAGE_PACKAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/error.h"

#define PACKAGE_MAX_TESTS	   500 /* secret tests in one package */
#define PACKAGE_DEFAULT_TESTS	   20
#define PACKAGE_DEFAULT_MIN_CHAINS 8 /* Puyo: chains of the long-chain tests */

enum package_format {
	PACKAGE_KATTIS,	  /* Kattis problem package format, legacy version */
	PACKAGE_POLYGON,  /* Codeforces Polygon package: problem.xml */
	PACKAGE_DOMJUDGE, /* DOMjudge problem zip: ICPC package + domjudge-problem.ini */
	PACKAGE_CMS,	  /* CMS task directory, italy_yaml layout: task.yaml */
	PACKAGE_FORMAT_COUNT
};

enum package_sink {
	PACKAGE_ZIP,
	PACKAGE_TAR_GZ,
	PACKAGE_DIRECTORY, /* the files written under a directory (only to a path) */
};

/* What to build. */
struct package_request {
	const char *problem;	    /* "monomino-domino" or "puyo" */
	enum package_format format; /* layout and metadata */
	unsigned tests;		    /* secret tests, 1..PACKAGE_MAX_TESTS */
	uint64_t seed;		    /* seed of every generated test */
	unsigned min_chains;	    /* Puyo long-chain tests: at least this many
				       chains, 1..GEN_PUYO_MAX_CHAINS; ignored
				       for Monomino-Domino */
	/* Asked between tests: true stops the build (nobody wants it any
	 * more), which then fails with CODEC_E_BUSY. NULL: never stops. */
	bool (*stop)(void *ctx);
	void *stop_ctx; /* handed to stop */
};

/* "kattis", "polygon", "domjudge", "cms". */
const char *package_format_name(enum package_format format);

/* Reads a format name; false when it is none of them. */
bool package_format_from_name(const char *name, enum package_format *format);

/*
 * The file name a package is best saved under (for Content-Disposition):
 * the problem's short name, which DOMjudge takes from the zip's name and
 * Kattis wants as the package directory's ("monominodomino.zip"), with
 * "-polygon" for Polygon, and ".zip" or ".tar.gz". Writes it as snprintf
 * does; an unknown problem gives "package".
 */
int package_file_name(const struct package_request *req, enum package_sink sink, char *buf,
		      size_t size);

/*
 * Checks a request: the problem exists, tests and min_chains are in range.
 * Faults are located at the query parameter of the same name ("problem",
 * "format", "tests", "min_chains"): CODEC_E_INVALID. Returns the status.
 */
enum codec_status package_check(const struct package_request *req, struct codec_error *err);

/*
 * Builds the package as a zip or tar.gz in memory. On success *data is a
 * new malloc'ed buffer of *len bytes that the caller frees. On failure
 * nothing is allocated, *data is NULL and err says why: CODEC_E_INVALID for
 * a bad request (see package_check), CODEC_E_INTERNAL when out of memory or
 * when a generated test fails its own validation (a bug), CODEC_E_BUSY when
 * req->stop said to stop.
 */
enum codec_status package_build_memory(const struct package_request *req, enum package_sink sink,
				       char **data, size_t *len, struct codec_error *err);

/*
 * Builds the package into `path`: a zip or tar.gz file (replaced when it
 * exists), or for PACKAGE_DIRECTORY a directory (created with its parents
 * when missing; files already there are overwritten). Errors as for
 * package_build_memory, and CODEC_E_INTERNAL with the system's reason when
 * the path cannot be written (a file may then be left half-written).
 */
enum codec_status package_build_path(const struct package_request *req, enum package_sink sink,
				     const char *path, struct codec_error *err);

#endif
