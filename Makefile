# SPDX-License-Identifier: LGPL-2.1-or-later
#
# perfev: one GNU Makefile, no configure step.
#
#   make              library (shared + static), perfev, examples
#   make check        everything, an ASan+UBSan build, all tests
#   make demo         run perfev on the bundled workload
#   make install      PREFIX=/usr/local DESTDIR=
#   make fuzz         libFuzzer harnesses (clang), FUZZ_TIME=60 seconds each
#   make fuzz-long    the same, for long runs (docs/fuzzing.md)
#
# Missing Debian build dependencies are installed by scripts/deps.sh
# (apt-get, only when something is missing); those only the tests use
# (chromium, perf) by make check alone.  NO_DEPS=1 skips that step.

VERSION    := 0.1.0
SOVERSION  := 0
PREFIX     ?= /usr/local
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR     ?= $(PREFIX)/bin
MANDIR     ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

CC      ?= cc
AR      ?= ar
CLANG   ?= clang
O       := build

WARNINGS := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wmissing-declarations -Wold-style-definition -Wpointer-arith -Wcast-align \
	-Wwrite-strings -Wformat=2 -Wformat-security -Wundef -Wvla -Wimplicit-fallthrough \
	-Wno-unused-parameter -Wno-missing-field-initializers
CFLAGS   ?= -O2 -g
# -MMD -MP: each compile writes the headers it read to a .d file next to its output,
# included below, so editing any header rebuilds exactly what uses it.
BASE_CFLAGS := -std=gnu11 $(WARNINGS) -D_GNU_SOURCE -Iinclude -MMD -MP $(CFLAGS)
TEP_CFLAGS := $(shell pkg-config --cflags libtraceevent 2>/dev/null || echo -I/usr/include/traceevent)
TEP_LIBS   := $(shell pkg-config --libs libtraceevent 2>/dev/null || echo -ltraceevent)
LIB_CFLAGS := $(BASE_CFLAGS) -Isrc/lib $(TEP_CFLAGS) -fPIC -fvisibility=hidden
# libiberty (static, PIC) demangles C++ and Rust names.
# capstone is not linked: the library loads it when it first disassembles
# (src/lib/symbols/capstone.c), so the programs that never do start faster.
LIB_LIBS   := $(TEP_LIBS) -ldw -lelf -liberty -lpthread -lzstd -ldl
SAN_FLAGS  := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

