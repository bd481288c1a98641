# SPDX-License-Identifier: GPL-2.0-only
#
# rtgate build. `make` builds bin/rtgate and one bin/<workload> per folder
# under workloads/; `make SAN=1` builds the same with ASan+UBSan under
# build/san/ (the unit tests run from there); `make tests` builds the unit
# test binaries; `make fuzz` the libFuzzer targets (clang, build/fuzz/).
# Libraries come from pkg-config; `make libs` lists the
# shared libraries the binaries need (for initramfs images). `make man`
# makes the man pages from the programs' --help (help2man) into
# build/man/; `make install [PREFIX=/usr/local] [DESTDIR=]` installs the
# FHS layout of docs/install.md: PREFIX/bin/rtgate, the workloads in
# PREFIX/libexec/rtgate (not on PATH), suites, kconfigs and patch manifests
# in PREFIX/share/rtgate, the man pages, the bash completion, the docs and
# the nightly's systemd units (SYSTEMDUNITDIR). help2man is a build
# dependency (deps/*-run.txt, debian/control).

CC	?= gcc
PREFIX	?= /usr/local
DESTDIR	?=
# yaml-0.1: libyaml (LAVA jobs written, stress-ng's report read);
# libcrypto: OpenSSL's SHA-256 (common/files/sha256.c).
PKGS	:= libcjson inih libtracefs libtraceevent libtracecmd sqlite3 zlib gsl \
	   yaml-0.1 libcrypto
VERSION	:= $(shell cat VERSION 2>/dev/null || echo 0.0.0)

ifeq ($(FUZZ),1)
# libFuzzer (clang): the library instrumented for coverage, with ASan+UBSan.
BUILD	:= build/fuzz
SANFLAGS := -fsanitize=fuzzer-no-link,address,undefined,float-cast-overflow \
	    -fsanitize=float-divide-by-zero -fno-omit-frame-pointer \
	    -fno-sanitize-recover=all
else ifeq ($(SAN),1)
BUILD	:= build/san
# GCC's "undefined" leaves out the float checks: a count of 1e95 cast to
# an integer is what a parser must refuse, not compute with.
SANFLAGS := -fsanitize=address,undefined,float-cast-overflow \
	    -fsanitize=float-divide-by-zero -fno-omit-frame-pointer \
	    -fno-sanitize-recover=all
else
BUILD	:= build/obj
SANFLAGS :=
endif
BIN	:= $(if $(filter 1,$(SAN) $(FUZZ)),$(BUILD)/bin,bin)

# cmocka is asked for on its own: `./run.sh` does not install it (only
# `./run.sh test` does), and one missing package empties pkg-config's answer.
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null) \
	      $(shell pkg-config --cflags cmocka 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
# libcurl's header only: rtgate loads libcurl when it talks to a LAVA
# server (lava/lava_api.c), so the lab's initramfs, which carries
# rtgate and its libraries, does not carry libcurl's dozen.
PKG_CFLAGS += $(shell pkg-config --cflags libcurl 2>/dev/null)

CFLAGS	?= -O2 -g
CFLAGS	+= -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow \
	   -Wno-missing-field-initializers -I. -Icommon/core -Icommon/text -Icommon/files -Icommon/cmd \
	   -DRTGATE_VERSION='"$(VERSION)"' $(PKG_CFLAGS) $(SANFLAGS) -MMD -MP
LDFLAGS	+= $(SANFLAGS) -Wl,--as-needed
LDLIBS	+= $(PKG_LIBS) -lm -lpthread

# Components linked into bin/rtgate, one folder each (see docs/design.md).
RTGATE_DIRS := runner analyze trace kernel lab bisect reproduce history nightly export lava
LIB_SRCS := $(wildcard common/*/*.c) \
	    $(foreach d,$(RTGATE_DIRS),$(wildcard $(d)/*.c $(d)/*/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
LIB	 := $(BUILD)/librtgate.a

# Workloads: every workloads/<name>/ with C files is one binary bin/<name>;
# workloads/common/ is their shared protocol code.
WL_COMMON_SRCS := $(wildcard workloads/common/*/*.c)
WL_COMMON_OBJS := $(WL_COMMON_SRCS:%.c=$(BUILD)/%.o)
WL_DIRS  := $(filter-out workloads/common/,$(sort $(dir $(wildcard workloads/*/*.c))))
WL_NAMES := $(patsubst workloads/%/,%,$(WL_DIRS))
WL_BINS  := $(WL_NAMES:%=$(BIN)/%)

