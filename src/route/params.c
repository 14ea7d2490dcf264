/*
 * Query parameters, read against those an entry declares: each known one at most once, booleans as
 * true/false/1/0, numbers as plain decimals within their range (and any configured limit the
 * parameter names). Unreadable is 400, out of range 422; each message names the parameter and
 * echoes what was received.
 */
#include <stdio.h>
#include <string.h>

#include "codec/decimal.h"
#include "route/handlers.h"

#define SHOWN_MAX 40 /* bytes of a received value quoted in a message */

/* Index of `name` among the entry's parameters, or -1. */
static int param_index(const struct route_entry *e, const char *name)
{
	/* the first byte first: a batch asks for every case */
	for (int i = 0; i < ROUTE_ENTRY_PARAMS && e->params[i].name[0]; i++)
		if (e->params[i].name[0] == name[0] && strcmp(e->params[i].name, name) == 0)
			return i;
	return -1;
}

/* What an entry takes: "trace", "seed, n, with_answer" or "no query parameters". */
static void known_list(const struct route_entry *e, char *buf, size_t size)
{
	size_t len = 0;
	snprintf(buf, size, "no query parameters");
	for (int i = 0; i < ROUTE_ENTRY_PARAMS && e->params[i].name[0] && len < size; i++) {
		int n = snprintf(buf + len, size - len, "%s%s", i ? ", " : "", e->params[i].name);
		len += n > 0 ? (size_t)n : 0;
	}
}

/* Reads a boolean: 1 true, 0 false, -1 not a boolean. A bare key is true. */
static int read_bool(const char *v)
{
	if (strcmp(v, "true") == 0 || strcmp(v, "1") == 0 || v[0] == '\0')
		return 1;
	if (strcmp(v, "false") == 0 || strcmp(v, "0") == 0)
		return 0;
	return -1;
}

bool route_wants_json_only(const struct route_request *req, const struct route_entry *e,
			   const char **name)
{
	for (size_t i = 0; i < req->nparams && i < ROUTE_MAX_PARAMS; i++) {
		int k = param_index(e, req->params[i].key);
		if (k < 0 || !e->params[k].json_only || e->params[k].type != ROUTE_PARAM_BOOL)
			continue;
		if (read_bool(req->params[i].value ? req->params[i].value : "") == 1) {
			*name = e->params[k].name;
			return true;
		}
	}
	return false;
}

/* Reads one value of the parameter declared as p into *out. */
static enum route_status read_value(const struct route_param_spec *p, const char *v,
				    const struct route_limits *limits, uint64_t *out,
				    struct codec_error *err)
{
	if (p->type == ROUTE_PARAM_BOOL) {
		int b = read_bool(v);
		if (b < 0)
			return route_status_of(codec_error_at_param(
			    err, CODEC_E_SYNTAX, p->name, "must be true, false, 1 or 0, got '%.*s'",
			    SHOWN_MAX, v));
		*out = (uint64_t)b;
		return ROUTE_OK;
	}
	if (p->type == ROUTE_PARAM_TEXT)
		return ROUTE_OK;
	unsigned long long n = 0;
	enum codec_decimal rd = codec_decimal_read_str(v, &n);
	if (rd == CODEC_DECIMAL_NOT_A_NUMBER)
		return route_status_of(codec_error_at_param(
		    err, CODEC_E_SYNTAX, p->name, "must be an unsigned decimal integer, got '%.*s'",
		    SHOWN_MAX, v));
	bool limited = p->max_blocks && limits && limits->max_blocks < p->max;
	uint64_t max = limited ? limits->max_blocks : p->max;
	if (rd == CODEC_DECIMAL_OVERFLOW || n < p->min || n > max)
		return route_status_of(codec_error_at_param(
		    err, CODEC_E_INVALID, p->name, "must be %llu..%llu%s, got %.*s",
		    (unsigned long long)p->min, (unsigned long long)max,
		    limited ? " (the server's --max-blocks)" : "", SHOWN_MAX, v));
	*out = n;
	return ROUTE_OK;
}

enum route_status route_read_params(struct route_call *call, struct codec_error *err)
{
	const struct route_request *req = call->req;
	const struct route_entry *e = call->entry;
	bool given[ROUTE_ENTRY_PARAMS] = {false};

	for (int i = 0; i < ROUTE_ENTRY_PARAMS && e->params[i].name[0]; i++)
		call->args[i] = e->params[i].dflt;
	for (size_t i = 0; i < req->nparams && i < ROUTE_MAX_PARAMS; i++) {
		const char *key = req->params[i].key;
		const char *value = req->params[i].value ? req->params[i].value : "";
		int k = param_index(e, key);
		if (k < 0) {
			char known[96];
			known_list(e, known, sizeof known);
			return route_status_of(codec_error_at_param(
			    err, CODEC_E_SYNTAX, key, "unknown; %s takes %s", e->path, known));
		}
		if (given[k])
			return route_status_of(
			    codec_error_at_param(err, CODEC_E_SYNTAX, key, "given twice"));
		given[k] = true;
		enum route_status st =
		    read_value(&e->params[k], value, req->limits, &call->args[k], err);
		if (st != ROUTE_OK)
			return st;
	}
	return ROUTE_OK;
}

uint64_t route_arg(const struct route_call *call, const char *name)
{
	int k = param_index(call->entry, name);
	return k < 0 ? 0 : call->args[k];
}

const char *route_param(const struct route_request *req, const char *key)
{
	for (size_t i = 0; i < req->nparams && i < ROUTE_MAX_PARAMS; i++)
		if (strcmp(req->params[i].key, key) == 0)
			return req->params[i].value ? req->params[i].value : "";
	return NULL;
}
