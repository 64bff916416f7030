# SPDX-License-Identifier: LGPL-2.1-or-later
# perfev report: compared with perf report --stdio 6.1 on files recorded by perf and by perfev.
. tests/cli/lib.sh

W=${PERFEV_BUILD:-build}/examples/workload

have_perf61

# compare NAME FILE SORT [--top N] [more perfev/perf options]: perf report and perfev report agree
# on the lines of the table (with children=OPTIONS, perf's defaults for files with call chains
# are not overridden; without, both get --no-children, and perf -g none).
compare() {
	name=$1 file=$2 sort=$3
	shift 3
	top=
	if [ "${1:-}" = --top ]; then
		top="--top $2"
		shift 2
	fi
	perf report -i "$file" --stdio ${children:---no-children -g none} --sort "$sort" "$@" >"$TMP/perf.txt" 2>/dev/null
	# shellcheck disable=SC2086
	run "$PERFEV" report -i "$file" ${children:---no-children -g none} --sort "$sort" "$@"
	expect_rc "$name" 0 || return 1
	# shellcheck disable=SC2086
	if python3 tests/cli/oracle.py report-cmp "$TMP/perf.txt" "$TMP/out" $top >"$TMP/cmp.err" 2>&1; then
		pass "$name"
	else
		fail "$name" "$(cat "$TMP/cmp.err")"
	fi
}

# compare_children: compare with perf's defaults for files with call chains.
compare_children() {
	children=" "
	compare "$@"
	rc=$?
	children=
	return $rc
}

if [ -z "$have_perf" ]; then
	skip perf report_vs_perf "$why_no_perf"
else
	# A file perf records, and one perfev records, of the bundled workload.  With symbols
	# only the first line is compared: among aliases of one address (libc's __GI_ names)
	# elfutils and perf choose differently, and such lines can come next.
	if perf record -q -o "$TMP/perf.data" -F 2000 -- "$W" 50000000 >/dev/null 2>&1; then
		compare report_perf_file "$TMP/perf.data" comm,dso
		compare report_perf_file_sym "$TMP/perf.data" comm,dso,sym --top 1
		compare report_perf_file_pid "$TMP/perf.data" pid,dso
		compare report_perf_file_limit "$TMP/perf.data" comm,dso,sym --top 1 --percent-limit 2
		compare report_perf_file_nr "$TMP/perf.data" comm,dso -n
	else
		skip perf report_perf_file "perf record failed here"
	fi
	"$PERFEV" record -q -o "$TMP/pv.data" -F 2000 -- "$W" 50000000 >/dev/null 2>&1
	compare report_perfev_file "$TMP/pv.data" comm,dso
	compare report_perfev_file_sym "$TMP/pv.data" comm,dso,sym --top 1
	compare report_perfev_file_dso_sym "$TMP/pv.data" dso,sym --top 1
	# Source lines of the workload (built with -g): perf runs addr2line, perfev reads DWARF.
	compare report_srcline "$TMP/pv.data" srcline --top 1
	compare report_dso_srcline "$TMP/pv.data" dso,srcline --top 1
	# The CPU of each sample, and "-001" where samples do not record it.
	if "$PERFEV" record -q --sample-cpu -o "$TMP/cpu.data" -F 2000 -- "$W" 50000000 >/dev/null 2>&1; then
		compare report_cpu "$TMP/cpu.data" cpu,comm
	else
		fail report_cpu "perfev record --sample-cpu failed"
	fi
	compare report_cpu_unrecorded "$TMP/pv.data" cpu,comm
	# Two events: a section each.
	if perf record -q -o "$TMP/two.data" -e cpu-clock -e page-faults -c 1000 -- "$W" 20000000 >/dev/null 2>&1; then
		compare report_two_events "$TMP/two.data" comm,dso
	fi
	# System-wide, with other processes and the kernel.
	if [ "$(id -u)" -eq 0 ]; then
		"$PERFEV" record -q -a -o "$TMP/sys.data" -F 1000 -- "$W" 50000000 >/dev/null 2>&1
		compare report_system_wide "$TMP/sys.data" comm,dso --top 5
	else
		skip root report_system_wide "system-wide recording needs root here"
	fi

	# Call chains: perf's defaults then are callers' overhead (Children) and caller graphs.
	if perf record -q -o "$TMP/pg.data" -F 2000 -g -- sh -c "ls -lR /usr/lib >/dev/null; $W 50000000" \
		>/dev/null 2>&1; then
		compare_children report_children "$TMP/pg.data" comm,dso,sym --top 10
		compare report_children_off "$TMP/pg.data" comm,dso,sym --top 10
		compare_children report_children_pid "$TMP/pg.data" pid,dso --top 10
		# The graphs under the first lines, line for line, but for the order of branches
		# (and of lines) of equal shares: perf 6.1 orders those by the addresses of its
		# objects in memory, which change from run to run (oracle.py graph-same).
		for g in "" "-g caller" "-g callee" "-g fractal" "-g folded" "--no-children"; do
			name="report_graph${g:+_$(echo "$g" | tr -d ' -')}"
			# perf 6.1 allocates the symbol of its "[...]" line (the hits below the
			# threshold) without clearing it, so a stray "(inlined)" may follow it.
			# shellcheck disable=SC2086
			perf report -i "$TMP/pg.data" --stdio $g 2>/dev/null |
				sed 's/--\[\.\.\.\] (inlined) *$/--[...]/' >"$TMP/pgraph"
			# shellcheck disable=SC2086
			"$PERFEV" report -i "$TMP/pg.data" $g >"$TMP/ograph" 2>"$TMP/err"
			if [ "$(grep -c '%' "$TMP/pgraph")" -lt 3 ]; then
				fail "$name" "perf printed no graph: $(head -5 "$TMP/pgraph")"
			elif python3 tests/cli/oracle.py graph-same "$TMP/pgraph" "$TMP/ograph" --top 3 \
				>"$TMP/cmp.err" 2>&1; then
				pass "$name"
			else
				fail "$name" "$(head -c 1000 "$TMP/cmp.err")"
			fi
		done
		# The comparison sees a branch renamed (here the first of the last graph's).
		sed '0,/--[0-9.]*%--/s/\(--[0-9.]*%--\)/\1x/' "$TMP/pgraph" >"$TMP/ograph"
		if python3 tests/cli/oracle.py graph-same "$TMP/pgraph" "$TMP/ograph" --top 3 \
			>"$TMP/cmp.err" 2>&1; then
			fail report_graph_same_sees_renamed "graph-same took a renamed branch"
		else
			pass report_graph_same_sees_renamed
		fi
	else
		skip perf report_children "perf record -g failed here"
	fi
	"$PERFEV" record -q -o "$TMP/pvg.data" -F 2000 -g -- "$W" 50000000 >/dev/null 2>&1
	compare_children report_children_perfev_file "$TMP/pvg.data" comm,dso,sym --top 5
fi

# The main function of the workload comes out by name, with most of the samples.
"$PERFEV" record -q -o "$TMP/w.data" -F 2000 -- "$W" 50000000 >/dev/null 2>&1
run "$PERFEV" report -i "$TMP/w.data" --sort sym
if expect_rc report_symbol 0; then
	if awk '$2 == "[.]" && $3 == "main" { sub("%", "", $1); if ($1 + 0 > 50) ok = 1 } END { exit !ok }' "$TMP/out"; then
		pass report_symbol
	else
		fail report_symbol "no '[.] main' above 50%: $(sed -n 9,14p "$TMP/out")"
	fi
