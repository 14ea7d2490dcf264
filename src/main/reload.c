/*
 * The SIGHUP reload. Each reloadable setting adds its step here: today the
 * token file (http/auth.h), whose failure keeps the tokens in force. See
 * reload.h.
 */
#include "main/reload.h"

#include <stdio.h>

#include "http/ratelog.h"

void reload_run(const struct config *cfg, struct http_auth *auth)
{
	char err[CONFIG_ERROR_MAX + 256];
	(void)cfg;
	if (!auth) {
		http_stderr_line(
		    "info", "reload",
		    "SIGHUP: reloaded (no --auth-token-file, nothing to reload); still "
		    "serving");
		return;
	}
	if (http_auth_reload(auth, err, sizeof err) != 0) {
		http_stderr_line("warn", "reload",
				 "SIGHUP: %s; keeping the %zu tokens in force; still serving", err,
				 http_auth_count(auth));
		return;
	}
	http_stderr_line("info", "reload", "SIGHUP: token file reloaded, %zu tokens; still serving",
			 http_auth_count(auth));
}
