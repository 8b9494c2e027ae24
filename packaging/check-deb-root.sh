#!/usr/bin/env bash
# Installs the Debian package in a fresh Debian 12 root, as a user would on a
# clean machine: debootstrap (minbase), then `dpkg -i` and `apt-get -f
# install` inside it. Checks that the installed programs run there on an
# installed example (the studio on Qt's offscreen platform, the PDF report),
# and that the MIME database maps *.pneumech.json. Needs root, debootstrap and
# a network (about 230 packages are fetched); not part of CTest.
# Usage: sudo packaging/check-deb-root.sh path/to/pneumech-studio_*.deb [root folder]
set -euo pipefail
deb=$(realpath "$1")
root=${2:-$(mktemp -d /tmp/pneumech-deb-root.XXXXXX)}
fail() { echo "check-deb-root: $*" >&2; exit 1; }
command -v debootstrap >/dev/null || fail "needs debootstrap (apt-get install debootstrap)"

[ -x "$root/usr/bin/apt-get" ] || debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >"$root.debootstrap.log" 2>&1 ||
  fail "debootstrap failed (see $root.debootstrap.log)"
cp "$deb" "$root/tmp/"
in_root() { chroot "$root" /bin/sh -c "$1"; }
mount -t proc proc "$root/proc"
trap 'umount "$root/proc" 2>/dev/null || true' EXIT

# dpkg -i stops at the missing dependencies; apt-get -f install brings them.
in_root "apt-get update -q >/dev/null && { dpkg -i /tmp/$(basename "$deb") >/dev/null 2>&1 || true; } &&
         DEBIAN_FRONTEND=noninteractive apt-get -f install -y -q --no-install-recommends >/tmp/apt.log 2>&1" ||
  fail "apt-get -f install failed (see $root/tmp/apt.log)"
in_root "dpkg -s pneumech-studio | grep -qx 'Status: install ok installed'" || fail "pneumech-studio is not configured"

ex=/usr/share/pneumech/projects
in_root "cd /tmp && pneumech simulate $ex/seed003_meter_out.pneumech.json -o /tmp/r.csv -q && test \$(wc -l </tmp/r.csv) -eq 1002" ||
  fail "the installed pneumech cannot run the installed example"
in_root "pneumech check $ex/script_plc_cycle.pneumech.json >/dev/null" || fail "the installed pneumech cannot check the scripted example"
in_root "cd /tmp && QT_QPA_PLATFORM=offscreen pneumech report $ex/seed003_meter_out.pneumech.json --pdf /tmp/r.pdf -q && test -s /tmp/r.pdf" ||
  fail "the installed pneumech-report cannot write the example's report"
# The studio opens the example and keeps running (timeout's 124) until stopped.
rc=0
in_root "cd /tmp && QT_QPA_PLATFORM=offscreen timeout 8 pneumech-studio $ex/seed003_meter_out.pneumech.json >/dev/null 2>&1" || rc=$?
[ "$rc" -eq 124 ] || fail "the installed studio ended with $rc instead of running"
in_root "grep -qx '60:application/x-pneumech-project:\*.pneumech.json' /usr/share/mime/globs2" ||
  fail "the installed MIME database does not map *.pneumech.json"
echo "check-deb-root: ok ($root)"
