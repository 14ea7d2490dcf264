# dropjudge: build, run and test.
#
#   make            build build/dropjudge (make PGO=1: with a profile from a training run, below)
#   make run        install missing build dependencies, build, serve on 0.0.0.0:8080
#   make test       install missing dependencies, build, run every test
#   make bench      goals 1-5 of the performance issue as ratios against their baselines
#   make bench-http requests/s of dropjudge against a bare libmicrohttpd server (wrk)
#   make judges     the judge-protocol and package suite (tests/judges)
#   make test-long  the unit tests with the full differential runs (10^6 random cases)
#   make test-sanitize  unit, HTTP and judge tests on an AddressSanitizer + UBSan build, SIMD=0
#   make test-hardening attack tests: slow clients, framing, memory, head-of-line, signals
#   make fuzz       libFuzzer targets (tests/fuzz), FUZZ_SECONDS each; not part of test
#   make docs-images  docs/images: the public examples drawn, the viewer's screenshots
#   make test-debian13  make test of this commit in a fresh Debian 13 root (debootstrap, root)
#   make test-container  build the Dockerfile, run the image locked down, check it (root, podman)
#   make docs       build/docs: the man page and the bash and zsh completions
#   make install    the program, man page, completions, systemd units and
#                   /etc/default file under PREFIX (/usr/local); DESTDIR,
#                   BINDIR, MANDIR, SYSCONFDIR ... as the GNU standards say
#   make uninstall  removes what make install installed
#   make deb        build/deb/dropjudge_VERSION_ARCH.deb (debhelper), lintian
#   make test-monitoring  promtool check and test of deploy/monitoring
#   make test-systemd  the .deb installed in Debian 13 with systemd as PID 1
#                   (podman), served through socket activation (root)
#   make test-scale three replicas behind nginx (deploy/nginx.conf), two stopped under load
#   make SANITIZER=address BUILD=build-asan all units   any sanitizer build by hand
#
# Layers, each compiled with only the include paths it may use:
#   src/core   -Iinclude                  (pure simulators, checker, generators)
#   src/mem    -Isrc                      (the allocation seam: dj_malloc and kin)
#   src/render -Iinclude                  (pure SVG pictures of the core's structs)
#   src/codec  + jansson                  (JSON and Baekjoon text <-> core, errors)
#   src/problem + jansson                 (one struct per problem: read, solve, encode,
#                                          trace, generate, validate; its package's texts)
#   src/package + jansson, libarchive,    (problem packages for judges: tests, layouts, archives,
#                 libharu                  the CMS statement's PDF)
#   src/route  + jansson                  (routing table, handlers: request -> response;
#                                          the package route builds through src/package)
#   src/http   + libmicrohttpd, GnuTLS    (sockets, lifecycle, limits, tokens, TLS)
#   src/main   everything                 (flags, environment, signals, subcommands)
#
# The build is hardened (HARDEN=1, the default): stack protector, fortified
# libc calls, a position-independent executable with read-only relocations
# bound at start, and control-flow protection where the compiler has it;
# `make hardening-check` verifies build/dropjudge. HARDEN=0 turns it off.

CC ?= cc
PKG_CONFIG ?= pkg-config
BUILD ?= build
SANITIZER ?=
OPT ?= -O3

WARN := -Wall -Wextra -Wshadow -Wconversion -Wstrict-prototypes \
	-Wmissing-prototypes -Wformat=2 -Wvla -Werror
CFLAGS ?= $(OPT) -g
ALL_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(WARN) $(CFLAGS) -MMD -MP
LDFLAGS ?=
ifneq ($(SANITIZER),)
ALL_CFLAGS += -fsanitize=$(SANITIZER) -fno-sanitize-recover=all -fno-omit-frame-pointer
LDFLAGS += -fsanitize=$(SANITIZER)
endif
cc_has = $(shell $(CC) $(1) -Werror -E -x c /dev/null >/dev/null 2>&1 && echo $(1))
# SIMD=0: the hand-vectorised kernels (the Monomino-Domino AVX2 lanes,
# src/core/md_avx2.c; Puyo's BMI2 gravity, src/core/puyo_bmi2.c; the
# AVX-512 reader of --lines lines, src/codec/puyo_lines_avx512.c) are left
# out and the portable code runs whatever the processor has. CI runs the
# suite so once (test-sanitize).
SIMD ?= 1
ifeq ($(SIMD),0)
ALL_CFLAGS += -DDROPJUDGE_SIMD=0
endif
# NDJSON_DIRECT=0: every line of a stream of cases goes through the whole
# request path, none through the problem's fast reader (route/ndjson.c).
NDJSON_DIRECT ?= 1
ifeq ($(NDJSON_DIRECT),0)
ALL_CFLAGS += -DNDJSON_DIRECT=0
endif
HARDEN ?= 1
ifeq ($(HARDEN),1)
HARDEN_CFLAGS := -fstack-protector-strong -fPIE $(call cc_has,-fstack-clash-protection) \
	$(call cc_has,-fcf-protection)
