# arbiter — build, test, demo. `make` needs nothing but scripts/deps.sh,
# which every target that builds runs first (it installs what is missing).

CC      ?= cc
# clang builds in a directory of its own, so that `make CC=clang` after a
# gcc build (or the other way round) builds rather than reusing objects.
ifeq ($(notdir $(CC)),clang)
BUILD   ?= build/clang
endif
BUILD   ?= build
SAN     ?=
OPT     ?= -O2 -g
PKGS    := jansson cmocka
PREFIX  ?= /usr/local
CFLAGS   = -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -Werror -fPIC -fvisibility=hidden $(OPT) $(SAN) -I$(BUILD)/gen $(LAYER_INCLUDES) $(LUA_CFLAGS) $(MHD_CFLAGS)
LDFLAGS := $(SAN)
LUA_CFLAGS = $(shell pkg-config --cflags lua5.4 2>/dev/null || echo -I/usr/include/lua5.4)
MHD_CFLAGS = $(shell pkg-config --cflags libmicrohttpd 2>/dev/null)
# The library's own dependencies; the program adds the HTTP server's.
LIB_LIBS = $(shell pkg-config --libs jansson lua5.4 nettle 2>/dev/null || echo -ljansson -llua5.4 -lnettle) -lcsv -lm
LIBS     = $(LIB_LIBS) $(shell pkg-config --libs libmicrohttpd 2>/dev/null || echo -lmicrohttpd)
TESTLIBS = $(LIBS) $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)

# The layers, from the bottom up (docs/internals.md): a file includes only
# headers of its own layer or of those below it, which `make test` checks
# (scripts/layers.sh). Headers are included by name; each layer's folder is
# on the include path.
LAYERS := core/base core/engine core/games dsl core/store core/tools plugins core/api core/serve core/cli
LAYER_INCLUDES = $(addprefix -I,$(LAYERS))
CORE := base/mem base/util base/diag engine/graph engine/expr engine/ruleset engine/eval \
        games/builtins games/bridge games/cards games/pbn games/pbnexport games/klaverjas games/scenario \
        store/image store/digest store/cache tools/testrun tools/dot tools/whynot tools/diff tools/overlap \
        api/output api/batch api/scoring api/adjusted api/compare api/load api/arbiter api/ruling api/tools api/report api/scores api/faces api/pbnfile api/session api/csvline api/csvout api/ranking \
        api/legalwalk api/config
DSL  := compile compile_load compile_amend compile_types compile_expr compile_decl compile_articles compile_tests check
OBJS := $(addprefix $(BUILD)/obj/core/,$(addsuffix .o,$(CORE))) \
        $(addprefix $(BUILD)/obj/dsl/,$(addsuffix .o,$(DSL))) \
        $(BUILD)/obj/plugins/plugin.o $(BUILD)/obj/plugins/patterns.o $(BUILD)/obj/plugins/heap.o \
        $(BUILD)/obj/gen/lexer.o $(BUILD)/obj/gen/parser.o
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))
DEPS_OK   := $(BUILD)/.deps-ok

.PHONY: all deps demo test test-asan install clean format
all: $(BUILD)/arbiter $(BUILD)/libarbiter.a $(BUILD)/libarbiter.so

$(DEPS_OK): scripts/deps.sh
	@scripts/deps.sh
	@mkdir -p $(BUILD) && touch $@

deps:
	@scripts/deps.sh

$(BUILD)/gen/parser.c $(BUILD)/gen/parser.h &: dsl/parser.y $(DEPS_OK)
	@mkdir -p $(BUILD)/gen
	bison -Wall -Werror -d -o $(BUILD)/gen/parser.c dsl/parser.y

$(BUILD)/gen/lexer.c: dsl/lexer.re $(BUILD)/gen/parser.h
	re2c -W -Werror -o $@ dsl/lexer.re

