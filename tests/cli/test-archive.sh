# SPDX-License-Identifier: LGPL-2.1-or-later
# perfev archive: a recording's files collected by build id, then read with the binary moved
# away and an empty ~/.debug (--archive, --symfs over the extracted tree, perf report over it
# extracted into ~/.debug); its bad inputs.
. tests/cli/lib.sh

have_perf61
mkdir -p "$TMP/home" "$TMP/src"
cat >"$TMP/w.c" <<'C'
#include <stdio.h>
static volatile double x;
__attribute__((noinline)) void leaf(void) { for (int i = 0; i < 3000000; i++) x += i * 0.5; }
__attribute__((noinline)) void mid(void) { leaf(); }
int main(void) { for (int j = 0; j < 40; j++) mid(); printf("%f\n", x); return 0; }
C
if ! cc -g -O1 -fno-omit-frame-pointer -o "$TMP/src/w" "$TMP/w.c"; then
	fail archive_build "cannot build the workload"
	exit 1
fi
D=$TMP/p.data
if ! "$PERFEV" record -q -g -e task-clock -o "$D" -- "$TMP/src/w" >/dev/null 2>"$TMP/err"; then
	case "$(cat "$TMP/err")" in
	*ermission*|*"not supported"*) skip perf_event archive "task-clock: $(head -c 200 "$TMP/err")"; exit 0 ;;
	esac
	fail archive_record "$(head -c 300 "$TMP/err")"
	exit 1
fi

# What is read with the files in place: the reference.
"$PERFEV" report -i "$D" --stdio -g none --sort dso,sym >"$TMP/ref-report.txt" 2>&1
"$PERFEV" script -i "$D" -F ip,sym,dso,srcline >"$TMP/ref-script.txt" 2>&1
"$PERFEV" annotate -i "$D" --stdio leaf >"$TMP/ref-annotate.txt" 2>&1
if grep -q ' leaf' "$TMP/ref-report.txt" && grep -q 'w.c:3' "$TMP/ref-script.txt" &&
	grep -q '<leaf>:' "$TMP/ref-annotate.txt"; then
	pass archive_reference
else
	fail archive_reference "leaf or its source line not resolved with the files in place"
fi

run env HOME="$TMP/home" "$PERFEV" archive "$D"
# The kernel's symbols go in when a sample (or chain) landed in it: a short run may have none.
kernel_re='.'
grep -q 'kernel.kallsyms' "$TMP/ref-report.txt" && kernel_re='^\[kernel.kallsyms\]/[0-9a-f]\{40\}/kallsyms$'
if expect_rc archive_write 0 && [ -s "$D.tar.zst" ] &&
	tar tf "$D.tar.zst" >"$TMP/list" 2>"$TMP/err" &&
	grep -q '^tmp/.*/src/w/[0-9a-f]\{40\}/elf$' "$TMP/list" &&
	grep -q "$kernel_re" "$TMP/list" &&
	grep -q '^\.build-id/[0-9a-f][0-9a-f]/[0-9a-f]\{38\}$' "$TMP/list"; then
	pass archive_write
else
	fail archive_write "not the build-id cache layout: $(head -c 400 "$TMP/list") $(head -c 200 "$TMP/err")"
fi

# perf's own archive (tar.bz2 of its build-id cache, filled by perf record) of a perf recording.
perf_archive=
if [ -n "$have_perf" ]; then
	mkdir -p "$TMP/ph"
	if HOME="$TMP/ph" perf_rec -q -g -e task-clock -o "$TMP/perf.data" "$TMP/src/w" \
		>/dev/null 2>&1 && HOME="$TMP/ph" perf archive "$TMP/perf.data" >/dev/null 2>&1; then
		perf_archive=1
		"$PERFEV" report -i "$TMP/perf.data" --stdio -g none --sort dso,sym \
			>"$TMP/ref-perf.txt" 2>&1
	else
		fail archive_perf_made "perf record or perf archive failed"
	fi
fi

# The binary gone, ~/.debug empty: everything from the archive.
mv "$TMP/src" "$TMP/moved"
same_as() { # NAME REF FILE
	if cmp -s "$2" "$3"; then
		pass "$1"
	else
		fail "$1" "$(diff "$2" "$3" | head -c 600)"
	fi
}
env HOME="$TMP/home" "$PERFEV" report -i "$D" --stdio -g none --sort dso,sym \
	>"$TMP/moved.txt" 2>&1
if cmp -s "$TMP/ref-report.txt" "$TMP/moved.txt"; then
	fail archive_moved "the binary is still found after it was moved: the test proves nothing"
else
	pass archive_moved
