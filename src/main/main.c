/*
 * The dropjudge program: picks the subcommand (or a checker or validator by
 * the name it runs under) and, for serve, owns its configuration, signals and
 * shutdown. Under systemd, serve takes its socket and notifies (systemd.h).
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */

#include <arpa/inet.h>
#include <netdb.h>
#include <stdarg.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <archive.h>
#include <gnutls/gnutls.h>
#include <jansson.h>
#include <microhttpd.h>

#include "codec/error.h"
#include "dropjudge/version.h"
#include "http/accesslog.h"
#include "http/metrics.h"
#include "http/auth.h"
#include "http/clock.h"
#include "http/ratelog.h"
#include "main/commands.h"
#include "main/config.h"
#include "main/systemd.h"
#include "mem/alloc.h"

#define MAIN_DRAIN_POLL_MS 50 /* how often the drain looks for requests in flight */
/* Idle checks in a row that end the drain (one just accepted sends its headers). */
#define MAIN_DRAIN_IDLE_POLLS 2

/* config_lookup_fn over the real environment. */
static const char *main_getenv(void *ctx, const char *name)
{
	(void)ctx;
	return getenv(name);
}

/* CPUs this process may run on (its affinity mask), at least 1. */
static unsigned main_cpu_count(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0)
		return (unsigned)CPU_COUNT(&set);
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	return online > 0 && online < (long)CONFIG_MAX_THREADS ? (unsigned)online : 1;
}

