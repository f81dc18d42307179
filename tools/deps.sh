#!/bin/sh
# SPDX-License-Identifier: MIT
# Usage: deps.sh TOOL...  Checks the tools named as the table says (a Debian
# package of the table stands for its tools, any other word for a command);
# dpkg and apt are asked only for a missing tool.  On Debian or Ubuntu it
# then installs their Debian packages as root (a user is told the command)
# and checks again; elsewhere it names the Debian, Fedora and Arch packages.
# Exit status: 0 all here, 1 not installed, 126 no apt-get or no package known.
# deps.sh --missing TOOL...: only prints the missing tools' rows of the table.
set -eu

# tool | check (- : command -v TOOL; py MODULE: Debian's python3 imports MODULE) | Debian |
# Fedora | Arch (- : none known); a line of blanks and a | continues the row above it.
TABLE='
qemu-system-riscv64   | - | qemu-system-misc | qemu-system-riscv | qemu-system-riscv
qemu-system-riscv32   | - | qemu-system-misc | qemu-system-riscv | qemu-system-riscv
qemu-system-aarch64   | - | qemu-system-arm | qemu-system-aarch64 | qemu-system-aarch64
aarch64-linux-gnu-gcc | - | gcc-aarch64-linux-gnu | gcc-aarch64-linux-gnu | aarch64-linux-gnu-gcc
opensbi-firmware      | qemu_data opensbi-riscv64-generic-fw_dynamic.bin | qemu-system-data
                       | qemu-system-riscv-core | qemu-system-riscv-firmware
python3               | test -x /usr/bin/python3 | python3 | python3 | python
pyelftools            | py elftools | python3-pyelftools | python3-pyelftools | python-pyelftools
libfdt                | py libfdt | python3-libfdt | python3-libfdt | -
matplotlib            | py matplotlib | python3-matplotlib | python3-matplotlib | python-matplotlib
setpriv               | - | util-linux | util-linux | util-linux
flock                 | - | util-linux | util-linux | util-linux
make                  | - | make | make | make
ccache                | - | ccache | ccache | ccache
riscv64-unknown-elf-gcc | - | gcc-riscv64-unknown-elf | - | riscv64-elf-gcc
riscv64-unknown-elf-objcopy | - | binutils-riscv64-unknown-elf | - | riscv64-elf-binutils
riscv64-unknown-elf-readelf | - | binutils-riscv64-unknown-elf | - | riscv64-elf-binutils
picolibc              | cross_file picolibc.specs | picolibc-riscv64-unknown-elf | - | -
linux-source-6.1      | test -r /usr/src/linux-source-6.1.tar.xz | linux-source-6.1 | - | -
linux-source-6.12     | test -r /usr/src/linux-source-6.12.tar.xz | linux-source-6.12 | - | -
glibc-source          | test -r /usr/src/glibc/glibc-2.36.tar.xz | glibc-source | - | -
newlib-source         | test -r /usr/src/newlib/newlib-3.3.0.tar.xz | newlib-source | - | -
u-boot-qemu-smode     | test -r /usr/lib/u-boot/qemu-riscv64_smode/uboot.elf | u-boot-qemu | - | -
mkimage               | - | u-boot-tools | uboot-tools | uboot-tools
sfdisk                | - | fdisk | util-linux | util-linux
mkfs.vfat             | - | dosfstools | dosfstools | dosfstools
mcopy                 | - | mtools | mtools | mtools
gcc                   | - | gcc | gcc | gcc
valgrind              | - | valgrind | valgrind | valgrind
gcc-m32               | builds gcc -m32 | gcc-12-multilib | glibc-devel.i686 | lib32-glibc
clang                 | - | clang | clang | clang
clang-19              | builds clang-19 -fsanitize=thread | clang-19 libclang-rt-19-dev | - | -
llvm-symbolizer       | - | llvm | llvm | llvm
g++                   | - | g++ | gcc-c++ | gcc
clang-fuzzer          | clang_rt fuzzer | libclang-rt-14-dev | compiler-rt | compiler-rt
s390x-linux-gnu-gcc   | - | gcc-s390x-linux-gnu | gcc-s390x-linux-gnu | -
s390x-libc            | builds s390x-linux-gnu-gcc | libc6-dev-s390x-cross | - | -
powerpc-linux-gnu-gcc | - | gcc-powerpc-linux-gnu | - | -
powerpc-libc          | builds powerpc-linux-gnu-gcc | libc6-dev-powerpc-cross | - | -
kernel-build-tools | which riscv64-linux-gnu-gcc flex bison bc | gcc-riscv64-linux-gnu flex bison bc
                       | gcc-riscv64-linux-gnu flex bison bc | riscv64-linux-gnu-gcc flex bison bc