# The build's identity, written into every ruleset image (core/store/image.h): a
# hash of the compiler's sources, so that no build trusts an image another
# one made. The header is rewritten only when the hash changes, and
# core/store/image.c depends on it.
ARB_BUILD_ID := $(shell cat $(sort $(wildcard dsl/* core/*/*.c core/*/*.h)) | sha256sum | cut -c1-24)
.PHONY: FORCE
$(BUILD)/gen/build_id.h: FORCE
	@mkdir -p $(dir $@)
	@echo '#define ARB_BUILD_ID "$(ARB_BUILD_ID)"' >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
$(BUILD)/obj/core/store/image.o: $(BUILD)/gen/build_id.h

# Where an installed library looks for its rulesets (after $ARBITER_RULESETS
# and the places beside the program): the prefix it is built for. Rewritten
# only when PREFIX changes, so `make install PREFIX=…` rebuilds what needs it.
$(BUILD)/gen/prefix.h: FORCE
	@mkdir -p $(dir $@)
	@echo '#define ARB_DATADIR "$(PREFIX)/share/arbiter"' >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
$(BUILD)/obj/core/api/arbiter.o: $(BUILD)/gen/prefix.h

$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Wno-unused-function -c $< -o $@

$(BUILD)/obj/%.o: %.c $(BUILD)/gen/parser.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/libarbiter.a: $(OBJS)
	ar rcs $@ $^

# The shared library's ABI version: its SONAME is libarbiter.so.$(SOMAJOR).
SOMAJOR  := 0
SOVERSION := $(SOMAJOR).1.0
$(BUILD)/libarbiter.so: $(OBJS)
	$(CC) $(LDFLAGS) -shared -Wl,-soname,libarbiter.so.$(SOMAJOR) -o $@ $^ $(LIB_LIBS)

# pkg-config's description of the installed library; a static link also
# needs what Requires.private and Libs.private name.
$(BUILD)/arbiter.pc: core/api/arbiter.pc.in Makefile $(BUILD)/gen/prefix.h
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(SOVERSION)|' core/api/arbiter.pc.in >$@

# The program: the CLI on the library. Its `serve` command runs
# arbiter-serve, the same CLI with the HTTP server (which the library leaves
# out, so that an embedder links no HTTP stack): libmicrohttpd and the TLS
# libraries behind it are loaded by the command that serves, not at every
# start of `rule` (docs/performance.md, "Cold start").
$(BUILD)/arbiter: $(BUILD)/obj/core/cli/cli.o $(BUILD)/libarbiter.a | $(BUILD)/arbiter-serve
	$(CC) $(LDFLAGS) -o $@ $^ $(LIB_LIBS)

$(BUILD)/arbiter-serve: $(BUILD)/obj/core/cli/cli-server.o $(BUILD)/obj/core/serve/serve.o $(BUILD)/libarbiter.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/obj/core/cli/cli-server.o: core/cli/cli.c $(BUILD)/gen/parser.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DARBITER_SERVER -MMD -MP -c $< -o $@

$(BUILD)/tests/%: tests/unit/%.c tests/unit/fixture.h $(BUILD)/libarbiter.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libarbiter.a $(TESTLIBS)

# The demo: a director's insufficient bid, ruled under the 2017 laws.
demo: $(BUILD)/arbiter
	$(BUILD)/arbiter rule --ruleset bridge-2017 examples/insufficient-bid.json

# Every suite (unit, rulesets, scenarios, CLI); the last line sums them all.
test: $(BUILD)/arbiter $(UNIT_BINS)
	@scripts/run-tests.sh $(BUILD)

# The committee's reports in docs/reports (docs/committee.md): the 1963 and
# 2017 laws compared on Art. 27, and the shipped amendment of 64A1, as
# Markdown and HTML; a unit test (tests/unit/test_report.c) rules every
# example in them again. Each shipped amendment is ruled on a corpus of
# cases too (docs/reports/*-cases.txt; docs/committee.md, "The shipped
# corpus").
.PHONY: reports
REPORT_ENV = ARBITER_CACHE=$${ARBITER_CACHE:-$(BUILD)/cache}
reports: $(BUILD)/arbiter
	@mkdir -p docs/reports
	$(REPORT_ENV) scripts/corpus.sh $(BUILD) >examples/cases/corpus.jsonl
	$(REPORT_ENV) $(BUILD)/arbiter diff bridge-1963 bridge-2017 --article 27 --format md >docs/reports/1963-2017-art27.md
	$(REPORT_ENV) $(BUILD)/arbiter diff bridge-1963 bridge-2017 --article 27 --format html >docs/reports/1963-2017-art27.html
	$(REPORT_ENV) $(BUILD)/arbiter diff bridge-2017 bridge-2017 --amend examples/amendments/64A1-one-trick.rules --format md >docs/reports/64A1-one-trick.md
	$(REPORT_ENV) $(BUILD)/arbiter diff bridge-2017 bridge-2017 --amend examples/amendments/64A1-one-trick.rules --format html >docs/reports/64A1-one-trick.html
	$(REPORT_ENV) $(BUILD)/arbiter diff bridge-2017 bridge-2017 --amend examples/amendments/64A1-one-trick.rules --cases examples/cases/corpus.jsonl >docs/reports/64A1-one-trick-cases.txt
	$(REPORT_ENV) scripts/corpus.sh $(BUILD) klaverjas-nkf-1976 >examples/cases/klaverjas-corpus.jsonl
	@# exit status 2: some case could not be ruled; the report says which and why
	for a in klaverjas-11i5-permission klaverjas-13i6-no-revoke; do \
	    $(REPORT_ENV) $(BUILD)/arbiter diff klaverjas-nkf-1976 klaverjas-nkf-1976 --amend examples/amendments/$$a.rules \
	        --cases examples/cases/klaverjas-corpus.jsonl >docs/reports/$$a-cases.txt || [ $$? -eq 2 ]; done

# The web app and its JSON API on 127.0.0.1:8080, with the shipped rulesets (Ctrl-C stops it).
.PHONY: serve test-web
serve: $(BUILD)/arbiter
	$(BUILD)/arbiter serve --listen 127.0.0.1:8080

# The API (curl) and the web app in headless Chromium, against servers the
# tests start on loopback ports; the offline app (make web) on a static host
# with the network cut, and its WebAssembly rulings against the CLI's. Kept
# out of `make test`, which needs no browser and no emscripten.
test-web: $(BUILD)/arbiter web
	@scripts/deps.sh
	@ARBITER_CACHE=$(BUILD)/cache WEB=$(WEB) tests/web/run.sh $(BUILD)

# ---- the offline web app (core/serve/web + core/web; docs/deploy.md) --------
# `make web` builds build/web: the web app of `arbiter serve` with the library
# compiled to WebAssembly by Debian's emscripten (core/web/glue.c over
# arbiter.h), the rulesets' rule files inside it, a web manifest and a
# service worker: a folder any static web host can serve, that rules with no
# server and, once opened, with no network. Lua, jansson and libcsv are compiled from
# Debian's source packages (`apt-get source`, into build/wasm/src; nothing
# from them is committed). `scripts/deps.sh web` installs what it needs;
# `make test` needs none of it.
WEB       ?= build/web
WASM      := build/wasm
EMCC      ?= emcc
EMAR      ?= emar
WASM_SRC  := $(WASM)/src
WASM_OPT  := -O2
# The image cache's cryptography is left out (the browser keeps no cache):
# web/shim/digest.c stands in for core/store/digest.c.
WASM_OBJS := $(subst $(BUILD)/obj/,$(WASM)/obj/,$(filter-out %/store/digest.o,$(OBJS))) \
             $(WASM)/obj/core/web/shim/digest.o
WEB_FILES := $(wildcard core/serve/web/*.html core/serve/web/*.js core/serve/web/*.css core/serve/web/*.svg \
                        core/serve/web/*.webmanifest core/serve/web/*.png)
GLUE_EXPORTS := arbw_init arbw_status arbw_error arbw_free arbw_rulesets arbw_ruleset arbw_title arbw_next \
                arbw_rule arbw_batch arbw_compare arbw_score arbw_klaverjas arbw_legal arbw_matchpoints arbw_graph \
                arbw_session arbw_ranking arbw_pbn arbw_pbn_session arbw_pbn_totals arbw_csv arbw_pbn_export arbw_plugins arbw_plugin_add arbw_plugin_remove malloc free
comma := ,
empty :=
space := $(empty) $(empty)

.PHONY: web web-libs web-objects web-files test-wasm
web:
	@scripts/deps.sh web
	@$(MAKE) --no-print-directory web-libs
	@$(MAKE) --no-print-directory BUILD=$(WASM) CC=$(EMCC) OPT="$(WASM_OPT)" SAN= \
	    LUA_CFLAGS="-I$(WASM_SRC)/lua/src" MHD_CFLAGS="-I$(WASM)/include -I$(WASM_SRC)/jansson/src -I$(WASM_SRC)/libcsv" \
	    web-objects
	@$(MAKE) --no-print-directory web-files
	@scripts/web-version.sh $(WEB)
	@echo "web: $(WEB) ($$(du -sh $(WEB) | cut -f1)); serve it with any static web host"

web-libs: $(WASM)/liblua.a $(WASM)/libjansson.a $(WASM)/libcsv.a
	@:
web-files: $(WEB)/arbiter.js $(addprefix $(WEB)/,$(notdir $(WEB_FILES)))
	@:

# Called with BUILD=$(WASM) CC=emcc: the library's objects, compiled for WebAssembly.
web-objects: $(filter-out %/store/digest.o,$(OBJS)) $(BUILD)/obj/core/web/shim/digest.o
	@:

# Debian's source packages of Lua 5.4 and jansson, unpacked with Debian's patches.
$(WASM_SRC)/.unpacked:
	@rm -rf $(WASM_SRC) && mkdir -p $(WASM_SRC)
	cd $(WASM_SRC) && apt-get source -q lua5.4 jansson >apt-get-source.log 2>&1 || { cat apt-get-source.log; exit 2; }
	cd $(WASM_SRC) && ln -sfn $$(ls -d lua5.4-*/ | head -n 1) lua && ln -sfn $$(ls -d jansson-*/ | head -n 1) jansson
	@touch $@

# Lua: the library of src/ (not the lua and luac programs) with the flags of
# its src/Makefile; Debian's patched luaconf.h wants the header its build
# writes with the machine's multiarch name (only a module path uses it).
$(WASM)/liblua.a: $(WASM_SRC)/.unpacked
	@mkdir -p $(WASM)/lua $(WASM)/include
	echo '#define DEB_HOST_MULTIARCH "wasm32-emscripten"' >$(WASM)/include/lua5.4-deb-multiarch.h
	cd $(WASM)/lua && for f in $(CURDIR)/$(WASM_SRC)/lua/src/*.c; do \
	    case $$f in */lua.c|*/luac.c) continue ;; esac; \
	    $(EMCC) $(WASM_OPT) -std=gnu99 -DLUA_COMPAT_5_3 -I$(CURDIR)/$(WASM)/include -c $$f || exit 1; done
	$(EMAR) rcs $@ $(WASM)/lua/*.o

# jansson: its src/, with the two configuration headers its CMake build
# would write (every POSIX feature there, no Windows; the default table size).
$(WASM)/libjansson.a: $(WASM_SRC)/.unpacked
	@mkdir -p $(WASM)/jansson $(WASM)/include
	sed -e 's/@json_inline@/inline/' -e 's/@json_have_long_long@/1/' -e 's/@json_have_localeconv@/1/' \
	    -e 's/@json_have_atomic_builtins@/1/' -e 's/@json_have_sync_builtins@/1/' \
	    $(WASM_SRC)/jansson/src/jansson_config.h.in >$(WASM)/include/jansson_config.h
	sed -e '/USE_WINDOWS_CRYPTOAPI/d' -e 's/^#cmakedefine /#define /' -e 's/@JANSSON_INITIAL_HASHTABLE_ORDER@/3/' \
	    $(WASM_SRC)/jansson/cmake/jansson_private_config.h.cmake >$(WASM)/include/jansson_private_config.h
	cd $(WASM)/jansson && for f in $(CURDIR)/$(WASM_SRC)/jansson/src/*.c; do \
	    $(EMCC) $(WASM_OPT) -DHAVE_CONFIG_H -I$(CURDIR)/$(WASM)/include -c $$f || exit 1; done
	$(EMAR) rcs $@ $(WASM)/jansson/*.o

# libcsv: Debian's source package (its own stamp, so that a tree unpacked
# before it came in fetches it too); its one file, libcsv.c.
$(WASM_SRC)/.unpacked-libcsv: $(WASM_SRC)/.unpacked
	@mkdir -p $(WASM_SRC)/libcsv-get
	cd $(WASM_SRC)/libcsv-get && apt-get source -q libcsv >apt-get-source.log 2>&1 || { cat apt-get-source.log; exit 2; }
	cd $(WASM_SRC) && ln -sfn libcsv-get/$$(cd libcsv-get && ls -d libcsv-*/ | head -n 1) libcsv
	@touch $@