/* Raises the soft open-file limit towards what `connections` need, within the hard one. */
static void main_raise_fd_limit(unsigned connections, unsigned threads)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return;
	/* Two a connection (libmicrohttpd's, the guard's dup), lingering, threads', a margin. */
	rlim_t want = 2 * (rlim_t)connections + 128 + 4 * (rlim_t)threads + 64;
	if (rl.rlim_max != RLIM_INFINITY && want > rl.rlim_max)
		want = rl.rlim_max;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want) {
		rl.rlim_cur = want;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* A line of the process's life: JSON through the access log in JSON mode,
 * else plain text on fd (the start line on stdout, the others on stderr). */
static void __attribute__((format(printf, 4, 5)))
main_say(struct http_accesslog *log, const char *event, int fd, const char *fmt, ...)
{
	char text[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	http_accesslog_event(log, event, text, fd);
}

/* SIGHUP: re-reads the bearer tokens of `auth` (NULL: no token file), in
 * the main thread. A failure keeps the tokens in force and logs why. */
static void main_reload(struct http_auth *auth)
{
	char err[CONFIG_ERROR_MAX + 256];
	if (!auth)
		http_stderr_line(
		    "info", "reload",
		    "SIGHUP: reloaded (no --auth-token-file, nothing to reload); still "
		    "serving");
	else if (http_auth_reload(auth, err, sizeof err) != 0)
		http_stderr_line("warn", "reload",
				 "SIGHUP: %s; keeping the %zu tokens in force; still serving", err,
				 http_auth_count(auth));
	else
		http_stderr_line("info", "reload",
				 "SIGHUP: token file reloaded, %zu tokens; still serving",
				 http_auth_count(auth));
}

/* After the first signal: waits until no request is in flight or timeout_s
 * seconds pass; SIGHUP reloads, another signal of `signals` exits at once. */
static void main_drain(struct http_server *srv, unsigned timeout_s, struct http_auth *auth,
		       const sigset_t *signals, struct http_accesslog *log)
{
	long long deadline = http_clock_ms() + (long long)timeout_s * 1000;
	unsigned idle = 0;

	for (;;) {
		idle = http_server_is_idle(srv) ? idle + 1 : 0;
		if (idle >= MAIN_DRAIN_IDLE_POLLS)
			return;
		long long left = deadline - http_clock_ms();
		if (left <= 0) {
			if (!idle)
				main_say(log, "drain", 2,
					 "dropjudge: drain timeout (%u s) reached with requests "
					 "in flight; closing them",
					 timeout_s);
			return;
		}
		struct timespec wait = {
		    .tv_nsec =
			(long)(left < MAIN_DRAIN_POLL_MS ? left : MAIN_DRAIN_POLL_MS) * 1000000L};
		int sig = sigtimedwait(signals, NULL, &wait);
		if (sig == SIGHUP) {
			main_reload(auth);
		} else if (sig > 0) {
			/* An orderly stop would wait for the workers' jobs. */
			http_stderr_line("info", "stop", "second signal (%s); exiting now",
					 strsignal(sig));
			_exit(0);
		}
	}
}

/* Acts on a config_parse_*() result: the help of serve (`who` "") or of
 * healthcheck, or err after `who`: their exit status; -1 for CONFIG_OK. */
static int main_config_exit(enum config_result result, const char *who, const char *err)
{
	if (result == CONFIG_HELP) {
		config_usage_command(*who ? "healthcheck" : "serve", stdout);
		return fflush(stdout) == 0 ? 0 : 1;
	}
	if (result == CONFIG_ERROR) {
		fprintf(stderr, "dropjudge: %s%s; try 'dropjudge --help'\n", who, err);
		return 2;
	}
	return -1;
}

/* Replaces a host name in host[0..size) by its first address, which the
 * HTTP layer can bind. Returns 0, or -1 with the reason in err. */
static int main_resolve_host(char *host, size_t size, char *err, size_t errlen)
{
	struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *ai = NULL;
	unsigned char buf[sizeof(struct in6_addr)];
	if (inet_pton(AF_INET, host, buf) == 1 || inet_pton(AF_INET6, host, buf) == 1)
		return 0;
	int rc = getaddrinfo(host, NULL, &hints, &ai);
	if (rc != 0 || !ai) {
		codec_format(err, errlen, "--host: '%s' does not resolve (%s)", host,
			     gai_strerror(rc));
		return -1;
	}
	char text[INET6_ADDRSTRLEN];
	rc = getnameinfo(ai->ai_addr, ai->ai_addrlen, text, sizeof text, NULL, 0, NI_NUMERICHOST);
	freeaddrinfo(ai);
	if (rc != 0 || strlen(text) >= size) {
		codec_format(err, errlen, "--host: '%s' does not resolve to an address", host);
		return -1;
	}
	memcpy(host, text, strlen(text) + 1);
	return 0;
}

/* `dropjudge serve`: returns the exit status. SIGTERM, SIGINT and SIGHUP are
 * blocked before any thread starts and taken by sigwait(): SIGHUP re-reads the
 * token file, SIGTERM or SIGINT drains, a second one exits 0 at once. */
static int main_serve(int argc, char *const argv[])
{
	struct config cfg;
	char err[CONFIG_ERROR_MAX], security_err[CONFIG_ERROR_MAX + 256];
	sigset_t signals;
	int sig = 0;
	struct http_auth *auth = NULL;
	struct http_tls tls; /* loaded when cfg.http.tls points to it */
	struct http_accesslog *log = NULL;

	enum config_result parsed =
	    config_parse_serve(&cfg, argc, argv, main_getenv, NULL, err, sizeof err);
	int status = main_config_exit(parsed, "", err);
	if (status >= 0)
		return status;
	/* From here on every line on stderr is in the --log-format's shape. */
	http_ratelog_set_json((enum http_log_format)cfg.log_format == HTTP_LOG_JSON);
	if (main_resolve_host(cfg.host, sizeof cfg.host, err, sizeof err) != 0)
		return main_config_exit(CONFIG_ERROR, "", err);
	if (cfg.http.threads == 0)
		cfg.http.threads = main_cpu_count();
	if (cfg.http.threads > cfg.http.max_connections)
		cfg.http.threads = cfg.http.max_connections;
	main_raise_fd_limit(cfg.http.max_connections, cfg.http.threads);
	int listen_fd = systemd_listen_fd(err, sizeof err);
	if (listen_fd == -2) {
		http_stderr_line("error", "error", "%s", err);
		return 1;
	}
	/* An inherited socket: the start line names the address it is bound to. */
	struct sockaddr_storage addr;
	socklen_t addr_len = sizeof addr;
	if (listen_fd > 0 && (getsockname(listen_fd, (struct sockaddr *)&addr, &addr_len) != 0 ||
			      getnameinfo((struct sockaddr *)&addr, addr_len, cfg.host,
					  sizeof cfg.host, NULL, 0, NI_NUMERICHOST) != 0)) {
		http_stderr_line("error", "error",
				 "socket activation: cannot read the socket's address");
		status = 1;
		goto out;
	}
	/* The token and TLS files: a file that cannot be used is bad usage. */
	status = 2;
	if (cfg.auth_token_file &&
	    !(auth = http_auth_new(cfg.auth_token_file, security_err, sizeof security_err))) {
		http_stderr_line("error", "error", "--auth-token-file: %s", security_err);
		goto out;
	}
	if (cfg.tls_cert && http_tls_load(&tls, cfg.tls_cert, cfg.tls_key, cfg.tls_priorities,
					  security_err, sizeof security_err) != 0) {
		http_stderr_line("error", "error", "%s", security_err);
		goto out;
	}
	cfg.http.tls = cfg.tls_cert ? &tls : NULL;

	/* Before any thread exists, for all to inherit (fails only for a bad `how`). */
	sigemptyset(&signals);
	sigaddset(&signals, SIGTERM);
	sigaddset(&signals, SIGINT);
	sigaddset(&signals, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &signals, NULL);
	signal(SIGPIPE, SIG_IGN);

	cfg.http.metrics = http_metrics_new(DROPJUDGE_VERSION);
	log = http_accesslog_new((enum http_log_format)cfg.log_format, STDOUT_FILENO,
				 HTTP_ACCESSLOG_BUFFER);
	if (!cfg.http.metrics || !log) {
		http_stderr_line("error", "error", "out of memory");
		status = 1;
		goto out;
	}
	cfg.http.host = cfg.host;
	cfg.http.listen_fd = listen_fd > 0 ? listen_fd : 0;
	listen_fd = -1; /* the server's from here on, even if it fails to start */
	cfg.http.auth = auth;
	cfg.http.log = log;
	struct http_server *srv = http_server_start(&cfg.http, err, sizeof err);
	if (!srv) {
		main_say(log, "error", 2, "dropjudge: %s", err);
		status = 1;
		goto out;
	}
	const char *lb = strchr(cfg.host, ':') ? "[" : "";
	const char *rb = strchr(cfg.host, ':') ? "]" : "";
	main_say(log, "start", 1, "dropjudge " DROPJUDGE_VERSION " listening on %s://%s%s%s:%u",
		 cfg.http.tls ? "https" : "http", lb, cfg.host, rb, http_server_port(srv));
	systemd_notify("READY=1");

	/* sigwait() fails only for an invalid set */
	while (sigwait(&signals, &sig) == 0 && sig == SIGHUP)
		main_reload(auth);
	main_say(log, "drain", 2, "dropjudge: %s; draining (up to %u s)", strsignal(sig),
		 cfg.drain_timeout);
	systemd_notify("STOPPING=1");
	http_server_begin_drain(srv);
	main_drain(srv, cfg.drain_timeout, auth, &signals, log);
	http_server_stop(srv);
	main_say(log, "stop", 2, "dropjudge: stopped");
	status = 0;
out:
	if (listen_fd > 0)
		close(listen_fd);
	http_accesslog_free(log);
	http_metrics_free(cfg.http.metrics);
	http_auth_free(auth);
	if (cfg.http.tls)
		http_tls_free(&tls);
	return status;
}

/* `dropjudge healthcheck [--port N] [--tls-cert FILE]`: returns the exit status. */
static int main_healthcheck(int argc, char *const argv[])
{
	char err[CONFIG_ERROR_MAX + 256];
	struct config_healthcheck hc;

	enum config_result parsed =
	    config_parse_healthcheck(&hc, argc, argv, main_getenv, NULL, err, sizeof err);
	int status = main_config_exit(parsed, "healthcheck: ", err);
	if (status >= 0)
		return status;
	status = healthcheck_run(hc.host, hc.port, hc.tls_cert, err, sizeof err);
	if (status != 0)
		fprintf(stderr, "dropjudge: healthcheck: %s\n", err);
	return status;
}

/* The subcommands, each run with the arguments after its name. */
static const struct {
	const char *name;
	int (*run)(int argc, char *const argv[]);
} main_commands[] = {
    {"serve", main_serve},     {"solve", solve_main}, {"healthcheck", main_healthcheck},
    {"search", search_main},   {"check", check_main}, {"validate", validate_main},
    {"package", package_main},
};

int main(int argc, char *argv[])
{
	/* jansson allocates through the same seam as the rest (mem/alloc.h). */
	json_set_alloc_funcs(dj_malloc, dj_free);
	/* Run as a checker or validator under the name a judge gives it. */
	int by_name = check_main_by_name(argc, argv);
	if (by_name >= 0)
		return by_name;
	if (argc < 2)
		return main_serve(0, argv + 1);
	const char *cmd = argv[1];
	bool version = strcmp(cmd, "--version") == 0;
	if (version || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 ||
	    strcmp(cmd, "help") == 0) {
		if (argc > 2) {
			fprintf(stderr,
				"dropjudge: unexpected argument '%s' after %s; try 'dropjudge "
				"--help'\n",
				argv[2], cmd);
			return 2;
		}
		if (!version)
			config_usage(stdout);
		else /* the libraries as loaded (README, "Framing") */
			printf("dropjudge " DROPJUDGE_VERSION
			       "\nlibmicrohttpd %s, jansson %s, GnuTLS %s, %s\n",
			       MHD_get_version(), jansson_version_str(), gnutls_check_version(NULL),
			       archive_version_string());
		return fflush(stdout) == 0 ? 0 : 1;
	}
	for (size_t c = 0; c < sizeof main_commands / sizeof main_commands[0]; c++) {
		int (*run)(int, char *const[]) = main_commands[c].run;
		if (strcmp(cmd, main_commands[c].name) != 0)
			continue;
		/* `solve --help`, `package ... -h`: own help (serve's, healthcheck's: parsed) */
		for (int i = 2; i < argc && run != main_serve && run != main_healthcheck; i++) {
			if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
				config_usage_command(cmd, stdout);
				return fflush(stdout) == 0 ? 0 : 1;
			}
		}
		return run(argc - 2, argv + 2);
	}
	if (cmd[0] == '-')
		return main_serve(argc - 1, argv + 1);
	fprintf(stderr, "dropjudge: unknown subcommand '%s'; try 'dropjudge --help'\n", cmd);
	return 2;
}
