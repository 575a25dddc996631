# blobc - asset baker and blob compiler.
#   make            build build/blobc and the library (libblobc.a, libblobc.so)
#   make check      build and run every test (ends with "N passed, N failed")
#   make asan       the suite under -fsanitize=address,undefined
#   make tsan       the threaded tests under -fsanitize=thread
#   make deps       install what the build, the tests and the benchmarks need
#                   (Debian/Ubuntu)
#   make fuzz       run the libFuzzer targets (clang) for FUZZ_SECONDS each
#   make bench      run the benchmarks (FLATCC_SRC=DIR adds flatcc as a peer)
#   make install    PREFIX=/usr/local DESTDIR=
#   make windows    cross-build for Windows into build-win/ (mingw-w64)
#   make windows-dist   build-win/blobc-VERSION-windows-x86_64.zip
#   make check-windows  the tests against the Windows build, under Wine
#   make windows-tests  build what check-windows runs, without running it
CC      ?= cc
OBJCOPY ?= objcopy
BUILD   ?= build
OPT     ?= -O2 -g
CFLAGS  ?=
LDFLAGS ?=
# The shared library's link: LDFLAGS without static sanitizer runtimes.
SO_LDFLAGS = $(filter-out -static-libasan -static-libubsan,$(LDFLAGS))
PREFIX  ?= /usr/local
DESTDIR ?=
FUZZ_SECONDS ?= 20
FUZZ_JOBS ?= $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
# FUZZ_TOTAL=N: the fuzz stage's wall time in seconds, split over the
# targets (tests/fuzz/run.sh), in place of FUZZ_SECONDS each.
FUZZ_TOTAL ?=
# The script make check runs the suites with (make asan: tests/asan.sh).
TEST_RUNNER ?= tests/run.sh
PKGS    := yaml-0.1 libcjson libxxhash libcurl
# libcurl is compiled against but loaded with dlopen when an HTTP cache is
# used, so it is not linked: every other command starts without it.
LINK_PKGS := yaml-0.1 libcjson libxxhash
VERSION := 0.1.0

WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wno-unused-parameter
BASE    := -std=c11 -D_POSIX_C_SOURCE=200809L -pthread $(WARN) $(OPT) -Ilib/include -Ilib \
           -DBLOBC_VERSION=\"$(VERSION)\"
EXE     :=

# Windows: the same sources and rules with the mingw-w64 cross compiler
# (make windows sets WINDOWS=1 and BUILD=build-win). The libraries come
# from tools/windeps.sh, built from Debian's sources into build-win/deps;
# mingw-w64's C99 printf and strtod, Windows 7 and later.
# On Windows itself (MSYS2's MINGW64 shell: OS is Windows_NT) the compiler
# is MSYS2's gcc and the libraries are MSYS2's packages, found with
# pkg-config as on Linux.
WINDOWS ?= 0
ifeq ($(WINDOWS),1)
ifeq ($(OS),Windows_NT)
CROSS   ?=
WIN_NATIVE := 1
endif
CROSS   ?= x86_64-w64-mingw32-
CC      := $(CROSS)gcc
AR      := $(CROSS)ar
LD      := $(CROSS)ld
OBJCOPY := $(CROSS)objcopy
EXE     := .exe
BASE    := $(filter-out -pthread,$(BASE)) -D__USE_MINGW_ANSI_STDIO=1 -D_WIN32_WINNT=0x0601
# blobc.exe runs at build time (gen c for the reader sample) under Wine,
# in the prefix make check-windows uses.
export WINEPREFIX ?= $(abspath $(BUILD))/wine
export WINEDEBUG ?= -all
export WINEDLLOVERRIDES ?= mscoree,mshtml=
RUN_BLOBC = wine $(BLOBC)
else
RUN_BLOBC = $(BLOBC)
endif

