#!/bin/sh
# SPDX-License-Identifier: MIT
# Usage: deps.sh TOOL...
#
# Checks that the tools named are here: commands on the PATH and a few files
# (OpenSBI's firmware where QEMU looks for it, picolibc where the cross gcc
# looks for it, ...); the table below says how each is checked and which
# package brings it on Debian, Fedora and Arch.  Nothing else is checked:
# with every tool present, dpkg and apt are never asked.
#
# When a tool is missing:
#   on Debian or Ubuntu (apt-get present): installs the Debian packages that
#     bring the missing tools with apt-get, naming them first (as root; a
#     user is told the apt-get command), then checks the tools again;
#   elsewhere: names the missing tools and the packages for Debian, Fedora
#     and Arch, and exits 126.
# Exit status: 0 every tool is here, 1 apt-get could not install them,
# 126 a tool is missing and this is no Debian (or the tool has no package).
#
# A word that is not a tool of the table but a Debian package of it stands
# for that package's tools (tests/bench.mk asks for gnuplot-nox); any other
# word is a command that must be on the PATH.
set -eu

# tool | check (- : command -v TOOL) | Debian | Fedora | Arch   (- : none known)
# The Fedora and Arch names are what those distributions call the package
# that holds the tool; only the Debian column is installed by this script.
TABLE='
qemu-system-riscv64     | -                                 | qemu-system-misc             | qemu-system-riscv      | qemu-system-riscv
qemu-system-riscv32     | -                                 | qemu-system-misc             | qemu-system-riscv      | qemu-system-riscv
opensbi-firmware        | qemu_data opensbi-riscv64-generic-fw_dynamic.bin | qemu-system-data | qemu-system-riscv-core | qemu-system-riscv-firmware
python3                 | test -x /usr/bin/python3          | python3                      | python3                | python
pyelftools              | /usr/bin/python3 -c "import elftools" | python3-pyelftools        | python3-pyelftools     | python-pyelftools
setpriv                 | -                                 | util-linux                   | util-linux             | util-linux
flock                   | -                                 | util-linux                   | util-linux             | util-linux
make                    | -                                 | make                         | make                   | make
riscv64-unknown-elf-gcc | -                                 | gcc-riscv64-unknown-elf      | -                      | riscv64-elf-gcc
riscv64-unknown-elf-objcopy | -                             | binutils-riscv64-unknown-elf | -                      | riscv64-elf-binutils
riscv64-unknown-elf-readelf | -                             | binutils-riscv64-unknown-elf | -                      | riscv64-elf-binutils
picolibc                | cross_file picolibc.specs         | picolibc-riscv64-unknown-elf | -                      | -
u-boot-qemu-smode       | test -r /usr/lib/u-boot/qemu-riscv64_smode/uboot.elf | u-boot-qemu | -             | -
mkimage                 | -                                 | u-boot-tools                 | uboot-tools            | uboot-tools
sfdisk                  | -                                 | fdisk                        | util-linux             | util-linux
mkfs.vfat               | -                                 | dosfstools                   | dosfstools             | dosfstools
mcopy                   | -                                 | mtools                       | mtools                 | mtools
gcc                     | -                                 | gcc                          | gcc                    | gcc
gcc-m32                 | builds gcc -m32                   | gcc-12-multilib              | glibc-devel.i686       | lib32-glibc
clang                   | -                                 | clang                        | clang                  | clang
clang-fuzzer            | clang_rt fuzzer                   | libclang-rt-14-dev           | compiler-rt            | compiler-rt
s390x-linux-gnu-gcc     | -                                 | gcc-s390x-linux-gnu          | gcc-s390x-linux-gnu    | -
s390x-libc              | builds s390x-linux-gnu-gcc        | libc6-dev-s390x-cross        | -                      | -
powerpc-linux-gnu-gcc   | -                                 | gcc-powerpc-linux-gnu        | -                      | -
powerpc-libc            | builds powerpc-linux-gnu-gcc      | libc6-dev-powerpc-cross      | -                      | -
qemu-s390x-static       | -                                 | qemu-user-static             | qemu-user-static       | qemu-user-static
qemu-ppc-static         | -                                 | qemu-user-static             | qemu-user-static       | qemu-user-static
dtc                     | -                                 | device-tree-compiler         | dtc                    | dtc
fdtput                  | -                                 | device-tree-compiler         | dtc                    | dtc
llvm-mca                | -                                 | llvm                         | llvm                   | llvm
gnuplot                 | -                                 | gnuplot-nox                  | gnuplot                | gnuplot
labgrid                 | /usr/bin/python3 -c "import labgrid" | python3-labgrid           | -                      | -
lava-common             | /usr/bin/python3 -c "import lava_common" | lava-common           | -                      | -
lava-run                | -                                 | lava-dispatcher              | -                      | -
tftpd-hpa-config        | test -r /etc/default/tftpd-hpa    | tftpd-hpa                    | -                      | -
'

