/*
 * The two systemd protocols a service speaks, without libsystemd: the
 * listening socket handed over by socket activation (sd_listen_fds(3):
 * LISTEN_PID, LISTEN_FDS, descriptors from 3) and readiness notification
 * (sd_notify(3): a datagram to the AF_UNIX socket named by NOTIFY_SOCKET).
 * Outside systemd both are no-ops: no variable, nothing done.
 */
#ifndef DROPJUDGE_MAIN_SYSTEMD_H
#define DROPJUDGE_MAIN_SYSTEMD_H

#include <stddef.h>

/* The first descriptor systemd passes (SD_LISTEN_FDS_START). */
#define SYSTEMD_LISTEN_FDS_START 3

/*
 * Takes the listening socket systemd passed this process, if any: when
 * LISTEN_PID is this process's id and LISTEN_FDS is 1, returns descriptor 3
 * (marked close-on-exec, and checked to be a listening stream socket).
 * LISTEN_PID, LISTEN_FDS and LISTEN_FDNAMES are removed from the
 * environment either way, so that no child inherits them. Returns -1 when
 * nothing was passed (the caller binds its own socket), -2 with the reason
 * in err (errlen bytes) when what was passed cannot be used: more than one
 * socket, or not a listening TCP socket. The caller owns the descriptor.
 */
int systemd_listen_fd(char *err, size_t errlen);

/*
 * Sends `state` ("READY=1", "STOPPING=1", newline-separated assignments) to
 * the service manager at NOTIFY_SOCKET (a path, or an abstract name
 * starting with '@'). Returns 1 when sent, 0 when NOTIFY_SOCKET is unset
 * (not run by systemd, nothing to do), -1 when it could not be sent; the
 * service goes on either way.
 */
int systemd_notify(const char *state);

#endif
