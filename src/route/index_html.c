/*
 * The HTML page of GET / for a browser: the same links as the JSON index,
 * nothing more. Kept apart so that a richer page can replace it alone.
 */
#include "route/handlers.h"

static const char index_html[] =
    "<!DOCTYPE html>\n"
    "<html lang=\"en\">\n"
    "<head><meta charset=\"utf-8\"><title>dropjudge</title></head>\n"
    "<body>\n"
    "<h1>dropjudge</h1>\n"
    "<p>Monomino-Domino (Baekjoon 20061) and Puyo Puyo (Baekjoon 11559) as an HTTP judging "
    "service.</p>\n"
    "<ul>\n"
    "<li><a href=\"/v1\">/v1</a>: version, problems and limits</li>\n"
    "<li><a href=\"/openapi.yaml\">/openapi.yaml</a>: the API description</li>\n"
    "<li><a href=\"/problems\">/problems</a>: what each error means</li>\n"
    "<li>POST /v1/monomino-domino, /v1/puyo: solve; .../judge, .../validate; GET "
    ".../generate</li>\n"
    "</ul>\n"
    "</body>\n"
    "</html>\n";

const char *route_index_html(size_t *len)
{
	*len = sizeof index_html - 1;
	return index_html;
}
