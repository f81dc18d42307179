#!/bin/sh
# SPDX-License-Identifier: MIT
# Usage: deps.sh PACKAGE...
# Installs the Debian packages that are missing (apt-get, as root), naming
# them first; fails with a clear message where it cannot.
set -eu
missing=
for pkg in "$@"; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $pkg"
done
[ -z "$missing" ] && exit 0
# Debian's gcc-multilib metapackage conflicts with every cross gcc (apt
# would have to remove it, which --no-remove below refuses, leaving only
# apt's own message).  gcc-12-multilib gives gcc -m32 just as well and
# conflicts with nothing: say so before apt is asked.
cross=
for pkg in $missing; do
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
echo "deps: installing missing Debian packages:$missing" >&2
if [ "$(id -u)" != 0 ]; then
	echo "deps: error: not root; run: sudo apt-get install$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# A fresh machine has no package lists yet; refresh them once if needed.
if ! apt-get install -y -q --no-install-recommends --no-remove $missing >/dev/null 2>&1; then
	apt-get update -q >/dev/null 2>&1 || true
	apt-get install -y -q --no-install-recommends --no-remove $missing >&2 || {
		echo "deps: error: could not install:$missing" >&2
		exit 1
	}
fi
echo "deps: installed:$missing" >&2
