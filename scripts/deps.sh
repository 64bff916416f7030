#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Install the Debian packages perfev needs to build and test, and only
# those that are missing.  Runs apt-get non-interactively as root; as
# another user it prints the command to run instead.
#
#   sh scripts/deps.sh            build + test dependencies
#   sh scripts/deps.sh --fuzz     also clang and its fuzzer runtime
set -eu

# Build: compiler, library headers (libtraceevent, elfutils), protobuf-c and its protoc-c, zlib
# (perfev report --pprof).  Tests: python3 (JSON/CSV checks), linux-perf (reference output),
# util-linux (setpriv), protobuf-compiler (protoc decodes the pprof output).
PKGS="gcc make libc6-dev pkg-config libtraceevent-dev libdw-dev libelf-dev python3 util-linux"
PKGS="$PKGS libprotobuf-c-dev protobuf-c-compiler zlib1g-dev protobuf-compiler"
# libiberty (its static, PIC archive): the demangler of C++ and Rust symbol names.
PKGS="$PKGS libiberty-dev"
# Tests: chromium, headless, runs the page perfev report --html writes.
PKGS="$PKGS chromium"
OPTIONAL="linux-perf"
[ "${1:-}" = "--fuzz" ] && PKGS="$PKGS clang libclang-rt-dev"

installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

missing=""
for p in $PKGS; do
	installed "$p" || missing="$missing $p"
done
# linux-perf is only a reference for tests; a perf binary from elsewhere is fine.
if ! command -v perf >/dev/null 2>&1; then
	for p in $OPTIONAL; do
		installed "$p" || missing="$missing $p"
	done
fi

[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
	echo "deps: missing packages:$missing (no apt-get here: install them by hand)" >&2
	exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages:$missing" >&2
	echo "deps: run as root: apt-get install -y$missing   (or make NO_DEPS=1)" >&2
	exit 1
fi
echo "deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# Refresh the index only when an install from the current one fails.
# shellcheck disable=SC2086
if ! apt-get install -y --no-install-recommends $missing >/dev/null 2>&1; then
	apt-get update -q >/dev/null
	apt-get install -y --no-install-recommends $missing
fi