# Every core builds unless the command line says -j (make 4.x lets a
# makefile add to MAKEFLAGS; the flag reaches sub-makes too, which share
# the top make's job slots and so add nothing).
ifeq ($(MAKELEVEL)$(filter -j% j%,$(MAKEFLAGS)),0)
MAKEFLAGS += -j$(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
endif

# `make` alone builds `all`, although the config.mk rule below comes first.
.DEFAULT_GOAL := all

# Compiler and linker flags of the dependencies, found once by pkg-config
# after tools/deps.sh made sure they are there. Regenerated when missing.
# Only `make deps` and the README's two commands (`make sample`, `make
# check`) install packages; any other goal stops with the list of what is
# missing and a pointer to `make deps`.
NODEPS_GOALS := clean deps distclean uninstall windows windows-dist windows-tests check-windows
ifeq ($(filter $(NODEPS_GOALS),$(MAKECMDGOALS)),)
include $(BUILD)/config.mk
endif
DEPS_MODE := $(if $(filter check,$(MAKECMDGOALS)),--install all,$(if $(filter sample,$(MAKECMDGOALS)),--install build,--check))
ifeq ($(WINDOWS)$(WIN_NATIVE),11)
WIN_DEPS := $(BUILD)/deps
$(BUILD)/config.mk: Makefile
	@mkdir -p $(BUILD)
	@printf 'DEP_CFLAGS := %s\nDEP_LIBS := %s\n' \
	  "$$(pkg-config --cflags $(PKGS)) -DCJSON_IMPORT_SYMBOLS" "$$(pkg-config --libs $(LINK_PKGS))" > $@.tmp
	@mv $@.tmp $@
else ifeq ($(WINDOWS),1)
WIN_DEPS := $(BUILD)/deps
$(BUILD)/config.mk: Makefile tools/deps.sh tools/windeps.sh
	@mkdir -p $(BUILD)
	@sh tools/deps.sh --install windows
	@sh tools/windeps.sh $(WIN_DEPS)
	@printf 'DEP_CFLAGS := %s\nDEP_LIBS := %s\n' \
	  "-I$(WIN_DEPS)/include -DYAML_DECLARE_STATIC -DCJSON_HIDE_SYMBOLS" \
	  "-L$(WIN_DEPS)/lib -lyaml -lcjson -lxxhash -lws2_32" > $@.tmp
	@mv $@.tmp $@
else
$(BUILD)/config.mk: Makefile tools/deps.sh
	@mkdir -p $(BUILD)
	@sh tools/deps.sh $(DEPS_MODE)
	@printf 'DEP_CFLAGS := %s\nDEP_LIBS := %s\n' \
	  "$$(pkg-config --cflags $(PKGS))" "$$(pkg-config --libs $(LINK_PKGS))" > $@.tmp
	@mv $@.tmp $@
endif

ALL_CFLAGS := $(BASE) $(DEP_CFLAGS) $(CFLAGS)
LIBS       := $(DEP_LIBS) -lm $(if $(filter 1,$(WINDOWS)),-lws2_32,-pthread)

LIB_SRC  := $(sort $(wildcard lib/*/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_SRC  := $(sort $(wildcard cmd/blobc/*.c))
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%$(EXE))
# randgen is several files (tests/tools/randgen.c and randgen_*.c, one
# program); every other tool is one file.
RANDGEN_PARTS := $(sort $(wildcard tests/tools/randgen_*.c))
TOOL_SRC := $(filter-out $(RANDGEN_PARTS),$(sort $(wildcard tests/tools/*.c)))
TOOL_BIN := $(TOOL_SRC:tests/tools/%.c=$(BUILD)/tools/%$(EXE))
# The platform layer (lib/platform/) is linked into the command line as
# well: it is the CLI's only way to the operating system, and libblobc.a
# keeps its names to itself.
PLAT_OBJ := $(filter $(BUILD)/lib/platform/%,$(LIB_OBJ))
LIBA     := $(BUILD)/libblobc.a
# Every library object as it is, internal names included: for the unit
# tests and test tools, which reach behind the public API. Not installed.
LIBI     := $(BUILD)/libblobc-internal.a
# The shared library (SHARED=0 leaves it out of make and make install).
SHARED   ?= 1
SOMAJOR  := 0
SONAME   := libblobc.so.$(SOMAJOR)
LIBSO    := $(BUILD)/libblobc.so.$(VERSION)
SO_GOAL  := $(if $(filter 1,$(SHARED)),$(LIBSO))
BLOBC    := $(BUILD)/blobc$(EXE)
READER   := $(BUILD)/samples/reader$(EXE)
HOTRELOAD := $(BUILD)/samples/hotreload$(EXE)
ifeq ($(WINDOWS),1)
SO_GOAL  := $(if $(filter 1,$(SHARED)),$(BUILD)/libblobc.dll)
endif

.PHONY: FORCE all deps sample reader check unit asan tsan fuzz fuzz-build bench install uninstall clean distclean \
        windows windows-all windows-dist windows-zip windows-tests windows-tests-all check-windows check-windows-run
all: $(BLOBC) $(LIBA) $(SO_GOAL)

# The README's first command: build, bake the sample level, print it back.
sample: $(BLOBC)
	$(BLOBC) bake samples/level.yaml -o $(BUILD)/level.blob
	$(BLOBC) dump $(BUILD)/level.blob

deps:
	@sh tools/deps.sh --install all

$(BUILD)/%.o: %.c $(BUILD)/config.mk
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

# The library is compiled with hidden visibility: only BLOBC_API functions
# (blobc/api.h) leave libblobc.so. libblobc.a holds one object, all the
# library's objects linked together (ld -r) with every hidden name then
# made local, so a program linking it statically sees the blobc_ API and
# nothing else to collide with (tests/cli/install.sh checks both with nm).
ifeq ($(WINDOWS),1)
$(LIB_OBJ): ALL_CFLAGS += -DBLOBC_BUILDING
else
$(LIB_OBJ): ALL_CFLAGS += -fPIC -fvisibility=hidden
endif

# The cache key covers the code that bakes, not only its version number
# (docs/PIPELINE.md): a checksum of the library's sources, kept in a file
# rewritten only when it changes, so that only plan.c is compiled again.
SOURCE_ID := $(shell cat $(sort $(wildcard lib/*/*.c lib/*/*.h lib/include/blobc/*.h)) | cksum | cut -d' ' -f1)
$(BUILD)/source-id: FORCE
	@mkdir -p $(dir $@)
	@echo '$(SOURCE_ID)' | cmp -s - $@ || echo '$(SOURCE_ID)' >$@
$(BUILD)/lib/bake/plan.o: $(BUILD)/source-id
$(BUILD)/lib/bake/plan.o: ALL_CFLAGS += -DBLOBC_SOURCE_ID=\"$(SOURCE_ID)\"
FORCE:

# Windows objects have no visibility: there the names libblobc.dll exports
# are the ones kept global.
ifeq ($(WINDOWS),1)
$(BUILD)/libblobc.o: $(LIB_OBJ) $(BUILD)/libblobc.dll
	$(LD) -r -o $@.tmp $(LIB_OBJ)
	sed -n 's/^    \([A-Za-z_][A-Za-z_0-9]*\).*/\1/p' $(BUILD)/libblobc.def >$@.syms
	$(OBJCOPY) --keep-global-symbols=$@.syms $@.tmp $@
	@rm -f $@.tmp $@.syms
else
$(BUILD)/libblobc.o: $(LIB_OBJ)
	$(LD) -r -o $@.tmp $(LIB_OBJ)
	$(OBJCOPY) --localize-hidden $@.tmp $@
	@rm -f $@.tmp
endif

$(LIBA): $(BUILD)/libblobc.o
	@rm -f $@
	$(AR) rcs $@ $<

$(LIBI): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BLOBC): $(CLI_OBJ) $(PLAT_OBJ) $(LIBA)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(PLAT_OBJ) $(LIBA) $(LIBS)

$(BUILD)/tests/%$(EXE): tests/unit/%.c tests/unit/test.h $(LIBI)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $< $(LIBI) $(LIBS)

$(BUILD)/tools/%$(EXE): tests/tools/%.c $(LIBI)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIBI) $(LIBS)
$(BUILD)/tools/gen_fuzz_corpus: tests/fuzz/fuzz_common.h
$(BUILD)/tools/randgen$(EXE): tests/tools/randgen.c $(RANDGEN_PARTS) tests/tools/randgen.h $(LIBI)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ tests/tools/randgen.c $(RANDGEN_PARTS) $(LIBI) $(LIBS)

# Each fuzz target as a plain program (tests/fuzz/replay.c): make check
# replays its seeds and regression cases through it.
FUZZ_SRC    := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_DEPS   := tests/fuzz/fuzz_common.h tests/fuzz/roundtrip.h
REPLAY_BIN  := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz-replay/%)