# The checks of the table's second column.
# qemu_data FILE: FILE in one of the folders QEMU searches for firmware
# (-bios default): those `qemu-system-riscv64 -L help` lists, else the usual.
qemu_data() {
	dirs=$(qemu-system-riscv64 -L help 2>/dev/null) ||
		dirs='/usr/share/qemu /usr/local/share/qemu'
	for d in $dirs; do
		[ -r "$d/$1" ] && return 0
	done
	return 1
}
# cross_file FILE: the RISC-V cross gcc finds FILE (picolibc.specs).
cross_file() {
	cc=${CROSS_COMPILE:-riscv64-unknown-elf-}gcc
	command -v "$cc" >/dev/null 2>&1 || return 1
	f=$("$cc" -print-file-name="$1" 2>/dev/null) && [ -r "$f" ]
}
# builds CC [FLAGS]: CC compiles and links a C program (headers, crt files
# and libc for that target are here).
builds() {
	command -v "$1" >/dev/null 2>&1 || return 1
	out=$(mktemp "${TMPDIR:-/tmp}/deps.XXXXXX") || return 1
	printf 'int main(void) { return 0; }\n' | "$@" -x c -o "$out" - >/dev/null 2>&1
	rc=$?
	rm -f "$out"
	return $rc
}
# clang_rt NAME: clang's runtime library NAME for this machine (the fuzzer).
clang_rt() {
	command -v clang >/dev/null 2>&1 || return 1
	d=$(clang --print-runtime-dir 2>/dev/null) &&
		[ -r "$d/libclang_rt.$1-$(uname -m).a" ]
}

rows() { printf '%s\n' "$TABLE" | sed -e '/^[[:space:]]*$/d' -e 's/[[:space:]]*|[[:space:]]*/|/g'; }

# field ROW N: the Nth field of a table row.
field() { printf '%s\n' "$1" | cut -d'|' -f"$2"; }

# The rows that a word asks for: its tool, else every tool of that Debian
# package, else none (a bare command).
rows_for() {
	rows | awk -F'|' -v w="$1" '$1 == w { print; found = 1; exit }
		{ all[NR] = $0; pkg[NR] = $3 }
		END { if (!found) for (i = 1; i <= NR; i++) if (pkg[i] == w) print all[i] }'
}

present() { # ROW
	check=$(field "$1" 2)
	if [ "$check" = - ]; then
		command -v "$(field "$1" 1)" >/dev/null 2>&1
	else
		eval "$check" >/dev/null 2>&1
	fi
}

missing_rows=
missing_cmds=
check_all() {
	missing_rows= missing_cmds=
	for word in "$@"; do
		r=$(rows_for "$word")
		if [ -z "$r" ]; then
			command -v "$word" >/dev/null 2>&1 || missing_cmds="$missing_cmds $word"
			continue
		fi
		nl='
'
		old_ifs=$IFS; IFS=$nl
		for row in $r; do
			IFS=$old_ifs
			present "$row" || missing_rows="$missing_rows$row$nl"
		done
		IFS=$old_ifs
	done
}

check_all "$@"
[ -z "$missing_rows" ] && [ -z "$missing_cmds" ] && exit 0

