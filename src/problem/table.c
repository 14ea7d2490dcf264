/*
 * The problems, one row each: adding a problem is its file (md.c, puyo.c)
 * and a row here. And what every problem shares: the outcome's release,
 * the answer to an input text, a generated case's answer, out of memory,
 * the names of the kinds of package tests.
 */
#include <string.h>

#include "problem/problem.h"

static const struct problem *const problems[] = {
    &problem_md,
    &problem_puyo,
};

const struct problem *const *problem_all(size_t *count)
{
	*count = PROBLEM_COUNT(problems);
	return problems;
}

const struct problem *problem_find(const char *id)
{
	for (unsigned i = 0; id && i < PROBLEM_COUNT(problems); i++)
		if (strcmp(problems[i]->id, id) == 0)
			return problems[i];
	return NULL;
}

void problem_outcome_release(struct problem_outcome *out)
{
	json_decref(out->steps);
	out->steps = NULL;
}

int problem_answer(const struct problem *p, const char *text, size_t len, char *answer, size_t size,
		   struct codec_error *err)
{
	static const struct problem_limits unlimited = {.max_blocks = 0};
	struct problem_outcome out = {.steps = NULL};
	if (p->solve_text(text, len, &unlimited, false, &out, err) != CODEC_OK)
		return -1;
	return p->outcome_text(&out, answer, size);
}

json_t *problem_with_answer(const struct problem *p, json_t *obj, struct problem_outcome *out)
{
	char answer[64];
	int len = p->outcome_text(out, answer, sizeof answer);
	if (obj && (len < 0 || (size_t)len >= sizeof answer ||
		    json_object_set_new(obj, "answer", p->outcome_json(out)) != 0 ||
		    json_object_set_new(obj, "expected", json_stringn(answer, (size_t)len)) != 0)) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

enum codec_status problem_oom(struct codec_error *err)
{
	return codec_error_set(err, CODEC_E_INTERNAL, "out of memory");
}

const char *problem_kind_name(enum problem_kind kind)
{
	static const char *const names[] = {
	    [PROBLEM_SAMPLE] = "sample", [PROBLEM_EDGE] = "edge",     [PROBLEM_RANDOM] = "random",
	    [PROBLEM_LARGE] = "large",	 [PROBLEM_CHAINS] = "chains",
	};
	return (unsigned)kind < PROBLEM_COUNT(names) ? names[kind] : "test";
}