qemu-s390x-static     | - | qemu-user-static | qemu-user-static | qemu-user-static
qemu-ppc-static       | - | qemu-user-static | qemu-user-static | qemu-user-static
qemu-i386-static      | - | qemu-user-static | qemu-user-static | qemu-user-static
dtc                   | - | device-tree-compiler | dtc | dtc
fdtput                | - | device-tree-compiler | dtc | dtc
llvm-mca              | PYTHONPATH="${0%/*}" py "cycles; cycles.llvm()" | llvm-19 | llvm | llvm
labgrid               | py labgrid | python3-labgrid | - | -
lava-common           | py lava_common | lava-common | - | -
lava-run              | - | lava-dispatcher | - | -
tftpd-hpa-config      | test -r /etc/default/tftpd-hpa | tftpd-hpa | - | -
'

# The table's checks.  qemu_data FILE: FILE where QEMU looks for firmware.
qemu_data() {
	for d in $(qemu-system-riscv64 -L help 2>/dev/null ||
		echo /usr/share/qemu /usr/local/share/qemu); do
		[ -r "$d/$1" ] && return 0
	done
	return 1
}
# cross_file FILE: the RISC-V cross gcc finds FILE.
cross_file() {
	f=$("${CROSS_COMPILE:-riscv64-unknown-elf-}gcc" -print-file-name="$1" 2>/dev/null) && [ -r "$f" ]
}
# builds CC [FLAGS]: CC compiles and links a C program (its headers, crt files, libc).
builds() {
	out=$(mktemp "${TMPDIR:-/tmp}/deps.XXXXXX") || return 1
	printf 'int main(void) { return 0; }\n' | "$@" -x c -o "$out" - >/dev/null 2>&1
	rc=$?; rm -f "$out"; return $rc
}
py() { /usr/bin/python3 -c "import $1"; }
# clang_rt NAME: clang's runtime library NAME for this machine.
clang_rt() {
	d=$(clang --print-runtime-dir 2>/dev/null) && [ -r "$d/libclang_rt.$1-$(uname -m).a" ]
}

# missing WORD...: the rows of the tools asked for that are not here; a word
# of no row is "WORD|-|-|-|-", a command of no known package.
missing() {
	printf '%s\n' "$TABLE" | sed -e '/^[[:space:]]*$/d' -e 's/[[:space:]]*|[[:space:]]*/|/g' |
		awk -v words="$*" '!/^\|/ { r++ } { row[r] = row[r] $0 }
		END { for (j = 1; j <= r; j++) { split(row[j], f, "|"); tool[j] = f[1]; deb[j] = f[3] }
			n = split(words, w, " ")
			for (i = 1; i <= n; i++) { hit = ""
				for (j = 1; j <= r; j++) if (tool[j] == w[i]) hit = hit row[j] "\n"
				if (hit == "") for (j = 1; j <= r; j++) if (deb[j] == w[i]) hit = hit row[j] "\n"
				printf "%s", (hit == "" ? w[i] "|-|-|-|-\n" : hit) } }' |
		while IFS='|' read -r tool check deb fedora arch; do
			{ if [ "$check" = - ]; then command -v "$tool"; else eval "$check"; fi; } \
				</dev/null >/dev/null 2>&1 && continue
			printf '%s|%s|%s|%s|%s\n' "$tool" "$check" "$deb" "$fedora" "$arch"
		done
}
report() {
	printf '%s\n' "$miss" | awk -F'|' 'BEGIN { print "deps: missing tools:" } {
		if ($3 == "-") printf "deps:   %-28s (no package known: put it on the PATH)\n", $1
		else printf "deps:   %-28s Debian: %s, Fedora: %s, Arch: %s\n", $1, $3,
			($4 == "-" ? "(none known)" : $4), ($5 == "-" ? "(none known)" : $5) }' >&2
}