fi

# JIT-compiled code named in /tmp/perf-PID.map, and the vDSO: the symbols perf finds.
if ! command -v cc >/dev/null 2>&1; then
	skip cc report_jit "no C compiler to build the JIT and vDSO programs"
else
	cat >"$TMP/jit.c" <<'EOF'
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
static void done(int sig) { (void)sig; _exit(0); }
int main(int argc, char **argv)
{
	static const unsigned char spin[] = {0xeb, 0xfe}; /* x86-64: jmp . */
	char path[64];
	FILE *f;
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	memcpy(p, spin, sizeof(spin));
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	if (!(f = fopen(path, "w")))
		return 1;
	fprintf(f, "%lx %zx jitted_spin_loop\n", (unsigned long)p, sizeof(spin));
	fclose(f);
	if (argc > 1 && (f = fopen(argv[1], "w"))) { /* where the test finds the map to remove */
		fprintf(f, "%s\n", path);
		fclose(f);
	}
	signal(SIGALRM, done);
	alarm(1);
	((void (*)(void))p)();
	return 0;
}
EOF
	cat >"$TMP/vdso.c" <<'EOF'
#include <time.h>
int main(void)
{
	struct timespec ts, end;
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += 1;
	do
		clock_gettime(CLOCK_MONOTONIC, &ts);
	while (ts.tv_sec < end.tv_sec || (ts.tv_sec == end.tv_sec && ts.tv_nsec < end.tv_nsec));
	return 0;
}
EOF
	if [ "$(uname -m)" != x86_64 ]; then
		skip x86_64 report_jit "the JIT program's code is x86-64"
	elif cc -O2 -o "$TMP/jit" "$TMP/jit.c" 2>"$TMP/err" &&
		"$PERFEV" record -q -o "$TMP/jit.data" -F 999 -- "$TMP/jit" "$TMP/jit.map" >/dev/null 2>&1; then
		run "$PERFEV" report -i "$TMP/jit.data" --sort dso,sym
		if expect_rc report_jit 0 &&
			awk '/%/ { print; exit }' "$TMP/out" | grep -q '\[JIT\] tid [0-9]*  *\[\.\] jitted_spin_loop'; then
			pass report_jit
		else
			fail report_jit "$(grep % "$TMP/out" | head -3)"
		fi
		[ -z "$have_perf" ] || compare report_jit_vs_perf "$TMP/jit.data" comm,dso,sym --top 1
		# Anyone may write to /tmp: a map that is a FIFO (perf blocks on it), a link to
		# /dev/zero (perf reads without end), or another user's file is skipped with a note.
		map=$(cat "$TMP/jit.map")
		cp "$map" "$TMP/jit-map.txt"
		for kind in fifo zero other_user; do
			rm -f "$map"
			case $kind in
			fifo) mkfifo "$map" ;;
			zero) ln -s /dev/zero "$map" ;;
			other_user) cp "$TMP/jit-map.txt" "$map" && chown 65534 "$map" ;;
			esac
			# A safety net, not a timing: a reader blocked on the FIFO would hang the suite.
			run timeout 120 "$PERFEV" report -i "$TMP/jit.data" --sort dso,sym
			if ! expect_rc "report_jit_unsafe_map($kind)" 0; then
				:
			elif grep -q jitted_spin_loop "$TMP/out"; then
				fail "report_jit_unsafe_map($kind)" "the map was read"
			elif ! grep -q "warning: not reading the JIT map '$map': it " "$TMP/err"; then
				fail "report_jit_unsafe_map($kind)" "no note: $(head -c 300 "$TMP/err")"
			else
				pass "report_jit_unsafe_map($kind)"
			fi
		done
		rm -f "$map"
	else
		fail report_jit "cannot build or record the JIT program: $(head -c 300 "$TMP/err")"
	fi
	if cc -O2 -o "$TMP/vdso" "$TMP/vdso.c" 2>"$TMP/err" &&
		"$PERFEV" record -q -o "$TMP/vdso.data" -F 999 -- "$TMP/vdso" >/dev/null 2>&1; then
		run "$PERFEV" report -i "$TMP/vdso.data" --sort dso,sym
		if expect_rc report_vdso 0 &&
			awk '/%/ { print; exit }' "$TMP/out" | grep -q '\[vdso\]  *\[\.\] __vdso_clock_gettime'; then
			pass report_vdso
		else
			fail report_vdso "$(grep % "$TMP/out" | head -3)"
		fi
		[ -z "$have_perf" ] || compare report_vdso_vs_perf "$TMP/vdso.data" comm,dso,sym --top 2
	else
		fail report_vdso "cannot build or record the vDSO program: $(head -c 300 "$TMP/err")"
	fi
fi

# A binary rebuilt since the recording is not read for its symbols: the build ids differ.
if ! command -v cc >/dev/null 2>&1; then
	skip cc report_build_id "no C compiler to build the program"
else
	cat >"$TMP/bid.c" <<'EOF'
#ifndef NAME
#define NAME first_build_function
#endif
__attribute__((noinline)) double NAME(long n)
{
	double x = 0;
	for (long i = 0; i < n; i++)
		x += i * 0.5;
	return x;
}
int main(void)
{
	volatile double r = NAME(300000000L);
	(void)r;
	return 0;
}
EOF
	if cc -O1 -o "$TMP/bid" "$TMP/bid.c" -Wl,--build-id 2>"$TMP/err" &&
		"$PERFEV" record -q -o "$TMP/bid.data" -F 999 -- "$TMP/bid" >/dev/null 2>&1; then
		run "$PERFEV" report -i "$TMP/bid.data" --sort sym
		if expect_rc report_build_id_same 0 && grep -q '\[\.\] first_build_function' "$TMP/out"; then
			pass report_build_id_same
		else
			fail report_build_id_same "$(grep % "$TMP/out" | head -3)"
		fi
		cc -O1 -DNAME=second_build_function -o "$TMP/bid" "$TMP/bid.c" -Wl,--build-id
		# HOME: no build-id cache holds the recorded binary.
		run env HOME="$TMP" "$PERFEV" report -i "$TMP/bid.data" --sort sym
		if expect_rc report_build_id_rebuilt 0 && grep -q '%' "$TMP/out" &&
			! grep -q '_build_function' "$TMP/out"; then
			pass report_build_id_rebuilt
		else
			fail report_build_id_rebuilt "symbols read from the rebuilt binary: $(grep % "$TMP/out" | head -3)"
		fi
		run env HOME="$TMP" "$PERFEV" script -i "$TMP/bid.data" -F ip,sym
		if expect_rc script_build_id_rebuilt 0 && ! grep -q '_build_function' "$TMP/out"; then
			pass script_build_id_rebuilt
		else
			fail script_build_id_rebuilt "$(head -3 "$TMP/out")"
		fi
	else
		fail report_build_id "cannot build or record the program: $(head -c 300 "$TMP/err")"
	fi
fi