$(BUILD)/fuzz-replay/%: tests/fuzz/%.c tests/fuzz/replay.c $(FUZZ_DEPS) $(LIBI)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< tests/fuzz/replay.c $(LIBI) $(LIBS)

unit: $(UNIT_BIN)

check: $(BLOBC) $(LIBA) $(SO_GOAL) $(UNIT_BIN) $(TOOL_BIN) $(READER) $(HOTRELOAD) $(REPLAY_BIN)
	@sh tools/deps.sh --install all
	@BUILD=$(BUILD) CC="$(CC)" sh $(TEST_RUNNER)

# The whole suite again with AddressSanitizer and UndefinedBehaviorSanitizer.
# gcc links its sanitizer runtimes statically into the programs (clang
# does by default): a sanitized blobc then starts in two thirds of the
# time, which the thousands of starts of a run add up. The shared library
# leaves them out (SO_LDFLAGS): a runtime linked into a library is not
# supported.
ASAN_LD := -fsanitize=address,undefined $(if $(findstring clang,$(shell $(CC) --version 2>/dev/null | head -1)),,-static-libasan -static-libubsan)
asan:
	$(MAKE) all
	$(MAKE) check BUILD=build-asan TEST_RUNNER=tests/asan.sh OPT="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all" \
	  LDFLAGS="$(ASAN_LD)"

