# SPDX-License-Identifier: LGPL-2.1-or-later
# The library's ABI and packaging: exports, soname, headers, install, pkg-config.
. tests/cli/lib.sh

B=${PERFEV_BUILD:-build}
SO=$B/libperfev.so.0

# Exports are exactly the version script's list, all perfev_-prefixed.
nm -D --defined-only "$SO" | awk '$2 ~ /^[TDBR]$/ { print $3 }' | sed 's/@.*//' | sort >"$TMP/exported"
sed -n 's/^[[:space:]]*\(perfev_[a-z0-9_]*\);$/\1/p' libperfev.map | sort >"$TMP/map"
if cmp -s "$TMP/exported" "$TMP/map"; then
	pass exports_match_map
else
	fail exports_match_map "$(diff "$TMP/map" "$TMP/exported" | head -20 | tr '\n' ' ')"
fi
grep -v '^perfev_' "$TMP/exported" >"$TMP/stray" && fail exports_prefixed "$(cat "$TMP/stray")" ||
	pass exports_prefixed

# Every PERFEV_API function of the headers is exported, and nothing else is.
grep -h 'PERFEV_API' include/perfev/*.h | grep -v '#define' | grep -o 'PERFEV_API [^(]*(' | sed 's/.*[ *]\([a-z_0-9]*\)($/\1/' | sort >"$TMP/declared"
cmp -s "$TMP/declared" "$TMP/map" && pass headers_match_map ||
	fail headers_match_map "$(diff "$TMP/declared" "$TMP/map" | head -20 | tr '\n' ' ')"

soname=$(readelf -d "$SO" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = libperfev.so.0 ] && pass soname || fail soname "soname is '$soname'"
readelf -V "$SO" | grep -q 'PERFEV_0.1' && pass symbol_version || fail symbol_version "no PERFEV_0.1 node"

# Each public header compiles on its own, as C and as C++.
ok=1
for h in include/perfev/*.h; do
	printf '#include <perfev/%s>\nint main(void) { return 0; }\n' "${h##*/}" >"$TMP/h.c"
	if ! cc -std=c99 -Wall -Werror -Iinclude -c "$TMP/h.c" -o "$TMP/h.o" 2>"$TMP/cc.err"; then
		fail header_standalone "${h##*/}: $(head -3 "$TMP/cc.err")"
		ok=0
	fi
	if command -v c++ >/dev/null 2>&1 &&
		! c++ -x c++ -Wall -Werror -Iinclude -c "$TMP/h.c" -o "$TMP/h.o" 2>"$TMP/cc.err"; then
		fail header_cplusplus "${h##*/}: $(head -3 "$TMP/cc.err")"
		ok=0
	fi
done
[ $ok -eq 1 ] && pass headers_standalone

# make install into a staging root, then build a program against it with pkg-config.
D=$TMP/root
if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s install DESTDIR="$D" PREFIX=/usr NO_DEPS=1 >"$TMP/install.log" 2>&1; then
	missing=""
	for f in usr/lib/libperfev.so.0 usr/lib/libperfev.so usr/lib/libperfev.a usr/bin/perfev \
		usr/include/perfev/perfev.h usr/include/perfev/event.h usr/lib/pkgconfig/libperfev.pc \
		usr/share/man/man1/perfev.1 usr/share/man/man1/perfev-attr.1 usr/share/man/man3/libperfev.3; do
		[ -e "$D/$f" ] || missing="$missing $f"
	done
	[ -z "$missing" ] && pass install_layout || fail install_layout "missing:$missing"
	flags=$(PKG_CONFIG_PATH=$D/usr/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$D pkg-config --cflags --libs libperfev 2>&1)
	if echo "$flags" | grep -q -- '-lperfev'; then
		# shellcheck disable=SC2086
		if cc -o "$TMP/example" examples/parse-event.c $flags 2>"$TMP/cc.err" &&
			LD_LIBRARY_PATH=$D/usr/lib "$TMP/example" task-clock >"$TMP/out" 2>&1 &&
			grep -q 'opened as fd' "$TMP/out"; then
			pass build_with_pkgconfig
		else
			fail build_with_pkgconfig "$(cat "$TMP/cc.err" "$TMP/out" | head -5)"
		fi
	else
		fail build_with_pkgconfig "pkg-config: $flags"
	fi
else
	fail install_layout "make install failed: $(tail -5 "$TMP/install.log")"
fi
finish