# --folded and --speedscope: their totals are the report's, and speedscope's JSON holds together.
"$PERFEV" record -q -o "$TMP/fs.data" -F 2000 -g -- "$W" 50000000 >/dev/null 2>&1
run "$PERFEV" report -i "$TMP/fs.data" --no-children -g none -F overhead,sample,comm,dso,sym
nsamples=$(awk '!/^#/ && /%/ { n += $2 } END { print n + 0 }' "$TMP/out")
top=$(awk '!/^#/ && /%/ { print $NF; exit }' "$TMP/out")
count=$(sed -n "s/^# Event count (approx.): \([0-9]*\)$/\1/p" "$TMP/out")
run "$PERFEV" report -i "$TMP/fs.data" --folded "$TMP/f.folded"
if expect_rc report_folded 0 && [ "$nsamples" -gt 0 ] &&
	awk -v want="$nsamples" -v top="$top" '
		NF < 2 || $NF !~ /^[0-9]+$/ { bad = "malformed: " $0; exit }
		{ n += $NF; split($1, f, ";"); if (f[1] != "workload" && f[1] !~ /^perfev|^:/) other++
		  leaf = f[length(f)]; self[leaf] += $NF }
		END { if (bad) { print bad; exit 1 }
		      best = ""; for (k in self) if (best == "" || self[k] > self[best]) best = k
		      if (n != want) { print "counts sum to " n ", the report has " want; exit 1 }
		      if (best != top) { print "top leaf " best ", the report says " top; exit 1 } }
	' "$TMP/f.folded" >"$TMP/cmp.err"; then
	pass report_folded
else
	fail report_folded "$(cat "$TMP/cmp.err") $(head -3 "$TMP/f.folded")"
fi
run "$PERFEV" report -i "$TMP/fs.data" --speedscope "$TMP/s.json"
if expect_rc report_speedscope 0 && python3 - "$TMP/s.json" "$count" >"$TMP/cmp.err" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
frames = d["shared"]["frames"]
assert d["$schema"].startswith("https://www.speedscope.app/"), d["$schema"]
assert len(d["profiles"]) == 1, "profiles: %d" % len(d["profiles"])
p = d["profiles"][0]
assert p["type"] == "sampled" and p["unit"] == "nanoseconds", (p["type"], p["unit"])
assert len(p["samples"]) == len(p["weights"]), "samples and weights differ in length"
assert all(0 <= i < len(frames) for s in p["samples"] for i in s), "a frame index out of range"
assert all(isinstance(f["name"], str) and f["name"] for f in frames), "a frame without a name"
assert sum(p["weights"]) == int(sys.argv[2]) == p["endValue"], (sum(p["weights"]), sys.argv[2])
PY
then
	pass report_speedscope
else
	fail report_speedscope "$(cat "$TMP/cmp.err")"
fi
# One export that cannot be written is an error; the others are written all the same.
run "$PERFEV" report -i "$TMP/fs.data" --folded "$TMP/no-such-dir/f.folded" --speedscope "$TMP/s2.json"
expect_rc report_export_unwritable 1 && grep -q "no-such-dir" "$TMP/err" &&
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$TMP/s2.json" &&
	pass report_export_unwritable || fail report_export_unwritable "$(cat "$TMP/err")"

# Exports never write through a link: each planted one is refused, and what it points to
# is not created.
for e in html pprof speedscope folded; do
	ln -s "$TMP/victim.$e" "$TMP/link.$e"
done
run "$PERFEV" report -i "$TMP/fs.data" --html "$TMP/link.html" --pprof "$TMP/link.pprof" \
	--speedscope "$TMP/link.speedscope" --folded "$TMP/link.folded"
if expect_rc report_export_link 1; then
	n=$(grep -c "it is a symbolic link to '$TMP/victim\." "$TMP/err")
	if ls "$TMP"/victim.* >/dev/null 2>&1; then
		fail report_export_link "a file a link points to was written: $(ls "$TMP"/victim.*)"
	elif [ "$n" -ne 4 ]; then
		fail report_export_link "$n refusals, expected 4: $(cat "$TMP/err")"
	else
		pass report_export_link
	fi
fi
# A hard link to another file is replaced, not written through.
printf 'keep\n' >"$TMP/other"
ln "$TMP/other" "$TMP/hard.folded"
run "$PERFEV" report -i "$TMP/fs.data" --folded "$TMP/hard.folded"
if expect_rc report_export_hard_link 0; then
	if [ "$(cat "$TMP/other")" != keep ]; then
		fail report_export_hard_link "the other name of the file was written"
	elif ! grep -q ';' "$TMP/hard.folded"; then
		fail report_export_hard_link "no stacks in the export: $(head -c 200 "$TMP/hard.folded")"
	else
		pass report_export_hard_link
	fi
fi

# Write errors name the output and the device or the filesystem, never an event.
for e in html pprof speedscope folded; do
	run "$PERFEV" report -i "$TMP/fs.data" "--$e" /dev/full
	if ! expect_rc "report_export_dev_full($e)" 1; then
		:
	elif grep -q "cannot write the .* output '/dev/full': no space left on device (a character device)" "$TMP/err" &&
		! grep -q 'input/output\|event' "$TMP/err"; then
		pass "report_export_dev_full($e)"
	else
		fail "report_export_dev_full($e)" "unclear message: $(cat "$TMP/err")"
	fi
done
if small_fs "$TMP/report-fs" 64k; then
	printf 'before\n' >"$TMP/report-fs/x.html"
	fill_fs "$TMP/report-fs"
	run "$PERFEV" report -i "$TMP/fs.data" --html "$TMP/report-fs/x.html"
	if ! expect_rc report_export_full_disk 1; then
		:
	elif ! grep -q "cannot write the HTML output '$TMP/report-fs/x.html': no space left on the filesystem at '$TMP/report-fs' (tmpfs)" "$TMP/err"; then
		fail report_export_full_disk "unclear message: $(cat "$TMP/err")"
	elif [ "$(cat "$TMP/report-fs/x.html")" != before ]; then
		fail report_export_full_disk "the file there before was cut"
	elif ls -a "$TMP/report-fs" | grep -q '^\.x\.html\.'; then
		fail report_export_full_disk "the new file was left beside: $(ls -a "$TMP/report-fs")"
	else
		pass report_export_full_disk
	fi
else
	skip tmpfs report_export_full_disk "cannot mount a small tmpfs: not permitted (needs root)"
fi

# The cache directory: a symlinked $XDG_CACHE_HOME/perfev is refused, not followed, and
# nothing is made in a directory others may write to; each with a warning.
mkdir -p "$TMP/xdg" "$TMP/xdg-target" "$TMP/xdg-open"
chmod 777 "$TMP/xdg-open"
ln -s "$TMP/xdg-target" "$TMP/xdg/perfev"
XDG_CACHE_HOME="$TMP/xdg" run "$PERFEV" report -i "$TMP/fs.data"
if ! expect_rc report_cache_link 0; then
	:
elif [ -n "$(ls -A "$TMP/xdg-target")" ]; then
	fail report_cache_link "the link was followed: $(ls -A "$TMP/xdg-target")"
elif ! grep -q "warning: not keeping symbols between runs in '$TMP/xdg/perfev': it is a symbolic link" "$TMP/err"; then
	fail report_cache_link "no warning: $(head -c 300 "$TMP/err")"
else
	pass report_cache_link
fi
XDG_CACHE_HOME="$TMP/xdg-open/sub" run "$PERFEV" report -i "$TMP/fs.data"
if ! expect_rc report_cache_open_dir 0; then
	:
elif [ -e "$TMP/xdg-open/sub" ]; then
	fail report_cache_open_dir "a directory was made where others may write"
elif ! grep -q "warning: not keeping symbols between runs in '$TMP/xdg-open/sub/perfev': '$TMP/xdg-open' is another user's, or others may write to it" "$TMP/err"; then
	fail report_cache_open_dir "no warning: $(head -c 300 "$TMP/err")"