# The tests that run threads, under ThreadSanitizer (gcc or clang), in
# build-tsan/. Ends with "N passed, N failed" like make check.
TSAN_TESTS := test_threads test_yaml_pipe test_cache test_read test_pipeline
tsan:
	$(MAKE) BUILD=build-tsan OPT="-O1 -g -fsanitize=thread" LDFLAGS="-fsanitize=thread" \
	  $(TSAN_TESTS:%=build-tsan/tests/%)
	@BUILD=build-tsan TESTS="$(TSAN_TESTS)" sh tests/run.sh

# Fuzzing: libFuzzer targets in tests/fuzz/, built with clang under ASan
# and UBSan in build-fuzz/, each run for FUZZ_SECONDS (or a share of
# FUZZ_TOTAL), FUZZ_JOBS at a time.
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%)
FUZZ_OPT := -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined \
            -fno-sanitize-recover=all

$(BUILD)/fuzz/%: tests/fuzz/%.c $(FUZZ_DEPS) $(LIBI)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer,address,undefined -o $@ $< $(LIBI) $(LIBS)

fuzz-build: $(FUZZ_BIN)

fuzz:
	@if ! command -v clang >/dev/null 2>&1; then \
	  echo "make fuzz: clang not found; the fuzz targets need clang (apt-get install clang)"; \
	  exit 0; fi; \
	$(MAKE) --no-print-directory BUILD=build-fuzz CC=clang OPT="$(FUZZ_OPT)" fuzz-build && \
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(FUZZ_JOBS) FUZZ_TOTAL=$(FUZZ_TOTAL) sh tests/fuzz/run.sh build-fuzz

