/* Socket activation and readiness notification in a few system calls, as
 * systemd documents them (systemd.h). */
#include "main/systemd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "codec/decimal.h"
#include "codec/error.h"

/* Reads a plain decimal environment variable; false when unset or not one. */
static bool systemd_env_number(const char *name, unsigned long long *out)
{
	const char *text = getenv(name);
	return text && codec_decimal_read_str(text, out) == CODEC_DECIMAL_OK;
}

int systemd_listen_fd(char *err, size_t errlen)
{
	unsigned long long pid = 0, n = 0;
	bool for_us = systemd_env_number("LISTEN_PID", &pid) && pid == (unsigned long long)getpid();
	bool counted = systemd_env_number("LISTEN_FDS", &n);

	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
	if (!for_us || !counted || n == 0)
		return -1;
	if (n != 1) {
		codec_format(err, errlen,
			     "socket activation passed %llu sockets; one listening TCP socket "
			     "is taken",
			     n);
		return -2;
	}
	int fd = SYSTEMD_LISTEN_FDS_START;
	if (fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) { /* the one descriptor flag */
		codec_format(err, errlen, "socket activation: descriptor %d: %s", fd,
			     strerror(errno));
		return -2;
	}
	int type = 0, listening = 0;
	socklen_t len = sizeof type;
	struct sockaddr_storage addr;
	socklen_t alen = sizeof addr;
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) != 0 || type != SOCK_STREAM ||
	    (len = sizeof listening, getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &len)) !=
		0 ||
	    !listening || getsockname(fd, (struct sockaddr *)&addr, &alen) != 0 ||
	    (addr.ss_family != AF_INET && addr.ss_family != AF_INET6)) {
		codec_format(err, errlen,
			     "socket activation: descriptor %d is not a listening TCP socket "
			     "(ListenStream= an address and port)",
			     fd);
		return -2;
	}
	return fd;
}

int systemd_notify(const char *state)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un addr = {.sun_family = AF_UNIX};

	if (!path || !path[0])
		return 0;
	size_t n = strlen(path);
	if ((path[0] != '/' && path[0] != '@') || n >= sizeof addr.sun_path)
		return -1;
	memcpy(addr.sun_path, path, n);
	if (path[0] == '@')
		addr.sun_path[0] = '\0'; /* abstract namespace */
	socklen_t alen =
	    (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + (path[0] == '/' ? 1 : 0));
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	ssize_t sent =
	    sendto(fd, state, strlen(state), MSG_NOSIGNAL, (const struct sockaddr *)&addr, alen);
	close(fd);
	return sent == (ssize_t)strlen(state) ? 1 : -1;
}
