/* Whole-file reads (file.h); every buffer that held part of a file is
 * wiped before it is freed: the files hold keys and tokens. */
#include "http/file.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "codec/error.h"
#include "mem/alloc.h"

char *http_read_file(const char *path, const char *what, size_t max, size_t *len, char *err,
		     size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0;
	size_t n = 0;

	if (!f) {
		codec_format(err, errlen, "cannot open the %s %s: %s", what, path, strerror(errno));
		return NULL;
	}
	for (;;) {
		if (cap - n < 4096 + 1) {
			size_t want = cap ? cap * 2 : 8192;
			char *p = dj_malloc(want);
			if (!p) {
				codec_format(err, errlen, "out of memory reading the %s %s", what,
					     path);
				goto out_buf;
			}
			if (buf)
				memcpy(p, buf, n);
			dj_free_secret(buf, cap);
			buf = p;
			cap = want;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (n > max) {
			codec_format(err, errlen, "the %s %s is larger than %zu bytes", what, path,
				     max);
			goto out_buf;
		}
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		codec_format(err, errlen, "cannot read the %s %s: %s", what, path, strerror(errno));
		goto out_buf;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
out_buf:
	dj_free_secret(buf, cap);
	fclose(f);
	return NULL;
}
