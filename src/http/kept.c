/*
 * The kept responses of kept.h: a few per thread, found by body (or body
 * length), content type and headers, freed when the thread ends.
 */
#include "http/kept.h"

#include <pthread.h>
#include <string.h>

#include "http/mhd_dl.h"
#include "http/request_id.h"
#include "mem/alloc.h"

/* Kept responses per thread: the constant answers (liveness, readiness,
 * the OpenAPI document, the viewer's files) and the small answers of the
 * shapes a thread sends most. */
#define KEPT_SLOTS 8

/* One kept response and what it answers. */
struct kept_slot {
	struct MHD_Response *r; /* NULL while the slot is free */
	bool is_static;		/* body is resp's static data; else the slot's copy */
	bool held;		/* a request is between queueing it and its end */
	const char *body;	/* static data, or copy */
	char *copy;		/* the slot's copy of the body, freed with r; or NULL */
	size_t body_len;
	const char *content_type; /* static string */
	size_t nheaders;
	struct route_header headers[ROUTE_MAX_HEADERS];
	char request_id[HTTP_REQUEST_ID_MAX + 1]; /* the X-Request-Id it carries */
	size_t request_id_len;			  /* strlen(request_id) */
	char *id_value; /* libmicrohttpd's own copy of that header's value */
};

struct kept_set {
	struct kept_slot slot[KEPT_SLOTS];
	unsigned next; /* where the search for a slot to replace starts */
};

static pthread_key_t kept_key;
static pthread_once_t kept_once = PTHREAD_ONCE_INIT;
static bool kept_key_ok;

/* Empties slot s, which no request holds. Connections still sending its
 * response hold their own reference, and its body copy goes with it. */
static void kept_slot_clear(struct kept_slot *s)
{
	if (s->r)
		MHD_destroy_response(s->r);
	s->r = NULL;
	s->held = false;
}

/* The thread's set, at its end (after libmicrohttpd ended every request
 * of the thread: nothing is held). */
static void kept_set_free(void *p)
{
	struct kept_set *set = p;
	for (unsigned i = 0; i < KEPT_SLOTS; i++)
		kept_slot_clear(&set->slot[i]);
	dj_free(set);
}

static void kept_key_create(void)
{
	kept_key_ok = pthread_key_create(&kept_key, kept_set_free) == 0;
}

static struct kept_set *kept_set_of_thread(void)
{
	pthread_once(&kept_once, kept_key_create);
	if (!kept_key_ok)
		return NULL;
	struct kept_set *set = pthread_getspecific(kept_key);
	if (set)
		return set;
	set = dj_calloc(1, sizeof *set);
	if (set && pthread_setspecific(kept_key, set) != 0) {
		dj_free(set);
		set = NULL;
	}
	return set;
}

bool http_kept_fits(const struct route_response *resp)
{
	return resp->body && resp->body_len > 0 && !resp->stream.read && resp->content_type &&
	       (resp->body_static || resp->body_len <= HTTP_KEPT_BODY_MAX);
}

/* Whether two strings are the same: most are the same static string. */
static bool kept_same(const char *a, const char *b)
{
	return a == b || strcmp(a, b) == 0;
}

/* Whether slot s can answer resp: the same static body, or a copy of the
 * same length that no request holds; the same content type and headers. */
static bool kept_matches(const struct kept_slot *s, const struct route_response *resp)
{
	if (!s->r || s->body_len != resp->body_len || s->is_static != resp->body_static ||
	    (s->is_static ? s->body != resp->body : s->held) || s->nheaders != resp->nheaders ||
	    !kept_same(s->content_type, resp->content_type))
		return false;
	for (size_t i = 0; i < resp->nheaders; i++)
		if (!kept_same(s->headers[i].name, resp->headers[i].name) ||
		    !kept_same(s->headers[i].value, resp->headers[i].value))
			return false;
	return true;
}