# Benchmarks (bench/README.md): the programs in bench/ with the same flags,
# then the driver. BENCH_QUICK=1 is a one-size, one-run smoke test;
# FLATCC_SRC names flatcc's source directory for its peer steps.
BENCH_SRC := $(sort $(wildcard bench/*.c))
BENCH_BIN := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)

$(BUILD)/bench/%: bench/%.c bench/slurp.h $(BUILD)/config.mk
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIBS)

bench: $(BLOBC) $(BENCH_BIN)
	BUILD=$(BUILD) CC="$(CC)" sh bench/run.sh

# The C reader sample (samples/reader/): a header generated from the sample
# schema by the blobc just built, and a program that reads a baked level in
# place through it and the header-only runtime, linking nothing of blobc.
$(BUILD)/samples/level.h: schemas/level.schema $(BLOBC)
	@mkdir -p $(dir $@)
	$(RUN_BLOBC) gen c schemas/level.schema -o $@

$(READER): samples/reader/reader.c $(BUILD)/samples/level.h
	$(CC) $(ALL_CFLAGS) -pedantic -I$(BUILD)/samples $(LDFLAGS) -o $@ $<

# The hot-reload sample (samples/hotreload/): a game's frame loop that
# swaps its mapped level when `blobc watch --notify` publishes a new one.
$(HOTRELOAD): samples/hotreload/hotreload.c lib/include/blobc/notify.h $(BUILD)/samples/level.h
	$(CC) $(ALL_CFLAGS) -pedantic -I$(BUILD)/samples $(LDFLAGS) -o $@ $< $(if $(filter 1,$(WINDOWS)),-lws2_32)

reader: $(READER) $(BLOBC)
	$(BLOBC) bake samples/level.yaml -o $(BUILD)/samples/level.blob
	$(READER) $(BUILD)/samples/level.blob

# Installation: make install PREFIX=/usr/local DESTDIR=/staging. The
# library objects are position independent so that the shared library
# (SHARED=0 leaves it out) is built from the same objects as libblobc.a.
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR     ?= $(PREFIX)/share/man
PCDIR      ?= $(LIBDIR)/pkgconfig
CMAKEDIR   ?= $(LIBDIR)/cmake/blobc
CSDIR      ?= $(PREFIX)/share/blobc/cs
PUBLIC_H   := $(sort $(wildcard lib/include/blobc/*.h lib/include/blobc/*.hpp))
# The Python module goes where that Python looks for packages under PREFIX
# (sysconfig's purelib: lib/python3.X/site-packages, or dist-packages on
# Debian's own Python); empty when there is no Python, and then skipped.
# Debian's default scheme (posix_local) would add a "local/" to PREFIX, so
# the prefix scheme is asked, with Debian's directory name.
PYTHON     ?= python3
PYTHONDIR  ?= $(shell $(PYTHON) -c 'import sysconfig as s; p = s.get_path("purelib", "posix_prefix", vars={"base": "$(PREFIX)", "platbase": "$(PREFIX)"}); deb = getattr(s, "get_default_scheme", str)() == "posix_local"; print(p.replace("site-packages", "dist-packages") if deb else p)' 2>/dev/null)
PYTHON_SRC := $(sort $(wildcard python/blobc/*.py))

$(LIBSO): $(LIB_OBJ)
	$(CC) -shared -Wl,-soname,$(SONAME) $(SO_LDFLAGS) -o $@ $(LIB_OBJ) $(LIBS)

# libblobc.dll with its import library; the objects export exactly the
# BLOBC_API functions (blobc/api.h).
$(BUILD)/libblobc.dll: $(LIB_OBJ)
	$(CC) -shared $(SO_LDFLAGS) -o $@ -Wl,--out-implib,$(BUILD)/libblobc.dll.a \
	  -Wl,--output-def,$(BUILD)/libblobc.def $(LIB_OBJ) $(LIBS)

# The CMake package finds the installed files relative to itself, so that
# a tree installed with DESTDIR and moved keeps working.
relpath = $(shell realpath -m --relative-to="$(CMAKEDIR)" "$(1)")
empty :=
space := $(empty) $(empty)

install: $(BLOBC) $(LIBA) $(SO_GOAL)
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(LIBDIR)" "$(DESTDIR)$(PCDIR)" \
	  "$(DESTDIR)$(INCLUDEDIR)/blobc" "$(DESTDIR)$(MANDIR)/man1"
	install -m 755 $(BLOBC) "$(DESTDIR)$(BINDIR)/blobc"
	install -m 644 $(LIBA) "$(DESTDIR)$(LIBDIR)/libblobc.a"
	install -m 644 $(PUBLIC_H) "$(DESTDIR)$(INCLUDEDIR)/blobc"
	install -m 644 man/blobc.1 "$(DESTDIR)$(MANDIR)/man1/blobc.1"
	install -d "$(DESTDIR)$(CSDIR)"
	install -m 644 lib/cs/BlobcRuntime.cs "$(DESTDIR)$(CSDIR)/BlobcRuntime.cs"
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
	  -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@VERSION@|$(VERSION)|g' \
	  -e 's|@REQUIRES@|$(LINK_PKGS)|g' lib/blobc.pc.in > "$(DESTDIR)$(PCDIR)/blobc.pc"
	install -d "$(DESTDIR)$(CMAKEDIR)"
	sed -e 's|@REL_INCLUDEDIR@|$(call relpath,$(INCLUDEDIR))|g' -e 's|@REL_LIBDIR@|$(call relpath,$(LIBDIR))|g' \
	  -e 's|@REL_BINDIR@|$(call relpath,$(BINDIR))|g' -e 's|@REL_CSDIR@|$(call relpath,$(CSDIR))|g' \
	  -e 's|@LINK_LIBS@|$(subst $(space),;,$(strip $(LIBS)))|g' lib/cmake/blobcConfig.cmake.in > "$(DESTDIR)$(CMAKEDIR)/blobcConfig.cmake"
	sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@VERSION_MAJOR@|$(word 1,$(subst ., ,$(VERSION)))|g' \
	  -e 's|@VERSION_MINOR@|$(word 2,$(subst ., ,$(VERSION)))|g' \
	  lib/cmake/blobcConfigVersion.cmake.in > "$(DESTDIR)$(CMAKEDIR)/blobcConfigVersion.cmake"
ifeq ($(SHARED),1)
	install -m 755 $(LIBSO) "$(DESTDIR)$(LIBDIR)/libblobc.so.$(VERSION)"
	ln -sf libblobc.so.$(VERSION) "$(DESTDIR)$(LIBDIR)/$(SONAME)"
	ln -sf $(SONAME) "$(DESTDIR)$(LIBDIR)/libblobc.so"
endif
ifneq ($(PYTHONDIR),)
	install -d "$(DESTDIR)$(PYTHONDIR)/blobc"
	install -m 644 $(PYTHON_SRC) "$(DESTDIR)$(PYTHONDIR)/blobc"
	ln -sf "$(LIBDIR)/$(SONAME)" "$(DESTDIR)$(PYTHONDIR)/blobc/$(SONAME)"
endif

# Removes exactly what install put there, and the blobc include directory
# when that leaves it empty; shared directories (bin, lib, ...) stay.
uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/blobc" "$(DESTDIR)$(LIBDIR)/libblobc.a" \
	  "$(DESTDIR)$(LIBDIR)/libblobc.so.$(VERSION)" "$(DESTDIR)$(LIBDIR)/$(SONAME)" \
	  "$(DESTDIR)$(LIBDIR)/libblobc.so" "$(DESTDIR)$(PCDIR)/blobc.pc" \
	  "$(DESTDIR)$(MANDIR)/man1/blobc.1" "$(DESTDIR)$(CSDIR)/BlobcRuntime.cs" \
	  "$(DESTDIR)$(CMAKEDIR)/blobcConfig.cmake" "$(DESTDIR)$(CMAKEDIR)/blobcConfigVersion.cmake" \
	  $(foreach h,$(notdir $(PUBLIC_H)),"$(DESTDIR)$(INCLUDEDIR)/blobc/$(h)")
	rmdir "$(DESTDIR)$(INCLUDEDIR)/blobc" "$(DESTDIR)$(CMAKEDIR)" "$(DESTDIR)$(CSDIR)" \
	  "$(DESTDIR)$(PREFIX)/share/blobc" 2>/dev/null || true
ifneq ($(PYTHONDIR),)
	rm -f $(foreach f,$(notdir $(PYTHON_SRC)) $(SONAME),"$(DESTDIR)$(PYTHONDIR)/blobc/$(f)")
	rm -rf "$(DESTDIR)$(PYTHONDIR)/blobc/__pycache__"
	rmdir "$(DESTDIR)$(PYTHONDIR)/blobc" 2>/dev/null || true
endif

# ---- Windows ----
# make windows: blobc.exe, libblobc.dll (+ libblobc.dll.a), libblobc.a and
# the public headers in build-win/, and the DLLs blobc.exe loads next to it.
WIN_MAKE = $(MAKE) --no-print-directory WINDOWS=1 BUILD=build-win
windows:
	+@$(WIN_MAKE) windows-all

windows-all: $(BLOBC) $(LIBA) $(SO_GOAL)
	@mkdir -p $(BUILD)/include/blobc
	@cp $(PUBLIC_H) $(BUILD)/include/blobc/
	@[ ! -f $(WIN_DEPS)/bin/libcurl-4.dll ] || cp $(WIN_DEPS)/bin/libcurl-4.dll $(BUILD)/
	@echo "make windows: $(BLOBC), $(SO_GOAL) $(BUILD)/libblobc.dll.a, $(LIBA), $(BUILD)/include/"

# make windows-dist: the zip a studio installs from (tools/windist.sh).
windows-dist:
	+@$(WIN_MAKE) windows-zip

windows-zip: windows-all
	@BUILD=$(BUILD) VERSION=$(VERSION) sh tools/windist.sh

# make windows-tests: what make check-windows runs, built for Windows and
# not run (.ci/run builds it at low priority beside the sanitizer and fuzz
# stages, whose cores are not always busy).
windows-tests:
	+@$(WIN_MAKE) windows-tests-all

windows-tests-all: windows-all $(UNIT_BIN) $(TOOL_BIN) $(READER) $(HOTRELOAD)

# make check-windows: the unit tests, the test tools and blobc.exe built
# for Windows, then the suites run against them under Wine (tests/wine.sh).
check-windows:
	+@$(MAKE) --no-print-directory all
	+@$(WIN_MAKE) check-windows-run

check-windows-run: windows-tests-all
	@sh tools/deps.sh --install all
	@BUILD=$(BUILD) sh tests/wine.sh

# build-win/deps (the Windows libraries, minutes to build) stays until
# make distclean.
clean:
	rm -rf $(BUILD) build-asan build-tsan build-fuzz
	@[ ! -d build-win ] || find build-win -mindepth 1 -maxdepth 1 ! -name deps -exec rm -rf {} +

distclean: clean
	rm -rf build-win

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d)
