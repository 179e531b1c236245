#!/usr/bin/env bash
# The nvidia-cutlass 4.2 wheel (6.4 MB; CUTLASS's examples, include/ and
# tools/util/include inside) into the gitignored .deps/cutlass-wheel/, on the
# development machine (PyPI), for run_on_gpu.sh on a GPU machine without
# network: carry .deps/cutlass-wheel there.
set -euo pipefail
cd "$(dirname "$0")/../../.."
mkdir -p .deps/cutlass-wheel
ls .deps/cutlass-wheel/nvidia_cutlass-4.2.0.0-*.whl >/dev/null 2>&1 ||
  python3 -m pip download --no-deps -q -d .deps/cutlass-wheel "nvidia-cutlass==4.2.0.0"
ls -l .deps/cutlass-wheel
