#!/bin/bash
# SPDX-License-Identifier: MIT
# Usage: kernel.sh build|test TREE KERNEL_DIR RUN_DIR [NAME=LIB_SRC ...]
#        kernel.sh reloc OBJECT
# (make kernel-build and make kernel-test run it: tests/kernel/kernel.mk)
#
# The Linux kernel's own KUnit (its kunit.py) on QEMU virt under OpenSBI, with
# KASAN, built from TREE (Debian's linux-source-6.12, extracted whole by
# tests/peers.mk): stock, with arch/riscv/lib's assembly mem*, and NAME, with
# LIB_SRC (lib/wordmerge.c, or a copy with a fault) as its mem*
# (tests/kernel/Kbuild).  build: the stock
# kernel and its KUnit results, and each NAME's kernel.  test (one NAME):
# boots NAME's kernel, and tests/kernel/compare.py gives the verdict, its
# results against the stock kernel's.  Exit 0 the same results, 1 not, 2 an
# error (no kernel built, no results, lib not the code that ran).  reloc: the
# check of lib's object that test makes (below) alone, for its control.
#
# KERNEL_DIR holds, shared by every build folder and taken in turn under a
# lock: linux/, TREE as hardlinks (the variant's files are added to its
# arch/riscv/lib/ and removed again), build/, the one kunit.py build folder
# (a variant rebuilds its own files and links), img/VARIANT/, each
# variant's kernel as built, reused while what it was built from (its
# files, TREE, the kunitconfig, the compiler) is unchanged, and results/, the
# KUnit log of each kernel image booted, by the image's and QEMU's sha256 (a
# boot takes a minute; the same image on the same QEMU gives the same
# results).  RUN_DIR/NAME (under the make's O) holds this run's copy of the
# kernel and its logs.  The environment gives
# KERNEL_CROSS_COMPILE (binutils), KERNEL_CC (the compiler) and KERNEL_JOBS.
set -eu
case ${1-}:$# in build:[4-9]|build:[1-9][0-9]|test:5|reloc:2) ;; *)
	echo "usage: $0 build|test TREE KERNEL_DIR RUN_DIR [NAME=LIB_SRC ...] | reloc OBJECT" >&2
	exit 2;; esac
cross=${KERNEL_CROSS_COMPILE:-riscv64-linux-gnu-} jobs=${KERNEL_JOBS:-2}
cc=${KERNEL_CC:-${cross}gcc}
err() { echo "kernel-test: error: $*" >&2; exit 2; }
say() { printf '  %-7s %s\n' "$1" "$2"; }

