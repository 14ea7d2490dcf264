/*
 * `dropjudge package` (see package.h): flags in, package_build_path() out.
 */
#include "main/commands.h"

#include <stdarg.h>
#include <string.h>
#include <strings.h>

#include "codec/decimal.h"
#include "dropjudge/gen.h"
#include "package/package.h"
#include "problem/problem.h"
#include "mem/alloc.h"

/* Reads plain decimal digits into *out, up to max; false otherwise. */
static bool package_number(const char *text, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	if (codec_decimal_read_str(text, &v) != CODEC_DECIMAL_OK || v > max)
		return false;
	*out = v;
	return true;
}

/* Whether s ends in suffix, ASCII case ignored (PK.ZIP is a zip), with
 * something before it. */
static bool package_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n > m && strcasecmp(s + n - m, suffix) == 0;
}

/*
 * Suffixes of archives dropjudge does not write: OUT ending in one is
 * refused rather than made a directory of that name. The archives taken
 * are .zip and .kpp (zip), .tar.gz and .tgz (tar.gz).
 */
static const char *const package_other_archives[] = {
    ".rar",  ".7z",	".tar", ".tar.bz2", ".tbz2", ".tbz",  ".tar.xz", ".txz",  ".tar.zst",
    ".tzst", ".tar.lz", ".gz",	".bz2",	    ".xz",   ".zst",  ".lz",	 ".lzma", ".Z",
    ".cab",  ".jar",	".arj", ".lzh",	    ".iso",  ".cpio", ".war",	 ".ear",  NULL};

__attribute__((format(printf, 1, 2))) static int package_usage(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "dropjudge: package: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "; try 'dropjudge package --help'\n");
	return 2;
}

int package_main(int argc, char *const argv[])
{
	struct package_request req = {
	    .problem = NULL,
	    .format = PACKAGE_FORMAT_COUNT,
	    .tests = PACKAGE_DEFAULT_TESTS,
	    .seed = 1,
	    .min_chains = PACKAGE_DEFAULT_MIN_CHAINS,
	};
	const char *out = NULL;
	for (int i = 0; i < argc; i++) {
		static const char *const flags[] = {"--problem", "--format", "--tests", "--seed",
						    "--min-chains"};
		const char *arg = argv[i], *value = NULL;
		bool missing = false;
		size_t f;
		for (f = 0; f < sizeof flags / sizeof flags[0]; f++) {
			if ((value = check_flag(argc, argv, &i, flags[f], &missing)))
				break;
			if (missing)
				return package_usage("%s needs a value", flags[f]);
		}
		uint64_t v = 0;
		switch (f) {
		case 0:
			req.problem = value;
			if (!problem_find(value))
				return package_usage("--problem must be monomino-domino or puyo, "
						     "not '%s'",
						     value);
			break;
		case 1:
			if (!package_format_from_name(value, &req.format))
				return package_usage("--format must be kattis, polygon, "
						     "domjudge or cms, not '%s'",
						     value);
			break;
		case 2:
			if (!package_number(value, PACKAGE_MAX_TESTS, &v) || v < 1)
				return package_usage("--tests must be 1..500, not '%s'", value);
			req.tests = (unsigned)v;
			break;
		case 3:
			if (!package_number(value, UINT64_MAX, &req.seed))
				return package_usage("--seed must be 0..18446744073709551615, not "
						     "'%s'",
						     value);
			break;
		case 4:
			if (!package_number(value, GEN_PUYO_MAX_CHAINS, &v) || v < 1)
				return package_usage("--min-chains must be 1..12, not '%s'", value);
			req.min_chains = (unsigned)v;
			break;
		default:
			if (arg[0] == '-' && arg[1] != '\0')
				return package_usage("unknown flag '%s'", arg);
			if (out)
				return package_usage("unexpected argument '%s' (one OUT only)",
						     arg);
			out = arg;
		}
	}
	if (!req.problem)
		return package_usage("missing --problem (monomino-domino or puyo)");
	if (req.format == PACKAGE_FORMAT_COUNT)
		return package_usage("missing --format (kattis, polygon, domjudge or cms)");
	if (!out)
		return package_usage("missing OUT (a .zip, a .tar.gz or a directory)");
	enum package_sink sink = PACKAGE_DIRECTORY;
	if (package_ends_with(out, ".zip") || package_ends_with(out, ".kpp"))
		sink = PACKAGE_ZIP;
	else if (package_ends_with(out, ".tar.gz") || package_ends_with(out, ".tgz"))
		sink = PACKAGE_TAR_GZ;
	for (const char *const *s = package_other_archives; sink == PACKAGE_DIRECTORY && *s; s++)
		if (package_ends_with(out, *s))
			return package_usage("OUT '%s' names a %s archive, which dropjudge does "
					     "not write: name it .zip or .kpp (zip), .tar.gz or "
					     ".tgz (tar.gz), or without an archive's suffix for a "
					     "directory",
					     out, *s);
	struct codec_error *err = dj_malloc(sizeof *err);
	if (!err) {
		fprintf(stderr, "dropjudge: package: out of memory\n");
		return 1;
	}
	codec_error_init(err);
	int status = 0;
	if (package_build_path(&req, sink, out, err) != CODEC_OK) {
		fprintf(stderr, "dropjudge: package: %s\n", err->detail);
		status = 1;
	}
	dj_free(err);
	return status;
}
