# SPDX-License-Identifier: LGPL-2.1-or-later
# perfev script -F fields of hardware samples (brstack, brstacksym, weight, ins_lat, data_src,
# phys_addr, iregs, uregs, cgroup, srcline, insn) compared with perf script 6.1: on
# synthesized files for what needs a PMU, on real recordings for the rest; and in JSON.
. tests/cli/lib.sh

ORACLE=tests/cli/oracle.py
SYNTH=tests/cli/synth-data.py
W=${PERFEV_BUILD:-build}/examples/workload

have_perf61
if [ -z "$have_perf" ]; then
	skip perf fields "$why_no_perf"
	finish
fi
if [ ! -x "$W" ]; then
	skip build fields "no $W: build it with make"
	finish
fi

# same NAME FILE ARGS...: perf script and perfev script print the same lines, and some.
same() {
	perf_same "$@" || return
	if [ ! -s "$TMP/perf.txt" ]; then
		fail "$1" "perf printed nothing: $(head -c 300 "$TMP/perf.err")"
	else
		pass "$1"
	fi
}

# ---- synthesized: branch stacks, memory events, registers --------------------------
python3 "$SYNTH" "$TMP/hw.data" "$W" hw && python3 "$SYNTH" "$TMP/mem.data" "$W" mem &&
	python3 "$SYNTH" "$TMP/both.data" "$W" || fail synth "cannot write the synthesized files"

same fields_brstack "$TMP/hw.data" -F ip,brstack
same fields_brstack_dso "$TMP/hw.data" -F ip,sym,dso,brstack
same fields_brstacksym "$TMP/hw.data" -F ip,sym,brstacksym
same fields_brstacksym_dso "$TMP/hw.data" -F ip,sym,dso,brstacksym
same fields_weight_data_src "$TMP/hw.data" -F period,weight,data_src,ip,sym
same fields_phys_addr "$TMP/hw.data" -F ip,phys_addr
same fields_regs "$TMP/hw.data" -F ip,iregs,uregs
same fields_all "$TMP/hw.data" -F ip,sym,dso,brstack,weight,data_src,phys_addr,iregs,uregs,period
same fields_edit "$TMP/hw.data" -F +brstacksym,+iregs,-period
same fields_mem "$TMP/mem.data" -F ip,sym,weight,ins_lat,data_src,addr
same fields_default_two_events "$TMP/both.data"
same fields_edit_two_events "$TMP/both.data" -F +data_src

# --per-event-dump of two events: a file each, named by the event ("raw 0x1cd:HG" too).
mkdir -p "$TMP/pp" "$TMP/pq"
cp "$TMP/both.data" "$TMP/pp/b.data"
cp "$TMP/both.data" "$TMP/pq/b.data"
(cd "$TMP/pp" && perf script -i b.data --per-event-dump >out 2>/dev/null)
(cd "$TMP/pq" && "$OLDPWD/$PERFEV" script -i b.data --per-event-dump >out 2>err)
bad=
for f in "b.data.cycles:HG.dump" "b.data.raw 0x1cd:HG.dump"; do
	cmp -s "$TMP/pp/$f" "$TMP/pq/$f" && [ -s "$TMP/pq/$f" ] || bad="$bad '$f'"
done
if [ -z "$bad" ] && python3 "$ORACLE" same "$TMP/pp/out" "$TMP/pq/out" --sub '[0-9.]+ MB' >/dev/null; then
	pass fields_per_event_dump
else
	fail fields_per_event_dump "differ:$bad; $(ls "$TMP/pq") $(head -c 200 "$TMP/pq/err")"
fi

# A field the samples lack is refused.
"$PERFEV" record -q -o "$TMP/f.data" -e task-clock -c 100000 -- true >/dev/null 2>&1
bad=
for f in weight data_src phys_addr iregs uregs ins_lat cgroup; do
	run "$PERFEV" script -i "$TMP/f.data" -F ip,$f
	if [ "$rc" -ne 1 ] || ! grep -q "cannot print '$f' for event 'task-clock'" "$TMP/err"; then
		bad="$bad $f (exit $rc: $(head -c 200 "$TMP/err"))"
	fi
done
[ -z "$bad" ] && pass fields_missing || fail fields_missing "$bad"

# cgroup is not a field of perf 6.1's script (later ones print the path): the paths of the
# samples' cgroup ids, counted as perf report --sort cgroup counts them.
perfev_cgroups() {
	"$PERFEV" script -i "$1" -F cgroup | sed 's/^ //' | sort | uniq -c |
		awk '{c=$1; $1=""; sub(/^ /, ""); print $0 "=" c}' | sort
}
perf_cgroups() {
	perf report -i "$1" --stdio --sort cgroup -F sample,cgroup 2>/dev/null |
		awk '!/^#/ && NF {c=$1; $1=""; sub(/^ */, ""); print $0 "=" c}' |
		sed 's/^N\/A=/unknown=/' | awk -F= '{n[$1]+=$2} END {for (k in n) print k "=" n[k]}' |
		sort
}
perfev_cgroups "$TMP/hw.data" >"$TMP/cg.ours"
perf_cgroups "$TMP/hw.data" >"$TMP/cg.perf"
if [ -s "$TMP/cg.perf" ] && cmp -s "$TMP/cg.perf" "$TMP/cg.ours" &&
	grep -q '^/system.slice/synth.service=' "$TMP/cg.ours"; then
	pass fields_cgroup_synth