LIB_SRCS   := $(wildcard src/lib/*/*.c)
CLI_SRCS   := $(wildcard src/cli/*.c src/cli/*/*.c)
UNIT_SRCS  := $(wildcard tests/unit/test-*.c)
KERN_SRCS  := $(wildcard tests/kernel/test-*.c)
EX_SRCS    := $(wildcard examples/*.c)
# unwind-workload.c is built twice, with and without frame pointers (rules below).
BENCH_SRCS := $(filter-out bench/unwind-workload.c,$(wildcard bench/*.c))
FUZZ_SRCS  := $(wildcard fuzz/fuzz-*.c)
HEADERS    := $(wildcard include/perfev/*.h)

LIB_OBJS   := $(LIB_SRCS:%.c=$(O)/%.o)
SAN_OBJS   := $(LIB_SRCS:%.c=$(O)/san/%.o)
CLI_OBJS   := $(CLI_SRCS:%.c=$(O)/%.o)
SAN_CLI_OBJS := $(CLI_SRCS:%.c=$(O)/san/%.o)
# perfev report --pprof: C code protoc-c generates from proto/profile.proto, in the build dir.
PROTO_GEN  := $(O)/gen
PROTO_OBJS := $(PROTO_GEN)/profile.pb-c.o
PROTOC_C   ?= protoc-c
UNIT_BINS  := $(UNIT_SRCS:%.c=$(O)/%)
SAN_UNIT_BINS := $(UNIT_SRCS:%.c=$(O)/san/%)
KERN_BINS  := $(KERN_SRCS:%.c=$(O)/%)
EX_BINS    := $(EX_SRCS:%.c=$(O)/%)
BENCH_BINS := $(BENCH_SRCS:%.c=$(O)/%)
UNWIND_BINS := $(O)/bench/unwind-workload-fp $(O)/bench/unwind-workload-nofp
REPLAY_BINS := $(FUZZ_SRCS:fuzz/fuzz-%.c=$(O)/san/fuzz/replay-%)
FUZZ_BINS  := $(FUZZ_SRCS:fuzz/%.c=$(O)/fuzz/%)

SONAME     := libperfev.so.$(SOVERSION)
SHLIB      := $(O)/$(SONAME)
STLIB      := $(O)/libperfev.a
PERFEV     := $(O)/perfev
TEST_HARNESS := tests/harness.c

DEPS_STAMP := $(O)/.deps-ok
TEST_DEPS_STAMP := $(O)/.test-deps-ok

# V=1 shows full command lines.
ifeq ($(V),1)
Q :=
msg = @true
else
Q := @
msg = @printf '  %-6s %s\n' $(1) $(2)
endif

.PHONY: all check demo install uninstall clean fuzz fuzz-long fuzz-deps deps unit-san bench
.DELETE_ON_ERROR:

all: $(SHLIB) $(STLIB) $(PERFEV) $(EX_BINS) $(BENCH_BINS) $(UNWIND_BINS) $(O)/libperfev.pc

# Dependencies are checked once per build tree, and again if the list changes.
$(DEPS_STAMP): scripts/deps.sh
	@mkdir -p $(O)
	@if [ -z "$(NO_DEPS)" ]; then sh scripts/deps.sh; fi
	@touch $@

deps:
	@sh scripts/deps.sh

$(O)/src/lib/%.o: src/lib/%.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(LIB_CFLAGS) -c $< -o $@

$(O)/san/src/lib/%.o: src/lib/%.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(LIB_CFLAGS) $(SAN_FLAGS) -O1 -c $< -o $@

$(SHLIB): $(LIB_OBJS) libperfev.map
	$(call msg,CC,$@)
	$(Q)$(CC) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=libperfev.map \
		-Wl,--no-undefined -o $@ $(LIB_OBJS) $(LIB_LIBS)
	$(Q)ln -sf $(SONAME) $(O)/libperfev.so

$(STLIB): $(LIB_OBJS)
	@rm -f $@
	$(call msg,AR,$@)
	$(Q)$(AR) rcs $@ $^

$(O)/san/libperfev.a: $(SAN_OBJS)
	@rm -f $@
	$(call msg,AR,$@)
	$(Q)$(AR) rcs $@ $^

$(O)/src/cli/%.o: src/cli/%.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(BASE_CFLAGS) -fno-math-errno -Isrc/cli -Isrc/lib -I$(PROTO_GEN) -c $< -o $@

$(O)/src/cli/output/profile-pprof.o $(O)/san/src/cli/output/profile-pprof.o: $(PROTO_GEN)/profile.pb-c.h

# perfev report --html (and perfev diff --html): the page's template (HTML, script) as C byte arrays, by od and sed.
$(O)/src/cli/output/profile-html.o $(O)/san/src/cli/output/profile-html.o: \
	$(PROTO_GEN)/report-html.html.inc $(PROTO_GEN)/report-html.js.inc \
	$(PROTO_GEN)/page-head.html.inc

$(PROTO_GEN)/%.inc: src/cli/output/%
	@mkdir -p $(@D)
	$(call msg,GEN,$@)
	$(Q)od -An -v -tx1 $< | sed 's/[0-9a-f][0-9a-f]/0x&,/g' >$@

$(PROTO_GEN)/%.pb-c.c $(PROTO_GEN)/%.pb-c.h: proto/%.proto | $(DEPS_STAMP)
	@mkdir -p $(@D)
	@command -v $(PROTOC_C) >/dev/null 2>&1 || { echo "cannot generate $@: '$(PROTOC_C)' not found" \
		"(install protobuf-c-compiler, or run sh scripts/deps.sh)" >&2; exit 1; }
	$(call msg,PROTOC,$<)
	$(Q)$(PROTOC_C) --c_out=$(PROTO_GEN) -Iproto $<

$(PROTO_GEN)/%.pb-c.o: $(PROTO_GEN)/%.pb-c.c $(PROTO_GEN)/%.pb-c.h
	$(call msg,CC,$@)
	$(Q)$(CC) $(BASE_CFLAGS) -I$(PROTO_GEN) -c $< -o $@
# Kept: generated once per build tree, not intermediates to delete.
.SECONDARY: $(PROTO_OBJS:.o=.c) $(PROTO_OBJS:.o=.h)

# The tool links the library, and libtraceevent where its archive exists,
# statically: fewer shared objects to load makes start-up faster.
TEP_STATIC := $(firstword $(wildcard $(shell pkg-config --variable=libdir libtraceevent 2>/dev/null)/libtraceevent.a /usr/lib/$(shell $(CC) -dumpmachine 2>/dev/null)/libtraceevent.a))
# So is ncurses (top's full screen) with its terminfo library, where both archives exist.
CURSES_STATIC := $(foreach l,ncursesw tinfo,$(wildcard /usr/lib/$(shell $(CC) -dumpmachine 2>/dev/null)/lib$(l).a))
CURSES_LIBS := $(if $(word 2,$(CURSES_STATIC)),$(CURSES_STATIC),$(shell pkg-config --libs ncursesw 2>/dev/null || echo -lncursesw))
CLI_LIBS := $(if $(TEP_STATIC),$(TEP_STATIC),$(TEP_LIBS)) -ldw -lelf -liberty -lpthread -lprotobuf-c -lz -lzstd \
	-ldl $(CURSES_LIBS)
$(PERFEV): $(CLI_OBJS) $(PROTO_OBJS) $(STLIB)
	$(call msg,CC,$@)
	$(Q)$(CC) $(BASE_CFLAGS) -o $@ $(CLI_OBJS) $(PROTO_OBJS) $(STLIB) $(CLI_LIBS)

# The tool under ASan+UBSan, for tests/cli/test-hostile.sh's damaged files.
$(O)/san/src/cli/%.o: src/cli/%.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(BASE_CFLAGS) $(SAN_FLAGS) -O1 -fno-math-errno -Isrc/cli -Isrc/lib -I$(PROTO_GEN) -c $< -o $@

$(O)/san/perfev: $(SAN_CLI_OBJS) $(PROTO_OBJS) $(O)/san/libperfev.a
	$(call msg,CC,$@)
	$(Q)$(CC) $(BASE_CFLAGS) $(SAN_FLAGS) -o $@ $(SAN_CLI_OBJS) $(PROTO_OBJS) $(O)/san/libperfev.a \
		$(CLI_LIBS)

$(O)/examples/%: examples/%.c $(SHLIB)
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(BASE_CFLAGS) -o $@ $< -L$(O) -lperfev -Wl,-rpath,'$$ORIGIN/..'

$(O)/bench/%: bench/%.c $(STLIB)
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(BASE_CFLAGS) -Isrc/lib -o $@ $< $(STLIB) $(LIB_LIBS)

# bench/report.sh profiles it with frame-pointer call chains, whatever CFLAGS says.
$(O)/bench/report-workload: private BASE_CFLAGS += -O2 -g -fno-omit-frame-pointer
# tests/cli/test-offcpu.sh and bench/offcpu.sh find its waits by their stacks.
$(O)/bench/offcpu-workload: private BASE_CFLAGS += -O2 -g -fno-omit-frame-pointer
# tests/cli/test-top.sh and bench/top.sh look for its function, with its caller under -g
# (-O0: the leaf function keeps its frame).
$(O)/bench/top-spin: private BASE_CFLAGS += -O0 -g -fno-omit-frame-pointer

# perfev diff's tests and bench record it with -g: frame pointers too.
$(O)/bench/diff-workload: private BASE_CFLAGS += -O2 -g -fno-omit-frame-pointer

# tests/cli/test-unwind.sh unwinds it: with frame pointers, and without them (only the CFI
# describes its frames), whatever CFLAGS says.
$(O)/bench/unwind-workload-fp: private UNWIND_CFLAGS := -fno-omit-frame-pointer
$(O)/bench/unwind-workload-nofp: private UNWIND_CFLAGS := -fomit-frame-pointer
$(UNWIND_BINS): bench/unwind-workload.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(BASE_CFLAGS) -O2 -g $(UNWIND_CFLAGS) -o $@ $< -lm

# perfev diff's statistic, built into its test from the CLI's source, takes sqrt from libm.
$(O)/tests/unit/test-diff-sig $(O)/san/tests/unit/test-diff-sig: private LIB_LIBS += -lm

# The test's own source comes last: of several sources, gcc writes the .d file of the last.
$(O)/tests/unit/%: tests/unit/%.c $(TEST_HARNESS) tests/harness.h $(STLIB)
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(BASE_CFLAGS) $(TEP_CFLAGS) -Isrc/lib -Itests -o $@ $(TEST_HARNESS) $< $(STLIB) $(LIB_LIBS)

$(O)/san/tests/unit/%: tests/unit/%.c $(TEST_HARNESS) tests/harness.h $(O)/san/libperfev.a
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(BASE_CFLAGS) $(TEP_CFLAGS) $(SAN_FLAGS) -O1 -Isrc/lib -Itests -o $@ \
		$(TEST_HARNESS) $< $(O)/san/libperfev.a $(LIB_LIBS)

$(O)/tests/kernel/%: tests/kernel/%.c $(TEST_HARNESS) tests/harness.h $(STLIB)
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(BASE_CFLAGS) $(TEP_CFLAGS) -Isrc/lib -Itests -o $@ $(TEST_HARNESS) $< $(STLIB) $(LIB_LIBS)

# Its sampled functions must be walked with CFI alone, whatever CFLAGS says.
$(O)/tests/kernel/test-unwind: private BASE_CFLAGS += -fomit-frame-pointer

# Fuzz corpus replay: the harness with a main() that feeds it every seed file.  The
# harness's own source comes last, here and below: its .d file is the one written.
$(O)/san/fuzz/replay-%: fuzz/fuzz-%.c fuzz/replay.c $(O)/san/libperfev.a
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(BASE_CFLAGS) $(TEP_CFLAGS) $(SAN_FLAGS) -O1 -Isrc/lib $(FUZZ_XFLAGS) -o $@ \
		$(filter-out $<,$(filter %.c,$^)) $< $(O)/san/libperfev.a $(LIB_LIBS) $(FUZZ_XLIBS)

# The library is compiled for the fuzzers once, into an archive each harness links.
# Undefined behaviour stops the fuzzer and saves the input, as a crash does.
FUZZ_CFLAGS := -std=gnu11 -D_GNU_SOURCE -Iinclude -Isrc/lib $(TEP_CFLAGS) -g -O1 -MMD -MP \
	       -fno-sanitize-recover=all
FUZZ_OBJS  := $(LIB_SRCS:%.c=$(O)/fuzz/%.o)
$(O)/fuzz/src/%.o: src/%.c
	@mkdir -p $(@D)
	$(call msg,CLANG,$@)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link,address,undefined -c $< -o $@

$(O)/fuzz/libperfev.a: $(FUZZ_OBJS)
	@rm -f $@
	$(call msg,AR,$@)
	$(Q)$(AR) rcs $@ $^

$(O)/fuzz/fuzz-%: fuzz/fuzz-%.c $(O)/fuzz/libperfev.a
	@mkdir -p $(@D)
	$(call msg,CLANG,$@)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) $(FUZZ_XFLAGS) -fsanitize=fuzzer,address,undefined -o $@ \
		$(filter-out $<,$(filter %.c,$^)) $< $(O)/fuzz/libperfev.a $(LIB_LIBS) $(FUZZ_XLIBS)

# Harnesses of CLI code build its sources with them (FUZZ_XFLAGS, FUZZ_XLIBS per harness).
# options.c exits on a usage error: the harness's cli_exit() returns to it instead.
$(O)/fuzz/fuzz-options $(O)/san/fuzz/replay-options: src/cli/options.c
$(O)/fuzz/fuzz-options $(O)/san/fuzz/replay-options: private FUZZ_XFLAGS := -Isrc/cli -Dexit=cli_exit
EXPORT_SRCS := src/cli/profile.c src/cli/output/json.c $(PROTO_GEN)/profile.pb-c.c \
	$(addprefix src/cli/output/profile-,folded.c pprof.c html.c html-lines.c)
$(O)/fuzz/fuzz-export $(O)/san/fuzz/replay-export: $(EXPORT_SRCS) $(PROTO_GEN)/profile.pb-c.h \
	$(addprefix $(PROTO_GEN)/,report-html.html.inc report-html.js.inc page-head.html.inc)
$(O)/fuzz/fuzz-export $(O)/san/fuzz/replay-export: private FUZZ_XFLAGS := -Isrc/cli -I$(PROTO_GEN)
$(O)/fuzz/fuzz-export $(O)/san/fuzz/replay-export: private FUZZ_XLIBS := -lprotobuf-c -lz -lm

$(O)/libperfev.pc: libperfev.pc.in Makefile
	@mkdir -p $(@D)
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' $< > $@

unit-san: $(SAN_UNIT_BINS) $(REPLAY_BINS) $(O)/san/perfev

# What only the tests use (chromium, perf, ...) is installed for make check, never
# for a build or the demo.
$(TEST_DEPS_STAMP): scripts/deps.sh
	@mkdir -p $(O)
	@if [ -z "$(NO_DEPS)" ]; then sh scripts/deps.sh --test; fi
	@touch $@

check: all $(UNIT_BINS) $(KERN_BINS) unit-san | $(TEST_DEPS_STAMP)
	@O=$(O) sh tests/run.sh

demo: all
	@sh scripts/demo.sh $(PERFEV)

fuzz-deps:
	@sh scripts/deps.sh --fuzz

$(FUZZ_BINS): | fuzz-deps

# Measurements against Linux perf; each prints "bench=... key=value" lines.
bench: all $(BENCH_BINS)
	@$(O)/bench/parse
	@$(O)/bench/readcost
	@$(O)/bench/srcline $(PERFEV) 100000
	@PERFEV=$(PERFEV) sh bench/list.sh
	@PERFEV=$(PERFEV) SPAWN_TIME=$(O)/bench/spawn-time sh bench/stat.sh
	@PERFEV=$(PERFEV) SPAWN_TIME=$(O)/bench/spawn-time WORKLOAD=$(O)/examples/workload sh bench/record.sh
	@PERFEV=$(PERFEV) SPAWN_TIME=$(O)/bench/spawn-time WORKLOAD=$(O)/examples/workload sh bench/compress.sh
	@PERFEV=$(PERFEV) SPAWN_TIME=$(O)/bench/spawn-time SLEEPY=$(O)/bench/offcpu-workload \
		WORKLOAD=$(O)/examples/workload sh bench/offcpu.sh
	@PERFEV=$(PERFEV) SPAWN_TIME=$(O)/bench/spawn-time \
		REPORT_WORKLOAD=$(O)/bench/report-workload sh bench/report.sh
	@PERFEV=$(PERFEV) SPAWN_TIME=$(O)/bench/spawn-time WORKLOAD=$(O)/examples/workload sh bench/script.sh
	@PERFEV=$(PERFEV) SPAWN_TIME=$(O)/bench/spawn-time sh bench/annotate.sh
	@PERFEV=$(PERFEV) SPAWN_TIME=$(O)/bench/spawn-time DIFF_WORKLOAD=$(O)/bench/diff-workload \
		sh bench/diff.sh
	@UNWIND=$(O)/bench/unwind SPAWN_TIME=$(O)/bench/spawn-time PERFEV=$(PERFEV) \
		REPORT_WORKLOAD=$(O)/bench/report-workload \
		UNWIND_WORKLOAD=$(O)/bench/unwind-workload-nofp sh bench/unwind.sh
	@PERFEV=$(PERFEV) TOP_LOAD=$(O)/bench/top-spin sh bench/top.sh

# One harness after the other, FUZZ_TIME seconds each, growing $(O)/fuzz/corpus-NAME
# from fuzz/corpus/NAME; a summary line per harness (docs/fuzzing.md).
fuzz fuzz-long: $(FUZZ_BINS)
	@FUZZ_TIME=$${FUZZ_TIME:-60} sh fuzz/run-long.sh $(O)/fuzz

install: all
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/perfev $(DESTDIR)$(BINDIR) \
		$(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3
	install -m 755 $(SHLIB) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libperfev.so
	install -m 644 $(STLIB) $(DESTDIR)$(LIBDIR)/libperfev.a
	install -m 644 $(HEADERS) $(DESTDIR)$(INCLUDEDIR)/perfev/
	install -m 755 $(PERFEV) $(DESTDIR)$(BINDIR)/perfev
	@# Generated here so the paths are those of this install, whatever PREFIX make was run with.
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
		-e 's|@VERSION@|$(VERSION)|' libperfev.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/libperfev.pc
	chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/libperfev.pc
	install -m 644 docs/man/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 docs/man/*.3 $(DESTDIR)$(MANDIR)/man3/

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libperfev.so \
		$(DESTDIR)$(LIBDIR)/libperfev.a $(DESTDIR)$(BINDIR)/perfev \
		$(DESTDIR)$(PKGCONFIGDIR)/libperfev.pc
	rm -rf $(DESTDIR)$(INCLUDEDIR)/perfev
	cd docs/man && for f in *.1; do rm -f $(DESTDIR)$(MANDIR)/man1/$$f; done
	cd docs/man && for f in *.3; do rm -f $(DESTDIR)$(MANDIR)/man3/$$f; done

clean:
	rm -rf $(O)

# The headers each object and test read, from -MMD; absent before the first build.
DEP_FILES := $(LIB_OBJS:.o=.d) $(SAN_OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(SAN_CLI_OBJS:.o=.d) $(PROTO_OBJS:.o=.d) \
	$(addsuffix .d,$(UNIT_BINS) $(SAN_UNIT_BINS) $(KERN_BINS) $(EX_BINS) $(BENCH_BINS) $(UNWIND_BINS) \
	$(REPLAY_BINS) $(FUZZ_BINS)) $(FUZZ_OBJS:.o=.d)
-include $(wildcard $(DEP_FILES))
