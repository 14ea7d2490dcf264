/*
 * The answer to missing, wrong or malformed credentials on a route that
 * needs a bearer token: the problem (401, or 400 for a malformed
 * Authorization header) and its RFC 6750 challenge. Which routes need a
 * token is the `auth` column of the routing table (router.c); whether the
 * token is good was decided by the HTTP layer (http/auth.c). Nothing here
 * sees a token.
 */
#include "route/handlers.h"

#define AUTH_REALM "Bearer realm=\"dropjudge\""

enum route_status route_auth_check(enum route_auth auth, struct codec_error *err)
{
	switch (auth) {
	case ROUTE_AUTH_OK:
		return ROUTE_OK;
	case ROUTE_AUTH_MISSING:
		route_error_set(err, ROUTE_E_UNAUTHORIZED,
				"this resource needs an 'Authorization: Bearer <token>' header");
		break;
	case ROUTE_AUTH_WRONG:
		route_error_set(err, ROUTE_E_UNAUTHORIZED, "the bearer token is not valid");
		break;
	case ROUTE_AUTH_MALFORMED:
		codec_error_set(err, CODEC_E_SYNTAX,
				"the Authorization header must be one 'Bearer <token>' "
				"(RFC 6750: a token of A-Z a-z 0-9 - . _ ~ + / then any '=')");
		break;
	}
	return err->status;
}

void route_auth_challenge(enum route_auth auth, struct route_response *resp)
{
	switch (auth) {
	case ROUTE_AUTH_OK:
		break;
	case ROUTE_AUTH_MISSING:
		route_add_header(resp, "WWW-Authenticate", AUTH_REALM);
		break;
	case ROUTE_AUTH_WRONG:
		route_add_header(resp, "WWW-Authenticate", AUTH_REALM ", error=\"invalid_token\"");
		break;
	case ROUTE_AUTH_MALFORMED:
		route_add_header(resp, "WWW-Authenticate",
				 AUTH_REALM ", error=\"invalid_request\"");
		break;
	}
}
