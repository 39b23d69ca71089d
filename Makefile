# arbiter — build, test, demo. `make` needs nothing but scripts/deps.sh,
# which every target that builds runs first (it installs what is missing).

CC      ?= cc
BUILD   ?= build
SAN     ?=
OPT     ?= -O2 -g
PKGS    := jansson cmocka
PREFIX  ?= /usr/local
CFLAGS   = -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -Werror -fPIC $(OPT) $(SAN) -I$(BUILD)/gen -Idsl -Icore -Iplugins $(LUA_CFLAGS)
LDFLAGS := $(SAN)
LUA_CFLAGS = $(shell pkg-config --cflags lua5.4 2>/dev/null || echo -I/usr/include/lua5.4)
LIBS     = $(shell pkg-config --libs jansson lua5.4 2>/dev/null || echo -ljansson -llua5.4) -lm
TESTLIBS = $(LIBS) $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)

CORE := util diag graph expr ruleset builtins bridge cards klaverjas eval scenario output testrun dot whynot scoring diff arbiter
DSL  := compile check
OBJS := $(addprefix $(BUILD)/obj/core/,$(addsuffix .o,$(CORE))) \
        $(addprefix $(BUILD)/obj/dsl/,$(addsuffix .o,$(DSL))) \
        $(BUILD)/obj/plugins/plugin.o \
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

$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Wno-unused-function -c $< -o $@

$(BUILD)/obj/%.o: %.c $(BUILD)/gen/parser.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/libarbiter.a: $(OBJS)
	ar rcs $@ $^

$(BUILD)/libarbiter.so: $(OBJS)
	$(CC) $(LDFLAGS) -shared -o $@ $^ $(LIBS)

$(BUILD)/arbiter: $(BUILD)/obj/core/cli.o $(BUILD)/libarbiter.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libarbiter.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libarbiter.a $(TESTLIBS)

# The demo: a director's insufficient bid, ruled under the 2017 laws.
demo: $(BUILD)/arbiter
	$(BUILD)/arbiter rule --ruleset bridge-2017 examples/insufficient-bid.json

# Every suite (unit, rulesets, scenarios, CLI); the last line sums them all.
test: $(BUILD)/arbiter $(UNIT_BINS)
	@scripts/run-tests.sh $(BUILD)

# The same suites under AddressSanitizer and UBSan, in a build of their own.
test-asan:
	$(MAKE) test BUILD=build/asan OPT="-O1 -g" SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include \
	    $(DESTDIR)$(PREFIX)/share/arbiter
	install -m 755 $(BUILD)/arbiter $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(BUILD)/libarbiter.a $(BUILD)/libarbiter.so $(DESTDIR)$(PREFIX)/lib/
	install -m 644 core/arbiter.h $(DESTDIR)$(PREFIX)/include/
	cp -r rulesets $(DESTDIR)$(PREFIX)/share/arbiter/

format:
	clang-format -i core/*.c core/*.h dsl/*.c dsl/*.h tests/unit/*.c

clean:
	rm -rf build

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
