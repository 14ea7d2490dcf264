/*
 * Problem packages for Kattis, Polygon, DOMjudge and CMS (statement, tests with answers,
 * validator and checker sources, limits, metadata) as a zip, a tar.gz or a directory. The same
 * request gives the same bytes on every machine; the answers are the cores'.
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
	unsigned min_chains;	    /* Puyo long-chain tests: at least this many chains,
				       1..GEN_PUYO_MAX_CHAINS; ignored for Monomino-Domino */
	/* Asked between tests and files: true stops the build, which fails with the error stop
	 * recorded in err. NULL: never stops. */
	bool (*stop)(void *ctx, struct codec_error *err);
	void *stop_ctx; /* handed to stop */
};

/* "kattis", "polygon", "domjudge", "cms". */
const char *package_format_name(enum package_format format);

/* Reads a format name; false when it is none of them. */
bool package_format_from_name(const char *name, enum package_format *format);

/* The file name a package is best saved under (Content-Disposition): the problem's short name, as
 * DOMjudge and Kattis want it ("monominodomino.zip"), with "-polygon" or "-cms", and ".zip" or
 * ".tar.gz"; "package" for an unknown problem. Writes it as snprintf does. */
int package_file_name(const struct package_request *req, enum package_sink sink, char *buf,
		      size_t size);

/* Checks a request: faults (CODEC_E_INVALID) are located at the query parameter of the same name
 * ("problem", "format", "tests", "min_chains"). */
enum codec_status package_check(const struct package_request *req, struct codec_error *err);

/* Builds the package as a zip or tar.gz in memory: *data, *len bytes, the caller's to free. On
 * failure *data is NULL and err says why: CODEC_E_INVALID for a bad request, CODEC_E_INTERNAL when
 * out of memory or a generated test fails its validation (a bug), or what req->stop recorded. */
enum codec_status package_build_memory(const struct package_request *req, enum package_sink sink,
				       char **data, size_t *len, struct codec_error *err);

/* Builds the package into the file (replaced) or directory (created with its parents, files
 * overwritten) at `path`. Errors as for package_build_memory(), and CODEC_E_INTERNAL when path
 * cannot be written. */
enum codec_status package_build_path(const struct package_request *req, enum package_sink sink,
				     const char *path, struct codec_error *err);

#endif
