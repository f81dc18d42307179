# SPDX-License-Identifier: MIT
# The prelude of every command of tests/tests.cfg (tests/run.py sources it, in
# the repository top, with O, B, T, LOG and ELF set): the functions the
# commands call, each a check too long to read in a table's record.

# One boot of the test's image: its own arguments after these (later options win).
boot() {
	O="$B" ./run-qemu.sh --no-build --no-icount --full-log --timeout 300 --elf "$ELF" --log "$LOG" \
		"$@"
}

# runelf FILE ARGS: the ELF program FILE on this host, or under its qemu-user.
runelf() {
	tests/run.py --exec "$@"
}

# labgrid's pytest of farm/labgrid on the environment farm/labgrid/ENV, its
# console log and JUnit XML in $T for farm/check.py; LG_* come from the caller.
labgrid_pytest() {
	timeout -k 10 420 /usr/bin/python3 -m pytest farm/labgrid --lg-env "farm/labgrid/$1" -rfEs \
		--wordmerge-log $T/lg.log --junitxml=$T/lg.xml
}

# The peers' sources in later versions (tests/stand-in/peer-tarball, in DIR): a
# header of linux's changed, a measured file of glibc's changed, and newlib's
# memset.S changed so that it no longer builds; the image built from them in
# DIR, make's lines but its progress printed.
later_peers() {
	local s=tests/stand-in/peer-tarball p=$PEERS_DIR
	$s $p/linux linux-source-6.1 $1/l.tar.xz arch/riscv/include/asm/asm.h \
		"\$a /* a later header */" &&
	$s $p/glibc glibc-2.36 $1/g.tar.xz string/memcpy.c "1i /* a later comment */" &&
	$s $p/newlib newlib-salsa/newlib $1/n.tar.xz libc/machine/riscv/memset.S \
		"\$a not_an_instruction a0" &&
	make -s O=$1 PEERS=1 PICOLIBC_REFS=0 PEERS_DIR=$1/peers \
		peer_tar_linux=$1/l.tar.xz peer_ver_linux=6.1.200-1 \
		peer_tar_glibc=$1/g.tar.xz peer_ver_glibc=2.36-99 \
		peer_tar_newlib=$1/n.tar.xz peer_ver_newlib=3.3.0-99 all 2>&1 | grep -v "^  "
}

# As root: a PATH in DIR/bin without valgrind, whose apt-get is the stand-in of
# tests/stand-in/lock/ (WM_LOCK, WM_BIN exported for it), and its lock DIR/lock
# held by another process until 4 s after that apt-get asked for it.
apt_lock_held() {
	[ "$(id -u)" = 0 ] || { echo "SKIP: deps.sh installs as root only"; exit 77; }
	tests/stand-in/hide $1/bin valgrind apt-get &&
	ln -s $PWD/tests/stand-in/lock/apt-get $1/bin/ &&
	export WM_LOCK=$1/lock WM_BIN=$1/bin &&
	{ flock $1/lock timeout 300 sh -c \
		"touch $1/held; until [ -e $1/lock.asked ]; do sleep 0.1; done; sleep 4" & } &&
	until [ -e $1/held ]; do sleep 0.1; done
}

# tools/fleetmix.py show's table on stdin, passed on; then PASS: when each
# function draws 400 calls and every size class is within rounding of the data
# (column 5: the calls drawn; 8: the data's share, exact), else FAIL: naming them.
fleetmix_within_rounding() {
	awk '{ print; n[$1] += $5; if ($5 - $8 >= 1 || $8 - $5 >= 1) bad = bad " " $1 $2 }
	END {
		for (f in n)
			if (n[f] != 400)
				bad = bad " " f
		print bad ? "FAIL: fleetmix: not within rounding:" bad \
			: "PASS: fleetmix: 400 calls a function, every class within rounding of the data"
	}'
}

# tools/report.py summary's code size table on stdin: "IMPL MEMCPY MEMMOVE MEMSET TOTAL" for
# each implementation that has all three.
size_rows() {
	local n='\([0-9]*\)'
	sed -n "s/^\([a-z-]*\) *| *$n *| *$n *| *$n *| *$n$/\1 \2 \3 \4 \5/p"
}

# That table: a line per implementation, the bytes of its total that are not its three
# functions' (its helpers').
helper_bytes() {
	size_rows | while read i a b c t; do
		echo "$i: $((t - a - b - c)) bytes besides its three functions"
	done
}

# same_total A B: that table: PASS: when implementations A and B total the same bytes, else
# FAIL: with both totals, status 1.
same_total() {
	size_rows | awk -v a="$1" -v b="$2" '{ t[$1] = $5 }
		END {
			if (t[a] != "" && t[a] == t[b])
				print "PASS: " a " and " b " total the same " t[a] " bytes"
			else
				print "FAIL: " a " totals " t[a] " bytes, " b " " t[b]
			exit !(t[a] != "" && t[a] == t[b])
		}'
}

