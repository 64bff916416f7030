#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Install the Debian packages perfev needs, and only those that are
# missing.  Runs apt-get non-interactively as root; as another user it
# prints the command to run instead.
#
#   sh scripts/deps.sh                build dependencies (make, make demo)
#   sh scripts/deps.sh --test         also what the tests use (make check)
#   sh scripts/deps.sh --fuzz         build dependencies, clang and its fuzzer runtime
#   sh scripts/deps.sh --list [MODE]  print the packages of a mode, install nothing
#
# Test-only tools (chromium, linux-perf) are never installed for a build
# or the demo: a plain "make" pulls in only what compiles and links perfev.
set -eu

# Build: compiler, library headers (libtraceevent, elfutils), protobuf-c and its protoc-c, zlib
# (perfev report --pprof), libiberty (its static, PIC archive: the demangler of C++ and Rust names),
# zstd (perf record -z's compressed records, read and written), libarchive's headers (perf archive's
# .tar.*, loaded on first use from libarchive13, which comes with them), capstone (disassembly:
# annotate, script's insn field), ncurses (top's full-screen table), libdebuginfod (debug
# files fetched by build id where DEBUGINFOD_URLS names servers: its header at build time,
# the library loaded at run time only when a file has no local debug file).
BUILD="gcc make libc6-dev pkg-config libtraceevent-dev libdw-dev libelf-dev"
BUILD="$BUILD libprotobuf-c-dev protobuf-c-compiler zlib1g-dev libiberty-dev libzstd-dev libarchive-dev"
BUILD="$BUILD libcapstone-dev libncurses-dev libdebuginfod-dev"
# Tests: python3 (JSON/CSV checks), util-linux (setpriv), protobuf-compiler (protoc decodes
# the pprof output), strace (shows the attrs of events the kernel here refuses), locales
# (a locale with thousands separators, built for stat's -B test), tmux (drives top's
# full-screen interface in a pseudo-terminal), debuginfod (the server the debuginfod test
# fetches a stripped binary's debug file from).
TEST="python3 util-linux protobuf-compiler strace locales tmux debuginfod"
# Tests that skip without them: chromium (headless, runs the page perfev report --html
# writes) and Linux perf (the reference output; a perf binary from elsewhere is fine).
TEST_OPTIONAL="chromium"
TEST_PERF="linux-perf"
FUZZ="clang libclang-rt-dev"

mode=build
case "${1:-}" in
"") ;;
--test) mode=test ;;
--fuzz) mode=fuzz ;;
--list)
	case "${2:-build}" in
	build) echo $BUILD ;;
	test) echo $BUILD $TEST $TEST_OPTIONAL $TEST_PERF ;;
	fuzz) echo $BUILD $FUZZ ;;
	*) echo "deps: unknown mode '$2' (build, test or fuzz)" >&2; exit 2 ;;
	esac
	exit 0
	;;
*)
	echo "deps: unknown option '$1' (--test, --fuzz or --list [MODE])" >&2
	exit 2
	;;
esac

PKGS=$BUILD
OPTIONAL=""
case $mode in
test)
	PKGS="$PKGS $TEST"
	OPTIONAL=$TEST_OPTIONAL
	command -v perf >/dev/null 2>&1 || OPTIONAL="$OPTIONAL $TEST_PERF"
	;;
fuzz) PKGS="$PKGS $FUZZ" ;;
esac

installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

# missing PKG...: those of the packages that are not installed.
missing() {
	for p in "$@"; do
		installed "$p" || printf ' %s' "$p"
	done
}

# install PKG...: apt-get install, refreshing the index only when an install from the
# current one fails.
install() {
	echo "deps: installing $*" >&2
	# shellcheck disable=SC2086
	apt-get install -y --no-install-recommends "$@" >/dev/null 2>&1 && return 0
	apt-get update -q >/dev/null || true
	apt-get install -y --no-install-recommends "$@"
}

# shellcheck disable=SC2086
need=$(missing $PKGS)
# shellcheck disable=SC2086
want=$(missing $OPTIONAL)
[ -z "$need$want" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1 || [ "$(id -u)" -ne 0 ]; then
	if [ -n "$want" ]; then
		echo "deps: optional test packages missing:$want (tests that use them skip)" >&2
	fi
	[ -z "$need" ] && exit 0
	echo "deps: missing packages:$need" >&2
	if command -v apt-get >/dev/null 2>&1; then
		echo "deps: run as root: apt-get install -y$need   (or make NO_DEPS=1)" >&2
	else
		echo "deps: no apt-get here: install them by hand" >&2
	fi
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
[ -z "$need" ] || install $need
# The tests that use an optional package skip with a reason when it could not be installed.
# shellcheck disable=SC2086
if [ -n "$want" ] && ! install $want; then
	echo "deps: could not install$want; the tests that use them will skip" >&2
fi
exit 0