# Unit tests mirror the tree: tests/unit/<folder>/test_<folder>[_<part>]*.c,
# each built into $(BUILD)/tests/ under its own name.
TEST_SRCS := $(wildcard tests/unit/*/test_*.c)
TEST_BINS := $(patsubst %.c,$(BUILD)/tests/%,$(notdir $(TEST_SRCS)))

BENCH_SRCS := $(wildcard bench/*.c)
BENCH_BINS := $(BENCH_SRCS:bench/%.c=$(BUILD)/bench/%)

all: $(BIN)/rtgate $(WL_BINS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(BIN)/rtgate: $(BUILD)/rtgate/main.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

define workload_rule
$(BIN)/$(1): $(patsubst %.c,$(BUILD)/%.o,$(wildcard workloads/$(1)/*.c)) \
	     $(WL_COMMON_OBJS) $(LIB)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(LDFLAGS) -o $$@ $$^ $$(LDLIBS)
endef
$(foreach w,$(WL_NAMES),$(eval $(call workload_rule,$(w))))

# Unit tests of a workload's own module link that module's object.
$(BUILD)/tests/test_workloads_extend_abi: $(BUILD)/workloads/extend-sched/extend_abi.o \
	$(BUILD)/workloads/extend-sched/extend_rseq.o
$(BUILD)/tests/test_workloads_stress_yaml: $(BUILD)/workloads/stress/stress_yaml.o

define unit_test_rule
$(BUILD)/tests/$(basename $(notdir $(1))): $(1) $(WL_COMMON_OBJS) $(LIB)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(CFLAGS) $$(LDFLAGS) -o $$@ $(1) $$(filter %.o %.a,$$^) $$(LDLIBS) -lcmocka
endef
$(foreach t,$(TEST_SRCS),$(eval $(call unit_test_rule,$(t))))
# A test that moved leaves its old path in its .d file: no error, rebuilt.
tests/unit/%.c: ;

tests: $(TEST_BINS)

$(BUILD)/bench/%: bench/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter-out %.h,$^) $(LDLIBS)

bench: $(BENCH_BINS)

# Man pages from the same usage text the programs print.
MAN_DIR := build/man
man: all
	@command -v help2man >/dev/null || { echo "make man: help2man is" \
		"missing; ./run.sh deps installs it"; exit 1; }
	rm -rf $(MAN_DIR)
	sh rtgate/gen-man.sh $(BIN) $(MAN_DIR)

# The FHS layout (docs/install.md); common/files/rtpaths.c finds it from the
# running binary, so a DESTDIR tree or another PREFIX works as well.
BINDIR	   := $(PREFIX)/bin
LIBEXECDIR := $(PREFIX)/libexec/rtgate
DATADIR	   := $(PREFIX)/share/rtgate
MANDIR	   := $(PREFIX)/share/man/man1
COMPDIR	   := $(PREFIX)/share/bash-completion/completions
DOCDIR	   ?= $(PREFIX)/share/doc/rtgate
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
DOCS	   := README.md $(wildcard docs/*.md)

install: all man
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBEXECDIR) \
		$(DESTDIR)$(MANDIR) $(DESTDIR)$(COMPDIR) \
		$(DESTDIR)$(DOCDIR)/examples $(DESTDIR)$(SYSTEMDUNITDIR)
	install -m 0755 $(BIN)/rtgate $(DESTDIR)$(BINDIR)/
	install -m 0755 $(WL_BINS) $(DESTDIR)$(LIBEXECDIR)/
	# The lab's initramfs takes rtgate from beside its workloads.
	ln -sf $$(realpath -m --relative-to=$(LIBEXECDIR) $(BINDIR)/rtgate) \
		$(DESTDIR)$(LIBEXECDIR)/rtgate
	install -d $(DESTDIR)$(DATADIR)/suites $(DESTDIR)$(DATADIR)/kconfigs \
		$(DESTDIR)$(DOCDIR)/suites
	install -m 0644 suites/*.suite $(DESTDIR)$(DATADIR)/suites/
	install -m 0644 kconfigs/* $(DESTDIR)$(DATADIR)/kconfigs/
	# The suite format, where the docs are (the --help texts name it).
	install -m 0644 suites/README.md $(DESTDIR)$(DOCDIR)/suites/
	install -d $(DESTDIR)$(DATADIR)/lab/qemu
	install -m 0644 lab/qemu/*.patch $(DESTDIR)$(DATADIR)/lab/qemu/
	for d in patches/*/; do \
		install -d $(DESTDIR)$(DATADIR)/$$d && \
		install -m 0644 $$d* $(DESTDIR)$(DATADIR)/$$d || exit 1; \
	done
	install -m 0644 $(MAN_DIR)/*.1 $(DESTDIR)$(MANDIR)/
	install -m 0644 rtgate/rtgate.bash-completion \
		$(DESTDIR)$(COMPDIR)/rtgate
	install -m 0644 $(DOCS) $(DESTDIR)$(DOCDIR)/
	install -m 0644 nightly/nightly.conf $(DESTDIR)$(DOCDIR)/examples/
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@DOCDIR@|$(DOCDIR)|g' \
		nightly/rtgate-nightly.service.in \
		>$(DESTDIR)$(SYSTEMDUNITDIR)/rtgate-nightly.service
	install -m 0644 lab/nightly/rtgate-nightly.timer \
		$(DESTDIR)$(SYSTEMDUNITDIR)/
	chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/rtgate-nightly.service

uninstall:
	rm -rf $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(DATADIR) \
		$(DESTDIR)$(DOCDIR) $(DESTDIR)$(BINDIR)/rtgate \
		$(DESTDIR)$(COMPDIR)/rtgate
	rm -f $(DESTDIR)$(MANDIR)/rtgate.1 $(DESTDIR)$(MANDIR)/rtgate-*.1 \
		$(DESTDIR)$(SYSTEMDUNITDIR)/rtgate-nightly.service \
		$(DESTDIR)$(SYSTEMDUNITDIR)/rtgate-nightly.timer
# Fuzz targets, one per fuzz/fuzz_NAME.c: `make fuzz` builds
# build/fuzz/bin/fuzz_NAME with clang's libFuzzer (docs/fuzzing.md).
FUZZ_SRCS := $(wildcard fuzz/fuzz_*.c)
FUZZ_BINS := $(FUZZ_SRCS:fuzz/%.c=$(BUILD)/bin/%)

$(BUILD)/bin/fuzz_%: fuzz/fuzz_%.c $(BUILD)/fuzz/input.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fsanitize=fuzzer $(LDFLAGS) -o $@ \
		$(filter %.c %.o %.a,$^) $(LDLIBS)

ifeq ($(FUZZ),1)
fuzz: $(FUZZ_BINS)
else
fuzz:
	$(MAKE) FUZZ=1 CC=clang fuzz
endif

# The shared libraries bin/ needs at run time, one path per line.
libs: all
	@ldd $(BIN)/* | awk '/=> \// { print $$3 } /^\t\/lib/ { print $$1 }' | sort -u

clean:
	rm -rf build bin

.PHONY: all tests bench fuzz libs clean man install uninstall
.SECONDARY:

-include $(shell find build -name '*.d' 2>/dev/null)
