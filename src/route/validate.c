/*
 * Validate: a case against the strict Baekjoon constraints, every fault listed (collect mode, up
 * to CODEC_FAULTS_MAX, then errors_omitted) sorted by position. A leading byte-order mark is one of
 * the faults: Baekjoon inputs have none.
 */
#include "route/status.h"
#include "route/handlers.h"

/* {"valid": true} or {"valid": false, "errors": [...], "errors_omitted"?}. */
static json_t *validity_json(struct codec_error *err)
{
	if (!codec_error_is_set(err))
		return json_pack("{sb}", "valid", 1);
	codec_error_sort(err);
	return problem_add_faults(json_pack("{sb}", "valid", 0), err, true);
}

/* route_case_fn: one case of a validate batch. */
static json_t *validate_case(const struct route_call *call, const json_t *c, const char *ptr,
			     bool trace, struct codec_error *each)
{
	const struct problem *p = route_entry_problem(call->entry);
	(void)trace;
	if (!route_collect(call, each))
		return NULL;
	const struct problem_limits pl = route_problem_limits(call);
	p->validate_json(c, ptr, &pl, each);
	return validity_json(each);
}

enum route_status route_validate(const struct route_call *call, struct route_response *resp,
				 struct codec_error *err)
{
	const struct problem *p = route_entry_problem(call->entry);
	struct codec_error all;

	if (!route_collect(call, &all))
		return route_oom(err);
	if (route_has_bom(call->req->body, call->req->body_len)) /* the router skipped it */
		codec_error_at_line(&all, CODEC_E_SYNTAX, 1, 1,
				    "the input starts with a UTF-8 byte-order mark (EF BB BF), "
				    "which Baekjoon inputs never have");
	struct codec_error parse;
	codec_error_init(&parse);
	json_t *root = call->body == ROUTE_BODY_TEXT
			   ? NULL
			   : route_parse_json(call->bytes, call->nbytes, &parse);
	if (call->body == ROUTE_BODY_TEXT) {
		p->validate_text(call->bytes, call->nbytes, &all);
	} else if (!root && (parse.status != CODEC_E_INVALID || !parse.nfaults)) {
		codec_error_copy(err, &parse);
		return err->status;
	} else if (!root) {
		/* JSON that reads but holds a number too large: a fault of the case */
		const struct codec_fault *f = &parse.faults[0];
		const struct codec_where w = {
		    .pointer = f->pointer, .line = f->line, .column = f->column};
		codec_error_add(&all, CODEC_E_INVALID, &w, "%s", f->detail);
	} else if (route_is_batch(root)) {
		enum route_status st = route_respond_batch(call, root, validate_case, resp, err);
		json_decref(root);
		return st;
	} else {
		const struct problem_limits pl = route_problem_limits(call);
		p->validate_json(root, "", &pl, &all);
		json_decref(root);
	}
	return route_respond_json(resp, validity_json(&all), err);
}
