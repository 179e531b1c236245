#!/usr/bin/env bash
# Install what is missing (Debian packages), then configure and build
# bankcheck in ./build. Safe to run again: it installs nothing that is
# already there and rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(cmake ninja-build g++ libboost-dev libeigen3-dev doctest-dev libgraphviz-dev graphviz
          libcli11-dev nlohmann-json3-dev pkg-config openmpi-bin libopenmpi-dev ccache patchelf python3-dev)
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
# fetch_wheel REQUIREMENT DEST [PREFIX]: the wheel (pip download, without its
# dependencies) unpacked into DEST; with PREFIX, only its files under PREFIX,
# written without it. Fails where pip, the network or the wheel does.
fetch_wheel() {
  local tmp rc=0
  tmp=$(mktemp -d)
  python3 -m pip download --no-deps -q -d "$tmp" "$1" &&
    python3 - "$tmp" "$2" "${3:-}" <<'PY' || rc=1
import pathlib, sys, zipfile
folder, dest, prefix = sys.argv[1:4]
with zipfile.ZipFile(next(pathlib.Path(folder).glob("*.whl"))) as wheel:
    for name in wheel.namelist():
        if name.startswith(prefix) and not name.endswith("/"):
            target = pathlib.Path(dest) / name[len(prefix):]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(wheel.read(name))
PY
  rm -rf "$tmp"
  return $rc
}
# The Compute Sanitizer API for `bankcheck capture` (docs/capture.md): the
# toolkit's own when it has one, else the nvidia-cuda-sanitizer-api wheel
# (13.0.85 matches CUDA 13.0) unpacked into the gitignored .deps/. Without
# either (no pip, no network) the capture pieces are skipped, visibly.
sanitizer_wheel=13.0.85
if command -v nvcc >/dev/null 2>&1; then
  cuda_root=$(dirname "$(dirname "$(command -v nvcc)")")
  if [ ! -f "$cuda_root/compute-sanitizer/include/sanitizer_patching.h" ] &&
     [ ! -f .deps/sanitizer/nvidia/cu13/include/sanitizer_patching.h ]; then
    echo "setup: fetching the Compute Sanitizer API (nvidia-cuda-sanitizer-api==$sanitizer_wheel) into .deps/"
    fetch_wheel "nvidia-cuda-sanitizer-api==$sanitizer_wheel" .deps/sanitizer ||
      echo "setup: could not fetch the sanitizer API: capture: skipped: no sanitizer API"
  fi
fi
# nvdisasm gives sass.csv each instruction's source line (docs/capture.md);
# a toolkit without it (a minimal CUDA install) gets the nvidia-cuda-nvdisasm
# wheel's, unpacked into .deps/, for the line-info tests. Without pip or
# network those tests say "skipped".
nvdisasm_wheel=13.2.86
if command -v nvcc >/dev/null 2>&1 && ! command -v nvdisasm >/dev/null 2>&1 &&
   [ ! -x "$cuda_root/bin/nvdisasm" ] && [ ! -x .deps/nvdisasm/nvidia/cu13/bin/nvdisasm ]; then
  echo "setup: fetching nvdisasm (nvidia-cuda-nvdisasm==$nvdisasm_wheel) into .deps/"
  if fetch_wheel "nvidia-cuda-nvdisasm==$nvdisasm_wheel" .deps/nvdisasm; then
    chmod +x .deps/nvdisasm/nvidia/cu13/bin/nvdisasm
  else
    echo "setup: could not fetch nvdisasm: the line-info tests will say skipped"
  fi
fi
# CuTe's headers (header-only) for the parser's check against the real CuTe
# (validate/layout/cute_truth.cu): the nvidia-cutlass wheel's include/,
# unpacked into the gitignored .deps/cutlass/include. Without pip or network
# that test says "skipped: no CuTe headers".
cutlass_wheel=4.2.0.0
if [ ! -f .deps/cutlass/include/cute/layout.hpp ]; then
  echo "setup: fetching CuTe's headers (nvidia-cutlass==$cutlass_wheel) into .deps/"
  fetch_wheel "nvidia-cutlass==$cutlass_wheel" .deps/cutlass/include cutlass_library/source/include/ ||
    echo "setup: could not fetch nvidia-cutlass: the CuTe check will say skipped: no CuTe headers"
fi
# nanobind (the Python module's bindings, header and source only) for the
# module the main build makes beside the CLI (build/python/), through which
# validate/'s scripts and their tests read ncu pages, kernel names, SASS text
# and traces (docs/python.md): the nanobind wheel unpacked into the
# gitignored .deps/. Without pip or network those tests say "skipped".
nanobind_wheel=2.9.2
if [ ! -f .deps/nanobind/nanobind/cmake/nanobind-config.cmake ]; then
  echo "setup: fetching nanobind (nanobind==$nanobind_wheel) into .deps/"
  fetch_wheel "nanobind==$nanobind_wheel" .deps/nanobind ||
    echo "setup: could not fetch nanobind: the Python module is not built and validate/'s Python tests say skipped"
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