else
	pass report_cache_open_dir
fi

# C++ names demangled as perf shows them (no parameters), or as the file spells them.
if ! command -v g++ >/dev/null 2>&1; then
	skip g++ report_demangle "no C++ compiler to build the program"
else
	cat >"$TMP/cxx.cc" <<'EOF'
#include <map>
namespace ns {
__attribute__((noinline)) long work(std::map<int, int> &m, int n)
{
	long s = 0;
	for (int i = 0; i < n; i++) {
		m[i % 1000] += i;
		s += m[(i * 7) % 1000];
	}
	return s;
}
} // namespace ns
int main()
{
	std::map<int, int> m;
	volatile long r = ns::work(m, 20000000);
	(void)r;
}
EOF
	if g++ -O1 -o "$TMP/cxx" "$TMP/cxx.cc" 2>"$TMP/err" &&
		"$PERFEV" record -q -o "$TMP/cxx.data" -F 999 -- "$TMP/cxx" >/dev/null 2>&1; then
		run "$PERFEV" report -i "$TMP/cxx.data" --no-children -g none --sort sym
		expect_rc report_demangle 0 && grep -q '\[\.\] ns::work$' "$TMP/out" && pass report_demangle ||
			fail report_demangle "$(grep % "$TMP/out" | head -3)"
		run "$PERFEV" report -i "$TMP/cxx.data" --no-children -g none --sort sym --no-demangle
		expect_rc report_no_demangle 0 && grep -q '\[\.\] _ZN2ns4work' "$TMP/out" &&
			! grep -q 'ns::work' "$TMP/out" && pass report_no_demangle ||
			fail report_no_demangle "$(grep % "$TMP/out" | head -3)"
		[ -z "$have_perf" ] || compare report_demangle_vs_perf "$TMP/cxx.data" comm,dso,sym --top 1
	else
		fail report_demangle "cannot build or record the C++ program: $(head -c 300 "$TMP/err")"
	fi
fi

# Two static functions of one name are two lines (and two branches), as in perf;
# a thread that exec'd is one line under --sort pid, named by its last command.
if ! command -v cc >/dev/null 2>&1; then
	skip cc report_same_name "no C compiler to build the program"
else
	printf 'static void work(void) { for (volatile long i = 0; i < 150000000L; i++) ; }\nvoid a(void) { work(); }\n' >"$TMP/a.c"
	printf 'static void work(void) { for (volatile long i = 0; i < 50000000L; i++) ; }\nvoid b(void) { work(); }\n' >"$TMP/b.c"
	printf 'void a(void);\nvoid b(void);\nint main(void) { a(); b(); return 0; }\n' >"$TMP/m.c"
	if cc -O1 -fno-omit-frame-pointer -fno-inline -o "$TMP/two" "$TMP/m.c" "$TMP/a.c" "$TMP/b.c" 2>"$TMP/err" &&
		"$PERFEV" record -q -g -o "$TMP/same.data" -F 999 -- "$TMP/two" >/dev/null 2>&1; then
		run "$PERFEV" report -i "$TMP/same.data" --no-children -g none --sort sym
		expect_rc report_same_name 0 && [ "$(grep -c '\[\.\] work$' "$TMP/out")" -eq 2 ] &&
			pass report_same_name || fail report_same_name "$(grep % "$TMP/out" | head -4)"
		[ -z "$have_perf" ] || compare report_same_name_vs_perf "$TMP/same.data" comm,dso,sym --top 2
		[ -z "$have_perf" ] || compare_children report_same_name_children "$TMP/same.data" comm,dso,sym --top 4
		"$PERFEV" record -q -o "$TMP/exec.data" -F 2000 -- sh -c "exec $TMP/two" >/dev/null 2>&1
		run "$PERFEV" report -i "$TMP/exec.data" --sort pid
		expect_rc report_pid_exec 0 && [ "$(grep -c '%' "$TMP/out")" -eq 1 ] &&
			grep -q ':two *$' "$TMP/out" && pass report_pid_exec ||
			fail report_pid_exec "$(grep % "$TMP/out" | head -4)"
	else
		fail report_same_name "cannot build or record the program: $(head -c 300 "$TMP/err")"
	fi
fi

# Filters: every line left names the command or object asked for.
# The object with the fewest samples (which ones a run hits varies) is the filter.
dso=$("$PERFEV" report -i "$TMP/w.data" --sort dso 2>/dev/null | awk '!/^#/ && /%/ { d = $2 } END { print d }')
run "$PERFEV" report -i "$TMP/w.data" --sort comm,dso --dsos "$dso"
expect_rc report_dso_filter 0 && [ -n "$dso" ] && [ "$(grep -c '%' "$TMP/out")" -ge 1 ] &&
	! grep '%' "$TMP/out" | grep -vF "$dso" >/dev/null && pass report_dso_filter ||
	fail report_dso_filter "--dsos '$dso': $(cat "$TMP/out")"
run "$PERFEV" report -i "$TMP/w.data" --sort comm --comm no-such-command
expect_rc report_comm_filter 0 && ! grep -q '%' "$TMP/out" && pass report_comm_filter ||
	fail report_comm_filter "$(cat "$TMP/out")"

tid=$("$PERFEV" script -i "$TMP/w.data" -F tid 2>/dev/null | awk 'NR == 1 { print $1 }')
run "$PERFEV" report -i "$TMP/w.data" --sort comm --tid "1,$tid"
expect_rc report_tid_filter 0 && grep -q '%  workload' "$TMP/out" && pass report_tid_filter ||
	fail report_tid_filter "thread $tid: $(cat "$TMP/out")"

# Errors.
run "$PERFEV" report -i "$TMP/w.data" --tid 12x
expect_rc report_bad_tid 2 && grep -q "takes thread ids, not '12x'" "$TMP/err" && pass report_bad_tid
run "$PERFEV" report -i "$TMP/w.data" --sort comm,nope
expect_rc report_bad_sort 2 && grep -q "unknown sort key 'nope'" "$TMP/err" && pass report_bad_sort
run "$PERFEV" report -i "$TMP/missing.data"
expect_rc report_missing 1 && grep -q "cannot read" "$TMP/err" && pass report_missing
run "$PERFEV" report -i "$TMP/w.data" --percent-limit 200
expect_rc report_bad_limit 2 && pass report_bad_limit

# --pprof: the file gunzips, protoc decodes it with proto/profile.proto, and
# check-pprof.py finds it consistent and equal to the text report.
cat >"$TMP/check-pprof.py" <<'PY'
import sys
from collections import defaultdict

# protoc's text format, as oracle.py reads it (run from the source tree).
sys.path.insert(0, "tests/cli")
from oracle import protoc_text as parse

def one(m, k):
    return m[k][0] if m[k] else 0

pb = parse(sys.argv[1])
want_samples, want_count, top_sym = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
strs = pb["string_table"]
errs = []
if not strs or strs[0] != "":
    errs.append("string_table[0] is not empty")
def s(i, what):
    if not 0 <= i < len(strs):
        errs.append("%s: string index %d out of range (%d strings)" % (what, i, len(strs)))
        return ""
    return strs[i]

types = [(s(one(t, "type"), "sample_type"), s(one(t, "unit"), "sample_type")) for t in pb["sample_type"]]
funcs = {one(f, "id"): s(one(f, "name"), "function") for f in pb["function"]}
for f in pb["function"]:
    s(one(f, "system_name"), "function"), s(one(f, "filename"), "function")
