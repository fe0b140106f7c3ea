# mmfuzz: one multi-command binary, build/mmfuzz.
#
# Every .c under fuzzers/<layer>/ (and one directory below it, a layer's
# per-family files) and stressors/ goes into libmmfuzz.a except
# fuzzers/cmd/, which is the command front end, the C reproducer's
# runtime (fuzzers/csource/runtime/), which goes in as text, and
# fuzzers/afl/, the AFL++ custom mutator, which is build/mmfuzz-mutator.so
# (see below). Unit tests are tests/unit/test-*.c, one binary each, built
# with ASan/UBSan.

CC	?= gcc
PREFIX	?= /usr/local
DESTDIR	?=
O	?= build

WARN	:= -Wall -Wextra -Werror -Wno-unused-parameter
CFLAGS	?= -O2 -g
MMF_CFLAGS := -std=gnu11 $(WARN) -D_GNU_SOURCE -Ifuzzers -I. -pthread $(CFLAGS)
LDLIBS	:= -luring -pthread -lm
# ccache for object files where it is installed (scripts/setup.sh installs
# it): a fresh clone, as CI's, compiles nothing compiled before. Paths in
# the build are relative, so clones in other directories share the cache
# (CCACHE_NOHASHDIR: -g would hash the directory). CCACHE= turns it off.
ifeq ($(origin CCACHE),undefined)
CCACHE	:= $(if $(shell command -v ccache 2>/dev/null),CCACHE_NOHASHDIR=1 CCACHE_BASEDIR=$(CURDIR) ccache)
endif
SAN	:= -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

LAYERS	:= util model report oracle csource sys store exec repro symbolize cover bench fuzz vm \
	   campaign validate nightly farm
CS_RUNTIME_DIRS := fuzzers/csource/runtime/ fuzzers/runtime/
CS_RUNTIME := $(wildcard fuzzers/csource/runtime/*.c fuzzers/runtime/*.h)
LIB_SRC	:= $(filter-out $(CS_RUNTIME),$(foreach l,$(LAYERS),$(wildcard fuzzers/$(l)/*.c \
	   fuzzers/$(l)/*/*.c))) $(wildcard stressors/*.c)
CMD_SRC	:= $(wildcard fuzzers/cmd/*.c)
UNIT_SRC := $(wildcard tests/unit/test-*.c)
BENCH_SRC := $(wildcard bench/*.c)

LIB_OBJ	:= $(LIB_SRC:%.c=$(O)/obj/%.o)
CMD_OBJ	:= $(CMD_SRC:%.c=$(O)/obj/%.o)
SLIB_OBJ := $(LIB_SRC:%.c=$(O)/san/%.o)
LIB_OBJ	+= $(O)/obj/csource-runtime.o
SLIB_OBJ += $(O)/san/csource-runtime.o
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(O)/tests/%)
# Self-fuzzing harnesses tests/fuzz/fuzz-NAME.c (see Self-fuzzing below).
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz-%.c,%,$(wildcard tests/fuzz/fuzz-*.c))
FUZZ_BIN := $(FUZZ_NAMES:%=$(O)/fuzz/fuzz-%)

all: $(O)/mmfuzz $(O)/mmfuzz-mutator.so

$(O)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CCACHE) $(CC) $(MMF_CFLAGS) -MMD -MP -c -o $@ $<

$(O)/san/%.o: %.c
	@mkdir -p $(dir $@)
	$(CCACHE) $(CC) $(MMF_CFLAGS) $(SAN) -MMD -MP -c -o $@ $<

$(O)/libmmfuzz.a: $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(O)/libmmfuzz-san.a: $(SLIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

# mmfuzz --version: the release and the commit it was built from; the file
# is rewritten only when that changes, so a build stays incremental.
VERSION	:= 0.1
$(O)/version.c: FORCE
	@mkdir -p $(dir $@)
	@v=$$(git describe --always --dirty 2>/dev/null || echo unknown); \
	echo "const char mmf_version[] = \"mmfuzz $(VERSION) ($$v)\";" >$@.tmp; \
	cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(O)/obj/version.o: $(O)/version.c
	$(CCACHE) $(CC) $(MMF_CFLAGS) -c -o $@ $<

CMD_OBJ	+= $(O)/obj/version.o

# The C reproducer's runtime: fuzzers/csource/runtime/NAME.c (what only a
# reproducer does) and fuzzers/runtime/NAME.h (the calls' code, which the
# executor compiles too) become the string mmf_rt_NAME (csource/runtime.h),
# the file's text without its SPDX line and its project includes (the
# reproducer carries those pieces itself). The files are checked by
# compiling the reproducers that carry them (tests/unit/test-csource.c).
$(O)/csource-runtime.c: $(CS_RUNTIME)
	@mkdir -p $(dir $@)
	@{ echo '/* Made by the Makefile from $(CS_RUNTIME_DIRS). */'; \
	echo '#include "csource/runtime.h"'; \
	for f in $(CS_RUNTIME); do \
		echo; echo "const char mmf_rt_$$(basename $$f | sed 's/\..*//')[] ="; \
		sed -e '1{/SPDX-License-Identifier/d}' -e '/^#include "/d' -e 's/[\\"]/\\&/g' \
		    -e 's/^/\t"/' -e 's/$$/\\n"/' $$f; \
		echo '	;'; \
	done; } >$@

