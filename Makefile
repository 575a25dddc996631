# blobc - asset baker and blob compiler.
#   make            build build/blobc and build/libblobc.a
#   make check      build and run every test (ends with "N passed, N failed")
#   make asan       the suite under -fsanitize=address,undefined
#   make deps       install missing build dependencies (Debian/Ubuntu)
#   make fuzz       run the libFuzzer targets (clang) for FUZZ_SECONDS each
#   make bench      run the benchmarks
#   make install    PREFIX=/usr/local DESTDIR=
CC      ?= cc
BUILD   ?= build
OPT     ?= -O2 -g
CFLAGS  ?=
LDFLAGS ?=
PREFIX  ?= /usr/local
DESTDIR ?=
FUZZ_SECONDS ?= 20
PKGS    := yaml-0.1 libcjson libxxhash
VERSION := 0.1.0

WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wno-unused-parameter
BASE    := -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(OPT) -Ilib/include -Ilib \
           -DBLOBC_VERSION=\"$(VERSION)\"

# `make` alone builds `all`, although the config.mk rule below comes first.
.DEFAULT_GOAL := all

# Compiler and linker flags of the dependencies, found once by pkg-config
# after tools/deps.sh made sure they are installed. Regenerated when missing.
NODEPS_GOALS := clean deps distclean uninstall
ifeq ($(filter $(NODEPS_GOALS),$(MAKECMDGOALS)),)
-include $(BUILD)/config.mk
endif
$(BUILD)/config.mk: Makefile tools/deps.sh
	@mkdir -p $(BUILD)
	@sh tools/deps.sh
	@printf 'DEP_CFLAGS := %s\nDEP_LIBS := %s\n' \
	  "$$(pkg-config --cflags $(PKGS))" "$$(pkg-config --libs $(PKGS))" > $@.tmp
	@mv $@.tmp $@

ALL_CFLAGS := $(BASE) $(DEP_CFLAGS) $(CFLAGS)
LIBS       := $(DEP_LIBS) -lm

LIB_SRC  := $(sort $(wildcard lib/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_SRC  := $(sort $(wildcard cmd/blobc/*.c))
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
TOOL_SRC := $(sort $(wildcard tests/tools/*.c))
TOOL_BIN := $(TOOL_SRC:tests/tools/%.c=$(BUILD)/tools/%)
LIBA     := $(BUILD)/libblobc.a
BLOBC    := $(BUILD)/blobc

.PHONY: all deps sample check unit asan fuzz fuzz-build bench install uninstall clean distclean
all: $(BLOBC) $(LIBA)

# The README's first command: build, bake the sample level, print it back.
sample: $(BLOBC)
	$(BLOBC) bake samples/level.yaml -o $(BUILD)/level.blob
	$(BLOBC) dump $(BUILD)/level.blob

deps:
	@sh tools/deps.sh

$(BUILD)/%.o: %.c $(BUILD)/config.mk
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(LIBA): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BLOBC): $(CLI_OBJ) $(LIBA)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(LIBA) $(LIBS)

$(BUILD)/tests/%: tests/unit/%.c tests/unit/test.h $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $< $(LIBA) $(LIBS)

$(BUILD)/tools/%: tests/tools/%.c $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIBA) $(LIBS)

unit: $(UNIT_BIN)

check: $(BLOBC) $(LIBA) $(UNIT_BIN) $(TOOL_BIN)
	@BUILD=$(BUILD) CC="$(CC)" sh tests/run.sh

# The whole suite again with AddressSanitizer and UndefinedBehaviorSanitizer.
asan:
	$(MAKE) check BUILD=build-asan OPT="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all" \
	  LDFLAGS="-fsanitize=address,undefined"

# Fuzzing: libFuzzer targets in tests/fuzz/, built with clang under ASan
# and UBSan in build-fuzz/, each run for FUZZ_SECONDS.
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%)
FUZZ_OPT := -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined \
            -fno-sanitize-recover=all

$(BUILD)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz_common.h $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer,address,undefined -o $@ $< $(LIBA) $(LIBS)

fuzz-build: $(FUZZ_BIN)

fuzz:
	@if ! command -v clang >/dev/null 2>&1; then \
	  echo "make fuzz: clang not found; the fuzz targets need clang (apt-get install clang)"; \
	  exit 0; fi; \
	$(MAKE) --no-print-directory BUILD=build-fuzz CC=clang OPT="$(FUZZ_OPT)" fuzz-build && \
	FUZZ_SECONDS=$(FUZZ_SECONDS) sh tests/fuzz/run.sh build-fuzz

# Benchmarks (bench/README.md): the programs in bench/ with the same flags,
# then the driver. BENCH_QUICK=1 is a one-size, one-run smoke test.
BENCH_SRC := $(sort $(wildcard bench/*.c))
BENCH_BIN := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)

$(BUILD)/bench/%: bench/%.c bench/slurp.h $(BUILD)/config.mk
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIBS)

bench: $(BLOBC) $(BENCH_BIN)
	BUILD=$(BUILD) CC="$(CC)" sh bench/run.sh

clean:
	rm -rf $(BUILD) build-asan build-fuzz

distclean: clean

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d)