maps = {one(m, "id"): m for m in pb["mapping"]}
for m in pb["mapping"]:
    s(one(m, "filename"), "mapping"), s(one(m, "build_id"), "mapping")
locs = {}
for l in pb["location"]:
    locs[one(l, "id")] = l
    if one(l, "mapping_id") and one(l, "mapping_id") not in maps:
        errs.append("location %d: no mapping %d" % (one(l, "id"), one(l, "mapping_id")))
    # A location without a line is an address left for a backend to
    # symbolize; address 0 only as the [unknown] frame a frame-pointer
    # chain through code built without them can end with (perf shows it too).
    if not l["line"] and not one(l, "address") and (
            one(l, "mapping_id") not in maps or
            s(one(maps[one(l, "mapping_id")], "filename"), "mapping") != "[unknown]"):
        errs.append("location %d has neither a line nor an address" % one(l, "id"))
    for ln in l["line"]:
        if one(ln, "function_id") not in funcs:
            errs.append("location %d: no function %d" % (one(l, "id"), one(ln, "function_id")))
for c in pb["comment"]:
    s(c, "comment")
if pb["default_sample_type"]:
    s(one(pb, "default_sample_type"), "default_sample_type")

sums = [0] * len(types)
self_samples = defaultdict(int)
for smp in pb["sample"]:
    v = smp["value"]
    if len(v) != len(types):
        errs.append("a sample has %d values for %d types" % (len(v), len(types)))
        continue
    sums = [a + b for a, b in zip(sums, v)]
    for lid in smp["location_id"]:
        if lid not in locs:
            errs.append("sample: no location %d" % lid)
    for lb in smp["label"]:
        s(one(lb, "key"), "label"), s(one(lb, "str"), "label")
    # The function the sampled address is in: the leaf location's last
    # line (the ones before it are functions inlined there), as the
    # report's symbol column has it.
    if smp["location_id"] and smp["location_id"][0] in locs:
        lines = locs[smp["location_id"][0]]["line"]
        self_samples[funcs.get(one(lines[-1], "function_id"), "?") if lines else "[unknown]"] += v[0]

if types != [("samples", "count"), ("cpu", "nanoseconds")]:
    errs.append("sample types %s, expected samples/count, cpu/nanoseconds" % types)
elif sums != [want_samples, want_count]:
    errs.append("values sum to %s, the report says %d samples, event count %d" %
                (sums, want_samples, want_count))
best = max(self_samples.values(), default=-1)
if self_samples.get(top_sym, -2) != best:
    errs.append("the report's top symbol '%s' has %d self samples, pprof's top %s" %
                (top_sym, self_samples.get(top_sym, 0),
                 [f for f, n in self_samples.items() if n == best]))
if errs:
    sys.exit("\n".join(errs[:10]))
PY

if ! command -v protoc >/dev/null 2>&1; then
	skip protoc report_pprof "protoc is not installed (Debian: protobuf-compiler) to decode the output"
elif ! "$PERFEV" report -h 2>&1 | grep -q -- --pprof; then
	skip pprof report_pprof "this perfev report has no --pprof option"
elif ! "$PERFEV" record -q -e cpu-clock -F 999 -g -o "$TMP/g.data" -- "$W" 100000000 >/dev/null 2>"$TMP/err"; then
	fail report_pprof "perfev record -g failed: $(head -c 300 "$TMP/err")"
else
	# The exact sample count: the header rounds it ("49K") past a thousand.
	run "$PERFEV" report -i "$TMP/g.data" --stdio --no-children -g none -F overhead,sample,sym
	samples=$(awk '!/^#/ && /%/ { n += $2 } END { if (n) print n }' "$TMP/out")
	count=$(sed -n "s/^# Event count (approx.): \([0-9]*\)$/\1/p" "$TMP/out")
	run "$PERFEV" report -i "$TMP/g.data" --stdio --no-children
	top=$(awk '!/^#/ && NF && /%/ { for (i = 1; i <= NF; i++) if ($i ~ /^\[.\]$/) break
		s = $(i + 1); for (i += 2; i <= NF; i++) s = s " " $i; print s; exit }' "$TMP/out")
	if [ -z "$samples" ] || [ -z "$count" ] || [ -z "$top" ]; then
		fail report_pprof "no totals or top line in perfev report: $(head -20 "$TMP/out")"
	fi
	run "$PERFEV" report -i "$TMP/g.data" --pprof "$TMP/out.pb.gz"
	if [ -n "$samples" ] && [ -n "$count" ] && [ -n "$top" ] && expect_rc report_pprof 0; then
		if ! gunzip -c "$TMP/out.pb.gz" >"$TMP/out.pb" 2>"$TMP/err"; then
			fail report_pprof "not gzip: $(cat "$TMP/err")"
		elif ! protoc --decode perftools.profiles.Profile -I proto proto/profile.proto \
			<"$TMP/out.pb" >"$TMP/pb.txt" 2>"$TMP/err"; then
			fail report_pprof "protoc cannot decode it: $(head -c 300 "$TMP/err")"
		elif python3 "$TMP/check-pprof.py" "$TMP/pb.txt" "$samples" "$count" "$top" \
			>"$TMP/cmp.err" 2>&1; then
			pass report_pprof
		else
			fail report_pprof "$(cat "$TMP/cmp.err")"
		fi
	fi
	run "$PERFEV" report -i "$TMP/g.data" --pprof "$TMP/no-such-dir/out.pb.gz"
	expect_rc report_pprof_unwritable 1 && [ -s "$TMP/err" ] && pass report_pprof_unwritable
fi