/* A new response for `resp` in slot s; false when out of memory. */
static bool kept_make(struct kept_slot *s, const struct route_response *resp,
		      const char *request_id)
{
	struct MHD_Response *r;
	char *copy = NULL;
	if (resp->body_static) {
		r = MHD_create_response_from_buffer(resp->body_len, (void *)resp->body,
						    MHD_RESPMEM_PERSISTENT);
	} else {
		copy = dj_malloc(resp->body_len);
		if (!copy)
			return false;
		memcpy(copy, resp->body, resp->body_len);
		r = MHD_create_response_from_buffer_with_free_callback(resp->body_len, copy,
								       dj_free);
		if (!r)
			dj_free(copy);
	}
	if (!r)
		return false;
	if (MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, resp->content_type) != MHD_YES)
		goto out_response;
	for (size_t i = 0; i < resp->nheaders; i++)
		if (MHD_add_response_header(r, resp->headers[i].name, resp->headers[i].value) !=
		    MHD_YES)
			goto out_response;
	if (MHD_add_response_header(r, "X-Request-Id", request_id) != MHD_YES)
		goto out_response;
	s->id_value = (char *)MHD_get_response_header(r, "X-Request-Id");
	if (!s->id_value)
		goto out_response;
	s->r = r;
	s->is_static = resp->body_static;
	s->held = false;
	s->copy = copy;
	s->body = resp->body_static ? resp->body : copy;
	s->body_len = resp->body_len;
	s->content_type = resp->content_type;
	s->nheaders = resp->nheaders;
	memcpy(s->headers, resp->headers, resp->nheaders * sizeof resp->headers[0]);
	s->request_id_len = strlen(request_id);
	memcpy(s->request_id, request_id, s->request_id_len + 1);
	return true;
out_response:
	MHD_destroy_response(r); /* frees the copy */
	return false;
}

/*
 * Gives slot s's response the X-Request-Id `request_id` (n bytes); false
 * when out of memory. An id of the length of the one it carries (every
 * generated id has the same) is written over libmicrohttpd's own copy of
 * the value: libmicrohttpd keeps a header's value as a string of a length
 * it records when the header is added, and copies exactly that many bytes
 * of it into each answer, so the bytes may change as long as the length
 * does not. Any other length replaces the header.
 */
static bool kept_set_id(struct kept_slot *s, const char *request_id, size_t n)
{
	if (n == s->request_id_len) {
		memcpy(s->id_value, request_id, n);
		memcpy(s->request_id, request_id, n);
		return true;
	}
	if (MHD_del_response_header(s->r, "X-Request-Id", s->request_id) != MHD_YES ||
	    MHD_add_response_header(s->r, "X-Request-Id", request_id) != MHD_YES)
		return false;
	s->id_value = (char *)MHD_get_response_header(s->r, "X-Request-Id");
	if (!s->id_value)
		return false;
	s->request_id_len = n;
	memcpy(s->request_id, request_id, n + 1);
	return true;
}

/* Slot s answers the request now: its body replaced, held when a copy. */
static struct MHD_Response *kept_use(struct kept_slot *s, const struct route_response *resp,
				     struct http_kept_hold *hold)
{
	if (!s->is_static) {
		/* No request holds it: libmicrohttpd reads the body of none. */
		memcpy(s->copy, resp->body, resp->body_len);
		s->held = true;
		hold->slot = s;
	}
	return s->r;
}

struct MHD_Response *http_kept_response(const struct route_response *resp, const char *request_id,
					struct http_kept_hold *hold)
{
	struct kept_set *set = kept_set_of_thread();
	size_t id_len = strlen(request_id);
	if (!set || hold->slot || id_len > HTTP_REQUEST_ID_MAX)
		return NULL;
	for (unsigned i = 0; i < KEPT_SLOTS; i++) {
		struct kept_slot *s = &set->slot[i];
		if (!kept_matches(s, resp))
			continue;
		if (kept_set_id(s, request_id, id_len))
			return kept_use(s, resp, hold);
		kept_slot_clear(s); /* left without its id: never sent again */
		return NULL;
	}
	/* A new one, in place of the next one that no request holds. */
	for (unsigned k = 0; k < KEPT_SLOTS; k++) {
		struct kept_slot *s = &set->slot[(set->next + k) % KEPT_SLOTS];
		if (s->held)
			continue;
		set->next = (set->next + k + 1) % KEPT_SLOTS;
		kept_slot_clear(s);
		return kept_make(s, resp, request_id) ? kept_use(s, resp, hold) : NULL;
	}
	return NULL;
}

void http_kept_release(struct http_kept_hold *hold)
{
	struct kept_slot *s = hold->slot;
	if (s)
		s->held = false;
	hold->slot = NULL;
}