$(WASM)/libcsv.a: $(WASM_SRC)/.unpacked-libcsv
	@mkdir -p $(WASM)/libcsv
	cd $(WASM)/libcsv && $(EMCC) $(WASM_OPT) -I$(CURDIR)/$(WASM_SRC)/libcsv -c $(CURDIR)/$(WASM_SRC)/libcsv/libcsv.c
	$(EMAR) rcs $@ $(WASM)/libcsv/*.o

# The module: the glue and the library, the rule files in its file system at
# /rulesets. emcc runs acorn, which Debian keeps in /usr/share/nodejs: on the
# path of Debian's node, not of a node from elsewhere (NodeSource's).
$(WEB)/arbiter.js: core/web/glue.c $(WASM_OBJS) $(WASM)/liblua.a $(WASM)/libjansson.a $(WASM)/libcsv.a $(shell find rulesets -type f)
	@mkdir -p $(WEB)
	NODE_PATH=/usr/share/nodejs$${NODE_PATH:+:$$NODE_PATH} \
	$(EMCC) $(WASM_OPT) -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -Werror -Icore/api \
	    -I$(WASM)/include -I$(WASM_SRC)/jansson/src -o $@ core/web/glue.c \
	    $(WASM_OBJS) $(WASM)/liblua.a $(WASM)/libjansson.a $(WASM)/libcsv.a \
	    -sMODULARIZE=1 -sEXPORT_NAME=ArbiterModule -sENVIRONMENT=web,worker,node -sALLOW_MEMORY_GROWTH=1 \
	    -sTOTAL_STACK=4194304 -sEXPORTED_FUNCTIONS=$(subst $(space),$(comma),$(addprefix _,$(GLUE_EXPORTS))) \
	    -sEXPORTED_RUNTIME_METHODS=ccall,cwrap,UTF8ToString,stringToUTF8,lengthBytesUTF8,FS \
	    --embed-file rulesets@/rulesets

$(WEB)/%: core/serve/web/%
	@mkdir -p $(WEB)
	cp $< $@

# The wasm build's rulings against the CLI's, byte for byte (tests/web/wasm-equal.mjs;
# make test-web runs it too).
test-wasm: web $(BUILD)/arbiter
	@node tests/web/wasm-equal.mjs $(BUILD)/arbiter $(WEB)/arbiter.js

# The same suites under AddressSanitizer and UBSan, in a build of their own.
test-asan:
	$(MAKE) test BUILD=build/asan OPT="-O1 -g" SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"

install: all $(BUILD)/arbiter.pc
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include \
	    $(DESTDIR)$(PREFIX)/share/arbiter
	install -m 755 $(BUILD)/arbiter $(BUILD)/arbiter-serve $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(BUILD)/libarbiter.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(BUILD)/libarbiter.so $(DESTDIR)$(PREFIX)/lib/libarbiter.so.$(SOVERSION)
	ln -sf libarbiter.so.$(SOVERSION) $(DESTDIR)$(PREFIX)/lib/libarbiter.so.$(SOMAJOR)
	ln -sf libarbiter.so.$(SOMAJOR) $(DESTDIR)$(PREFIX)/lib/libarbiter.so
	install -m 644 $(BUILD)/arbiter.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/
	install -m 644 core/api/arbiter.h $(DESTDIR)$(PREFIX)/include/
	cp -r rulesets $(DESTDIR)$(PREFIX)/share/arbiter/
	install -d $(DESTDIR)$(PREFIX)/share/arbiter/web
	install -m 644 core/serve/web/*.html core/serve/web/*.js core/serve/web/*.css core/serve/web/*.svg \
	    core/serve/web/*.webmanifest core/serve/web/*.png $(DESTDIR)$(PREFIX)/share/arbiter/web/

# `make install` into a scratch directory, and the installed program run
# from elsewhere: its rulesets, a ruling, the web app.
.PHONY: test-install
test-install: all
	@tests/install.sh $(BUILD)

# Rewrites the C sources as .clang-format has them; `make test` checks them
# (the "format" suite, scripts/format.sh).
format:
	@scripts/format.sh --fix

clean:
	rm -rf build

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

# ---- fuzzing (tests/fuzz; docs/robustness.md) -----------------------------
# libFuzzer targets, built with clang against a library of their own,
# instrumented for coverage and AddressSanitizer + UBSan. `make fuzz` runs
# each target FUZZ_SECONDS (default 60) from its seeds in tests/fuzz/corpus
# and fails on the first crash, hang, leak or sanitizer report; the
# offending input is kept in build/fuzz/crashes/.
FUZZ_SECONDS ?= 60
FUZZ_BUILD   := build/fuzz
FUZZ_LIB     := $(FUZZ_BUILD)/lib
FUZZ_TARGETS := rules amend scenario batch contract auction play matchpoints image pbn session
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_BINS    := $(addprefix $(FUZZ_BUILD)/fuzz_,$(FUZZ_TARGETS))
# Smaller graph budgets (core/engine/graph.h) than a release: a blow-up then ends in
# its error within libFuzzer's timeout; bridge-2017 still compiles in them.
FUZZ_BUDGET  := -DGRAPH_MAX_WORK=4194304 -DGRAPH_MAX_KIDS=16777216

.PHONY: fuzz fuzz-build
fuzz-build:
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_LIB) CC=clang OPT="-O1 -g $(FUZZ_BUDGET)" \
	    SAN="$(FUZZ_SAN) -fsanitize=fuzzer-no-link" $(FUZZ_LIB)/libarbiter.a $(FUZZ_LIB)/obj/core/serve/serve.o
	@$(MAKE) --no-print-directory $(FUZZ_BINS)

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_LIB)/libarbiter.a
	clang -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -Werror -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer \
	    -DARB_SRCDIR='"$(CURDIR)"' -I$(FUZZ_LIB)/gen $(LAYER_INCLUDES) $(LUA_CFLAGS) \
	    -o $@ $< $(FUZZ_LIB)/obj/core/serve/serve.o $(FUZZ_LIB)/libarbiter.a $(LIBS)

# Each target in turn; a JSON target gets the JSON dictionary, a rule
# target the language's. New inputs go to build/fuzz/corpus, never to the seeds.
fuzz: fuzz-build
	@mkdir -p $(FUZZ_BUILD)/crashes
	@for t in $(FUZZ_TARGETS); do \
	    case $$t in rules|amend) dict=-dict=tests/fuzz/rules.dict ;; scenario|batch) dict=-dict=tests/fuzz/json.dict ;; *) dict= ;; esac; \
	    mkdir -p $(FUZZ_BUILD)/corpus/$$t; \
	    if ARBITER_CACHE=off $(FUZZ_BUILD)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	        -print_final_stats=1 $$dict -artifact_prefix=$(FUZZ_BUILD)/crashes/$$t- \
	        $(FUZZ_BUILD)/corpus/$$t tests/fuzz/corpus/$$t >$(FUZZ_BUILD)/$$t.log 2>&1; then \
	        echo "fuzz $$t: $$(sed -n 's/^stat::number_of_executed_units: *//p' $(FUZZ_BUILD)/$$t.log) runs in $(FUZZ_SECONDS)s, no crash"; \
	    else \
	        tail -n 60 $(FUZZ_BUILD)/$$t.log; echo "fuzz $$t: FAILED (input in $(FUZZ_BUILD)/crashes/)"; exit 1; \
	    fi; \
	done

