/*
 * The SIGHUP reload. Each reloadable setting adds its step here; today
 * there is none, and the signal is only acknowledged. See reload.h.
 */
#include "main/reload.h"

#include <stdio.h>

void reload_run(const struct config *cfg)
{
	(void)cfg;
	fprintf(stderr, "dropjudge: SIGHUP: reloaded (nothing to reload); still serving\n");
}
