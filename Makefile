## nasbench - storage benchmark and acceptance-test suite
##
## Set-up on a fresh Debian 12: `make check` and `make demo` install what
## they need themselves (ci/install-deps).

CC      ?= cc
PREFIX  ?= /usr/local
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo 0.1.0)
PKGS    := libnfs libiscsi inih jansson liblzma liburing

CFLAGS  ?= -O2 -g
# what nasbench needs whatever CFLAGS the caller gives (make CFLAGS=... keeps these)
NB_CFLAGS := -std=gnu11 -Wall -Wextra -Wshadow -Werror -D_GNU_SOURCE \
           -Wno-format-truncation \
           -DNB_VERSION='"$(VERSION)"' \
           -DNB_LIBNFS_VERSION='"$(shell pkg-config --modversion libnfs 2>/dev/null)"' \
           -DNB_LIBISCSI_VERSION='"$(shell pkg-config --modversion libiscsi 2>/dev/null)"' \
           -DNB_INIH_VERSION='"$(shell pkg-config --modversion inih 2>/dev/null)"' \
           -DNB_LIBURING_VERSION='"$(shell pkg-config --modversion liburing 2>/dev/null)"' \
           $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
ALL_CFLAGS = $(CFLAGS) $(NB_CFLAGS)
LDLIBS  += $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm -lpthread

B       ?= build
LIBSRC  := $(sort $(wildcard core/*.c runners/*.c workloads/*.c reports/*.c hw/*.c cmd/*.c))
LIBOBJ  := $(LIBSRC:%.c=$(B)/%.o)
UNITSRC := $(sort $(wildcard tests/unit/test_*.c))
UNITBIN := $(UNITSRC:tests/unit/%.c=$(B)/tests/%)

all: nasbench ## build nasbench

nasbench: $(B)/nasbench
	@cp $< $@

$(B)/nasbench: $(B)/nasbench.o $(B)/libnasbench.a
	@echo "  LD $@"; $(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/libnasbench.a: $(LIBOBJ)
	@rm -f $@
	@ar rcs $@ $^

$(B)/%.o: %.c $(wildcard */*.h) Makefile
	@mkdir -p $(dir $@)
	@echo "  CC $<"; $(CC) $(ALL_CFLAGS) -c -o $@ $<

$(B)/tests/%: tests/unit/%.c $(B)/libnasbench.a
	@mkdir -p $(dir $@)
	@echo "  LD $@"; $(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(B)/libnasbench.a \
		$(shell pkg-config --cflags --libs cmocka) $(LDLIBS)

deps: ## install the Debian packages nasbench needs (idempotent)
	@ci/install-deps

unit: $(UNITBIN) ## build and run the unit tests
	@fail=0; for t in $(UNITBIN); do $$t || fail=1; done; exit $$fail

sanitize: ## the unit tests again under ASan + UBSan
	$(MAKE) B=build-san CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" unit

integration: nasbench ## the integration tests (start the testbox)
	@tests/integration/run

check: deps ## install deps, build, run every test (unit, integration, sanitizers)
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory unit
	@$(MAKE) --no-print-directory integration
	@$(MAKE) --no-print-directory sanitize
	@echo "make check: all tests passed"

demo: deps ## run the quick suite on a scratch directory and the testbox
	@$(MAKE) --no-print-directory all
	@ci/demo

bench: nasbench ## benchmark scripts (ratios against fio and friends)
	@for b in ci/bench-*; do $$b || exit 1; done

install: nasbench ## install into PREFIX (default /usr/local)
	install -D -m 0755 nasbench $(DESTDIR)$(PREFIX)/bin/nasbench

clean: ## remove build output
	rm -rf build build-san nasbench

help: ## this list
	@grep -E '^[a-z-]+:.*## ' Makefile | sed 's/:.*## /\t/' | expand -t 14

.PHONY: all nasbench deps unit sanitize integration check demo bench install clean help