# The user's images in DIR/virt, DIR/visionfive2 and DIR/unmatched: copies of
# $ELF, each marked as the user's; their sha256 in $T/sums, for sha256sum -c.
user_images() {
	for p in virt visionfive2 unmatched; do
		mkdir -p $1/$p && cp $ELF $1/$p/wordmerge.elf &&
		echo "the user image of $p" >> $1/$p/wordmerge.elf
	done && sha256sum $1/*/wordmerge.elf > $T/sums
}

# sigkill_when_up LOG COMMAND...: COMMAND (a run of run-qemu.sh --log LOG) in
# the background, ended by SIGKILL (which no trap sees) once its image has
# printed its first line, or after 60 s.
sigkill_when_up() {
	local log=$1 p i
	shift
	"$@" & p=$!
	for i in $(seq 300); do
		grep -qs "^wordmerge test image" $log && break
		sleep 0.2
	done
	kill -KILL $p
	wait $p
}

# figures_changed: $T/good.md, docs/benchmarks.md's block of the code-size table
# (the one figures block that runs no make), and $T/b.md, the same with
# wordmerge's first figure changed (a 9 put before it).
figures_changed() {
	awk '/^<!-- figures: tools\/report.py summary /{f=1} f{print}
		f && /^```$/ && ++n == 2 {exit}' docs/benchmarks.md > $T/good.md &&
	sed 's/^\(wordmerge  *| *\)\([0-9]\)/\19\2/' $T/good.md > $T/b.md &&
	! cmp -s $T/good.md $T/b.md
}

# cut_and_whole PERIOD [BASE [IMPL]]: IMPL's (default wordmerge's) model of the build's
# trace with loops cut at PERIOD ($T/cut.csv) and at BASE (default 0: whole, $T/base.csv;
# "build": IMPL's rows of the build's own model, cycles.csv, not made again), and whether
# their figures are the same.
cut_and_whole() {
	local impl=${3:-wordmerge}
	local m="tools/cycles.py model --elf $B/bench-trace/virt/wordmerge.elf --impl $impl
		--log $B/cycles/trace.log --trace $B/cycles/trace.trace" base=$T/base.csv at="at ${2:-0}"
	if [ "${2-}" = build ]; then
		at="in the build's model"
		awk -F, -v i="$impl" '/^#/ { next } $1 == "fn" || $2 == i' $B/cycles/cycles.csv > $base
	else
		$m --period "${2:-0}" --out $base 2>&1 || return
	fi
	$m --period "$1" --out $T/cut.csv 2>&1 &&
	cmp <(grep -v '^#' $T/cut.csv) <(grep -v '^#' $base) && echo "the same figures, cut at $1 and $at"
}

# mk_user VAR=VALUE...: the image of $T built by make, quietly, with a user's file.
mk_user() {
	make -s --no-print-directory O=$T PEERS=0 PICOLIBC_REFS=0 "$@" all
}

# peek [FLAGS]: the image of $T with tests/impl/peek.c's memset reading the seal's CRC
# (protocol.c's proto_crc, its address from a first build without the read, which must be
# the same in the second), built with FLAGS, booted; then whether the trap's stval is it.
peek() {
	local a b s
	mk_user IMPL=peek=tests/impl/peek.c || return
	a=$(riscv64-unknown-elf-nm $T/virt/wordmerge.elf | awk '$3 == "proto_crc" { print $1 }')
	mk_user IMPL=peek=tests/impl/peek.c IMPL_CFLAGS="-DPEEK=0x$a $*" || return
	b=$(riscv64-unknown-elf-nm $T/virt/wordmerge.elf | awk '$3 == "proto_crc" { print $1 }')
	[ -n "$a" ] && [ "$a" = "$b" ] || { echo "proto_crc moved: 0x$a, then 0x$b"; return 1; }
	./run-qemu.sh --no-build --no-icount --elf $T/virt/wordmerge.elf --log $LOG
	s=$?
	grep -q "^TRAP: .* stval=0x${a#"${a%%[!0]*}"}\b" $LOG && echo "stval is proto_crc's address"
	return $s
}

# user_asm FILE.c OUT.s: FILE's assembly, as a user's .include would hold it (medany, as the
# image's code: its data lies above 2 GiB).
user_asm() {
	riscv64-unknown-elf-gcc -S -march=rv64imac -mabi=lp64 -mcmodel=medany -O2 -ffreestanding \
		-fno-tree-loop-distribute-patterns "$1" -o "$2"
}

# misalign_at SYM: tools/report.py misalign's table of one misaligned load at SYM's address
# in $ELF (a record as the plugin writes it), and run-qemu.sh --impl-must-align's checks.
misalign_at() {
	local a
	a=$(riscv64-unknown-elf-nm $ELF | awk -v s="$1" '$3 == s { print $1 }') && [ -n "$a" ] &&
		printf '# misalign-plugin v4 target=riscv64\nL %s 8 1 8020b141\n%s\n' "$a" \
			'# end records=1 accesses=1 checked=1' >$T/raw &&
		tools/report.py misalign $T/raw $ELF --fail-in 'memcpy,memmove,memset,wm_*' \
			--fail-in 'user_*'
}

# size_4 SYM FILE.s: SYM's .size in FILE made 4 bytes, too small for its code.
size_4() {
	sed -i "s/^\t\.size\t$1, .*/\t.size\t$1, 4/" "$2" &&
		grep -qx "$(printf '\t.size\t%s, 4' "$1")" "$2"
}

# dis_on_tmpfs KB: $B's image copied to a tmpfs, made then KB larger than what it holds,
# its listing (.dis) then made there by make: "no listing left" after a failure, "the
# listing whole" after a success; status 77 (skipped) where no tmpfs can be mounted.
dis_on_tmpfs() {
	local m=$T/m rc
	mkdir -p $m && mount -t tmpfs -o size=256m tmpfs $m 2>/dev/null || return 77
	mkdir $m/o && tar -C $B --exclude=./virt/wordmerge.dis --exclude='./boot*' -cf - . |
		tar -C $m/o -xf - &&
		mount -o remount,size=$(($(df -k --output=used $m | tail -n 1) + $1))k $m &&
		make --no-print-directory O=$m/o $m/o/virt/wordmerge.dis
	rc=$?
	ls $m/o/virt/wordmerge.dis* 2>/dev/null || echo "no listing left"
	[ "$rc" != 0 ] || riscv64-unknown-elf-objdump -d $m/o/virt/wordmerge.elf |
		cmp - $m/o/virt/wordmerge.dis && echo "the listing whole"
	umount $m
	return $rc
}
