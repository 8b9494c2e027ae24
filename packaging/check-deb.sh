#!/usr/bin/env bash
# Builds the Debian package (cpack -G DEB in the build folder) and checks it
# without installing it: what it holds, what it depends on, and that the
# unpacked programs run an unpacked example. Not checked here: dpkg -i into a
# clean Debian 12 root (that needs debootstrap and a network).
# Usage: packaging/check-deb.sh [build folder]   (default: build)
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
fail() { echo "check-deb: $*" >&2; exit 1; }

cd "$build"
rm -f pneumech-studio_*.deb
cpack -G DEB >cpack.log 2>&1 || { cat cpack.log >&2; fail "cpack failed"; }
deb=$(ls pneumech-studio_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "cpack made no pneumech-studio_*.deb (see $build/cpack.log)"
echo "check-deb: $deb, $(du -h "$deb" | cut -f1)"

# What it holds.
contents=$(dpkg-deb -c "$deb" | awk '{print $6}')
for f in ./usr/bin/pneumech ./usr/bin/pneumech-studio ./usr/bin/pneumech-report \
         ./usr/share/applications/pneumech-studio.desktop \
         ./usr/share/icons/hicolor/scalable/apps/pneumech-studio.svg \
         ./usr/share/mime/packages/pneumech-studio.xml \
         ./usr/share/pneumech/projects/seed003_meter_out.pneumech.json \
         ./usr/share/pneumech/projects/script_plc_cycle.js \
         ./usr/share/pneumech/symbols/cylinder_double.svg; do
  grep -qxF "$f" <<<"$contents" || fail "$deb lacks $f"
done
grep -qE '^\./usr/lib/[^ ]*libpneumech_core\.so$' <<<"$contents" || fail "$deb lacks libpneumech_core.so"
grep -qE '^\./usr/lib/[^ ]*libpneumech_script\.so$' <<<"$contents" || fail "$deb lacks libpneumech_script.so"
examples=$(grep -c '^\./usr/share/pneumech/projects/.*\.pneumech\.json$' <<<"$contents" || true)
sources=$(find "$(dirname "$0")"/../projects -name '*.pneumech.json' | wc -l)
[ "$examples" -eq "$sources" ] || fail "$deb has $examples examples, projects/ has $sources"
# The meshes (STL, OBJ) the examples' geometry and contacts read.
meshes=$(grep -cE '^\./usr/share/pneumech/projects/.*\.(stl|obj)$' <<<"$contents" || true)
mesh_sources=$(find "$(dirname "$0")"/../projects \( -name '*.stl' -o -name '*.obj' \) | wc -l)
[ "$meshes" -eq "$mesh_sources" ] || fail "$deb has $meshes mesh files, projects/ has $mesh_sources"

# The desktop entry opens the project file type the MIME package declares.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dpkg-deb -x "$deb" "$tmp/root"
mime=$(sed -n 's/.*mime-type type="\([^"]*\)".*/\1/p' "$tmp/root/usr/share/mime/packages/pneumech-studio.xml")
[ "$mime" = "application/x-pneumech-project" ] || fail "MIME package declares '$mime'"
grep -q 'glob pattern="\*\.pneumech\.json"' "$tmp/root/usr/share/mime/packages/pneumech-studio.xml" || fail "no *.pneumech.json glob"
grep -qx "MimeType=$mime;" "$tmp/root/usr/share/applications/pneumech-studio.desktop" || fail "desktop entry lacks MimeType=$mime;"
grep -qx 'Exec=pneumech-studio %f' "$tmp/root/usr/share/applications/pneumech-studio.desktop" || fail "desktop entry Exec"
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$tmp/root/usr/share/applications/pneumech-studio.desktop"
fi
if command -v xmllint >/dev/null; then xmllint --noout "$tmp/root/usr/share/mime/packages/pneumech-studio.xml"; fi
if command -v update-mime-database >/dev/null; then  # what shared-mime-info's trigger makes of it
  update-mime-database "$tmp/root/usr/share/mime" >/dev/null
  grep -qx "60:$mime:\*.pneumech.json" "$tmp/root/usr/share/mime/globs2" || fail "the MIME database does not map *.pneumech.json"
fi

# What it depends on: found by dpkg-shlibdeps, and each a package apt knows.
depends=$(dpkg-deb -f "$deb" Depends)
[ -n "$depends" ] || fail "$deb declares no dependencies"
echo "check-deb: Depends: $depends"
for lib in libqt6core6 libqt6widgets6 libqt6qml6 libsundials-ida6 libopenscenegraph161; do
  grep -q "\b$lib\b" <<<"$depends" || fail "Depends lacks $lib"
done
for alt in $(tr ',' '\n' <<<"$depends" | sed 's/([^)]*)//g; s/ //g'); do
  ok=0
  for p in $(tr '|' ' ' <<<"$alt"); do
    apt-cache show "$p" >/dev/null 2>&1 && { ok=1; break; }
  done
  [ $ok -eq 1 ] || fail "no Debian package satisfies '$alt'"
done

# The unpacked programs find their libraries and the installed examples
# (no path into the build tree left in them).
for exe in pneumech pneumech-studio pneumech-report; do
  if readelf -d "$tmp/root/usr/bin/$exe" | grep -E 'R(UN)?PATH' | grep -q "$build"; then
    fail "$exe keeps a library path into $build"
  fi
done
libdir=$(dirname "$(find "$tmp/root/usr/lib" -name libpneumech_core.so | head -1)")
LD_LIBRARY_PATH="$libdir" "$tmp/root/usr/bin/pneumech" info \
  "$tmp/root/usr/share/pneumech/projects/seed003_meter_out.pneumech.json" >"$tmp/info.txt" ||
  fail "the unpacked pneumech cannot read the unpacked example"
LD_LIBRARY_PATH="$libdir" "$tmp/root/usr/bin/pneumech" check \
  "$tmp/root/usr/share/pneumech/projects/script_plc_cycle.pneumech.json" >/dev/null ||
  fail "the unpacked pneumech cannot check the scripted example"
echo "check-deb: ok"
