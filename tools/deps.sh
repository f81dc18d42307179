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