[ "${1-}" != --missing ] || { shift; missing "$@"; exit 0; }
miss=$(missing "$@")
[ -z "$miss" ] && exit 0
debs=$(printf '%s\n' "$miss" | cut -d'|' -f3 | grep -vx -- - | sort -u | tr '\n' ' ')
debs=${debs% }
if ! command -v apt-get >/dev/null 2>&1 ||
	printf '%s\n' "$miss" | cut -d'|' -f3 | grep -qx -- -; then
	report
	command -v apt-get >/dev/null 2>&1 ||
		echo "deps: error: no apt-get here: install the packages above" \
			"with this system's package manager" >&2
	exit 126
fi

# Debian's gcc-multilib conflicts with every cross gcc, and apt's --no-remove
# below would leave only its own message: name the way out before apt is asked.
cross=$(printf '%s\n' $debs | grep '^gcc-.*-linux-gnu' | tr '\n' ' ')
if [ -n "$cross" ] &&
	dpkg-query -W -f='${Status}' gcc-multilib 2>/dev/null | grep -q 'install ok installed'; then
	printf 'deps: %s\n' "error: Debian's gcc-multilib is installed, and it conflicts with the cross" \
		"  compilers make test needs: ${cross% }." \
		"  Replace it with gcc-12-multilib, which gives gcc -m32 just the same and" \
		"  conflicts with nothing: apt-get install gcc-12-multilib && apt-get remove gcc-multilib" >&2
	exit 1
fi
report
[ "$(id -u)" = 0 ] || { echo "deps: error: not root; run: sudo apt-get install $debs" >&2; exit 1; }
echo "deps: installing missing Debian packages: $debs" >&2

# No service starts while apt-get installs (policy-rc.d(8): 101 = forbidden):
# the tests need none, and tftpd-hpa's TFTP daemon would stay running (LAVA
# only reads its /etc/default file).  A system's own policy is left alone.
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
	printf '#!/bin/sh\n# tools/deps.sh, during its apt-get install\nexit 101\n' >"$policy"
	chmod 755 "$policy"
	trap 'rm -f "$policy"' EXIT
	trap 'exit 130' INT; trap 'exit 143' TERM  # a signal too ends through that trap
fi
export DEBIAN_FRONTEND=noninteractive
# Another install (a fresh machine's unattended-upgrades, say) may hold the package
# manager's lock: apt-get waits, at most DEPS_LOCK_WAIT s, and we say so once;
# status 3: the wait ran out ("Could not get lock").
wait=${DEPS_LOCK_WAIT:-600}
apt() {
	{ apt-get -o DPkg::Lock::Timeout="$wait" "$@" 2>&1; echo "apt-get status $?"; } |
	awk -v w="$wait" -v q="'" '/^apt-get status / { rc = $3; next }
	/Waiting for cache lock/ { if (!said++) printf "deps: another install holds the package " \
		"manager%ss lock: waiting for it, at most %d s " \
		"(apt-get -o DPkg::Lock::Timeout=%d)\n", q, w, w > "/dev/stderr"; next }
	{ lock += /Could not get lock/; print } END { exit (rc && lock ? 3 : rc) }'
}
# A fresh machine has no package lists yet: refresh them once if needed.
# shellcheck disable=SC2086 # one word per package
apt install -y --no-install-recommends --no-remove $debs >/dev/null && rc=0 || rc=$?
if [ "$rc" != 0 ] && [ "$rc" != 3 ]; then
	apt update >/dev/null || true
	# Those the lists hold: an unknown one (linux-source-6.12 on main alone) fails them all.
	debs=$(apt-cache show --no-all-versions $debs 2>/dev/null | sed -n 's/^Package: //p' | xargs)
	rc=0; apt install -y --no-install-recommends --no-remove $debs >&2 || rc=$?
fi
# Whatever that policy said: the TFTP daemon is stopped, and not started at boot.
case " $debs " in *" tftpd-hpa "*)
	if [ -d /run/systemd/system ]; then systemctl disable --now tftpd-hpa >/dev/null 2>&1 || true
	else { /etc/init.d/tftpd-hpa stop; update-rc.d tftpd-hpa disable; } >/dev/null 2>&1 || true
	fi ;;
esac
[ "$rc" != 3 ] || echo "deps: error: another install held the package manager's lock $wait s" >&2
[ "$rc" = 0 ] || { echo "deps: error: could not install: $debs" >&2; exit 1; }
miss=$(missing "$@")
[ -z "$miss" ] || { echo "deps: error: installed $debs, but still missing:" >&2; report; exit 1; }
echo "deps: installed: $debs" >&2