$(O)/obj/csource-runtime.o: $(O)/csource-runtime.c
	@mkdir -p $(dir $@)
	$(CCACHE) $(CC) $(MMF_CFLAGS) -c -o $@ $<

$(O)/san/csource-runtime.o: $(O)/csource-runtime.c
	@mkdir -p $(dir $@)
	$(CCACHE) $(CC) $(MMF_CFLAGS) $(SAN) -c -o $@ $<

$(O)/mmfuzz: $(CMD_OBJ) $(O)/libmmfuzz.a
	$(CC) $(MMF_CFLAGS) -o $@ $^ $(LDLIBS)

# The guests' mmfuzz (scripts/build-initramfs.sh): static, nothing to load
# from a root file system the initramfs does not have.
$(O)/mmfuzz-static: $(CMD_OBJ) $(O)/libmmfuzz.a
	$(CC) $(MMF_CFLAGS) -static -o $@ $^ $(LDLIBS)

# kvm/init's perf-hold, run before the snapshot point: a program of its
# own, since the guest's mmfuzz only arrives after it. Stripped: the same
# bytes from every clone's directory, or each would make its own
# initramfs, and so its own snapshots.
$(O)/perf-hold-static: kvm/perf-hold.c fuzzers/runtime/perf.h fuzzers/runtime/base.h
	@mkdir -p $(dir $@)
	$(CC) $(MMF_CFLAGS) -static -s -o $@ $<

static: $(O)/mmfuzz-static $(O)/perf-hold-static

# The AFL++ custom mutator (AFL_CUSTOM_MUTATOR_LIBRARY; CONTRIBUTING.md, "The
# AFL++ mutator"), next to mmfuzz for the AFL engine: fuzzers/afl/ with the
# model and util objects it needs, built with -fPIC into $(O)/pic/. It
# exports only the afl_custom_* API (-fvisibility=hidden, and default
# visibility in fuzzers/afl/mutator.h), so that its model is its own even
# in a process that has another (a test linking libmmfuzz).
AFL_MUT_SRC := $(wildcard fuzzers/afl/*.c fuzzers/model/*.c fuzzers/model/*/*.c) \
	   fuzzers/util/util.c fuzzers/util/rand.c
AFL_MUT_OBJ := $(AFL_MUT_SRC:%.c=$(O)/pic/%.o)

$(O)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CCACHE) $(CC) $(MMF_CFLAGS) -fPIC -fvisibility=hidden -MMD -MP -c -o $@ $<

$(O)/mmfuzz-mutator.so: $(AFL_MUT_OBJ)
	$(CC) $(MMF_CFLAGS) -shared -Wl,-z,defs -o $@ $^

static-arm64:
	@$(MAKE) --no-print-directory O=build-arm64 CC=aarch64-linux-gnu-gcc \
		AR=aarch64-linux-gnu-ar static