# reloc OBJECT: the early boot code (arch/riscv/kernel/pi/) calls lib before
# the kernel runs at the addresses it was linked for: lib's code, like the
# assembly's, must then hold no absolute address, which only a relocation of
# an absolute kind (not debug information's) in its object shows.
reloc() {
	local abs
	abs=$("${cross}readelf" -rW "$1" | awk '/^Relocation section/ { sec = $3 }
		$3 ~ /^R_RISCV_(32|64|HI20|LO12_[IS])$/ && sec !~ /debug/ { print sec, $3, $5; exit }')
	[ -z "$abs" ] || err "$1: an absolute address, which the early boot code cannot use: $abs"
	say RELOC "$1: no absolute address (fit for the early boot code)"
}
[ "$1" != reloc ] || { reloc "$2"; exit 0; }

mode=$1 tree=$(realpath "$2") kdir=$(realpath -m "$3") run=$(realpath -m "$4")
shift 4
top=$(cd "$(dirname "$0")/../.." && pwd)
[ -f "$tree/tools/testing/kunit/kunit.py" ] || err "$tree is not a kernel tree with kunit.py"
for v; do
	case $v in stock=*|=*|*/*=*) err "$v: not NAME=LIB_SRC (NAME: not stock, no /)";; esac
	[ "${v%%=*}" != "$v" ] && [ -r "${v#*=}" ] || err "$v: not NAME=LIB_SRC of a file"
done
mkdir -p "$kdir/img" "$kdir/bin"

# kunit.py: the kernel's own, always with these; under --pdeathsig KILL, as is
# every QEMU it starts (the wrapper first on the PATH), so that none outlives
# a run that is stopped.
kunit() {
	PATH="$kdir/bin:$PATH" setpriv --pdeathsig KILL /usr/bin/python3 \
		"$kdir/linux/tools/testing/kunit/kunit.py" "$@" --arch=riscv \
		--cross_compile="$cross" --make_options="CC=$cc" \
		--kunitconfig="$top/tests/kernel/kunitconfig"
}
qemu=$(command -v qemu-system-riscv64) || err \
	"no qemu-system-riscv64 (tools/deps.sh qemu-system-riscv64)"
printf '#!/bin/sh\nexec setpriv --pdeathsig KILL %s "$@"\n' "$qemu" > \
	"$kdir/bin/qemu-system-riscv64.tmp"
chmod +x "$kdir/bin/qemu-system-riscv64.tmp" && mv "$kdir/bin/qemu-system-riscv64.tmp" \
	"$kdir/bin/qemu-system-riscv64"

# boot IMG_DIR OUT_DIR: boots IMG_DIR's Image with kunit.py exec from OUT_DIR;
# the console log is OUT_DIR/test.log, kunit.py's own report OUT_DIR/exec.log.
boot() {
	mkdir -p "$2/arch/riscv/boot"
	cp "$1/Image" "$2/arch/riscv/boot/Image"
	kunit exec --build_dir="$2" --timeout=600 > "$2/exec.log" 2>&1 || true
	tally=$(grep -m1 'Testing complete' "$2/exec.log" | sed 's/.*Testing complete\. //')
	say BOOT "$2/test.log: $tally"
}

# results IMG_DIR OUT_DIR NAME: $log, the KUnit console log of IMG_DIR's Image:
# that of an earlier boot of the same image on the same QEMU and OpenSBI, or
# OUT_DIR's of a boot now (kept for the next only when KUnit's results were
# read).  One boot of an image at a time.
bios=/usr/share/qemu/opensbi-riscv64-generic-fw_dynamic.bin
results() {
	local key
	key=$({ sha256sum < "$1/Image"; "$qemu" --version | head -n 1; sha256sum < "$bios"; } |
		sha256sum | cut -d' ' -f1)
	log=$kdir/results/$key.log
	mkdir -p "$kdir/results"
	exec 8> "$kdir/results/$key.lock"
	flock 8
	if [ -f "$log" ]; then
		say BOOT "$3: the results of this image on this QEMU in $log"
	else
		rm -rf "$2"
		boot "$1" "$2"
		if grep -q 'Testing complete' "$2/exec.log"; then
			cp "$2/test.log" "$log.tmp" && mv "$log.tmp" "$log"
		else
			log=$2/test.log
		fi
	fi
	exec 8>&-
}

# The files variant NAME[=LIB_SRC] adds to arch/riscv/lib/ (none: stock), as "DEST
# SOURCE" lines.
files() {
	[ "$1" = stock ] && return 0
	printf '%s %s\n' Kbuild "$top/tests/kernel/Kbuild" wordmerge.c "${1#*=}" \
		wordmerge.h "$top/lib/wordmerge.h" \
		wordmerge_kernel.c "$top/tests/kernel/wordmerge_kernel.c"
}
# What a variant's kernel is built from, as one sha256.
key() {
	{ files "$1" | while read -r dest src; do echo "$dest"; cat "$src"; done
	  cat "$top/tests/kernel/kunitconfig"; "$cc" --version | head -n 1
	  stat -c '%i %Y' "$tree/Makefile"; } | sha256sum | cut -d' ' -f1
}

# build NAME[=LIB_SRC]: img/NAME/ (Image, vmlinux, .config, build.log), built
# unless there already from the same key.  Called under the lock.
build() {
	local v=${1%%=*} img=$kdir/img/${1%%=*} k start
	k=$(key "$1")
	if [ -f "$img/key" ] && [ "$(cat "$img/key")" = "$k" ]; then
		say KERNEL "$v: reused $img (built in $(cat "$img/seconds") s)"
		return 0
	fi
	# The work tree: TREE as hardlinks (a new TREE, a new work tree and build).
	if ! [ "$kdir/linux/Makefile" -ef "$tree/Makefile" ]; then
		say KERNEL "linux tree: hardlinks of $tree"
		rm -rf "$kdir/linux" "$kdir/linux.tmp" "$kdir/build" "$kdir/img"
		mkdir -p "$kdir/img"
		cp -al "$tree" "$kdir/linux.tmp" ||
			err "cannot hardlink $tree into $kdir (both must be on one file system)"
		mv "$kdir/linux.tmp" "$kdir/linux"
	fi
	local dir=$kdir/linux/arch/riscv/lib
	rm -f "$dir/Kbuild" "$dir/wordmerge.c" "$dir/wordmerge.h" "$dir/wordmerge_kernel.c"
	# Copies, not links: each with a new time, so that the build folder's
	# objects of another variant are older than its sources.
	files "$1" | while read -r dest src; do cp "$src" "$dir/$dest"; done
	rm -rf "$img.tmp" && mkdir -p "$img.tmp"
	say KERNEL "$v: building with kunit.py into $kdir/build ($img.tmp/build.log)"
	start=$(date +%s)
	if ! kunit build --build_dir="$kdir/build" --jobs="$jobs" > "$img.tmp/build.log" 2>&1; then
		tail -n 20 "$img.tmp/build.log" >&2
		err "the $v kernel did not build: $img.tmp/build.log"
	fi
	echo $(($(date +%s) - start)) > "$img.tmp/seconds"
	cp "$kdir/build/arch/riscv/boot/Image" "$kdir/build/vmlinux" "$kdir/build/.config" "$img.tmp/"
	[ "$v" = stock ] || cp "$kdir/build/arch/riscv/lib/wordmerge_kernel.o" "$img.tmp/"
	echo "$k" > "$img.tmp/key"
	rm -rf "$img" && mv "$img.tmp" "$img"
	say KERNEL "$v: built in $(cat "$img/seconds") s"
}

# The stock kernel and its results, and this variant's kernel, under the lock.
exec 9> "$kdir/lock"
flock 9
build stock
results "$kdir/img/stock" "$kdir/img/stock/run" stock
stock_log=$log
[ "$stock_log" != "$kdir/img/stock/run/test.log" ] ||
	err "the stock kernel gave no KUnit results: $stock_log"
for v; do build "$v"; done
[ "$mode" = test ] || exit 0
name=${1%%=*} run=$run/${1%%=*}
# The kernel this run boots is copied under the lock, Image and vmlinux both, with
# lib's object: another run may build another variant into $kdir/img/ once the
# lock is released.
rm -rf "$run" && mkdir -p "$run" && cp "$kdir/img/$name/vmlinux" "$kdir/img/$name/Image" \
	"$kdir/img/$name/wordmerge_kernel.o" "$run/"
flock -u 9

# lib is the code that runs: in the kernel booted, each name the stock
# kernel gives its assembly's __memcpy (memcpy, the early boot code's __pi_
# ones) is at lib's wm_memcpy, and no other (KASAN's memcpy, where the
# kernel has it, which calls __memcpy); the same for memset and memmove (nm).
syms=$("${cross}nm" "$run/vmlinux") stock=$("${cross}nm" "$kdir/img/stock/vmlinux")
for f in memcpy memset memmove; do
	at=$(printf '%s\n' "$syms" | awk -v n="wm_$f" '$3 == n { print $1 }')
	[ -n "$at" ] || err "$run/vmlinux has no wm_$f: lib is not in that kernel"
	was=$(printf '%s\n' "$stock" | awk -v n="__$f" '$3 == n { print $1 }')
	[ -n "$was" ] || err "$kdir/img/stock/vmlinux has no __$f"
	names=
	for a in "$f" "__$f" "__pi_$f" "__pi___$f"; do
		if printf '%s\n' "$stock" | grep -q "^$was [A-Za-z] $a\$"; then
			printf '%s\n' "$syms" | grep -q "^$at [A-Za-z] $a\$" ||
				err "$run/vmlinux: $a is not at lib's wm_$f (0x$at)"
			names="$names $a"
		elif printf '%s\n' "$syms" | grep -q "^$at [A-Za-z] $a\$"; then
			err "$run/vmlinux: $a is lib's wm_$f, not what the stock kernel has there"
		fi
	done
	say NM "$run/vmlinux: at lib's wm_$f, as at the stock kernel's __$f:$names"
done
reloc "$run/wordmerge_kernel.o"

results "$run" "$run/boot" "$name"
/usr/bin/python3 "$top/tests/kernel/compare.py" "$kdir/linux/tools/testing/kunit" \
	"$stock_log" "$log" "$name"
