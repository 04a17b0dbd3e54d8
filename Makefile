# SPDX-License-Identifier: GPL-2.0-or-later
## nasbench - storage benchmark and acceptance-test suite
##
## Set-up on a fresh Debian 12: `make check` and `make demo` install what
## they need themselves (ci/install-deps).

CC      ?= cc
PREFIX  ?= /usr/local
# the release in ./VERSION (semantic: 0.2.0, tagged v0.2.0), the commit from git
VERSION := $(shell cat VERSION)
GIT_HASH := $(shell git rev-parse --short=7 HEAD 2>/dev/null)
PKGS    := libnfs libiscsi inih jansson liblzma liburing sqlite3 liblz4 zlib libzstd

CFLAGS  ?= -O2 -g
# -Werror in `make check` and CI (WERROR=-Werror), not in a user's build
WERROR  ?=
# pkg-config runs once, when a recipe first needs it (after `make deps`);
# $(B)/.pkgs stops the build before that, naming a missing package.
lazy = $(eval $(1) := $(2))$($(1))
PKG_CFLAGS = $(call lazy,PKG_CFLAGS,$(shell pkg-config --cflags $(PKGS)))
PKG_VERS = $(call lazy,PKG_VERS,$(foreach p,libnfs libiscsi inih liburing,\
	-DNB_$(shell echo $(p) | tr a-z A-Z)_VERSION='"$(shell pkg-config --modversion $(p))"'))
NB_CFLAGS = -std=gnu11 -Wall -Wextra -Wshadow $(WERROR) -D_GNU_SOURCE \
           -Wno-format-truncation -MMD -MP \
           $(PKG_VERS) $(PKG_CFLAGS)
ALL_CFLAGS = $(CFLAGS) $(NB_CFLAGS)
NB_LIBS = $(call lazy,NB_LIBS,$(shell pkg-config --libs $(PKGS)) -lm -lpthread)
CMOCKA  = $(call lazy,CMOCKA,$(shell pkg-config --cflags --libs cmocka))

