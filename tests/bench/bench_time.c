/*
 * Times one run of a command, as `make bench` compares commands:
 *
 *   bench_time IN OUT CMD [ARG...]
 *
 * runs CMD with stdin from the file IN and stdout to the file OUT, waits
 * for it and prints "WALL USER" in seconds: the wall time from just before
 * the process is spawned to its exit, and its user CPU time (all threads).
 * Exits 1 when CMD cannot be run or does not exit 0. The time covers the
 * command's own start-up and exit, but not that of a shell around it: a
 * subshell's fork costs about a millisecond, as much as the fastest
 * commands measured take to run.
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double seconds(const struct timespec *t)
{
	return (double)t->tv_sec + (double)t->tv_nsec / 1e9;
}

int main(int argc, char *argv[])
{
	if (argc < 4) {
		fprintf(stderr, "usage: bench_time IN OUT CMD [ARG...]\n");
		return 2;
	}
	int in = open(argv[1], O_RDONLY | O_CLOEXEC);
	int out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (in < 0 || out < 0) {
		perror("bench_time");
		return 1;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in, 0);
	posix_spawn_file_actions_adddup2(&fa, out, 1);

	struct timespec t0, t1;
	pid_t pid;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int err = posix_spawnp(&pid, argv[3], &fa, NULL, argv + 3, environ);
	if (err != 0) {
		fprintf(stderr, "bench_time: %s: %s\n", argv[3], strerror(err));
		return 1;
	}
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) != pid) {
		perror("bench_time: wait4");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	posix_spawn_file_actions_destroy(&fa);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "bench_time: %s did not exit 0\n", argv[3]);
		return 1;
	}
	printf("%.6f %.6f\n", seconds(&t1) - seconds(&t0),
	       (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6);
	return 0;
}
