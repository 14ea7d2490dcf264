/*
 * `dropjudge package` (see package.h): flags in, package_build_path() out.
 */
#include "main/commands.h"

#include <string.h>
#include <strings.h>

#include "codec/decimal.h"
#include "dropjudge/gen.h"
#include "package/package.h"
#include "problem/problem.h"

/* Whether s ends in suffix after something, ASCII case ignored (PK.ZIP is a zip). */
static bool package_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n > m && strcasecmp(s + n - m, suffix) == 0;
}

/* Suffixes of archives dropjudge does not write: OUT ending in one is refused, not a directory. */
static const char *const package_other_archives[] = {
    ".rar",  ".7z",	".tar", ".tar.bz2", ".tbz2", ".tbz",  ".tar.xz", ".txz",  ".tar.zst",
    ".tzst", ".tar.lz", ".gz",	".bz2",	    ".xz",   ".zst",  ".lz",	 ".lzma", ".Z",
    ".cab",  ".jar",	".arj", ".lzh",	    ".iso",  ".cpio", ".war",	 ".ear",  NULL};

int package_main(int argc, char *const argv[])
{
	struct package_request req = {
	    .format = PACKAGE_FORMAT_COUNT,
	    .tests = PACKAGE_DEFAULT_TESTS,
	    .seed = 1,
	    .min_chains = PACKAGE_DEFAULT_MIN_CHAINS,
	};
	const char *out = NULL;
	/* The flags, what a value must be, and a number's range (--tests on). */
	enum { PROBLEM, FORMAT, TESTS, SEED, MIN_CHAINS };
	static const struct {
		const char *flag, *expected;
		unsigned long long min, max;
	} flags[] = {
	    [PROBLEM] = {"--problem", "monomino-domino or puyo", 0, 0},
	    [FORMAT] = {"--format", "kattis, polygon, domjudge or cms", 0, 0},
	    [TESTS] = {"--tests", "1..500", 1, PACKAGE_MAX_TESTS},
	    [SEED] = {"--seed", "0..18446744073709551615", 0, UINT64_MAX},
	    [MIN_CHAINS] = {"--min-chains", "1..12", 1, GEN_PUYO_MAX_CHAINS},
	};
	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i], *value = NULL;
		bool missing = false;
		size_t f;
		for (f = 0; f < sizeof flags / sizeof flags[0]; f++) {
			if ((value = check_flag(argc, argv, &i, flags[f].flag, &missing)))
				break;
			if (missing)
				return command_usage("package", true, "%s needs a value",
						     flags[f].flag);
		}
		if (!value) {
			if (arg[0] == '-' && arg[1] != '\0')
				return command_usage("package", true, "unknown flag '%s'", arg);
			if (out)
				return command_usage("package", true,
						     "unexpected argument '%s' (one OUT only)",
						     arg);
			out = arg;
			continue;
		}
		unsigned long long v = 0;
		bool ok = f == PROBLEM	? problem_find(value) != NULL
			  : f == FORMAT ? package_format_from_name(value, &req.format)
					: codec_decimal_read_str(value, &v) == CODEC_DECIMAL_OK &&
					      v >= flags[f].min && v <= flags[f].max;
		if (!ok)
			return command_usage("package", true, "%s must be %s, not '%s'",
					     flags[f].flag, flags[f].expected, value);
		if (f == PROBLEM)
			req.problem = value;
		else if (f == TESTS)
			req.tests = (unsigned)v;
		else if (f == SEED)
			req.seed = v;
		else if (f == MIN_CHAINS)
			req.min_chains = (unsigned)v;
	}
	if (!req.problem || req.format == PACKAGE_FORMAT_COUNT) {
		size_t f = req.problem ? FORMAT : PROBLEM;
		return command_usage("package", true, "missing %s (%s)", flags[f].flag,
				     flags[f].expected);
	}
	if (!out)
		return command_usage("package", true,
				     "missing OUT (a .zip, a .tar.gz or a directory)");
	enum package_sink sink = PACKAGE_DIRECTORY;
	if (package_ends_with(out, ".zip") || package_ends_with(out, ".kpp"))
		sink = PACKAGE_ZIP;
	else if (package_ends_with(out, ".tar.gz") || package_ends_with(out, ".tgz"))
		sink = PACKAGE_TAR_GZ;
	for (const char *const *s = package_other_archives; sink == PACKAGE_DIRECTORY && *s; s++)
		if (package_ends_with(out, *s))
			return command_usage("package", true,
					     "OUT '%s' names a %s archive, which dropjudge does "
					     "not write: name it .zip or .kpp (zip), .tar.gz or "
					     ".tgz (tar.gz), or without an archive's suffix for a "
					     "directory",
					     out, *s);
	struct codec_error err;
	codec_error_init(&err);
	if (package_build_path(&req, sink, out, &err) != CODEC_OK) {
		fprintf(stderr, "dropjudge: package: %s\n", err.detail);
		return 1;
	}
	return 0;
}
