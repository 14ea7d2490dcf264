/*
 * The SIGHUP reload. Each reloadable setting adds its step here: today the
 * token file (http/auth.h), whose failure keeps the tokens in force. See
 * reload.h.
 */
#include "main/reload.h"

#include <stdio.h>

void reload_run(const struct config *cfg, struct http_auth *auth)
{
	char err[CONFIG_ERROR_MAX + 256];
	(void)cfg;
	if (!auth) {
		fprintf(stderr, "dropjudge: SIGHUP: reloaded (no --auth-token-file, nothing to "
				"reload); still serving\n");
		return;
	}
	if (http_auth_reload(auth, err, sizeof err) != 0) {
		fprintf(stderr,
			"dropjudge: SIGHUP: %s; keeping the %zu tokens in force; still serving\n",
			err, http_auth_count(auth));
		return;
	}
	fprintf(stderr, "dropjudge: SIGHUP: token file reloaded, %zu tokens; still serving\n",
		http_auth_count(auth));
}
