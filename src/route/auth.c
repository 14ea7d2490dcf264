/*
 * The answer to missing, wrong or malformed credentials on a route that
 * needs a bearer token: the problem (401, or 400 for a malformed
 * Authorization header) and its RFC 6750 challenge. Whether the token is
 * good was decided by the HTTP layer (http/auth.c); nothing here sees one.
 */
#include "route/handlers.h"

#define AUTH_REALM "Bearer realm=\"dropjudge\""

/* The answer of each verdict but ROUTE_AUTH_OK. */
static const struct {
	enum route_status status;
	const char *detail;
	const char *challenge; /* WWW-Authenticate */
} auth_answers[] = {
    [ROUTE_AUTH_MISSING] = {ROUTE_E_UNAUTHORIZED,
			    "this resource needs an 'Authorization: Bearer <token>' header",
			    AUTH_REALM},
    [ROUTE_AUTH_WRONG] = {ROUTE_E_UNAUTHORIZED, "the bearer token is not valid",
			  AUTH_REALM ", error=\"invalid_token\""},
    [ROUTE_AUTH_MALFORMED] = {ROUTE_E_SYNTAX,
			      "the Authorization header must be one 'Bearer <token>' (RFC 6750: a "
			      "token of A-Z a-z 0-9 - . _ ~ + / then any '=')",
			      AUTH_REALM ", error=\"invalid_request\""},
};

enum route_status route_auth_check(enum route_auth auth, struct codec_error *err)
{
	if (auth == ROUTE_AUTH_OK)
		return ROUTE_OK;
	route_error_set(err, auth_answers[auth].status, "%s", auth_answers[auth].detail);
	return err->status;
}

void route_auth_challenge(enum route_auth auth, struct route_response *resp)
{
	if (auth != ROUTE_AUTH_OK)
		route_add_header(resp, "WWW-Authenticate", auth_answers[auth].challenge);
}