fi
env HOME="$TMP/home" "$PERFEV" report -i "$D" --archive "$D.tar.zst" --stdio -g none \
	--sort dso,sym >"$TMP/a-report.txt" 2>&1
same_as archive_report "$TMP/ref-report.txt" "$TMP/a-report.txt"
env HOME="$TMP/home" "$PERFEV" script -i "$D" --archive "$D.tar.zst" -F ip,sym,dso,srcline \
	>"$TMP/a-script.txt" 2>&1
same_as archive_script "$TMP/ref-script.txt" "$TMP/a-script.txt"
env HOME="$TMP/home" "$PERFEV" annotate -i "$D" --archive "$D.tar.zst" --stdio leaf \
	>"$TMP/a-annotate.txt" 2>&1
same_as archive_annotate "$TMP/ref-annotate.txt" "$TMP/a-annotate.txt"
# --archive extracts into a private directory under $TMPDIR, removed at the end.
mkdir "$TMP/t"
env HOME="$TMP/home" TMPDIR="$TMP/t" "$PERFEV" report -i "$D" --archive "$D.tar.zst" --stdio \
	>/dev/null 2>&1
if [ -z "$(ls -A "$TMP/t")" ]; then
	pass archive_cleanup
else
	fail archive_cleanup "left behind: $(ls -A "$TMP/t")"
fi

# --symfs over the extracted tree: not even this machine's /usr/lib/debug is read (a fresh
# HOME: no symbol cache kept by the runs above).
mkdir "$TMP/x" "$TMP/home2"
tar xf "$D.tar.zst" -C "$TMP/x"
env -u XDG_CACHE_HOME HOME="$TMP/home2" "$PERFEV" script -i "$D" --symfs "$TMP/x" -F ip,sym,dso,srcline \
	>"$TMP/s-script.txt" 2>&1
same_as archive_symfs "$TMP/ref-script.txt" "$TMP/s-script.txt"
# PERF_BUILDID_DIR names the build-id cache, as for perf.
env HOME="$TMP/home" PERF_BUILDID_DIR="$TMP/x" "$PERFEV" report -i "$D" --stdio -g none \
	--sort dso,sym >"$TMP/b-report.txt" 2>&1
same_as archive_buildid_dir "$TMP/ref-report.txt" "$TMP/b-report.txt"

# perf reads it the way its own archives are used: extracted into ~/.debug.
if [ -n "$have_perf" ]; then
	mkdir -p "$TMP/phome/.debug"
	tar xf "$D.tar.zst" -C "$TMP/phome/.debug"
	HOME="$TMP/phome" perf report -i "$D" --stdio -g none --sort dso,sym >"$TMP/perf.txt" 2>&1
	if grep -q '\] leaf$' "$TMP/perf.txt" && grep -q '\] main$' "$TMP/perf.txt"; then
		pass archive_perf_reads
	else
		fail archive_perf_reads "perf report did not resolve leaf/main: $(grep '%' "$TMP/perf.txt" | head -c 400)"
	fi
else
	skip perf archive_perf_reads "$why_no_perf"
fi

if [ -n "$perf_archive" ]; then
	env HOME="$TMP/home" "$PERFEV" report -i "$TMP/perf.data" --archive "$TMP/perf.data.tar.bz2" \
		--stdio -g none --sort dso,sym >"$TMP/p-report.txt" 2>&1
	same_as archive_reads_perfs "$TMP/ref-perf.txt" "$TMP/p-report.txt"
else
	skip perf archive_reads_perfs "${why_no_perf:-perf archive failed}"
fi

# Archived again now that the binary is gone: said, the rest still written, exit 0 as perf archive.
run env HOME="$TMP/home" "$PERFEV" archive "$D" -o "$TMP/again.tar.bz2"
if expect_rc archive_missing 0 && grep -q "not archiving '$TMP/src/w'" "$TMP/err" &&
	tar tjf "$TMP/again.tar.bz2" | grep -q 'libc.so.6/.*/elf$'; then
	pass archive_missing
else
	fail archive_missing "$(head -c 300 "$TMP/err")"
fi

# An existing archive is replaced; a symbolic link planted at the output is replaced, not followed.
echo keep >"$TMP/victim"
ln -s "$TMP/victim" "$TMP/link.tar.zst"
run env HOME="$TMP/home" "$PERFEV" archive "$D" -o "$TMP/link.tar.zst"
if expect_rc archive_symlink 0 && [ "$(cat "$TMP/victim")" = keep ] &&
	[ ! -L "$TMP/link.tar.zst" ] && tar tf "$TMP/link.tar.zst" >/dev/null 2>&1; then
	pass archive_symlink