# --html: the page, run by a headless browser, draws the flame graph of the
# samples the text report counts (every frame, and the root: with ~100
# samples none is too narrow to draw) and ranks the same function first; its
# search and zoom (asked for in the address: #search=RE, #zoom=NAME,
# #event=N) agree with its table; strings from the recording stay text.
# range_same NAME HASH: $TMP/tl.html#HASH chooses a time range (data-range-ns: its first
# and last nanosecond) whose samples and first function (name, self share, self samples) are
# perf report --time's for the same nanoseconds.
range_same() {
	dom "$1" "$TMP/tl.html#$2" || return
	r=$(val range-ns)
	if [ -z "$r" ]; then
		fail "$1" "no time range chosen: $(grep '^range' "$TMP/page.txt")"
		return
	fi
	from=${r%-*} to=${r#*-}
	from=$((from / 1000000000)).$(printf %09d $((from % 1000000000)))
	to=$((to / 1000000000)).$(printf %09d $((to % 1000000000)))
	perf report -i "$TMP/tl.data" --stdio --no-children -n --sort sym --time "$from,$to" \
		2>/dev/null >"$TMP/perf.txt"
	n=$(awk '!/^#/ && /%/ { n += $2 } END { print n + 0 }' "$TMP/perf.txt")
	# perf's first line, and the lines tied with it (perf breaks ties by name, the page by
	# total samples): the page's first row must be one of them.
	want=$(awk '!/^#/ && /%/ { s = $4; for (i = 5; i <= NF; i++) s = s " " $i;
		if (top == "") top = $2; if ($2 == top) print s "|" $1 "|" $2 }' "$TMP/perf.txt")
	got=$(val row0 | awk -F'|' '{ print $1 "|" $3 "%|" $5 }')
	if [ "$n" -gt 0 ] && [ "$n" -lt "${all:-0}" ] && [ "$(val total)" = "$n" ] &&
		[ -n "$got" ] && printf '%s\n' "$want" | grep -qxF "$got"; then
		pass "$1: $(val range) s, $n samples, first $got"
	else
		fail "$1" "range $(val range) s ($from,$to): $(val total) samples, first '$got'; perf report --time: $n, first '$(echo "$want" | tr '\n' ' ')'"
	fi
}
find_browser

if [ -z "$browser" ]; then
	skip chromium report_html "chromium is not installed (make check installs it: sh scripts/deps.sh --test)"
elif ! "$PERFEV" record -q -F 999 -g -o "$TMP/html.data" -- "$W" 100000000 \
	"8</script><b id=\"inj\">x$(printf '\342\200\250')y" >/dev/null 2>"$TMP/err"; then
	fail report_html "perfev record -g failed: $(head -c 300 "$TMP/err")"
else
	page="$TMP/html-page.html"
	run "$PERFEV" report -i "$TMP/html.data" --html "$page"
	if expect_rc report_html 0; then
		if python3 tests/cli/oracle.py page-alone "$page" 60000 >"$TMP/cmp.err" 2>&1; then
			pass report_html
		else
			fail report_html "$(cat "$TMP/cmp.err")"
		fi
	fi
	sums "$TMP/html.data" 1 >"$TMP/sums"
	read -r samples count <"$TMP/sums"
	run "$PERFEV" report -i "$TMP/html.data" --stdio --no-children --sort dso,sym
	top=$(awk '!/^#/ && /%/ && $3 == "[.]" { print $4 "|" $2 "|" $1; exit }' "$TMP/out")
	if dom report_html_graph "$page"; then
		if [ "$samples" -gt 0 ] && [ "$(val total)" = "$samples" ] && [ "$(val period)" = "$count" ] &&
			[ "$(val frames)" -gt 0 ] && [ "$(val drawn)" = $(($(val frames) + 1)) ]; then
			pass report_html_graph
		else
			fail report_html_graph "page: $(val frames) frames, $(val drawn) drawn, $(val total) samples, count $(val period); text report: $samples samples, count $count"
		fi
		# The first row: the text report's first function, object and share.
		row=$(val row0 | awk -F'|' '{ print $1 "|" $2 "|" $3 "%" }')
		if [ -n "$top" ] && [ "$row" = "$top" ]; then
			pass report_html_top
		else
			fail report_html_top "first row '$row', the text report's first line '$top'"
		fi
		meta=$(grep -c '^meta=.*8</script><b id="inj">x' "$TMP/page.txt")
		if [ -z "$(val injected)" ] && [ "$meta" = 1 ]; then
			pass report_html_escape
		else
			fail report_html_escape "the command line is not text: $(grep '^meta=perfev' "$TMP/page.txt")"
		fi
		main_total=$(val total.main)
	fi
	# Search: the share of the frames named main is main's total share, and the
	# search for anything covers the whole event.
	if dom report_html_search "$page#search=%5Emain%24"; then
		got=$(val search-pct) all='' none='' ran=''
		dom report_html_search "$page#search=." && all=$(val search-pct) &&
			dom report_html_search "$page#search=no_such_function" && none=$(val search-pct) &&
			ran=1
		if [ -n "$main_total" ] && [ "$got" = "$main_total" ] && [ "$all" = 100.00 ] &&
			[ "$none" = 0.00 ]; then
			pass report_html_search
		elif [ -n "$ran" ]; then
			fail report_html_search "^main\$ matched $got% (main's total: $main_total%), '.' $all%, no_such_function $none%"
		fi
	fi
	if dom report_html_zoom "$page#zoom=main"; then
		if [ "$(val zoom)" = main ] && [ "$(val zoom-pct)" = "$main_total" ]; then
			pass report_html_zoom
		else
			fail report_html_zoom "zoomed into '$(val zoom)', $(val zoom-pct)%, main's total is $main_total%"
		fi
	fi
	if page_shot "$page" "$TMP/shot.png"; then
		pass report_html_screenshot
	else
		fail report_html_screenshot "$(cat "$TMP/cmp.err")"
	fi
	# Deep stacks: the first screen shows the roots, at the top (the icicle,
	# by default) or scrolled to at the bottom of a flame graph taller than
	# the window.
	RW=${PERFEV_BUILD:-build}/bench/report-workload
	if ! "$PERFEV" record -q -F 999 -g -o "$TMP/deep.data" -- "$RW" 600 >/dev/null 2>"$TMP/err"; then
		fail report_html_roots "perfev record -g $RW failed: $(head -c 300 "$TMP/err")"
	else
		run "$PERFEV" report -i "$TMP/deep.data" --html "$TMP/deep.html"
		got=''
		for v in icicle flame; do
			expect_rc report_html_roots 0 &&
				DOM_WINDOW=1280,500 dom report_html_roots "$TMP/deep.html#view=$v" || break
			got="$got $(val view) depth $(val depth) root at $(val root-y) of $(val window-h);"
			rows=$(($(val depth) * 17)) y=$(val root-y) h=$(val window-h)
			if [ "$(val view)" != $v ] || [ "$rows" -le "$h" ] || [ "$y" -lt 0 ] ||
				[ $((y + 17)) -gt "$h" ]; then
				fail report_html_roots "the root is not on the first screen:$got"
				got=''
				break
			fi
		done
		[ -n "$got" ] && [ "${got#*flame}" != "$got" ] && pass report_html_roots
		"$PERFEV" report --inline -i "$TMP/deep.data" --folded "$TMP/deep.folded" 2>"$TMP/err"
		# Keys (#keys=...): down twice zooms into the widest command, then its
		# widest outermost function; down and up again comes back to it.
		want=$(awk '{ n = split($1, f, ";"); c[f[1]] += $NF; if (n > 1) s[f[1] ";" f[2]] += $NF }
			END { for (k in c) if (c[k] > best) { best = c[k]; cm = k }
				best = 0; for (k in s) if (index(k, cm ";") == 1 && s[k] > best) { best = s[k]; fn = substr(k, length(cm) + 2) }
				print fn }' "$TMP/deep.folded" 2>/dev/null)
		if dom report_html_keys "$TMP/deep.html#keys=ArrowDown,ArrowDown,ArrowDown,ArrowUp"; then
			if [ -n "$want" ] && [ "$(val zoom)" = "$want" ]; then
				pass report_html_keys
			else
				fail report_html_keys "zoomed into '$(val zoom)', the widest outermost function is '$want'"
			fi
		fi
		# The sandwich of a recursive function (#sandwich=NAME, as a click on
		# its row shows it): its callers and callees are those next to its
		# outermost frame in the folded stacks, its share its total's.
		fn=$(tr ';' '\n' <"$TMP/deep.folded" | grep -m 1 '^term')
		python3 tests/cli/oracle.py folded-neighbours "$TMP/deep.folded" "$fn" >"$TMP/want"
		if [ -z "$fn" ]; then
			fail report_html_sandwich "no function named term* in the folded stacks"
		elif dom report_html_sandwich "$TMP/deep.html#sandwich=$fn"; then
			sorted() { echo "$1" | tr '|' '\n' | sort | paste -sd '|'; }
			got="callers=$(sorted "$(val callers)") callees=$(sorted "$(val callees)")"
			want=$(paste -sd ' ' "$TMP/want")
			if [ "$(val sandwich)" = "$fn" ] && [ "$got" = "$want" ] &&
				[ "$(val sandwich-pct)" = "$(val "total.$fn")" ] && grep -q 'callers=.' "$TMP/want"; then
				pass report_html_sandwich
			else
				fail report_html_sandwich "$fn: page $got, $(val sandwich-pct)% (table: $(val "total.$fn")%); folded stacks $want"
			fi
		fi
	fi
	# Two events: a selector, and the second event's graph on asking.
	if ! "$PERFEV" record -q -F 999 -g -e cpu-clock -e page-faults -o "$TMP/html2.data" -- \
		"$W" 100000000 >/dev/null 2>"$TMP/err"; then
		fail report_html_events "perfev record -e cpu-clock -e page-faults failed: $(head -c 300 "$TMP/err")"
	else
		sums "$TMP/html2.data" 2 >"$TMP/sums"
		read -r samples2 count2 <"$TMP/sums"
		run "$PERFEV" report -i "$TMP/html2.data" --html "$TMP/html2.html"
		if expect_rc report_html_events 0 && dom report_html_events "$TMP/html2.html#event=1"; then
			if [ "$(val select)" = "shown 2" ] && [ "$(val event)" = page-faults ] &&
				[ "$samples2" -gt 0 ] && [ "$(val total)" = "$samples2" ] &&
				[ "$(val period)" = "$count2" ]; then
				pass report_html_events
			else
				fail report_html_events "selector $(val select), event $(val event), $(val total) samples, count $(val period); the text report: $samples2, $count2"
			fi
		fi
	fi
	# The timeline: two processes one after the other, a lane each.  A time
	# range (#time=FROM-TO, seconds since the first sample; or a drag across
	# the timeline, #drag=A,B in fractions of its width) sums only its samples
	# into every view: as many as perf report --time finds in the same
	# nanoseconds, and the same first function with the same share.
	RW=${PERFEV_BUILD:-build}/bench/report-workload
	if ! "$PERFEV" record -q -F 999 -g -o "$TMP/tl.data" -- sh -c "'$RW' 400; '$W' 100000000" \
		>/dev/null 2>"$TMP/err"; then
		fail report_html_timeline "perfev record failed: $(head -c 300 "$TMP/err")"
	else
		run "$PERFEV" report -i "$TMP/tl.data" --html "$TMP/tl.html"
		tids=$("$PERFEV" script -i "$TMP/tl.data" -F comm,tid 2>/dev/null |
			awk '($1 == "report-workload" || $1 == "workload") && !seen[$2]++ { print $2 }' |
			sort | tr '\n' ' ')
		if expect_rc report_html_timeline 0 && dom report_html_timeline "$TMP/tl.html"; then
			lanes=$(val lane-threads | tr ',' '\n' | grep -v all | sort | tr '\n' ' ')
			missing=
			for t in $tids; do
				case " $lanes" in *" $t "*) ;; *) missing="$missing $t" ;; esac
			done
			if [ "$(echo "$tids" | wc -w)" = 2 ] && [ -z "$missing" ] && [ -z "$(val range)" ]; then
				pass "report_html_timeline: lanes of threads $lanes"
			else
				fail report_html_timeline "lanes of threads '$lanes', the workloads' '$tids', range '$(val range)'"
			fi
		fi
		all=$(val total)
		range_same report_html_time_range "time=0.1-0.3"
		range_same report_html_time_drag "drag=0.55,0.9"
		# Esc gives the whole recording back.
		if dom report_html_time_clear "$TMP/tl.html#drag=0.1,0.5&keys=Escape"; then
			if [ -z "$(val range)" ] && [ -n "$all" ] && [ "$(val total)" = "$all" ]; then
				pass report_html_time_clear
			else
				fail report_html_time_clear "range '$(val range)', $(val total) samples of $all"
			fi
		fi
	fi
	# Source lines (#sandwich=FN shows a Source panel): a program with a known
	# hot line, built with -g here.  Its lines' self shares add up to the
	# function's self share in the table; its hottest line and share are
	# those of report --sort srcline (perfev's exactly, perf's within 0.5
	# points); a line's text is the file's; a line of the file that reads as
	# HTML stays text; with the file moved away the shares stay, the text
	# goes; a function with no line table says so.  A recursive function's
	# lines count each sample once however deep the recursion (no line
	# above the function's total), and the line calling hot carries hot's.
	mkdir -p "$TMP/src"
	cat >"$TMP/src/hot.c" <<'EOF'
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void hot(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 7; /* </script><b id="inj">x</b> */
}

