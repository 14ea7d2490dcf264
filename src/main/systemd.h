/*
 * Socket activation (sd_listen_fds(3)) and readiness notification
 * (sd_notify(3)) without libsystemd; outside systemd both do nothing.
 */
#ifndef DROPJUDGE_MAIN_SYSTEMD_H
#define DROPJUDGE_MAIN_SYSTEMD_H

#include <stddef.h>

/* The first descriptor systemd passes (SD_LISTEN_FDS_START). */
#define SYSTEMD_LISTEN_FDS_START 3

/* Takes the listening socket passed to this process (LISTEN_PID ours,
 * LISTEN_FDS 1): descriptor 3, made close-on-exec, the caller's; the variables
 * are removed either way. -1 when none, -2 with err set when not one TCP one. */
int systemd_listen_fd(char *err, size_t errlen);

/* Sends `state` ("READY=1", "STOPPING=1") to NOTIFY_SOCKET (a path, or an
 * abstract name starting with '@'). Returns 1 when sent, 0 when the
 * variable is unset, -1 when it could not be sent. */
int systemd_notify(const char *state);

#endif