ALL_CFLAGS += $(HARDEN_CFLAGS)
# _FORTIFY_SOURCE needs the optimiser, and is left to ASan in sanitizer builds.
ifeq ($(SANITIZER)$(filter -O0,$(OPT)),)
ALL_CFLAGS += -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=2
endif
LDFLAGS += -pie -Wl,-z,relro,-z,now
endif

# Link-time optimisation of the program (LTO=1, the default where the
# compiler has it; never in a sanitizer build): the library's objects carry
# their compiled code, which the tests and benchmarks link as usual, and
# their intermediate form, from which the program's link inlines across
# files: a request crosses src/http, src/route, src/codec and src/core.
# The link is given the same optimisation and hardening as the compiles.
LTO ?= 1
ifeq ($(LTO)$(SANITIZER),1)
LTO_CFLAGS := $(if $(call cc_has,-flto=auto),-flto=auto $(call cc_has,-ffat-lto-objects))
endif
LIB_CFLAGS = $(ALL_CFLAGS) $(LTO_CFLAGS)
# Tests and benchmarks link the objects' compiled code, as they always have.
NO_LTO := $(if $(LTO_CFLAGS),-fno-lto)

# Profile-guided optimisation, opt-in (make PGO=1, where the compiler has
# GCC's -fprofile-partial-training; never in a sanitizer build): the program
# is first built instrumented, by a make of its own in $(BUILD)/pgo/$(BUILD),
# and run once by scripts/pgo-train.sh on the requests of make bench's goal 1
# and two command-line solves; the objects are then compiled with the counts
# it wrote, which lay the paths a request takes out together and move the
# rest aside, so that a request touches fewer lines of code (GET /livez:
# 327 -> 231 simulated instruction-cache misses a request, callgrind). Code
# the run never reached is optimised as it would be without a profile. A
# change to any source, the Makefile or the training run builds the profile
# again and then every object. No other target (run, test, the container)
# uses it: a build never depends on a run of the server succeeding.
PGO ?= 0
ifeq ($(PGO)$(SANITIZER),1)
PGO_FLAG := $(call cc_has,-fprofile-partial-training)
endif
ifneq ($(PGO_FLAG),)
PGO_DIR := $(BUILD)/pgo
PGO_BUILD := $(PGO_DIR)/$(BUILD)
PGO_STAMP := $(PGO_DIR)/trained
# Each object reads the counts of its instrumented twin, named by -dumpbase
# (which also makes the names GCC gives its static functions the twin's,
# so that the counts match them).
PGO_LINK := -fprofile-use -fprofile-partial-training -Wno-missing-profile
PGO_USE = $(PGO_LINK) -dumpbase $(PGO_DIR)/$(basename $@)
LIB_CFLAGS += $(PGO_USE)
endif

