# SPDX-License-Identifier: LGPL-2.1-or-later
# The build: every header a file includes is a dependency of what it builds, and the
# dependencies a build installs are only those of the build, never the tests' tools.
. tests/cli/lib.sh

B=${PERFEV_BUILD:-build}
# make -n below runs on its own, not as a part of the make that may be running the tests.
unset MAKEFLAGS MFLAGS MAKELEVEL

# Everything make builds for make check: the default targets and the tests.
targets="all"
for t in tests/unit/test-*.c tests/kernel/test-*.c; do
	targets="$targets $B/${t%.c}"
done

# rebuilt HEADER: the sources make would compile again if HEADER changed (make -W).
rebuilt() {
	# shellcheck disable=SC2086
	make -n -W "$1" O="$B" $targets >"$TMP/make.out" 2>"$TMP/make.err" || return 1
	grep -o '[a-z]*/[a-z/-]*\.c' "$TMP/make.out" | sort -u
}

# Editing any header rebuilds every source that includes it, the tests' included.
ok=1
for h in src/lib/*/*.h src/cli/*.h src/cli/*/*.h tests/unit/*.h tests/kernel/*.h include/perfev/*.h; do
	base=${h##*/}
	case $h in
	include/*) pattern="#include <perfev/$base>" ;;
	src/lib/*) pattern="#include \"${h#src/lib/}\"" ;;
	src/cli/*) pattern="#include \"${h#src/cli/}\"" ;;
	*) pattern="#include \"$base\"" ;;
	esac
	users=$(grep -l -F "$pattern" src/lib/*/*.c src/cli/*.c src/cli/*/*.c examples/*.c bench/*.c tests/unit/*.c \
		tests/kernel/*.c 2>/dev/null)
	[ -n "$users" ] || continue
	if ! rebuilt "$h" >"$TMP/rebuilt"; then
		fail header_deps "make -n -W $h failed: $(head -c 300 "$TMP/make.err")"
		ok=0
		break
	fi
	for u in $users; do
		if ! grep -qx "$u" "$TMP/rebuilt"; then
			fail header_deps "$u includes $h but is not rebuilt when it changes"
			ok=0
		fi
	done
done
[ $ok -eq 1 ] && pass header_deps

# The library never includes the tool's headers: a CLI header rebuilds no library object.
if rebuilt src/cli/perfev-cli.h >"$TMP/rebuilt" && [ -s "$TMP/rebuilt" ]; then
	if grep -q '^src/lib/' "$TMP/rebuilt"; then
		fail header_layers "src/cli/perfev-cli.h rebuilds $(grep '^src/lib/' "$TMP/rebuilt" | head -3 | tr '\n' ' ')"
	else
		pass header_layers
	fi
else
	fail header_layers "src/cli/perfev-cli.h rebuilds nothing: $(head -c 300 "$TMP/make.err")"
fi

# The tool reaches the library through its public headers; of the internal ones
# only the shared containers (the hash map and the growable array).
bad=$(grep -n '#include "\(common\|event\|count\|sample\|symbols\|profile\)/' src/cli/*.c src/cli/*/*.c \
	src/cli/*.h src/cli/*/*.h 2>/dev/null | grep -v '"common/hashmap.h"\|"common/array.h"')
if [ -z "$bad" ]; then
	pass cli_includes
else
	fail cli_includes "the tool includes library internals: $(echo "$bad" | head -3 | tr '\n' ' ')"
fi

# Test-only tools are never installed by a build or the demo.
build=$(sh scripts/deps.sh --list build 2>"$TMP/deps.err")
tests=$(sh scripts/deps.sh --list test 2>>"$TMP/deps.err")
case " $build " in
"  ") fail deps_build_only "scripts/deps.sh --list build: $(head -c 300 "$TMP/deps.err")" ;;
*" chromium "* | *" linux-perf "* | *" debuginfod "*) fail deps_build_only "the build installs test tools: $build" ;;
*)
	case " $tests " in
	*" chromium "*) case " $tests " in
		*" linux-perf "*) pass deps_build_only ;;
		*) fail deps_build_only "the tests' packages lack perf: $tests" ;;
		esac ;;
	*) fail deps_build_only "the tests' packages lack chromium: $tests" ;;
	esac
	;;
esac

# make and make demo run the build's dependency step; only make check the tests' one.
fresh=$TMP/fresh
for target in all demo check; do
	make -n O="$fresh" "$target" >"$TMP/$target.out" 2>"$TMP/$target.err"
done
if ! grep -q 'scripts/deps.sh' "$TMP/all.out"; then
	fail deps_steps "make -n shows no dependency step: $(head -c 300 "$TMP/all.err")"
elif grep -q 'deps.sh --test' "$TMP/all.out" "$TMP/demo.out"; then
	fail deps_steps "make or make demo installs the tests' dependencies"
elif ! grep -q 'deps.sh --test' "$TMP/check.out"; then
	fail deps_steps "make check does not install the tests' dependencies"
else
	pass deps_steps
fi

finish
