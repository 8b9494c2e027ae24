#!/usr/bin/env bash
# Installs every Debian 12 package PneuMech Studio needs to build, test and run.
# Idempotent and non-interactive: packages already present are skipped by apt.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev qt6-declarative-dev
  libopenscenegraph-dev libeigen3-dev libsundials-dev libsuitesparse-dev nlohmann-json3-dev libcli11-dev
  libnlopt-dev libopenmpi-dev openmpi-bin
  xvfb xauth libgl1-mesa-dri x11-apps imagemagick poppler-utils fonts-dejavu-core
  xdg-utils shared-mime-info desktop-file-utils libfile-mimeinfo-perl  # test_gui_desktop_entry: double-click opening
  clang libclang-rt-14-dev llvm  # the sanitizer tree and libFuzzer (llvm: llvm-symbolizer for its traces)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "install-deps: installed ${#missing[@]} packages"
