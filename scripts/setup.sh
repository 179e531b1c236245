#!/usr/bin/env bash
# Install what is missing (Debian packages), then configure and build
# bankcheck in ./build. Safe to run again: it installs nothing that is
# already there and rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(cmake ninja-build g++ libboost-dev libeigen3-dev doctest-dev libgraphviz-dev graphviz
          libcli11-dev nlohmann-json3-dev pkg-config openmpi-bin libopenmpi-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