B       ?= build
# the rooms of the house are ci/rooms' (nasbench.c, main(), aside)
ROOMS   := $(shell awk '!/^\#/ && NF && $$2 != "nasbench.c" { print $$2 }' ci/rooms)
LIBSRC  := $(sort $(foreach r,$(ROOMS),$(wildcard $(r)/*.c)))
LIBOBJ  := $(LIBSRC:%.c=$(B)/%.o)
# unit tests: tests/unit/test_*.c, each linked with the other tests/unit/*.c
UNITSRC := $(sort $(wildcard tests/unit/test_*.c))
UNITBIN := $(UNITSRC:tests/unit/%.c=$(B)/unit/%)
UNITSUP := $(patsubst %.c,$(B)/%.o,$(filter-out $(UNITSRC),$(wildcard tests/unit/*.c)))
# libFuzzer harnesses (tests/fuzz/fuzz_*.c), built with clang in build-fuzz/
FUZZSRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZBIN  = $(FUZZSRC:tests/fuzz/%.c=$(B)/fuzz/%)
# the same harnesses with tests/fuzz/replay.c's main(): part of every test
# build, `make unit` replays the corpus through them
REPLAYBIN = $(FUZZSRC:tests/fuzz/%.c=$(B)/replay/%)
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all \
            -fno-omit-frame-pointer
# helper programs of the integration tests
TOOLBIN := $(patsubst tests/integration/%.c,$(B)/tools/%,$(wildcard tests/integration/*.c))

all: nasbench $(B)/nasbench.1 $(B)/nasbench.bash $(B)/result.schema.json ## build nasbench, its man page, completion and result schema

# a copy renamed into place, and none when it is the same: a cp over
# ./nasbench while a test ran it failed with "Text file busy" (make install
# in test_shell.sh beside the other integration files)
nasbench: $(B)/nasbench
	@cmp -s $< $@ || { cp $< $@.tmp && mv -f $@.tmp $@; }

# the man page and the completion come from the tables 'nasbench help' prints
$(B)/nasbench.1: $(B)/nasbench
	@echo "  GEN $@"; $< help --man >$@.tmp && mv $@.tmp $@
$(B)/nasbench.bash: $(B)/nasbench
	@echo "  GEN $@"; $< help --completion bash >$@.tmp && mv $@.tmp $@

# the result file's JSON Schema, made from docs/result.md (its one source)
$(B)/result.schema.json: docs/result.md ci/result-schema
	@mkdir -p $(B)
	@echo "  GEN $@"; ci/result-schema docs/result.md >$@.tmp && mv $@.tmp $@

$(B)/.pkgs: Makefile
	@mkdir -p $(B)
	@missing=$$(for p in $(PKGS); do pkg-config --exists $$p || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "nasbench: pkg-config finds no" $$missing "- run 'make deps' (ci/install-deps)" >&2; \
		exit 1; \
	fi; touch $@

$(B)/nasbench: $(B)/nasbench.o $(B)/libnasbench.a
	@echo "  LD $@"; $(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(NB_LIBS)

# the test build: the same program with the test hooks (tests/support/hook.c)
# linked ahead of the library's empty core/hook.c
$(B)/nasbench-test: $(B)/nasbench.o $(B)/tests/support/hook.o $(B)/libnasbench.a
	@echo "  LD $@"; $(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(NB_LIBS)

$(B)/libnasbench.a: $(LIBOBJ)
	@rm -f $@
	@ar rcs $@ $^

# only core/version.c knows the version; it is rebuilt when the commit moves
$(B)/core/version.o: ALL_CFLAGS += -DNB_VERSION='"$(VERSION)"' -DNB_GIT='"$(GIT_HASH)"'
$(B)/core/version.o: VERSION $(B)/git-hash
$(B)/git-hash: FORCE
	@mkdir -p $(B)
	@echo '$(GIT_HASH)' | cmp -s - $@ || echo '$(GIT_HASH)' > $@
FORCE:

$(B)/%.o: %.c Makefile | $(B)/.pkgs
	@mkdir -p $(dir $@)
	@echo "  CC $<"; $(CC) $(ALL_CFLAGS) -c -o $@ $<

$(B)/unit/%: tests/unit/%.c $(UNITSUP) $(B)/libnasbench.a | $(B)/.pkgs
	@mkdir -p $(dir $@)
	@echo "  LD $@"; $(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(UNITSUP) \
		$(B)/libnasbench.a $(CMOCKA) $(NB_LIBS)

$(B)/tools/%: tests/integration/%.c $(B)/libnasbench.a | $(B)/.pkgs
	@mkdir -p $(dir $@)
	@echo "  LD $@"; $(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(B)/libnasbench.a $(NB_LIBS)

$(B)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz.h $(B)/libnasbench.a | $(B)/.pkgs
	@mkdir -p $(dir $@)
	@echo "  LD $@"; $(CC) $(ALL_CFLAGS) -fsanitize=fuzzer $(LDFLAGS) -o $@ $< \
		$(B)/libnasbench.a $(NB_LIBS)

fuzz-bins: $(FUZZBIN)

$(B)/replay/%: tests/fuzz/%.c tests/fuzz/fuzz.h tests/fuzz/replay.c $(B)/libnasbench.a | $(B)/.pkgs
	@mkdir -p $(dir $@)
	@echo "  LD $@"; $(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< tests/fuzz/replay.c \
		$(B)/libnasbench.a $(NB_LIBS)

-include $(shell find $(B) -name '*.d' -type f 2>/dev/null)

deps: ## install the Debian packages nasbench needs (idempotent)
	@ci/install-deps

unit: $(UNITBIN) $(REPLAYBIN) ## build and run the unit tests (and replay the fuzz corpus)
	@fail=0; for t in $(UNITBIN); do $$t || fail=1; done; \
	for r in $(REPLAYBIN); do n=$${r##*/fuzz_}; \
		$$r tests/fuzz/corpus/$$n/* || { echo "FAIL: $$r on tests/fuzz/corpus/$$n" >&2; fail=1; }; \
	done; exit $$fail

sanitize: ## the unit tests again under ASan + UBSan
	$(MAKE) B=build-san CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" unit

check-deep: deps ## sanitizers on real runs: the integration suite on an ASan+UBSan build, valgrind per runner
	@$(MAKE) --no-print-directory all test-build
	@$(MAKE) --no-print-directory B=build-san CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" build-san/nasbench build-san/nasbench-test
	@ci/check-deep

test-build: nasbench $(B)/nasbench-test $(B)/result.schema.json $(TOOLBIN) ## what the integration tests run

fuzz-build: deps
	@$(MAKE) --no-print-directory B=build-fuzz CC=clang \
		CFLAGS="-O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link -Wno-unknown-warning-option" \
		fuzz-bins

fuzz: fuzz-build ## run every fuzz harness FUZZ_SECONDS (default 20) each
	@ci/fuzz $${FUZZ_SECONDS:-20}

fuzz-quick: fuzz-build ## replay the fuzz corpus, then a short pass of each harness
	@ci/fuzz --replay $${FUZZ_QUICK:-3}

layers: ## the house's shape: no #include runs up the layers, no function over 80 lines; SPDX lines
	@ci/check-layers
	@ci/check-functions
	@ci/check-spdx

integration: test-build ## the integration tests (start the testbox)
	@tests/integration/run

# check compiles on every CPU (its four builds were half its time outside
# the integration tests on 2 cores).  The integration files run side by
# side (tests/integration/run: a testbox a lane), with the sanitizer
# build and its unit tests and the fuzz pass beside them at nice 10: they
# take the CPU the tests leave while they wait on servers, disks and
# timers.  The files whose figures are timing run after all that, alone
# (tests/integration/schedule; docs/testing.md).
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
CHECK_BESIDE = --also 'nice -n 10 $(MAKE) --no-print-directory -j$(JOBS) WERROR=-Werror sanitize' \
	       --also 'nice -n 10 $(MAKE) --no-print-directory -j$(JOBS) fuzz-quick'
check: deps ## install deps, build, run every test (layers, unit, integration, sanitizers)
	@mkdir -p $(B) && date +%s >$(B)/.check-start
	@$(MAKE) --no-print-directory -j$(JOBS) WERROR=-Werror all test-build
	@$(MAKE) --no-print-directory layers
	@$(MAKE) --no-print-directory -j$(JOBS) WERROR=-Werror unit
	@$(MAKE) --no-print-directory check-tests
	@echo "make check: all tests passed in $$(( $$(date +%s) - $$(cat $(B)/.check-start) )) s"

# make check's tests after its builds (ci/flake-hunt --suite runs them
# again and again; FILES: some integration files only)
check-tests: test-build
	@tests/integration/run $(CHECK_BESIDE) $(FILES)

demo: deps ## run the quick suite on a scratch directory and the testbox
	@$(MAKE) --no-print-directory all
	@ci/demo

lab-demo: deps ## the first user story on the simulated ZFS NAS (ci/lab; root, ~13 min)
	@$(MAKE) --no-print-directory all
	@examples/seed1/run

bench: nasbench ## benchmark scripts (ratios against fio and friends)
	@for b in ci/bench-*; do $$b || exit 1; done

MANDIR  ?= $(PREFIX)/share/man/man1
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
DATADIR ?= $(PREFIX)/share/nasbench

install: all ## install into DESTDIR/PREFIX (default /usr/local): program, man page, completion, schema
	install -D -m 0755 nasbench $(DESTDIR)$(PREFIX)/bin/nasbench
	install -D -m 0644 $(B)/nasbench.1 $(DESTDIR)$(MANDIR)/nasbench.1
	install -D -m 0644 $(B)/nasbench.bash $(DESTDIR)$(BASHCOMPDIR)/nasbench
	install -D -m 0644 $(B)/result.schema.json $(DESTDIR)$(DATADIR)/result.schema.json

uninstall: ## remove what install put into DESTDIR/PREFIX
	rm -f $(DESTDIR)$(PREFIX)/bin/nasbench $(DESTDIR)$(MANDIR)/nasbench.1 \
		$(DESTDIR)$(BASHCOMPDIR)/nasbench $(DESTDIR)$(DATADIR)/result.schema.json
	-rmdir $(DESTDIR)$(DATADIR) 2>/dev/null

deb: deps ## the Debian package nasbench_VERSION_ARCH.deb (debian/, ci/deb; lintian)
	@ci/deb

clean: ## remove build output
	rm -rf build build-san build-fuzz nasbench nasbench_*.deb

help: ## this list
	@grep -E '^[a-z-]+:.*## ' Makefile | sed 's/:.*## /\t/' | expand -t 14

.PHONY: all nasbench deps unit sanitize test-build layers integration check check-tests demo \
	lab-demo bench install uninstall deb clean help check-deep fuzz fuzz-build fuzz-bins fuzz-quick
