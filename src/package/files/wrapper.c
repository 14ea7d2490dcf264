/*
 * @WHAT@ of this package, for testlib's conventions:
 *   @USAGE@
 * It runs `dropjudge @SUBCOMMAND@ --problem @PROBLEM@ --protocol testlib` with
 * the arguments it was given; dropjudge answers with testlib's exit codes
 * and messages. dropjudge is found on PATH, or named by the DROPJUDGE
 * environment variable. When it cannot be run, this exits 3 (testlib's
 * "fail", a judge error).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define MAX_ARGS 64

int main(int argc, char *argv[])
{
	static char subcommand[] = "@SUBCOMMAND@", problem_flag[] = "--problem",
		    problem[] = "@PROBLEM@", protocol_flag[] = "--protocol",
		    protocol[] = "testlib";
	char *args[MAX_ARGS + 7];
	char *bin = getenv("DROPJUDGE");
	int n = 0;

	if (!bin || !*bin)
		bin = "dropjudge";
	args[n++] = bin;
	args[n++] = subcommand;
	args[n++] = problem_flag;
	args[n++] = problem;
	args[n++] = protocol_flag;
	args[n++] = protocol;
	for (int i = 1; i < argc && i <= MAX_ARGS; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	execvp(bin, args);
	fprintf(stderr, "FAIL cannot run %s\n", bin);
	return 3;
}