# What is missing, and the package of each tool on Debian, Fedora and Arch.
report() {
	echo "deps: missing tools:" >&2
	printf '%s' "$missing_rows" | awk -F'|' '{
		printf "deps:   %-28s Debian: %s, Fedora: %s, Arch: %s\n", $1, $3,
			($4 == "-" ? "(none known)" : $4), ($5 == "-" ? "(none known)" : $5) }' >&2
	for c in $missing_cmds; do
		printf 'deps:   %-28s (no package known: put it on the PATH)\n' "$c" >&2
	done
}
debs=$(printf '%s' "$missing_rows" | cut -d'|' -f3 | sort -u | tr '\n' ' ')
debs=${debs% }

if ! command -v apt-get >/dev/null 2>&1 || [ -n "$missing_cmds" ]; then
	report
	command -v apt-get >/dev/null 2>&1 ||
		echo "deps: error: no apt-get here: install the packages above with this system's package manager" >&2
	exit 126
fi

# Debian's gcc-multilib metapackage conflicts with every cross gcc (apt
# would have to remove it, which --no-remove below refuses, leaving only
# apt's own message).  gcc-12-multilib gives gcc -m32 just as well and
# conflicts with nothing: say so before apt is asked.
cross=
for pkg in $debs; do
	case "$pkg" in gcc-*-linux-gnu*) cross="$cross $pkg" ;; esac
done
if [ -n "$cross" ] &&
	dpkg-query -W -f='${Status}' gcc-multilib 2>/dev/null | grep -q 'install ok installed'; then
	echo "deps: error: Debian's gcc-multilib is installed, and it conflicts with the cross" >&2
	echo "deps:   compilers make test needs:$cross." >&2
	echo "deps:   Replace it with gcc-12-multilib, which gives gcc -m32 just the same and" >&2
	echo "deps:   conflicts with nothing: apt-get install gcc-12-multilib && apt-get remove gcc-multilib" >&2
	exit 1
fi
report
echo "deps: installing missing Debian packages: $debs" >&2
if [ "$(id -u)" != 0 ]; then
	echo "deps: error: not root; run: sudo apt-get install $debs" >&2
	exit 1
fi

# tftpd-hpa's package starts a TFTP daemon that would stay running; the
# LAVA tests serve TFTP from QEMU's own network instead.  While apt-get
# runs, a policy-rc.d of ours (when the system has none) tells the package
# scripts not to start it; afterwards it is stopped and disabled all the same.
policy=/usr/sbin/policy-rc.d
own_policy=0
case " $debs " in
*" tftpd-hpa "*)
	if [ ! -e "$policy" ]; then
		cat >"$policy" <<'EOF'
#!/bin/sh
# Written by wordmerge's tools/deps.sh for one apt-get install, then removed:
# the TFTP daemon is not started (policy-rc.d(8): 101 = action forbidden).
for a; do case "$a" in -*) ;; *) [ "$a" = tftpd-hpa ] && exit 101; exit 0 ;; esac; done
exit 0
EOF
		chmod 755 "$policy" && own_policy=1
		trap '[ "$own_policy" = 0 ] || rm -f "$policy"' EXIT
		trap 'exit 130' INT
		trap 'exit 143' TERM
	fi
	;;
esac

export DEBIAN_FRONTEND=noninteractive
rc=0
# A fresh machine has no package lists yet; refresh them once if needed.
# shellcheck disable=SC2086 # one word per package
if ! apt-get install -y -q --no-install-recommends --no-remove $debs >/dev/null 2>&1; then
	apt-get update -q >/dev/null 2>&1 || true
	apt-get install -y -q --no-install-recommends --no-remove $debs >&2 || rc=1
fi

case " $debs " in
*" tftpd-hpa "*)
	if [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
		systemctl disable --now tftpd-hpa >/dev/null 2>&1 || true
	elif [ -x /etc/init.d/tftpd-hpa ]; then
		/etc/init.d/tftpd-hpa stop >/dev/null 2>&1 || true
		command -v update-rc.d >/dev/null 2>&1 && update-rc.d tftpd-hpa disable >/dev/null 2>&1 || true
	fi
	;;
esac

if [ "$rc" != 0 ]; then
	echo "deps: error: could not install: $debs" >&2
	exit 1
fi
check_all "$@"
if [ -n "$missing_rows" ]; then
	echo "deps: error: installed $debs, but still missing:" >&2
	report
	exit 1
fi
echo "deps: installed: $debs" >&2