else
	fail fields_cgroup_synth "perf: $(tr '\n' ' ' <"$TMP/cg.perf") perfev: $(tr '\n' ' ' <"$TMP/cg.ours")"
fi
if perf_rec -q -N --all-cgroups -o "$TMP/cg.data" -e task-clock -c 100000 -- "$W" \
	>/dev/null 2>"$TMP/rec.err"; then
	perfev_cgroups "$TMP/cg.data" >"$TMP/cg.ours"
	perf_cgroups "$TMP/cg.data" >"$TMP/cg.perf"
	if [ -s "$TMP/cg.perf" ] && cmp -s "$TMP/cg.perf" "$TMP/cg.ours"; then
		pass fields_cgroup
	else
		fail fields_cgroup "perf: $(tr '\n' ' ' <"$TMP/cg.perf") perfev: $(tr '\n' ' ' <"$TMP/cg.ours")"
	fi
else
	skip cgroup fields_cgroup "perf record --all-cgroups: $(head -c 200 "$TMP/rec.err")"
fi

# ---- real recordings: registers, source lines, instructions ------------------------
run "$PERFEV" record -q -o "$TMP/regs.data" -e task-clock -c 100000 --user-regs= --intr-regs= \
	-- "$W"
if [ "$rc" -eq 0 ]; then
	same fields_regs_real "$TMP/regs.data" -F ip,sym,iregs,uregs
else
	skip regs fields_regs_real "perfev record --user-regs --intr-regs: $(head -c 200 "$TMP/err")"
fi

if perf_rec -q -N -o "$TMP/w.data" -e task-clock -c 50000 -g -- "$W" >/dev/null 2>&1; then
	# Source lines of the workload's own code (perf 6.1's addr2line names the wrong file in
	# some units of libc's DWARF 5 debug information, so libc is left out).
	same fields_srcline "$TMP/w.data" -F ip,sym,srcline -G -S main
	same fields_srcline_dso "$TMP/w.data" -F ip,sym,dso,srcline -G -S main
	# Kernel addresses: the object and the address, there is no vmlinux to ask.
	k=$(perf script -i "$TMP/w.data" -F ip,sym -G 2>/dev/null |
		awk '$1 ~ /^ffff/ && $2 != "[unknown]" {print $2}' | sort | uniq -c | sort -rn |
		awk '{print $2; exit}')
	same fields_srcline_kernel "$TMP/w.data" -F ip,sym,srcline -G -S "$k"
	same fields_insn "$TMP/w.data" -F ip,sym,insn -G
	same fields_insn_srcline "$TMP/w.data" -F ip,insn,srcline -G -S main
else
	skip perf fields_srcline "perf record -g failed here"
fi

# ---- JSON --------------------------------------------------------------------------
run "$PERFEV" script -i "$TMP/hw.data" -j
if [ "$rc" -ne 0 ]; then
	fail fields_json "exit $rc: $(head -c 300 "$TMP/err")"
else
	perf script -i "$TMP/hw.data" -F data_src 2>/dev/null | sed 's/^ *[0-9a-f]* //; s/ *$//' \
		>"$TMP/ds.perf"
	python3 -c 'import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("type") == "SAMPLE":
        print(r["data_src_text"])' "$TMP/out" >"$TMP/ds.ours"
	python3 -c 'import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("type") == "SAMPLE":
        print(" ".join("%s/%s/%s" % (b["from_sym"] or "[unknown]", b["to_sym"] or "[unknown]",
                                    b["type_name"] or "") for b in r["branches"]))' \
		"$TMP/out" >"$TMP/br.ours"
	perf script -i "$TMP/hw.data" -F brstacksym 2>/dev/null |
		sed 's/+0x[0-9a-f]*//g; s|/[-PM]/[-X]/[-A]/[0-9]*/|/|g; s/ *$//; s/^ *//' >"$TMP/br.perf"
	# perf cuts its line at 99 characters; the JSON text is whole.
	if ! python3 "$ORACLE" same "$TMP/ds.perf" "$TMP/ds.ours" --prefix >"$TMP/cmp.err" 2>&1; then
		fail fields_json "data_src_text: $(head -c 400 "$TMP/cmp.err")"
	elif ! python3 "$ORACLE" same "$TMP/br.perf" "$TMP/br.ours" >"$TMP/cmp.err" 2>&1; then
		fail fields_json "branches: $(head -c 400 "$TMP/cmp.err")"
	elif ! grep -q '"cgroup_path":"/system.slice/synth.service"' "$TMP/out" ||
		! grep -q '"named":{"AX":' "$TMP/out"; then
		fail fields_json "no cgroup path or named registers: $(grep -m1 SAMPLE "$TMP/out" | head -c 300)"
	else
		pass fields_json
	fi
fi
if [ -s "$TMP/w.data" ]; then
	run "$PERFEV" script -i "$TMP/w.data" -j -F +srcline,+insn
	perf script -i "$TMP/w.data" -F ip,insn -G 2>/dev/null | grep -c insn: >"$TMP/n.perf"
	if [ "$rc" -eq 0 ] && grep -q '"srcline_file":"[^"]*workload.c","srcline_line":[0-9]' "$TMP/out" &&
		[ "$(grep -c '"insn":"' "$TMP/out")" -eq "$(cat "$TMP/n.perf")" ]; then
		pass fields_json_srcline_insn
	else
		fail fields_json_srcline_insn "exit $rc, $(grep -c '"insn":"' "$TMP/out") insn, perf $(cat "$TMP/n.perf")"
	fi
fi

finish
