/*
 * `dropjudge package`: writes a problem package for a contest system
 * (package/package.h) to a zip, a tar.gz or a directory.
 */
#ifndef DROPJUDGE_MAIN_PACKAGE_H
#define DROPJUDGE_MAIN_PACKAGE_H

/*
 * Runs `dropjudge package --problem P --format F [--tests N] [--seed S]
 * [--min-chains M] OUT` (argv holds the arguments after "package"). OUT
 * ending in .zip or .kpp is a zip, in .tar.gz or .tgz a tar.gz, anything
 * else a directory. Returns the exit status: 0 written, 1 failed, 2 bad
 * usage (the message names the flag).
 */
int package_main(int argc, char *const argv[]);

#endif