else
	fail archive_symlink "the link was followed or the archive is bad"
fi
run env HOME="$TMP/home" "$PERFEV" archive "$D" -o "$TMP/link.tar.zst"
expect_rc archive_overwrite 0 && tar tf "$TMP/link.tar.zst" >/dev/null 2>&1 && pass archive_overwrite

# Bad input.
run "$PERFEV" archive "$D" -o "$TMP/none/a.tar.zst"
if expect_rc archive_unwritable 1 && grep -q "cannot write archive '$TMP/none/a.tar.zst'" "$TMP/err"; then
	pass archive_unwritable
else
	fail archive_unwritable "$(head -c 300 "$TMP/err")"
fi
run "$PERFEV" archive "$D" -o "$TMP/a.zip"
expect_rc archive_format 2 && pass archive_format
if "$PERFEV" record -q -B -e task-clock -o "$TMP/nob.data" -- "$TMP/moved/w" >/dev/null 2>&1; then
	run "$PERFEV" archive "$TMP/nob.data"
	if expect_rc archive_no_buildid 1 && grep -q "records no build id" "$TMP/err" &&
		[ ! -e "$TMP/nob.data.tar.zst" ]; then
		pass archive_no_buildid
	else
		fail archive_no_buildid "$(head -c 300 "$TMP/err")"
	fi
fi
# Build ids of a process that was running before the recording (its maps described from /proc,
# not reported by the kernel): in the BUILD_ID section, so it can be archived too.
"$TMP/moved/w" >/dev/null &
wpid=$!
timeout -s INT 0.5 "$PERFEV" record -q -e task-clock -p "$wpid" -o "$TMP/pid.data" >/dev/null 2>&1
wait "$wpid"
run env HOME="$TMP/home" "$PERFEV" archive "$TMP/pid.data"
if expect_rc archive_running_process 0 && tar tf "$TMP/pid.data.tar.zst" >"$TMP/list" 2>&1 &&
	grep -q '/moved/w/[0-9a-f]\{40\}/elf$' "$TMP/list"; then
	pass archive_running_process
else
	fail archive_running_process "$(head -c 300 "$TMP/err") $(head -c 300 "$TMP/list")"
fi
printf 'not an archive at all, longer than nothing\n' >"$TMP/junk.tar.zst"
run "$PERFEV" report -i "$D" --archive "$TMP/junk.tar.zst" --stdio
if expect_rc archive_junk 1 && grep -q "cannot read archive" "$TMP/err"; then
	pass archive_junk
else
	fail archive_junk "$(head -c 300 "$TMP/err")"
fi
# An archive whose entries try to leave the directory it is extracted into: none gets out.
mkdir -p "$TMP/t3/in"
python3 tests/cli/oracle.py evil-tar "$TMP/evil.tar.gz"
env TMPDIR="$TMP/t3/in" "$PERFEV" report -i "$D" --archive "$TMP/evil.tar.gz" --stdio >/dev/null 2>&1
if [ ! -e "$TMP/t3/evil" ] && [ ! -e "$TMP/t3/evil2" ] && [ ! -e "$TMP/evil2" ] &&
	[ ! -e /tmp/perfev-evil-absolute ] && [ ! -e /tmp/perfev-evil-root ] &&
	[ -z "$(ls -A "$TMP/t3/in")" ]; then
	pass archive_contained
else
	fail archive_contained "an entry was written outside: $(ls -A "$TMP/t3" "$TMP/t3/in")"
	rm -f /tmp/perfev-evil-absolute /tmp/perfev-evil-root
fi
# libarchive is loaded when an archive is written or read: without it, perfev archive says what
# to install (exit 1) and leaves no file.  The library is hidden by a bind mount in a mount
# namespace of its own.
if hide_lib archive_no_libarchive 'libarchive\.so\.13'; then
	unshare -m sh -c 'mount --bind /dev/null "$1" && shift &&
		"$1" archive "$2" -o "$3/nolib.tar.zst" >"$3/out" 2>"$3/err"; echo $? >"$3/rc"' \
		sh "$hidden_lib" "$PERFEV" "$D" "$TMP"
	if [ "$(cat "$TMP/rc")" = 1 ] && grep -q "cannot write archive '$TMP/nolib.tar.zst': .*install the Debian package libarchive13" "$TMP/err" &&
		[ ! -e "$TMP/nolib.tar.zst" ]; then
		pass archive_no_libarchive
	else
		fail archive_no_libarchive "rc $(cat "$TMP/rc"): $(head -c 300 "$TMP/err")"
	fi
fi
exit $status
