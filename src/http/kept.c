/*
 * The kept responses of kept.h: a few per thread, found by body, content
 * type and headers, freed when the thread ends.
 */
#include "http/kept.h"

#include <pthread.h>
#include <string.h>

#include "http/mhd_dl.h"
#include "http/request_id.h"
#include "mem/alloc.h"

/* Kept responses per thread: the constant answers (liveness, readiness,
 * the OpenAPI document, the viewer's files) that a thread sends most. */
#define KEPT_SLOTS 4

/* One kept response and what it answers. */
struct kept_slot {
	struct MHD_Response *r; /* NULL while the slot is free */
	const char *body;	/* static */
	size_t body_len;
	const char *content_type; /* static string */
	size_t nheaders;
	struct route_header headers[ROUTE_MAX_HEADERS];
	char request_id[HTTP_REQUEST_ID_MAX + 1]; /* the X-Request-Id it carries */
};

struct kept_set {
	struct kept_slot slot[KEPT_SLOTS];
	unsigned next; /* the slot to replace when all are taken */
};

static pthread_key_t kept_key;
static pthread_once_t kept_once = PTHREAD_ONCE_INIT;
static bool kept_key_ok;

static void kept_slot_clear(struct kept_slot *s)
{
	if (s->r)
		MHD_destroy_response(s->r); /* connections still sending it hold their own */
	s->r = NULL;
}

/* The thread's set, at its end. */
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
	return resp->body_static && resp->body && resp->body_len > 0 && !resp->stream.read &&
	       resp->content_type;
}

static bool kept_matches(const struct kept_slot *s, const struct route_response *resp)
{
	if (!s->r || s->body != resp->body || s->body_len != resp->body_len ||
	    s->nheaders != resp->nheaders || strcmp(s->content_type, resp->content_type) != 0)
		return false;
	for (size_t i = 0; i < resp->nheaders; i++)
		if (strcmp(s->headers[i].name, resp->headers[i].name) != 0 ||
		    strcmp(s->headers[i].value, resp->headers[i].value) != 0)
			return false;
	return true;
}

/* A new response for `resp` in slot s; false when out of memory. */
static bool kept_make(struct kept_slot *s, const struct route_response *resp,
		      const char *request_id)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(resp->body_len, (void *)resp->body,
								 MHD_RESPMEM_PERSISTENT);
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
	s->r = r;
	s->body = resp->body;
	s->body_len = resp->body_len;
	s->content_type = resp->content_type;
	s->nheaders = resp->nheaders;
	memcpy(s->headers, resp->headers, resp->nheaders * sizeof resp->headers[0]);
	strcpy(s->request_id, request_id);
	return true;
out_response:
	MHD_destroy_response(r);
	return false;
}

/* Gives slot s's response the X-Request-Id `request_id`; false when out of memory. */
static bool kept_set_id(struct kept_slot *s, const char *request_id)
{
	if (strcmp(s->request_id, request_id) == 0)
		return true;
	if (MHD_del_response_header(s->r, "X-Request-Id", s->request_id) != MHD_YES ||
	    MHD_add_response_header(s->r, "X-Request-Id", request_id) != MHD_YES)
		return false;
	strcpy(s->request_id, request_id);
	return true;
}

struct MHD_Response *http_kept_response(const struct route_response *resp, const char *request_id)
{
	struct kept_set *set = kept_set_of_thread();
	if (!set || strlen(request_id) > HTTP_REQUEST_ID_MAX)
		return NULL;
	for (unsigned i = 0; i < KEPT_SLOTS; i++) {
		struct kept_slot *s = &set->slot[i];
		if (!kept_matches(s, resp))
			continue;
		if (kept_set_id(s, request_id))
			return s->r;
		kept_slot_clear(s); /* left without its id: never sent again */
		return NULL;
	}
	struct kept_slot *s = &set->slot[set->next];
	set->next = (set->next + 1) % KEPT_SLOTS;
	kept_slot_clear(s);
	return kept_make(s, resp, request_id) ? s->r : NULL;
}