# ---- benchmark (tests/bench; docs/performance.md) ---------------------------
# `make bench` builds the benchmark with -O2 (BENCH_OPT) against a library of
# its own (build/bench/lib) and runs it: a table on stdout, the figures in
# build/bench.json. It times; it tests nothing, and nothing in `make test`
# times. BENCH_ONLY=ruling,scoring,compile,start,batch,diff,plugin runs some parts;
# BENCH_BIG_MB=N sizes the batch whose peak RSS is measured (default 1024).
BENCH_BUILD  := $(BUILD)/bench
BENCH_OPT    ?= -O2 -g
BENCH_SRCS   := tests/bench/bench.c tests/bench/handtree.c tests/bench/memsize.c
BENCH_HDRS   := tests/bench/handtree.h tests/bench/segments.h tests/bench/memsize.h
CLIPS_CFLAGS := -isystem /usr/include/clips
CLIPS_LIBS   := -lclips

.PHONY: bench
bench: $(DEPS_OK) $(BUILD)/arbiter
	@$(MAKE) --no-print-directory BUILD=$(BENCH_BUILD)/lib OPT="$(BENCH_OPT)" SAN= $(BENCH_BUILD)/lib/libarbiter.a
	@$(MAKE) --no-print-directory $(BENCH_BUILD)/bench $(BENCH_BUILD)/jansson-start
	$(BENCH_BUILD)/bench $(BUILD)/bench.json

$(BENCH_BUILD)/lib/libarbiter.a:
	@$(MAKE) --no-print-directory BUILD=$(BENCH_BUILD)/lib OPT="$(BENCH_OPT)" SAN= $@

# The cold start's floor: a program linked to jansson alone.
$(BENCH_BUILD)/jansson-start: tests/bench/jansson-start.c
	@mkdir -p $(@D)
	$(CC) -std=c11 -Wall -Wextra -Werror $(BENCH_OPT) -o $@ $< $(shell pkg-config --libs jansson 2>/dev/null || echo -ljansson)

$(BENCH_BUILD)/bench: $(BENCH_SRCS) $(BENCH_HDRS) $(BENCH_BUILD)/lib/libarbiter.a
	$(CC) -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -Werror $(BENCH_OPT) -DBENCH_DIR='"$(BUILD)"' -I$(BENCH_BUILD)/lib/gen $(LAYER_INCLUDES) \
	    -Itests/bench $(LUA_CFLAGS) $(CLIPS_CFLAGS) -o $@ $(BENCH_SRCS) $(BENCH_BUILD)/lib/libarbiter.a $(LIBS) \
	    $(CLIPS_LIBS) -lm
