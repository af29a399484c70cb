#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make deb: build the Debian packages with Debian's tooling (debhelper,
# dh-dkms) in a copy of the tree under build/deb/src, into build/deb/:
#
#   lightnvm-dkms_<ver>_all.deb   the module sources (KSRC, dkms.conf),
#                                 built by DKMS for each installed kernel
#   lnvm_<ver>_amd64.deb          the lnvm tool, lnvm(8), bash completion
#
# The version is dkms.conf's PACKAGE_VERSION. KSRC (from the Makefile)
# lists the module sources.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/deb
: "${KSRC:?KSRC must list the module sources (run make deb)}"

ver=$(sed -n 's/^PACKAGE_VERSION="\([^"]*\)"$/\1/p' "$top/dkms.conf")
[ -n "$ver" ] || { echo "mkdeb: no PACKAGE_VERSION in dkms.conf" >&2; exit 1; }

src=$out/src/lightnvm-$ver
rm -rf "$out"
mkdir -p "$src"
cd "$top"
for f in tools/lightnvm/lnvm.c tools/lightnvm/lnvm.8 \
	 tools/lightnvm/lnvm.bash-completion; do
	[ -f "$f" ] || { echo "mkdeb: $f is missing" >&2; exit 1; }
done
# shellcheck disable=SC2086
cp -r --parents $KSRC dkms.conf tools/lightnvm/lnvm.c tools/lightnvm/lnvm.8 \
	tools/lightnvm/lnvm.bash-completion "$src/"
cp -r scripts/package/debian "$src/debian"
commit=$(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo "no git")
sed -e "s/@VERSION@/$ver/" -e "s/@COMMIT@/commit $commit/" -e "s/@DATE@/$(date -R)/" \
	"$src/debian/changelog.in" > "$src/debian/changelog"
rm "$src/debian/changelog.in"
echo "$KSRC dkms.conf" > "$src/debian/ksrc"

echo "mkdeb: building lightnvm-dkms and lnvm $ver (log: build/deb/build.log)"
if ! (cd "$src" && DEB_BUILD_OPTIONS=noddebs dpkg-buildpackage -b -us -uc) \
	>"$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log"
	echo "mkdeb: dpkg-buildpackage failed (log: build/deb/build.log)" >&2
	exit 1
fi
mv "$out"/src/*.deb "$out/"
ls "$out"/*.deb
