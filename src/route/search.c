/*
 * POST /v1/puyo/search: the Puyo search (dropjudge/puyo_search.h) of one
 * request in JSON ({"field", "add", "pairs", "limit", "colors"}), answered
 * in JSON. A stream of requests (NDJSON) is answered line by line by the
 * plumbing of every POST route (ndjson.c). The table marks the route heavy:
 * a three-pair search is some milliseconds, run on the worker pool.
 */
#include "codec/puyo_search_codec.h"
#include "mem/alloc.h"
#include "route/handlers.h"

enum codec_status route_puyo_search(const struct route_call *call, struct route_response *resp,
				    struct codec_error *err)
{
	struct puyo_search_request req;
	struct route_tally *tally = call->req->tally;
	json_t *root = route_parse_json(call->req->body, call->req->body_len, err);
	if (!root)
		return err->status;
	enum codec_status st = puyo_search_json_read(root, &req, err);
	json_decref(root);
	if (tally) {
		tally->problem = "puyo";
		if (st == CODEC_OK)
			tally->solved++;
		else
			tally->rejected++;
	}
	if (st != CODEC_OK)
		return st;
	/* About 12 KB: on the heap, not on a worker's stack. */
	struct puyo_search_answer *ans = dj_malloc(sizeof *ans);
	if (!ans || puyo_search(&req, ans) != 0) {
		dj_free(ans);
		codec_error_set(err, CODEC_E_INTERNAL, "out of memory");
		return CODEC_E_INTERNAL;
	}
	st = route_respond_json(resp, puyo_search_json_answer(&req, ans), err);
	dj_free(ans);
	return st;
}
