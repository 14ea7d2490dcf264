/*
 * `dropjudge healthcheck`: one HTTP/1.1 GET /livez over a non-blocking
 * socket to 127.0.0.1, every step (connect, send, read the status line)
 * bounded by one deadline. Only the status line is read. See healthcheck.h.
 */
#include "main/healthcheck.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "codec/error.h"

/* Milliseconds on the monotonic clock. */
static long long healthcheck_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Waits until fd is ready for `events` or the deadline passes. Returns 0
 * when ready, -1 on timeout or error (errno set; ETIMEDOUT for timeout).
 */
static int healthcheck_wait(int fd, short events, long long deadline)
{
	for (;;) {
		long long left = deadline - healthcheck_now_ms();
		if (left <= 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		struct pollfd p = {.fd = fd, .events = events, .revents = 0};
		int rc = poll(&p, 1, (int)left);
		if (rc > 0)
			return 0;
		if (rc < 0 && errno != EINTR)
			return -1;
	}
}

/* Reads the status code from a status line "HTTP/1.x SSS ..."; -1 if none. */
static int healthcheck_status(const char *line, size_t len)
{
	if (len < 12 || memcmp(line, "HTTP/1.", 7) != 0 || line[8] != ' ')
		return -1;
	int status = 0;
	for (size_t i = 9; i < 12; i++) {
		if (line[i] < '0' || line[i] > '9')
			return -1;
		status = status * 10 + (line[i] - '0');
	}
	return status;
}

int healthcheck_run(unsigned port, unsigned timeout_ms, char *err, size_t errlen)
{
	long long deadline = healthcheck_now_ms() + timeout_ms;
	struct sockaddr_in addr;
	char request[128];
	char reply[256];
	size_t got = 0;
	int ret = 1;

	if (port < 1 || port > 65535) {
		codec_format(err, errlen, "port %u is out of range (1..65535)", port);
		return 1;
	}
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		codec_format(err, errlen, "socket: %s", strerror(errno));
		return 1;
	}
	memset(&addr, 0, sizeof addr);
	addr.sin_family = AF_INET;
	addr.sin_port = htons((uint16_t)port);
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (const struct sockaddr *)&addr, sizeof addr) != 0) {
		int soerr = 0;
		socklen_t solen = sizeof soerr;
		if (errno != EINPROGRESS || healthcheck_wait(fd, POLLOUT, deadline) != 0 ||
		    getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &solen) != 0 || soerr != 0) {
			if (soerr)
				errno = soerr;
			codec_format(err, errlen, "cannot connect to 127.0.0.1:%u: %s", port,
				     strerror(errno));
			goto out_fd;
		}
	}

	int n = snprintf(request, sizeof request,
			 "GET /livez HTTP/1.1\r\nHost: 127.0.0.1:%u\r\nConnection: close\r\n\r\n",
			 port);
	for (size_t sent = 0; sent < (size_t)n;) {
		ssize_t w = send(fd, request + sent, (size_t)n - sent, MSG_NOSIGNAL);
		if (w > 0) {
			sent += (size_t)w;
			continue;
		}
		if (w < 0 && (errno == EAGAIN || errno == EINTR) &&
		    healthcheck_wait(fd, POLLOUT, deadline) == 0)
			continue;
		codec_format(err, errlen, "cannot send the request: %s", strerror(errno));
		goto out_fd;
	}

	while (got < sizeof reply && !memchr(reply, '\n', got)) {
		ssize_t r = recv(fd, reply + got, sizeof reply - got, 0);
		if (r > 0) {
			got += (size_t)r;
			continue;
		}
		if (r == 0)
			break;
		if ((errno == EAGAIN || errno == EINTR) &&
		    healthcheck_wait(fd, POLLIN, deadline) == 0)
			continue;
		codec_format(err, errlen, "no answer: %s", strerror(errno));
		goto out_fd;
	}
	int status = healthcheck_status(reply, got);
	if (status < 0)
		codec_format(err, errlen, "not an HTTP answer from 127.0.0.1:%u", port);
	else if (status != 200)
		codec_format(err, errlen, "GET /livez answered %d", status);
	else
		ret = 0;
out_fd:
	close(fd);
	return ret;
}
