/*
 * Unit tests of the systemd protocols (src/main/systemd.c) as systemd
 * documents them: a socket passed by socket activation is taken only when
 * LISTEN_PID names this process and LISTEN_FDS is 1, and only if it is a
 * listening TCP socket; the variables are gone afterwards; a notification
 * arrives as one datagram on the socket NOTIFY_SOCKET names, a path or an
 * abstract name.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "main/systemd.h"

/* Puts a socket of `type` (listening when `listen_too`) at descriptor 3. */
static void socket_at_3(int domain, int type, int listen_too)
{
	int s = socket(domain, type, 0);
	assert_true(s >= 0);
	struct sockaddr_in in = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	if (domain == AF_INET)
		assert_int_equal(bind(s, (struct sockaddr *)&in, sizeof in), 0);
	if (listen_too)
		assert_int_equal(listen(s, 8), 0);
	if (s != SYSTEMD_LISTEN_FDS_START) {
		assert_int_equal(dup2(s, SYSTEMD_LISTEN_FDS_START), SYSTEMD_LISTEN_FDS_START);
		close(s);
	}
}

static void set_listen_env(long pid, const char *count)
{
	char text[32];
	snprintf(text, sizeof text, "%ld", pid);
	setenv("LISTEN_PID", text, 1);
	setenv("LISTEN_FDS", count, 1);
	setenv("LISTEN_FDNAMES", "dropjudge.socket", 1);
}

static void listen_fd_should_be_none_without_the_variables(void **state)
{
	(void)state;
	char err[256];
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	assert_int_equal(systemd_listen_fd(err, sizeof err), -1);
}

static void listen_fd_should_take_a_listening_tcp_socket_passed_to_this_process(void **state)
{
	(void)state;
	char err[256];
	socket_at_3(AF_INET, SOCK_STREAM, 1);
	set_listen_env((long)getpid(), "1");
	assert_int_equal(systemd_listen_fd(err, sizeof err), SYSTEMD_LISTEN_FDS_START);
	assert_null(getenv("LISTEN_PID"));
	assert_null(getenv("LISTEN_FDS"));
	assert_null(getenv("LISTEN_FDNAMES"));
	close(SYSTEMD_LISTEN_FDS_START);
}

static void listen_fd_should_leave_a_socket_passed_to_another_process(void **state)
{
	(void)state;
	char err[256];
	socket_at_3(AF_INET, SOCK_STREAM, 1);
	set_listen_env((long)getpid() + 1, "1");
	assert_int_equal(systemd_listen_fd(err, sizeof err), -1);
	assert_null(getenv("LISTEN_PID"));
	close(SYSTEMD_LISTEN_FDS_START);
}

static void listen_fd_should_refuse_more_than_one_socket(void **state)
{
	(void)state;
	char err[256] = "";
	set_listen_env((long)getpid(), "2");
	assert_int_equal(systemd_listen_fd(err, sizeof err), -2);
	assert_non_null(strstr(err, "2 sockets"));
}

static void listen_fd_should_refuse_a_socket_that_does_not_listen(void **state)
{
	(void)state;
	char err[256] = "";
	socket_at_3(AF_INET, SOCK_STREAM, 0);
	set_listen_env((long)getpid(), "1");
	assert_int_equal(systemd_listen_fd(err, sizeof err), -2);
	assert_non_null(strstr(err, "not a listening TCP socket"));
	close(SYSTEMD_LISTEN_FDS_START);
}

static void listen_fd_should_refuse_a_datagram_socket(void **state)
{
	(void)state;
	char err[256] = "";
	socket_at_3(AF_INET, SOCK_DGRAM, 0);
	set_listen_env((long)getpid(), "1");
	assert_int_equal(systemd_listen_fd(err, sizeof err), -2);
	close(SYSTEMD_LISTEN_FDS_START);
}

static void notify_should_do_nothing_without_notify_socket(void **state)
{
	(void)state;
	unsetenv("NOTIFY_SOCKET");
	assert_int_equal(systemd_notify("READY=1"), 0);
}

/* Binds a datagram socket at `name` (a path, or '@' and an abstract name),
 * sets NOTIFY_SOCKET to it, sends `state` and returns what arrived. */
static void notify_and_read(const char *name, const char *state, char *got, size_t size)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	size_t n = strlen(name);
	memcpy(addr.sun_path, name, n);
	if (name[0] == '@')
		addr.sun_path[0] = '\0';
	socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n);
	int s = socket(AF_UNIX, SOCK_DGRAM, 0);
	assert_true(s >= 0);
	assert_int_equal(bind(s, (struct sockaddr *)&addr, len), 0);
	setenv("NOTIFY_SOCKET", name, 1);
	assert_int_equal(systemd_notify(state), 1);
	ssize_t got_n = recv(s, got, size - 1, MSG_DONTWAIT);
	assert_true(got_n >= 0);
	got[got_n] = '\0';
	close(s);
	unsetenv("NOTIFY_SOCKET");
}

static void notify_should_send_the_state_to_a_path(void **state)
{
	(void)state;
	char dir[] = "/tmp/dropjudge-notify-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[64];
	snprintf(path, sizeof path, "%s/notify", dir);
	char got[64];
	notify_and_read(path, "READY=1", got, sizeof got);
	assert_string_equal(got, "READY=1");
	unlink(path);
	rmdir(dir);
}

static void notify_should_send_the_state_to_an_abstract_name(void **state)
{
	(void)state;
	char name[64];
	snprintf(name, sizeof name, "@dropjudge-test-%ld", (long)getpid());
	char got[64];
	notify_and_read(name, "STOPPING=1", got, sizeof got);
	assert_string_equal(got, "STOPPING=1");
}

static void notify_should_fail_when_nobody_listens(void **state)
{
	(void)state;
	setenv("NOTIFY_SOCKET", "/nonexistent/dropjudge/notify", 1);
	assert_int_equal(systemd_notify("READY=1"), -1);
	setenv("NOTIFY_SOCKET", "relative/path", 1);
	assert_int_equal(systemd_notify("READY=1"), -1);
	unsetenv("NOTIFY_SOCKET");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(listen_fd_should_be_none_without_the_variables),
	    cmocka_unit_test(listen_fd_should_take_a_listening_tcp_socket_passed_to_this_process),
	    cmocka_unit_test(listen_fd_should_leave_a_socket_passed_to_another_process),
	    cmocka_unit_test(listen_fd_should_refuse_more_than_one_socket),
	    cmocka_unit_test(listen_fd_should_refuse_a_socket_that_does_not_listen),
	    cmocka_unit_test(listen_fd_should_refuse_a_datagram_socket),
	    cmocka_unit_test(notify_should_do_nothing_without_notify_socket),
	    cmocka_unit_test(notify_should_send_the_state_to_a_path),
	    cmocka_unit_test(notify_should_send_the_state_to_an_abstract_name),
	    cmocka_unit_test(notify_should_fail_when_nobody_listens),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
