/*
 * The fast search's answer written in the reference's canonical text, so
 * that the unit test and the benchmark compare the two searches byte for
 * byte. Included after puyo_search_ref.c (ref_put()) and
 * dropjudge/puyo_search.h.
 */
#ifndef DROPJUDGE_TESTS_PUYO_SEARCH_TEXT_H
#define DROPJUDGE_TESTS_PUYO_SEARCH_TEXT_H

static void put_trigger(char *out, size_t cap, size_t *len, bool has, const struct puyo_trigger *t)
{
	if (!has)
		ref_put(out, cap, len, "none");
	else
		ref_put(out, cap, len, "%u %c %u %u %llu", t->column, puyo_cell_to_char(t->color),
			t->puyos, t->chains, (unsigned long long)t->score);
}

/* The fast answer in the reference's canonical text (ref_answer_text()'s). */
static void answer_text(const struct puyo_search_request *req, const struct puyo_search_answer *ans,
			char *out, size_t cap)
{
	size_t len = 0;
	out[0] = '\0';
	if (ans->fires_now.chains)
		ref_put(out, cap, &len, "fires_now %u %llu\n", ans->fires_now.chains,
			(unsigned long long)ans->fires_now.score);
	else
		ref_put(out, cap, &len, "fires_now none\n");
	for (unsigned i = 0; i < ans->triggers; i++) {
		ref_put(out, cap, &len, "trigger ");
		put_trigger(out, cap, &len, true, &ans->trigger[i]);
		ref_put(out, cap, &len, "\n");
	}
	ref_put(out, cap, &len, "examined %u\n", (unsigned)ans->examined);
	for (unsigned i = 0; i < ans->sequences; i++) {
		const struct puyo_sequence *s = &ans->sequence[i];
		ref_put(out, cap, &len, "seq");
		for (unsigned p = 0; p < req->pairs; p++)
			ref_put(out, cap, &len, " %u,%u", s->placement[p].column,
				s->placement[p].rotation);
		ref_put(out, cap, &len, " |");
		for (unsigned p = 0; p < req->pairs; p++)
			ref_put(out, cap, &len, " %u,%llu", s->fired[p].chains,
				(unsigned long long)s->fired[p].score);
		ref_put(out, cap, &len, " | ");
		put_trigger(out, cap, &len, s->has_trigger, &s->trigger);
		ref_put(out, cap, &len, "\n");
	}
}

#endif
