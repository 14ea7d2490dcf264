/*
 * What SIGHUP does: re-read what can change without a restart (the
 * service keeps running and serving meanwhile). main calls reload_run()
 * from its signal thread, never from a handler, so it may allocate, log
 * and take locks.
 */
#ifndef DROPJUDGE_MAIN_RELOAD_H
#define DROPJUDGE_MAIN_RELOAD_H

#include "http/auth.h"
#include "main/config.h"

/*
 * Reloads after SIGHUP with the settings the server started with: the
 * bearer tokens of `auth` (NULL: no token file) are read again from their
 * file. A failure keeps the old state and logs why; it never stops the
 * service.
 */
void reload_run(const struct config *cfg, struct http_auth *auth);

#endif
