/* A cursor over a JSON body for the fast readers of the canonical cases (md_json.c, puyo_codec.c),
 * private to the codec: each step takes what comes next or says false (then jansson reads). */
#ifndef DROPJUDGE_CODEC_JSON_SCAN_H
#define DROPJUDGE_CODEC_JSON_SCAN_H

#include <stdbool.h>
#include <string.h>

struct codec_scan {
	const unsigned char *p;
	const unsigned char *end;
};

static inline bool codec_scan_is_ws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static inline void codec_scan_ws(struct codec_scan *s)
{
	/* one space, as most writers put after a comma, costs one test */
	if (s->p < s->end && *s->p == ' ')
		s->p++;
	while (s->p < s->end && codec_scan_is_ws(*s->p))
		s->p++;
}

/* Skips whitespace, then takes byte c; false when the next byte is another. */
static inline bool codec_scan_take(struct codec_scan *s, unsigned char c)
{
	codec_scan_ws(s);
	if (s->p == s->end || *s->p != c)
		return false;
	s->p++;
	return true;
}

/* Takes the head of a case, {"key":[ (key quoted). */
static inline bool codec_scan_head(struct codec_scan *s, const char *key)
{
	size_t n = strlen(key);
	if (!codec_scan_take(s, '{'))
		return false;
	codec_scan_ws(s);
	if ((size_t)(s->end - s->p) < n || memcmp(s->p, key, n) != 0)
		return false;
	s->p += n;
	return codec_scan_take(s, ':') && codec_scan_take(s, '[');
}

/* After an element: true past its ",", false past the list's "]" (*end
 * set) or at anything else (*end clear). */
static inline bool codec_scan_next(struct codec_scan *s, bool *end)
{
	*end = false;
	if (s->p < s->end && *s->p == ',') {
		s->p++;
		return true;
	}
	if (codec_scan_take(s, ','))
		return true;
	*end = codec_scan_take(s, ']');
	return false;
}

/* Takes the case's tail, "}" and whitespace to the end of the body. */
static inline bool codec_scan_tail(struct codec_scan *s)
{
	if (!codec_scan_take(s, '}'))
		return false;
	codec_scan_ws(s);
	return s->p == s->end;
}

#endif