have_pkgs := $(shell $(PKG_CONFIG) --exists libmicrohttpd jansson libarchive 2>/dev/null && echo yes)
JANSSON_CFLAGS := $(shell $(PKG_CONFIG) --cflags jansson 2>/dev/null)
MHD_CFLAGS := $(shell $(PKG_CONFIG) --cflags libmicrohttpd gnutls 2>/dev/null)
ARCHIVE_CFLAGS := $(shell $(PKG_CONFIG) --cflags libarchive 2>/dev/null)
# libharu (the statement PDF) has no pkg-config file in Debian: -lhpdf.
LIBS := $(shell $(PKG_CONFIG) --libs libmicrohttpd gnutls jansson libarchive zlib 2>/dev/null) -lhpdf -lpthread
CMOCKA_LIBS := $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null)
CORE_SRC := $(wildcard src/core/*.c)
MEM_SRC := $(wildcard src/mem/*.c)
RENDER_SRC := $(wildcard src/render/*.c)
CODEC_SRC := $(wildcard src/codec/*.c)
PACKAGE_SRC := $(wildcard src/package/*.c)
# Copied into packages as they are (assembled in by blobs.S), never compiled here.
PACKAGE_FILES := $(wildcard src/package/files/*)
# Service sources a package's checker embeds as they are (blobs.S).
PACKAGE_SHARED := include/dropjudge/judge.h src/core/judge.c
PROBLEM_SRC := $(wildcard src/problem/*.c)
ROUTE_SRC := $(wildcard src/route/*.c)
HTTP_SRC := $(wildcard src/http/*.c)
MAIN_SRC := $(wildcard src/main/*.c)
LIB_SRC := $(CORE_SRC) $(MEM_SRC) $(RENDER_SRC) $(CODEC_SRC) $(PROBLEM_SRC) $(PACKAGE_SRC) $(ROUTE_SRC) $(HTTP_SRC) $(filter-out src/main/main.c src/main/checker.c,$(MAIN_SRC))
WWW_FILES := src/www/index.html src/www/viewer.css src/www/viewer.js src/www/favicon.svg \
	src/www/docs.html src/www/docs.css
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o) $(BUILD)/src/route/openapi_blob.o $(BUILD)/src/www/www_blob.o \
	$(BUILD)/src/package/blobs.o
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
# The pictures' and the Puyo links' unit tests live beside their fixtures.
RENDER_TEST_SRC := $(wildcard tests/render/test_*.c)
UNIT_BIN += $(RENDER_TEST_SRC:tests/render/%.c=$(BUILD)/tests/%)
# Micro-benchmarks, run by `make bench` one after another; the baselines and
# input writers beside them are run by scripts/bench.sh.
BENCH_MICRO := bench_gen bench_request bench_search
BENCH_TOOLS := bench_input json_parse bench_time
BENCH_BASELINES := md_naive puyo_naive
BENCH_BIN := $(BENCH_MICRO:%=$(BUILD)/bench/%)

.PHONY: all run test test-long test-sanitize test-hardening test-valgrind hardening-check unit http judges browser docs-images lint-spec bench bench-http deps deps-test deps-bench format format-check clean \
	test-container test-scale test-debian13 docs install uninstall deb test-monitoring test-systemd
all: $(BUILD)/dropjudge $(BUILD)/dropjudge-check

$(BUILD)/src/core/%.o: src/core/%.c
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) -Iinclude -c $< -o $@
$(BUILD)/src/mem/%.o: src/mem/%.c
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) -Isrc -c $< -o $@
$(BUILD)/src/render/%.o: src/render/%.c
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) -Iinclude -c $< -o $@
$(BUILD)/src/codec/%.o: src/codec/%.c
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) -Iinclude -Isrc $(JANSSON_CFLAGS) -c $< -o $@
$(BUILD)/src/problem/%.o: src/problem/%.c
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) -Iinclude -Isrc $(JANSSON_CFLAGS) -c $< -o $@
$(BUILD)/src/package/%.o: src/package/%.c
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) -Iinclude -Isrc $(JANSSON_CFLAGS) $(ARCHIVE_CFLAGS) -c $< -o $@
$(BUILD)/src/package/blobs.o: src/package/blobs.S $(PACKAGE_FILES) $(PACKAGE_SHARED)
	@mkdir -p $(@D)
	$(CC) -c $< -o $@
$(BUILD)/src/route/%.o: src/route/%.c
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) -Iinclude -Isrc $(JANSSON_CFLAGS) -c $< -o $@
$(BUILD)/src/http/%.o: src/http/%.c
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) -Iinclude -Isrc $(JANSSON_CFLAGS) $(MHD_CFLAGS) -c $< -o $@
$(BUILD)/src/main/%.o: src/main/%.c
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) -Iinclude -Isrc $(JANSSON_CFLAGS) $(MHD_CFLAGS) -c $< -o $@
# The spec is served from the binary: openapi.yaml is assembled in as bytes.
$(BUILD)/src/route/openapi_blob.o: src/route/openapi_blob.S openapi.yaml
	@mkdir -p $(@D)
	$(CC) -c -DOPENAPI_PATH='"openapi.yaml"' $< -o $@

# So is the viewer (src/www): its page, style sheet and script.
$(BUILD)/src/www/www_blob.o: src/www/www_blob.S $(WWW_FILES)
	@mkdir -p $(@D)
	$(CC) -c -Wa,-Isrc/www $< -o $@

$(BUILD)/libdropjudge.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^
$(BUILD)/dropjudge: $(BUILD)/src/main/main.o $(BUILD)/libdropjudge.a
	$(CC) $(if $(LTO_CFLAGS),$(LTO_CFLAGS) $(CFLAGS) $(HARDEN_CFLAGS) $(PGO_LINK)) $(LDFLAGS) $^ $(LIBS) -o $@
# The checker and validator alone (src/main/checker.c): what check.c needs
# of the library, linked with jansson only, so that it starts as fast as
# a judge starting one per test wants.
CHECKER_OBJ := $(BUILD)/src/main/checker.o $(BUILD)/src/main/check.o \
	$(filter $(BUILD)/src/core/% $(BUILD)/src/mem/% $(BUILD)/src/codec/% $(BUILD)/src/problem/%,$(LIB_OBJ)) \
	$(BUILD)/src/package/blobs.o
$(BUILD)/dropjudge-check: $(CHECKER_OBJ)
	$(CC) $(if $(LTO_CFLAGS),$(LTO_CFLAGS) $(CFLAGS) $(HARDEN_CFLAGS)) $(LDFLAGS) $^ \
		$(shell $(PKG_CONFIG) --libs jansson 2>/dev/null) -o $@
ifneq ($(PGO_STAMP),)
# The profile: the instrumented program built and run (see PGO above).
PGO_INPUTS := $(shell find src include -type f) Makefile openapi.yaml scripts/pgo-train.sh
$(PGO_STAMP): $(PGO_INPUTS)
	+@$(MAKE) --no-print-directory BUILD=$(PGO_BUILD) PGO=0 \
		CFLAGS='$(CFLAGS) -fprofile-generate -fprofile-update=atomic' $(PGO_BUILD)/dropjudge
	@find $(PGO_BUILD) -name '*.gcda' -delete
	scripts/pgo-train.sh $(PGO_BUILD)/dropjudge
	@touch $@
# Every object is compiled with the profile, so after it.
$(LIB_OBJ) $(BUILD)/src/main/main.o: $(PGO_STAMP)
endif

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libdropjudge.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes -Iinclude -Isrc -Itests/unit $(JANSSON_CFLAGS) $(MHD_CFLAGS) \
		$< $(BUILD)/libdropjudge.a $(LDFLAGS) $(NO_LTO) $(LIBS) $(CMOCKA_LIBS) -o $@
$(BUILD)/tests/%: tests/render/%.c $(BUILD)/libdropjudge.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes -Iinclude -Isrc -Itests/unit $(JANSSON_CFLAGS) \
		$< $(BUILD)/libdropjudge.a $(LDFLAGS) $(NO_LTO) $(LIBS) $(CMOCKA_LIBS) -o $@
$(BUILD)/bench/%: tests/bench/%.c $(BUILD)/libdropjudge.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes -Iinclude -Isrc $(JANSSON_CFLAGS) \
		$< $(BUILD)/libdropjudge.a $(LDFLAGS) $(NO_LTO) $(LIBS) -o $@

# The man page and the completions, made from `dropjudge --help` (the flag
# table of src/main/config.c) by scripts/gen-docs.sh; scdoc writes roff.
DOCS_OUT := $(BUILD)/docs/dropjudge.1 $(BUILD)/docs/dropjudge.bash $(BUILD)/docs/_dropjudge \
	$(BUILD)/docs/dropjudge-check.1
docs: $(DOCS_OUT)
$(DOCS_OUT) &: $(BUILD)/dropjudge docs/man/dropjudge.1.scd docs/man/dropjudge-check.1.scd scripts/gen-docs.sh
	scripts/gen-docs.sh $(BUILD)/dropjudge $(BUILD)/docs

# Installation, as the GNU coding standards name the directories; every
# one can be set on the command line, and DESTDIR stages the whole tree
# (make install DESTDIR=/tmp/stage PREFIX=/usr SYSCONFDIR=/etc for a package).
PREFIX ?= /usr/local
prefix ?= $(PREFIX)
exec_prefix ?= $(prefix)
BINDIR ?= $(exec_prefix)/bin
DATAROOTDIR ?= $(prefix)/share
MANDIR ?= $(DATAROOTDIR)/man
DOCDIR ?= $(DATAROOTDIR)/doc/dropjudge
SYSCONFDIR ?= $(prefix)/etc
BASHCOMPDIR ?= $(DATAROOTDIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATAROOTDIR)/zsh/vendor-completions
SYSTEMDUNITDIR ?= $(prefix)/lib/systemd/system
INSTALL ?= install
INSTALL_PROGRAM ?= $(INSTALL)
INSTALL_DATA ?= $(INSTALL) -m 644
INSTALLED := $(BINDIR)/dropjudge $(BINDIR)/dropjudge-check $(MANDIR)/man1/dropjudge.1 \
	$(MANDIR)/man1/dropjudge-check.1 $(BASHCOMPDIR)/dropjudge \
	$(ZSHCOMPDIR)/_dropjudge $(SYSTEMDUNITDIR)/dropjudge.service $(SYSTEMDUNITDIR)/dropjudge.socket \
	$(SYSCONFDIR)/default/dropjudge $(DOCDIR)/OPERATING.md $(DOCDIR)/dropjudge-alerts.yaml \
	$(DOCDIR)/dropjudge-rules.yaml $(DOCDIR)/dropjudge-dashboard.json

install: all docs
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) \
		$(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(SYSTEMDUNITDIR) $(DESTDIR)$(SYSCONFDIR)/default \
		$(DESTDIR)$(DOCDIR)
	$(INSTALL_PROGRAM) $(BUILD)/dropjudge $(DESTDIR)$(BINDIR)/dropjudge
	$(INSTALL_PROGRAM) $(BUILD)/dropjudge-check $(DESTDIR)$(BINDIR)/dropjudge-check
	$(INSTALL_DATA) $(BUILD)/docs/dropjudge.1 $(DESTDIR)$(MANDIR)/man1/dropjudge.1
	$(INSTALL_DATA) $(BUILD)/docs/dropjudge-check.1 $(DESTDIR)$(MANDIR)/man1/dropjudge-check.1
	$(INSTALL_DATA) $(BUILD)/docs/dropjudge.bash $(DESTDIR)$(BASHCOMPDIR)/dropjudge
	$(INSTALL_DATA) $(BUILD)/docs/_dropjudge $(DESTDIR)$(ZSHCOMPDIR)/_dropjudge
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
		deploy/systemd/dropjudge.service.in >$(BUILD)/dropjudge.service
	$(INSTALL_DATA) $(BUILD)/dropjudge.service $(DESTDIR)$(SYSTEMDUNITDIR)/dropjudge.service
	$(INSTALL_DATA) deploy/systemd/dropjudge.socket $(DESTDIR)$(SYSTEMDUNITDIR)/dropjudge.socket
	$(INSTALL_DATA) deploy/systemd/dropjudge.default $(DESTDIR)$(SYSCONFDIR)/default/dropjudge
	$(INSTALL_DATA) docs/OPERATING.md $(DESTDIR)$(DOCDIR)/OPERATING.md
	$(INSTALL_DATA) deploy/monitoring/alerts.yaml $(DESTDIR)$(DOCDIR)/dropjudge-alerts.yaml
	$(INSTALL_DATA) deploy/monitoring/rules.yaml $(DESTDIR)$(DOCDIR)/dropjudge-rules.yaml
	$(INSTALL_DATA) deploy/monitoring/dashboard.json $(DESTDIR)$(DOCDIR)/dropjudge-dashboard.json
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	-rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null

# The Debian package (debian/), built with dpkg-buildpackage from a copy
# of the tracked files in $(BUILD)/deb, then checked by lintian: any error
# fails. The tools come from scripts/deps.sh deb.
deb:
	@scripts/deps.sh deb
	@scripts/make-deb.sh $(BUILD)/deb

# The Prometheus rules: promtool checks them and runs their unit tests
# (deploy/monitoring/tests.yaml: synthetic series, alerts expected).
test-monitoring:
	@scripts/deps.sh monitoring
	promtool check rules deploy/monitoring/rules.yaml deploy/monitoring/alerts.yaml
	cd deploy/monitoring && promtool test rules tests.yaml

# The .deb built in the cached Debian 13 root and installed in a container
# of it with systemd as PID 1 (podman --systemd=always): dropjudge.socket
# started, the public examples sent through the socket-activated service,
# systemd-analyze verify and security, a clean stop. As root.
test-systemd:
	@scripts/deps.sh container
	@scripts/test-systemd.sh $(BUILD)/container/systemd

deps:
	@scripts/deps.sh build
deps-test:
	@scripts/deps.sh test
deps-bench: deps
	@scripts/deps.sh bench

# Recursive make so that the pkg-config queries above run after deps installed them.
run: deps
	@$(MAKE) --no-print-directory all
	$(BUILD)/dropjudge serve

test: deps-test
	@$(MAKE) --no-print-directory all units
	@scripts/run-tests.sh $(BUILD)

# The unit tests with every differential test (fast cores and fast paths
# against their straightforward references) at full size: 10^6 random cases
# each. Minutes, not seconds: not part of `make test`.
test-long: deps-test
	@$(MAKE) --no-print-directory all units
	@DROPJUDGE_TEST_LONG=1 scripts/run-tests.sh $(BUILD) unit

# Every unit and HTTP test again, on a build with AddressSanitizer (leaks
# included) and UndefinedBehaviorSanitizer: any report fails the run. The
# build is SIMD=0, so that this is also the run with the portable paths
# forced.
test-sanitize: deps-test
	@$(MAKE) --no-print-directory BUILD=build-sanitize SANITIZER=address,undefined SIMD=0 all units
	@ASAN_OPTIONS=detect_leaks=1 scripts/run-tests.sh build-sanitize unit
	@ASAN_OPTIONS=detect_leaks=1 scripts/run-tests.sh build-sanitize http
	@ASAN_OPTIONS=detect_leaks=1 scripts/run-tests.sh build-sanitize judges

# `make test` and `make test-hardening` of the committed tree in a pristine
# Debian 13 (trixie) root made by debootstrap and cached
# (scripts/test-debian.sh): libmicrohttpd 1.0, GCC 14, glibc 2.41. As root.
test-debian13:
	@scripts/deps.sh container
	@scripts/test-debian.sh trixie test test-hardening

# The Dockerfile built and its image run for real with podman, buildah and
# runc (no registry): every endpoint through the published port, the
# HEALTHCHECK, non-root, read-only root, no capabilities, a clean stop.
# Podman's storage and the base rootfs are cached in $(BUILD)/container.
test-container:
	@scripts/deps.sh container
	@scripts/container-test.sh $(BUILD)

# Three replicas behind a real nginx configured from deploy/nginx.conf, on
# loopback; a bounded load of checked answers while one replica is stopped
# (SIGTERM) and another killed (SIGKILL): no request may fail.
test-scale: deps-test
	@scripts/deps.sh scale
	@$(MAKE) --no-print-directory all
	@tests/ops/scale-test.sh $(BUILD)

# Attacks on loopback (tests/hardening): 2,060 slow connections from
# 127.0.0.2 against the Puyo example, raw framing cases, peak and
# after-load RSS from /proc, four clients looping the heaviest request
# against /livez, signals. About three minutes; HARDENING_SECONDS (30)
# sets the length of the two load runs.
test-hardening: deps-test
	@$(MAKE) --no-print-directory all
	@scripts/run-tests.sh $(BUILD) hardening
# The HTTP suite against the server under valgrind memcheck: 0 errors and
# 0 bytes definitely or indirectly lost in every server started.
test-valgrind: deps-test
	@scripts/deps.sh valgrind
	@$(MAKE) --no-print-directory all
	@scripts/test-valgrind.sh $(BUILD)

# build/dropjudge carries every hardening flag (hardening-check, devscripts).
# Debian 12's crt1.o and crti.o have no IBT/SHSTK property, so no program
# linked with them can show one: the check of -fcf-protection is that its
# endbr64 landing pads are in the code instead.
hardening-check: all
	@scripts/deps.sh hardening
	hardening-check --nocfprotection $(BUILD)/dropjudge $(BUILD)/dropjudge-check
	@if $(CC) -fcf-protection -Werror -E -x c /dev/null >/dev/null 2>&1; then \
		n=$$(objdump -d $(BUILD)/dropjudge | grep -c endbr64); \
		echo " -fcf-protection: $$n endbr64 landing pads"; [ $$n -gt 0 ]; fi

units: $(UNIT_BIN)
unit: units
	@scripts/run-tests.sh $(BUILD) unit
http: all
	@scripts/run-tests.sh $(BUILD) http
judges: all
	@scripts/run-tests.sh $(BUILD) judges
lint-spec:
	@scripts/run-tests.sh $(BUILD) lint
browser: all
	@scripts/run-tests.sh $(BUILD) browser
docs-images: all
	@scripts/deps.sh docs
	@scripts/docs-images.sh $(BUILD)

# Goals 1-5 of the performance issue, each as a ratio against a baseline
# built here (tests/bench: the fixed-answer server, jansson's bare parse,
# the straightforward solver and BFS counter), medians of interleaved runs;
# then the micro-benchmarks. Minutes; not part of `make test` or CI.
bench: deps-bench $(BENCH_BIN) $(BENCH_TOOLS:%=$(BUILD)/bench/%) $(BENCH_BASELINES:%=$(BUILD)/bench/%) \
		$(BUILD)/bench/bare_server $(BUILD)/bench/ab_load all
	@scripts/bench.sh $(BUILD)
	@for b in $(BENCH_BIN); do $$b || exit 1; done

# The straightforward baselines use nothing of ours: the C library only.
$(BUILD)/bench/md_naive: tests/bench/md_naive.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $< $(LDFLAGS) -o $@
$(BUILD)/bench/puyo_naive: tests/bench/puyo_naive.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $< $(LDFLAGS) -o $@
$(BUILD)/bench/bench_time: tests/bench/bench_time.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $< $(LDFLAGS) -o $@
# The interleaved load of bench-http's pinned figures: the C library only.
$(BUILD)/bench/ab_load: tests/bench/ab_load.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes $< $(LDFLAGS) -lpthread -o $@

# The baseline of bench-http: libmicrohttpd alone, without the library.
$(BUILD)/bench/bare_server: tests/bench/bare_server.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(MHD_CFLAGS) $< $(LDFLAGS) $(LIBS) -o $@
bench-http: deps-bench
	@$(MAKE) --no-print-directory all $(BUILD)/bench/bare_server $(BUILD)/bench/ab_load
	@scripts/bench-http.sh $(BUILD)

FORMAT_FILES = $(CORE_SRC) $(MEM_SRC) $(RENDER_SRC) $(CODEC_SRC) $(PROBLEM_SRC) $(PACKAGE_SRC) $(ROUTE_SRC) $(HTTP_SRC) $(MAIN_SRC) include/dropjudge/*.h \
	src/*/*.h tests/unit/*.c tests/unit/*.h $(RENDER_TEST_SRC) tests/bench/*.c $(wildcard tests/fuzz/*.c tests/fuzz/*.h)
format:
	clang-format -i $(FORMAT_FILES)
# Checked in CI: the tree is formatted as .clang-format says.
format-check:
	clang-format --dry-run --Werror $(FORMAT_FILES)

# Fuzzing (tests/fuzz): libFuzzer targets on every decoder and on
# route_handle(), linked with the core, codec and route objects compiled in
# $(FUZZ_BUILD) with the same sanitizers. Not part of `make test`.
#   make fuzz                          each target FUZZ_SECONDS (30) on its corpus
#   make fuzz FUZZ_SECONDS=600 FUZZ_TARGETS=fuzz_route
# Needs clang and libFuzzer (Debian 12: libclang-rt-14-dev); scripts/deps.sh
# installs it as root, or prints the apt-get line. A crash, leak, sanitizer
# report, broken invariant or input slower than FUZZ_TIMEOUT s fails the run
# (2 s under ASan + UBSan is well under 1 s in a release build, and spares
# false alarms on a busy machine); inputs found are kept in
# $(FUZZ_BUILD)/corpus, failing ones in $(FUZZ_BUILD)/artifacts.
FUZZ_CC ?= clang
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 30
FUZZ_TIMEOUT ?= 2
# Every tests/fuzz/fuzz_*.c is a target.
FUZZ_TARGETS ?= $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
# CI (fuzz-ci): the seeds and regression inputs replayed, then every target
# for FUZZ_CI_SECONDS (30), fewer when the targets together would pass
# FUZZ_CI_BUDGET seconds (160), with a fixed seed so that each CI run explores
# the same inputs.
FUZZ_CI_SECONDS ?= 30
FUZZ_CI_BUDGET ?= 160
fuzz_ci_seconds = $(shell n=$(words $(FUZZ_TARGETS)); s=$$(( $(FUZZ_CI_BUDGET) / (n > 0 ? n : 1) )); \
	echo $$(( s < $(FUZZ_CI_SECONDS) ? (s > 0 ? s : 1) : $(FUZZ_CI_SECONDS) )))
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(WARN) -O1 -g $(FUZZ_SAN) -MMD -MP
FUZZ_LIB_OBJ := $(patsubst %.c,$(FUZZ_BUILD)/%.o,$(CORE_SRC) $(MEM_SRC) $(RENDER_SRC) $(CODEC_SRC) $(PROBLEM_SRC) $(PACKAGE_SRC) $(ROUTE_SRC)) \
	$(FUZZ_BUILD)/src/route/openapi_blob.o $(FUZZ_BUILD)/src/www/www_blob.o $(FUZZ_BUILD)/src/package/blobs.o
FUZZ_BIN := $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/%)
# Made only by pattern rules, so make would delete them as intermediates.
.SECONDARY: $(FUZZ_LIB_OBJ)

.PHONY: fuzz fuzz-regressions fuzz-ci
fuzz: deps
	@scripts/deps.sh fuzz $(FUZZ_CC)
	@$(MAKE) --no-print-directory $(FUZZ_BIN)
	@FUZZ_TIMEOUT=$(FUZZ_TIMEOUT) tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)
# Every seed and regression input once per target, no fuzzing: seconds.
fuzz-regressions:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=0
fuzz-ci:
	@$(MAKE) --no-print-directory fuzz-regressions
	@FUZZ_SEED=1 $(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(fuzz_ci_seconds)

$(FUZZ_BUILD)/src/core/%.o: src/core/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -Iinclude -c $< -o $@
$(FUZZ_BUILD)/src/mem/%.o: src/mem/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -Isrc -c $< -o $@
$(FUZZ_BUILD)/src/render/%.o: src/render/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -Iinclude -c $< -o $@
$(FUZZ_BUILD)/src/codec/%.o: src/codec/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -Iinclude -Isrc $(JANSSON_CFLAGS) -c $< -o $@
$(FUZZ_BUILD)/src/problem/%.o: src/problem/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -Iinclude -Isrc $(JANSSON_CFLAGS) -c $< -o $@
$(FUZZ_BUILD)/src/package/%.o: src/package/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -Iinclude -Isrc $(JANSSON_CFLAGS) $(ARCHIVE_CFLAGS) -c $< -o $@
$(FUZZ_BUILD)/src/package/blobs.o: src/package/blobs.S $(PACKAGE_FILES) $(PACKAGE_SHARED)
	@mkdir -p $(@D)
	$(FUZZ_CC) -c $< -o $@
$(FUZZ_BUILD)/src/route/%.o: src/route/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -Iinclude -Isrc $(JANSSON_CFLAGS) -c $< -o $@
$(FUZZ_BUILD)/src/route/openapi_blob.o: src/route/openapi_blob.S openapi.yaml
	@mkdir -p $(@D)
	$(FUZZ_CC) -c -DOPENAPI_PATH='"openapi.yaml"' $< -o $@
$(FUZZ_BUILD)/src/www/www_blob.o: src/www/www_blob.S $(WWW_FILES)
	@mkdir -p $(@D)
	$(FUZZ_CC) -c -Wa,-Isrc/www $< -o $@
$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_LIB_OBJ)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -Iinclude -Isrc -Itests/fuzz $(JANSSON_CFLAGS) \
		$< $(FUZZ_LIB_OBJ) $(shell $(PKG_CONFIG) --libs jansson libarchive zlib 2>/dev/null) -lhpdf -o $@

-include $(wildcard $(FUZZ_BUILD)/*.d $(FUZZ_BUILD)/src/*/*.d)

clean:
	rm -rf $(BUILD)

# The container test keeps its podman storage in $(BUILD)/container: not searched.
-include $(shell find $(BUILD) -path $(BUILD)/container -prune -o -name '*.d' -type f -print 2>/dev/null)
