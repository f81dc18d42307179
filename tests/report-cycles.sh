#!/bin/sh
# SPDX-License-Identifier: MIT
# Usage: report-cycles.sh LOG DIR CSV
#
# The cycle model side of tools/report.py (tests/tests.cfg: report-cycles), on LOG,
# a sweep under QEMU -icount (make bench-check's), and CSV, the cycle model
# of the same build (make cycles-wordmerge).  Every expected figure is read
# from CSV and LOG (the log through tests/logedit.py, which reads and writes
# it with tools/wmlog.py), none is written here.  DIR is scratch space
# (emptied).  One PASS:/FAIL: line per check; exit status 1 at the first
# failure.
set -eu
[ $# -eq 3 ] || { echo "usage: $0 LOG DIR CSV" >&2; exit 2; }
log=$1 dir=$2 csv=$3
report=tools/report.py
logedit() { tests/logedit.py "$@"; }
[ -r "$log" ] || { echo "FAIL: report-cycles: cannot read the log $log"; exit 1; }
rm -rf "$dir"
mkdir -p "$dir"

fail() { echo "FAIL: report-cycles: $*"; exit 1; }
pass() { echo "PASS: report-cycles: $*"; }
# expect_rc RC what cmd...: run cmd (output in $dir/out), its status must be RC.
expect_rc() {
	want=$1 what=$2
	shift 2
	rc=0
	"$@" > "$dir/out" 2>&1 || rc=$?
	[ "$rc" = "$want" ] || { sed 's/^/    /' "$dir/out" | tail -n 15;
		fail "$what: exit status $rc, expected $want"; }
}
has() { grep -qF -- "$2" "$1" || fail "$3: '$2' not in $1"; }
# memcpy's (0,0) table of a report.md: the lines the cell's figures must be in.
table00() {
	awk '/^### / { f = ($0 == "### memcpy") } /^\*\*dst/ { p = ($0 == "**dst%8=0, src%8=0**") }
		f && p' "$1" > "$1.00"
	[ -s "$1.00" ] || fail "no memcpy (0,0) table in $1"
	echo "$1.00"
}
hasnt() { ! grep -qF -- "$2" "$1" || fail "$3: '$2' in $1"; }
# The cell the checks look at: memcpy, wordmerge, dst%8 = src%8 = 0, n = 64.
row=$(grep '^memcpy,wordmerge,0,0,64,sweep,' "$csv") || fail "$csv has no memcpy (0,0) n=64 cell"
ins=$(echo "$row" | cut -d, -f7) u74=$(echo "$row" | cut -d, -f8) u54=$(echo "$row" | cut -d, -f9)
logins=$(logedit get "$log" sweep instret fn=memcpy impl=wordmerge dst=0 src=0 n=64)
[ "$ins" = "$logins" ] || fail \
	"$csv is not of the build that wrote $log (memcpy (0,0) n=64: $ins vs $logins instructions)"
perbyte() { awk -v c="$1" 'BEGIN { printf "%.3f", c / 64 }'; }
cell="$u74 / $u54 [$(perbyte "$u74") / $(perbyte "$u54")]"

# 1. The model's figures beside the instruction counts.
expect_rc 0 "report with --cycles" $report report "$log" --out "$dir/with" --cycles "$csv"
has "$dir/with/report.md" "wordmerge U74 / U54" "report with --cycles"
has "$(table00 "$dir/with/report.md")" "| 64 | $ins [$(perbyte "$ins")] | $cell |" \
	"report with --cycles, memcpy (0,0) n=64"
has "$dir/with/report.md" "## Modeled cycles" "report with --cycles"
expect_rc 0 "report without a model" $report report "$log" --out "$dir/without"
has "$dir/without/report.md" "make cycles" "report without a model"
hasnt "$dir/without/report.md" "wordmerge U74 / U54" "report without a model"
expect_rc 0 "the plots of a report with --cycles" tests/plots-check.py "$dir/with"
has "$dir/with/$(sed -n 's/^!\[memcpy, dst%8=0, src%8=0\](\(.*\))$/\1/p' "$dir/with/report.md")" \
	"U74 model (llvm-mca): cycles per byte" "the plot of memcpy (0,0) with --cycles"
pass "the model's U74 / U54 cycles beside the counts ($cell for memcpy (0,0) n=64)," \
	"and in the plots"

# 2. A model of another build (one instruction count off) is refused, and
# leaves the report as it was; as a guess it is left out, with the reason.
awk -F, -v OFS=, '$1 == "memcpy" && $2 == "wordmerge" && $3 == 0 && $4 == 0 && $5 == 64 &&
	$6 == "sweep" { $7 = $7 + 1 } { print }' "$csv" > "$dir/other.csv"
cmp -s "$csv" "$dir/other.csv" && fail "could not make a mismatching CSV"
sum=$(cksum < "$dir/with/report.md")
expect_rc 2 "report with another build's model" $report report "$log" --out "$dir/with" \
	--cycles "$dir/other.csv"
has "$dir/out" "different build" "report with another build's model"
[ "$(cksum < "$dir/with/report.md")" = "$sum" ] || fail "a refused model changed the report"
expect_rc 2 "check with another build's model" $report check "$log" \
	--targets tests/bench-targets.txt --cycles "$dir/other.csv"
has "$dir/out" "different build" "check with another build's model"
expect_rc 0 "report guessing another build's model" $report report "$log" --out "$dir/guess" \
	--cycles-guess "$dir/other.csv"
has "$dir/guess/report.md" \
	"The modeled columns are absent: $dir/other.csv is from a different build" \
	"report guessing another build's model"
hasnt "$dir/guess/report.md" "wordmerge U74 / U54" "report guessing another build's model"
head -n 4 "$csv" > "$dir/cut.csv"
expect_rc 2 "report with a CSV cut short" $report report "$log" --out "$dir/cut" \
	--cycles "$dir/cut.csv"
[ ! -e "$dir/cut" ] || fail "a CSV cut short left a report"
pass "another build's model is refused (or, guessed, left out with the reason);" \
	"a CSV cut short is an error"

# 3. A board's log (made from LOG: counters not in lockstep, a VisionFive 2,
# whose hart names SiFive as its vendor, cycles unlike instret): measured
# cycles against the U74 model, and the ratio; instret is still what matches
# the builds.
logedit edit "$log" "$dir/board.log" 'meta,key=counters_lockstep:value=0' \
	"meta,key=platform:value='starfive,visionfive-2-v1.3b'" "meta,key=mvendorid:value='0x489'" \
	'sweep:cycles=instret + instret // 3 + 5'
cyc=$(logedit get "$dir/board.log" sweep cycles fn=memcpy impl=wordmerge dst=0 src=0 n=64)
ratio=$(awk -v a="$cyc" -v b="$u74" 'BEGIN { printf "×%.2f", a / b }')
expect_rc 0 "report on a board's log" $report report "$dir/board.log" --out "$dir/board" \
	--cycles "$csv"
has "$dir/board/report.md" "wordmerge model U74 |" "report on a board's log"
has "$(table00 "$dir/board/report.md")" \
	"| 64 | $ins / $cyc [$(perbyte "$ins") / $(perbyte "$cyc")] | $u74 [$(perbyte "$u74")] $ratio |" \
	"report on a board's log, memcpy (0,0) n=64 against the model"
has "$dir/board/report.md" "Measured rdcycle / modeled U74 cycles" "report on a board's log"
has "$dir/board/report.md" "measured against modeled cycles, every sweep cell](board-model.svg)" \
	"report on a board's log"
expect_rc 0 "the plots of a report on a board's log" tests/plots-check.py "$dir/board"
hasnt "$dir/board/report.md" "modeled U54 cycles" "report on a U74 board's log"
rule='sweep,fn=memcpy,impl=wordmerge,dst=0,src=0,n=64'
logedit edit "$dir/board.log" "$dir/board-other.log" "$rule:instret=instret + 1" \
	"$rule:instret_max=instret_max + 1"
expect_rc 2 "report on another build's board log" $report report "$dir/board-other.log" \
	--out "$dir/board2" --cycles "$csv"
has "$dir/out" "different build" "report on another build's board log"
pass "a board's log: measured $cyc cycles against the U74 model's $u74 ($ratio)" \
	"for memcpy (0,0) n=64; another build's board log is refused"

# 4. bench-check's modeled kinds: a met target, one within its ceiling, and
# two above their bounds, which must fail.  Worst pair, as report.py takes it.
worst() { # FN N PAIRS(al|mis) FIELD(8 = u74, 9 = u54)
	awk -F, -v fn="$1" -v n="$2" -v cls="$3" -v f="$4" '
		$1 == fn && $2 == "wordmerge" && $5 == n && $6 == "sweep" {
			al = (fn == "memset") ? ($3 == 0) : ($3 == $4)
			if ((cls == "al") == al && $f > m) m = $f }
		END { print m + 0 }' "$csv"
}
s74=$(worst memset 64 al 8) s54=$(worst memset 64 al 9) c74=$(worst memcpy 64 al 8)
[ "$s74" -gt 1 ] && [ "$s54" -gt 1 ] && [ "$c74" -gt 1 ] ||
	fail "$csv lacks memset/memcpy n=64 cells"
cat > "$dir/targets.txt" <<EOF
memset  64  al  u74_per_call  $s74
memset  64  al  u54_per_call  $((s54 - 1))  $s54
memcpy  64  al  u74_per_call  $((c74 - 1))
memcpy  64  al  u74_per_byte  $(awk -v c="$c74" 'BEGIN { printf "%.6f", (c - 0.5) / 64 }')
EOF
expect_rc 1 "check with a modeled target above its bound" $report check "$log" \
	--targets "$dir/targets.txt" --cycles "$csv"
has "$dir/out" "PASS: memset n=64 al U74 model: $s74 modeled cycles per call" "check"
has "$dir/out" "UNMET: memset n=64 al U54 model: $s54 modeled cycles per call" "check"
has "$dir/out" "FAIL: memcpy n=64 al U74 model: $c74 modeled cycles per call" "check"
per_byte=$(awk -v c="$c74" 'BEGIN { printf "%.4f", c / 64 }')
has "$dir/out" "FAIL: memcpy n=64 al U74 model: $per_byte modeled cycles per byte" "check"
has "$dir/out" "4 cells, 1 targets met, 1 unmet (no worse than their recorded ceilings), 2 failed" \
	"check"
head -n 2 "$dir/targets.txt" > "$dir/targets-met.txt"
expect_rc 0 "check with modeled targets met or within their ceilings" $report check "$log" \
	--targets "$dir/targets-met.txt" --cycles "$csv"
expect_rc 1 "check of modeled targets without a model" $report check "$log" \
	--targets "$dir/targets-met.txt"
has "$dir/out" "no cycle model given" "check of modeled targets without a model"
pass "bench-check's modeled kinds: PASS at $s74 (U74, memset n=64)," \
	"UNMET within the ceiling $s54 (U54), FAIL above $((c74 - 1)) (U74, memcpy n=64)" \
	"and per byte; no model is a failure"

# 5. The summary (report.py summary: the image's tables as text, what
# run-qemu.sh prints after a run): LOG's figures in it; a truncated log is
# an error.
expect_rc 0 "summary" $report summary "$log"
title="memcpy, dst%8=0, src%8=0 (sweep): instructions per call [per byte]"
has "$dir/out" "$title" "summary"
awk -v t="$title" '$0 == t { f = 1; next } f && /^$/ { exit } f' "$dir/out" |
	grep -E "^ *64 \| +$ins \[$(perbyte "$ins")\] \|" > /dev/null ||
	fail "summary, memcpy (0,0) n=64: no row '64 | $ins [$(perbyte "$ins")] |' under '$title'"
logedit edit "$log" "$dir/cut.log" --drop end
expect_rc 2 "summary of a truncated log" $report summary "$dir/cut.log"
has "$dir/out" "truncated" "summary of a truncated log"
pass "summary: the sweep's tables from the log (memcpy (0,0) n=64: $ins [$(perbyte "$ins")]);" \
	"a truncated log is an error"
