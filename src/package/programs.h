/*
 * The input validator and output checker of a package as self-contained C
 * sources that a judge compiles and runs on its own: a small header of
 * definitions generated from dropjudge's tables (the problem's limits,
 * board sizes and alphabet, the protocol's exit codes), then a fixed
 * source of src/package/files, and for the checker the service's own
 * comparison (src/core/judge.c). Private to src/package.
 */
#ifndef DROPJUDGE_PACKAGE_PROGRAMS_H
#define DROPJUDGE_PACKAGE_PROGRAMS_H

#include "problem/problem.h"
#include "problem/text.h"

/* The conventions a program follows, by judge. */
enum pkg_protocol {
	PKG_PROTOCOL_TESTLIB, /* Polygon: check input output answer; exits 0/1/2/3 */
	PKG_PROTOCOL_KATTIS,  /* Kattis, DOMjudge: exits 42/43, feedback directory */
	PKG_PROTOCOL_CMS,     /* CMS: outcome on stdout, one message line on stderr */
};

/* Appends the C source of p's output checker for `protocol` to out. */
void pkg_program_checker(const struct problem *p, enum pkg_protocol protocol,
			 struct problem_text *out);

/* Appends the C source of p's input validator for `protocol` (testlib or
 * kattis) to out. */
void pkg_program_validator(const struct problem *p, enum pkg_protocol protocol,
			   struct problem_text *out);

#endif