__attribute__((noinline)) static unsigned long rec(int depth, unsigned long n)
{
	if (depth == 0) {
		hot(n);
		return 0;
	}
	return rec(depth - 1, n) + 1;
}

int main(int argc, char **argv)
{
	return (int)rec(8, argc > 1 ? strtoul(argv[1], NULL, 0) : 100000000) != 8;
}
EOF
	if ! ${CC:-cc} -O0 -g -o "$TMP/src/hot" "$TMP/src/hot.c" 2>"$TMP/err" ||
		! ${CC:-cc} -O0 -o "$TMP/src/hot-nolines" "$TMP/src/hot.c" 2>>"$TMP/err"; then
		skip cc report_html_lines "no C compiler to build the program: $(head -c 200 "$TMP/err")"
	elif ! "$PERFEV" record -q -F 999 -g -o "$TMP/src.data" -- "$TMP/src/hot" 300000000 \
		>/dev/null 2>"$TMP/err"; then
		fail report_html_lines "perfev record -g failed: $(head -c 300 "$TMP/err")"
	else
		run "$PERFEV" report -i "$TMP/src.data" --stdio --no-children --sort srcline
		want=$(awk '!/^#/ && /%/ { print $2 " " $1; exit }' "$TMP/out")
		run "$PERFEV" report -i "$TMP/src.data" --html "$TMP/src.html"
		if expect_rc report_html_lines 0 && dom report_html_lines "$TMP/src.html#sandwich=hot"; then
			hot=$(val line-hot)
			got="$(basename "$(val lines-file)"):$hot $(val line-hot-pct)%"
			if [ "$(val lines)" -gt 0 ] && [ "$got" = "$want" ] &&
				grep -q "^srcrow=$hot|.*|hot\$" "$TMP/page.txt"; then
				pass report_html_lines
			else
				fail report_html_lines "the page's hottest line: '$got' ($(val lines) lines), perfev report --sort srcline: '$want'; rows: $(grep '^srcrow' "$TMP/page.txt" | head -5)"
			fi
			if [ -n "$(val self.hot)" ] && [ "$(val lines-self-pct)" = "$(val self.hot)" ]; then
				pass report_html_lines_self
			else
				fail report_html_lines_self "the lines' self shares add up to $(val lines-self-pct)%, hot's self share is $(val self.hot)%"
			fi
			if [ -n "$have_perf" ]; then
				perf report -i "$TMP/src.data" --stdio --no-children --sort srcline >"$TMP/perf.txt" 2>/dev/null
				pw=$(awk '!/^#/ && /%/ { sub(/%/, "", $1); print $2 " " $1; exit }' "$TMP/perf.txt")
				if awk -v got="$got" -v pw="$pw" 'BEGIN {
					split(got, a, " "); split(pw, b, " "); sub(/%/, "", a[2])
					d = a[2] - b[2]; exit !(a[1] == b[1] && b[2] != "" && d < 0.5 && d > -0.5) }'; then
					pass report_html_lines_perf
				else
					fail report_html_lines_perf "the page's hottest line: '$got', perf report --sort srcline: '$pw'"
				fi
			fi
			if [ "$(val srcline.$hot)" = "$(sed -n "${hot}p" "$TMP/src/hot.c")" ] &&
				[ "$(val srcline.$((hot - 1)))" = "$(sed -n "$((hot - 1))p" "$TMP/src/hot.c")" ]; then
				pass report_html_lines_text
			else
				fail report_html_lines_text "line $hot: '$(val srcline.$hot)', the file's: '$(sed -n "${hot}p" "$TMP/src/hot.c")'"
			fi
			if [ -z "$(val injected)" ] && grep -q '^srcline\.[0-9]*=.*</script><b id="inj">x</b>' "$TMP/page.txt"; then
				pass report_html_lines_escape
			else
				fail report_html_lines_escape "injected: '$(val injected)'; lines: $(grep '^srcline' "$TMP/page.txt")"
			fi
			hot_pct=$(val line-hot-pct) self_pct=$(val lines-self-pct)
			if dom report_html_lines_recursive "$TMP/src.html#sandwich=rec"; then
				most=$(sed -n 's/^srcrow=[0-9]*|[^|]*|\([^|]*\)|.*/\1/p' "$TMP/page.txt" | sort -n | tail -n 1)
				if [ -n "$most" ] && awk -v m="$most" -v t="$(val sandwich-pct)" \
					'BEGIN { exit !(t != "" && m <= t + 0 && m >= t - 1) }'; then
					pass report_html_lines_recursive
				else
					fail report_html_lines_recursive "rec's total: $(val sandwich-pct)%, its lines' totals at most $most%: $(grep '^srcrow' "$TMP/page.txt" | head -8)"
				fi
			fi
			# Moved away, or in its place a file that is not text, or a FIFO (not waited on).
			mv "$TMP/src/hot.c" "$TMP/src/hot.c.away"
			for how in moved binary fifo; do
				case $how in
				binary) printf 'int x;\n\000\n%.0s' 1 2 3 4 5 6 7 8 9 10 >"$TMP/src/hot.c" ;;
				fifo) rm -f "$TMP/src/hot.c" && mkfifo "$TMP/src/hot.c" ;;
				esac
				run timeout 60 "$PERFEV" report -i "$TMP/src.data" --html "$TMP/src-$how.html"
				rm -f "$TMP/src/hot.c"
				expect_rc "report_html_lines_$how" 0 &&
					dom "report_html_lines_$how" "$TMP/src-$how.html#sandwich=hot" || continue
				if [ "$(val line-hot)" = "$hot" ] && [ "$(val line-hot-pct)" = "$hot_pct" ] &&
					[ "$(val lines-self-pct)" = "$self_pct" ] && [ "$(val lines-text)" = 0 ] &&
					[ -z "$(grep '^srcline\.[0-9]*=.' "$TMP/page.txt")" ]; then
					pass "report_html_lines_$how"
				else
					fail "report_html_lines_$how" "line $(val line-hot) $(val line-hot-pct)% (before $hot $hot_pct%), $(val lines-text) lines of text: $(grep '^srcline' "$TMP/page.txt" | head -3)"
				fi
			done
			mv "$TMP/src/hot.c.away" "$TMP/src/hot.c"
		fi
		if ! "$PERFEV" record -q -F 999 -g -o "$TMP/src-nolines.data" -- "$TMP/src/hot-nolines" \
			100000000 >/dev/null 2>"$TMP/err"; then
			fail report_html_lines_none "perfev record -g failed: $(head -c 300 "$TMP/err")"
		else
			run "$PERFEV" report -i "$TMP/src-nolines.data" --html "$TMP/src-nolines.html"
			if expect_rc report_html_lines_none 0 &&
				dom report_html_lines_none "$TMP/src-nolines.html#sandwich=hot"; then
				if [ "$(val sandwich)" = hot ] && [ "$(val lines-none)" = 1 ] &&
					! grep -q '^srcrow' "$TMP/page.txt"; then
					pass report_html_lines_none
				else
					fail report_html_lines_none "sandwich '$(val sandwich)', lines-none '$(val lines-none)', rows: $(grep '^srcrow' "$TMP/page.txt" | head -3)"
				fi
			fi
		fi
	fi
