#!/usr/bin/env bash
# Installs the Debian packages Reuleaux needs (only the missing ones), then configures and builds
# it in ./build. Sourced by scripts/run-example and scripts/run-tests.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

packages=(build-essential cmake ccache qt6-base-dev qt6-charts-dev qt6-svg-dev libvtk9-dev
  libeigen3-dev libsuitesparse-dev nlohmann-json3-dev xvfb xauth
  locales) # locales: the tests build a decimal-comma locale (localedef) when none is installed
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "Installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

werror=OFF
[ "${CI:-}" = "true" ] && werror=ON
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DREULEAUX_WERROR="$werror" >/dev/null
cmake --build build -j2
