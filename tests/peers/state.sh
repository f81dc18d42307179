#!/bin/sh
# SPDX-License-Identifier: MIT
# What tests/peers.mk knows of each peer once extracted, from its stamp
# PEERS_DIR/PEER.ok (key, "version PACKAGE VERSION", "error WHY" when its
# files could not be had, "measured FILE" per measured file), the files as
# they are in PEERS_DIR/PEER/ now (a build compiles them as they are, an
# edited one too), and tests/peers/known.  In a script, not in make: one awk
# reads the hashes and the known set.
#
#   state.sh state PEERS_DIR PEER      why the peer's code is not the known
#                                      one, or nothing: "WHY" or "memcpy.S,
#                                      memset.S not in the known set"
#   state.sh hashes PEERS_DIR PEER...  the lines tests/peers/known lacks for
#                                      the installed versions
#   state.sh header PEERS_DIR OBJDIR PEER=NAME...
#                                      firmware/impls.c's wm-peers.h (below)
set -eu
known=$(dirname "$0")/known
cmd=$1 dir=$2
shift 2

# PEER's measured files, each "HASH FILE KNOWN" (KNOWN 1 or 0); one sha256sum for
# all (a build runs header each time: processes are what it costs).
sums() {
	sed -n 's/^measured //p' "$dir/$1.ok" | (cd "$dir/$1" && xargs -r sha256sum --) |
		awk -v p="$1" 'FNR == NR { if ($1 !~ /^#/) k[$1 " " $2] = 1; next }
		{ print $1, $2, (($1 " " p "/" $2) in k) ? 1 : 0 }' "$known" -
}
# state PEER [SUMS]: SUMS, PEER's sums lines if the caller has them already.
state() {
	err=$(sed -n 's/^error //p' "$dir/$1.ok")
	[ -z "$err" ] || { printf '%s\n' "$err"; return; }
	{ if [ $# -gt 1 ]; then printf '%s\n' "$2"; else sums "$1"; fi; } |
		awk '!$3 { n = split($2, a, "/"); s = s sep a[n]; sep = ", " }
		END { if (s != "") print s " not in the known set" }'
}
version() { sed -n 's/^version //p' "$dir/$1.ok"; }
cstr() { printf '"%s"' "$(printf '%s' "$1" | sed 's/[\\"]/\\&/g')"; }

case $cmd in
state) state "$1" ;;
hashes)
	for p in "$@"; do
		v=$(version "$p")
		sums "$p" | while read -r h f k; do
			[ "$k" = 1 ] || printf '%s  %-44s %s\n' "$h" "$p/$f" "${v#* }"
		done
	done ;;
header)
	# Per peer: WM_PEER_NOTE_PEER, the label of a peer whose code is not the
	# known one (0: none); WM_PEER_ATTR_PEER, weak for one left out because
	# it did not build (OBJDIR/peer-PEER.o.skip says why; its functions are
	# then absent), with its line in WM_PEER_SKIPS(X); WM_PEER_SOURCES(X),
	# X(name, "package version", file, sha256, known) for each measured file.
	obj=$1
	shift
	skips= srcs=
	for pn in "$@"; do
		p=${pn%%=*} name=${pn#*=} v=$(version "$p")
		ss=$(sums "$p") vs=$(cstr "$v")
		if [ -f "$obj/peer-$p.o.skip" ]; then
			echo "#define WM_PEER_ATTR_$p __attribute__((weak))"
			echo "#define WM_PEER_NOTE_$p 0"
			skips="$skips \\
	X($(cstr "$(cat "$obj/peer-$p.o.skip")"))"
		else
			s=$(state "$p" "$ss")
			echo "#define WM_PEER_ATTR_$p"
			echo "#define WM_PEER_NOTE_$p $(if [ -n "$s" ]; then cstr "$v, $s"; else echo 0; fi)"
		fi
		srcs="$srcs$(printf '%s\n' "$ss" | while read -r h f k; do [ -z "$h" ] ||
			printf ' \\\n\tX("%s", %s, "%s", "%s", %s)' "$name" "$vs" "$f" "$h" "$k"; done)"
	done
	echo "#define WM_PEER_SKIPS(X)$skips"
	echo "#define WM_PEER_SOURCES(X)$srcs" ;;
*) echo "usage: state.sh state|hashes|header PEERS_DIR ..." >&2; exit 2 ;;
esac