$(O)/tests/%: tests/unit/%.c $(O)/libmmfuzz-san.a
	@mkdir -p $(dir $@)
	$(CC) $(MMF_CFLAGS) $(SAN) -Itests/unit -o $@ $^ $(LDLIBS)

# test-csource compiles the reproducers it makes, with the build's warnings.
$(O)/tests/test-csource: MMF_CFLAGS += -DMMF_REPRO_CC='"$(CC) -std=gnu11 $(WARN) -pthread"'

# test-afl-mutator dlopen()s the mutator as afl-fuzz does: it needs the .so
# made, not linked in (order-only).
$(O)/tests/test-afl-mutator: MMF_CFLAGS += -DMMF_AFL_MUTATOR='"$(abspath $(O))/mmfuzz-mutator.so"'
$(O)/tests/test-afl-mutator: | $(O)/mmfuzz-mutator.so

$(O)/bench/%: bench/%.c $(O)/libmmfuzz.a
	@mkdir -p $(dir $@)
	$(CC) $(MMF_CFLAGS) -o $@ $^ $(LDLIBS)

# The fuzz-NAME binaries replay tests/fuzz/regress/NAME/ (see Self-fuzzing).
unit: $(UNIT_BIN) $(FUZZ_BIN)
	@scripts/run-tests.sh unit $(UNIT_BIN) $(FUZZ_BIN)

integration: all
	@scripts/run-tests.sh integration tests/integration/test-*.sh

layers:
	@scripts/check-layers.sh
	@scripts/check-calls.sh
	@if [ -f /usr/src/linux-source-6.12.tar.xz ] || [ -n "$${MMFUZZ_KTARBALL-}" ]; then \
		scripts/style.sh; \
	else \
		echo "layers: no kernel source for checkpatch (scripts/setup.sh installs it)" >&2; \
	fi

# The kernel's coding style (checkpatch --no-tree -f) on every C file.
style:
	@scripts/style.sh

# The whole suite: what CI runs. Integration tests need root and change swap.
check:
	@$(MAKE) --no-print-directory layers
	@$(MAKE) --no-print-directory unit
	@$(MAKE) --no-print-directory integration

# The main job: a short campaign in a guest on the default kernel (the
# newest 'make kernel', else Debian's), KVM where it works, else TCG.
# DURATION, VMS and OUT may be overridden; fuzz-native fuzzes this kernel.
DURATION ?= 5m
VMS	?= 1
OUT	?= mmfuzz-out
fuzz: all
	$(O)/mmfuzz campaign --arch x86_64 --vms $(VMS) --duration $(DURATION) --out $(OUT)

fuzz-native: all
	$(O)/mmfuzz fuzz --native --duration $(DURATION) --out $(OUT)

# Self-fuzzing: mmfuzz's own parsers under AFL++ (tests/fuzz/fuzz-NAME.c,
# one harness each). fuzz-self builds them with afl-clang-fast and
# ASan/UBSan, the library too, into $(O)/afl/ and runs each for DURATION,
# two at a time (scripts/fuzz-self.sh); it fails on any crash or hang. The
# AFL build keeps the warnings but not -Werror: clang warns where gcc does
# not (and on calls.c's positional initializers, which are fine), and
# gcc's -Werror build is the one that gates. $(O)/fuzz/fuzz-NAME, built
# with $(CC), replays tests/fuzz/regress/NAME/ in make unit.
AFL_CC	?= afl-clang-fast
AFL_CFLAGS := -std=gnu11 $(filter-out -Werror,$(WARN)) -Wno-missing-field-initializers \
	-D_GNU_SOURCE -Ifuzzers -I. -pthread -O1 -g $(SAN)
