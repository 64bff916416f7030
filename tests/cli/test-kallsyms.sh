# SPDX-License-Identifier: LGPL-2.1-or-later
# Kernel symbols of a recording of another kernel or boot: never this machine's, as perf 6.1 (--kallsyms, the build-id cache).
. tests/cli/lib.sh

have_perf61
if [ -z "$have_perf" ]; then
	skip perf kallsyms_vs_perf "$why_no_perf"
	finish
fi
if ! awk '$1 !~ /^0+$/ { found = 1; exit } END { exit !found }' /proc/kallsyms; then
	skip kallsyms kallsyms_vs_perf "not permitted: /proc/kallsyms hides its addresses from this user (kptr_restrict)"
	finish
fi

# An empty build-id cache for perf and perfev alike, unless a case fills it.
export HOME="$TMP/home"
mkdir -p "$HOME"
FAKE=00112233445566778899aabbccddeeff00112233

# same NAME FILE OPTIONS...: perf report --stdio and perfev report agree, and perf script and
# perfev script on every kernel sample.
same() {
	name=$1 file=$2
	shift 2
	perf report -i "$file" --stdio --sort dso,sym "$@" >"$TMP/perf.txt" 2>/dev/null
	run "$PERFEV" report -i "$file" --sort dso,sym "$@"
	expect_rc "$name" 0 || return 1
	if ! python3 tests/cli/oracle.py report-cmp "$TMP/perf.txt" "$TMP/out" >"$TMP/cmp.err" 2>&1; then
		fail "$name" "$(cat "$TMP/cmp.err")"
		return 1
	fi
	perf script -i "$file" -F comm,tid,time,ip,sym,dso "$@" 2>/dev/null | grep 'kernel\.kallsyms' >"$TMP/perf-script.txt"
	"$PERFEV" script -i "$file" -F comm,tid,time,ip,sym,dso "$@" 2>/dev/null | grep 'kernel\.kallsyms' >"$TMP/script.txt"
	if [ ! -s "$TMP/perf-script.txt" ]; then
		fail "$name" "perf script shows no kernel sample"
	elif ! cmp -s "$TMP/perf-script.txt" "$TMP/script.txt"; then
		fail "$name" "perfev script: $(diff "$TMP/perf-script.txt" "$TMP/script.txt" | head -6)"
	else
		pass "$name"
	fi
}

# Samples mostly in the kernel (it writes kallsyms out), recorded on this machine and kernel.
if ! perf record -q -o "$TMP/k.data" -- sh -c 'cat /proc/kallsyms >/dev/null; cat /proc/kallsyms >/dev/null' >/dev/null 2>&1; then
	fail kallsyms_recording "perf record failed"
	finish
fi
cp /proc/kallsyms "$TMP/kallsyms"
# The same recording as another kernel's: its kernel's build id rewritten.
python3 tests/cli/oracle.py set-build-id "$TMP/k.data" "$TMP/other.data" '[kernel.kallsyms]' "$FAKE"

# This machine's kernel: named from its kallsyms.
same kallsyms_this_kernel "$TMP/k.data"
grep -q '\[k\] [a-z_]' "$TMP/out" || fail kallsyms_this_kernel "no kernel symbol named: $(grep -m3 '%' "$TMP/out")"

# Another kernel: addresses, said once by report and script alike.
same kallsyms_other_kernel "$TMP/other.data"
if grep -q '\[k\] [a-z_]' "$TMP/out"; then
	fail kallsyms_other_kernel_unnamed "kernel samples named from this machine: $(grep -m3 '\[k\]' "$TMP/out")"
else
	pass kallsyms_other_kernel_unnamed
fi
for cmd in report script; do
	run "$PERFEV" $cmd -i "$TMP/other.data"
	if [ "$(grep -c "warning: kernel symbols are not shown: the recording's kernel (build id $FAKE) is not the one running" "$TMP/err")" -eq 1 ]; then
		pass "kallsyms_other_kernel_said_$cmd"
	else
		fail "kallsyms_other_kernel_said_$cmd" "$(head -c 400 "$TMP/err")"
	fi
done

# --kallsyms: that kernel's symbols, as the file has them.
same kallsyms_given "$TMP/other.data" --kallsyms "$TMP/kallsyms"
# ... at another boot of another build, where KASLR put the kernel 16 MiB higher and its
# functions have other names (but _text): moved back by _text.
python3 - "$TMP/kallsyms" "$TMP/kallsyms.moved" <<'PY'
import sys
out = open(sys.argv[2], "w")
for line in open(sys.argv[1]):
    addr, kind, rest = line.split(" ", 2)
    v = int(addr, 16)
    if not rest.startswith("_text"):
        rest = "other_" + rest
    out.write("%016x %s %s" % ((v + 0x1000000) % (1 << 64) if v else 0, kind, rest))
PY
same kallsyms_given_moved "$TMP/other.data" --kallsyms "$TMP/kallsyms.moved"
# perf's build-id cache has that kernel's kallsyms (perf record keeps it there).
mkdir -p "$HOME/.debug/[kernel.kallsyms]/$FAKE"
cp "$TMP/kallsyms.moved" "$HOME/.debug/[kernel.kallsyms]/$FAKE/kallsyms"
same kallsyms_build_id_cache "$TMP/other.data"
rm -rf "$HOME/.debug"

# A kallsyms without the recording's reference (_text): nothing named, and said.
grep -v ' _text$' "$TMP/kallsyms" >"$TMP/kallsyms.notext"
run "$PERFEV" report -i "$TMP/other.data" --sort dso,sym --kallsyms "$TMP/kallsyms.notext"
if ! expect_rc kallsyms_given_no_text 0; then
	:
elif grep -q '\[k\] [a-z_]' "$TMP/out" || ! grep -q "has no '_text'" "$TMP/err"; then
	fail kallsyms_given_no_text "$(head -c 300 "$TMP/err") $(grep -m3 '\[k\]' "$TMP/out")"
else
	pass kallsyms_given_no_text
fi
# A file that cannot be read stops both commands before any output, as in perf.
for cmd in report script; do
	run "$PERFEV" $cmd -i "$TMP/other.data" --kallsyms "$TMP/nonexistent"
	if expect_rc "kallsyms_missing_$cmd" 1; then
		if [ ! -s "$TMP/out" ] && grep -q "cannot read the kallsyms file '$TMP/nonexistent'" "$TMP/err"; then
			pass "kallsyms_missing_$cmd"
		else
			fail "kallsyms_missing_$cmd" "$(head -c 300 "$TMP/err")"
		fi
	fi
done
run "$PERFEV" report -i "$TMP/other.data" --kallsyms "$TMP"
if expect_rc kallsyms_directory 1; then
	grep -q "not a regular file" "$TMP/err" && pass kallsyms_directory ||
		fail kallsyms_directory "$(head -c 300 "$TMP/err")"
fi
finish