fi

# Another session asking for build ids (perf record --buildid-mmap -a, else perfev record -a,
# which asks by default): Linux then sets the build-id bit on the MMAP2 records of recordings
# that did not ask, device and inode still in place.  The workload's map must still be read.
if command -v perf >/dev/null 2>&1; then
	perf record --buildid-mmap -a -o "$TMP/nbr.data" -- sleep 30 >"$TMP/nbr.out" 2>&1 &
else
	"$PERFEV" record -a -o "$TMP/nbr.data" -- sleep 30 >"$TMP/nbr.out" 2>&1 &
fi
nbr=$!
sleep 1
# names_main NAME: the report in $TMP/out names the workload's main.
names_main() {
	if grep -q '%  workload  *\[\.\] main' "$TMP/out"; then
		pass "$1"
	else
		fail "$1" "the workload's main not named: $(grep -v '^#' "$TMP/out" | head -c 400)"
	fi
}
# stale_bits FILE: FILE has MMAP2 records of user space with the build-id bit.
stale_bits() {
	"$PERFEV" script -D -i "$1" >"$TMP/raw" 2>&1
	grep -q '^\.  0000:  0a 00 00 00 02 40' "$TMP/raw"
}
if ! kill -0 "$nbr" 2>/dev/null; then
	skip sampling report_stale_build_id "the recording asking for build ids did not run: $(head -c 200 "$TMP/nbr.out")"
else
	# perf's own file, recorded without --buildid-mmap, keeps the kernel's records: perf 6.1
	# misreads it (its record aborts reading it for build ids, hence -B; its report crashes).
	if ! command -v perf >/dev/null 2>&1; then
		skip perf report_stale_build_id "perf is not installed"
	elif ! perf record -q -B -o "$TMP/stale-perf.data" -- "$W" 50000000 >/dev/null 2>&1; then
		skip perf report_stale_build_id "perf record failed here"
	elif ! stale_bits "$TMP/stale-perf.data"; then
		skip sampling report_stale_build_id "this kernel set no build-id bit on the MMAP2 records of a recording that did not ask"
	else
		run "$PERFEV" report -i "$TMP/stale-perf.data" --stdio --no-children --sort dso,sym
		expect_rc report_stale_build_id 0 && names_main report_stale_build_id
	fi
	# perfev record writes those records without the bit, which perf then reads right.
	if ! "$PERFEV" record -q --no-buildid -o "$TMP/stale.data" -- "$W" 50000000 >/dev/null 2>"$TMP/err"; then
		fail report_stale_build_id_perfev_file "perfev record --no-buildid failed: $(head -c 300 "$TMP/err")"
	elif stale_bits "$TMP/stale.data"; then
		fail report_stale_build_id_perfev_file "an MMAP2 record written with the build-id bit: $(grep -m1 -B3 '0a 00 00 00 02 40' "$TMP/raw")"
	else
		run "$PERFEV" report -i "$TMP/stale.data" --stdio --no-children --sort dso,sym
		expect_rc report_stale_build_id_perfev_file 0 && names_main report_stale_build_id_perfev_file
		if command -v perf >/dev/null 2>&1; then
			run perf report -i "$TMP/stale.data" --stdio --no-children --sort dso,sym
			expect_rc report_stale_build_id_perfev_file_perf 0 &&
				names_main report_stale_build_id_perfev_file_perf
		fi
	fi
fi
kill -INT "$nbr" 2>/dev/null
wait "$nbr" 2>/dev/null

finish