FUZZ_DEPS := tests/fuzz/harness.c $(wildcard tests/fuzz/*.h)
AFL_BIN	:= $(FUZZ_NAMES:%=$(O)/afl/fuzz-%) $(O)/afl/seed-tool
AFL_LIB_OBJ := $(LIB_SRC:%.c=$(O)/afl/obj/%.o) $(O)/afl/obj/csource-runtime.o

$(O)/afl/obj/%.o: %.c
	@mkdir -p $(dir $@)
	AFL_QUIET=1 $(CCACHE) $(AFL_CC) $(AFL_CFLAGS) -MMD -MP -c -o $@ $<

$(O)/afl/obj/csource-runtime.o: $(O)/csource-runtime.c
	@mkdir -p $(dir $@)
	AFL_QUIET=1 $(CCACHE) $(AFL_CC) $(AFL_CFLAGS) -c -o $@ $<

$(O)/afl/libmmfuzz.a: $(AFL_LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(O)/afl/fuzz-%: tests/fuzz/fuzz-%.c $(FUZZ_DEPS) $(O)/afl/libmmfuzz.a
	AFL_QUIET=1 $(AFL_CC) $(AFL_CFLAGS) -DFUZZ_TARGET='"$*"' -Itests/fuzz -o $@ \
		$< tests/fuzz/harness.c $(O)/afl/libmmfuzz.a $(LDLIBS)

$(O)/afl/seed-tool: tests/fuzz/seed-tool.c $(O)/afl/libmmfuzz.a
	AFL_QUIET=1 $(AFL_CC) $(AFL_CFLAGS) -o $@ $^ $(LDLIBS)

$(O)/fuzz/fuzz-%: tests/fuzz/fuzz-%.c $(FUZZ_DEPS) $(O)/libmmfuzz-san.a
	@mkdir -p $(dir $@)
	$(CC) $(MMF_CFLAGS) $(SAN) -DFUZZ_TARGET='"$*"' -Itests/fuzz -o $@ \
		$< tests/fuzz/harness.c $(O)/libmmfuzz-san.a $(LDLIBS)

afl: $(AFL_BIN)

fuzz-self: afl
	@scripts/fuzz-self.sh $(O) $(DURATION)
.PHONY: afl fuzz-self

# A fuzzing kernel: ARCH=x86_64|arm64, KSRC=a kernel tree (default: Debian's
# linux-source-6.12), PATCHES=patches to apply to it, FLAVOUR=kcsan for KCSAN
# in place of KASAN, KCOV_FILES=mm/ files to give KCOV. See docs/kernels.md.
ARCH	?= x86_64
kernel:
	@FLAVOUR="$(FLAVOUR)" KCOV_FILES="$(KCOV_FILES)" scripts/build-kernel.sh $(ARCH) "$(KSRC)" $(PATCHES)
.PHONY: kernel

bench: all $(BENCH_SRC:bench/%.c=$(O)/bench/%)
	@scripts/bench.sh $(O)

# The two engines side by side on the fuzzing kernel, RUNS runs of BUDGET.
BUDGET	?= 10m
RUNS	?= 3
bench-coverage: all
	@scripts/bench-coverage.sh $(O) $(BUDGET) $(RUNS)

# The fuzzing kernels of x86_64 and arm64 side by side: first program,
# programs/s, mm/ PCs.
bench-arch: all
	@scripts/bench-arch.sh $(O) $(if $(filter command line environment,$(origin BUDGET)),$(BUDGET),5m) \
		$(if $(filter command line environment,$(origin RUNS)),$(RUNS),1)

# Time to first finding on tests/bugs/*.patch and the clean kernel, for
# each engine, with the project's corpus as seeds and without, in ARCH
# guests.
ENGINES	?= afl mmfuzz
CORPUS	?= corpus none
bench-bugs: all
	@ARCH=$(ARCH) scripts/bench-bugs.sh $(if $(filter command line environment,$(origin BUDGET)),$(BUDGET),6m) \
		"$(ENGINES)" "$(CORPUS)"

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/mmfuzz/corpus
	install -m 755 $(O)/mmfuzz $(DESTDIR)$(PREFIX)/bin/mmfuzz
	install -m 644 corpus/*.mmf $(DESTDIR)$(PREFIX)/share/mmfuzz/corpus/

clean:
	rm -rf $(O)

FORCE:

.PHONY: FORCE all unit integration layers style check fuzz fuzz-native bench bench-coverage bench-arch bench-bugs install clean static static-arm64
.DELETE_ON_ERROR:

-include $(shell find $(O) -name '*.d' 2>/dev/null)
