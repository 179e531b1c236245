#!/usr/bin/env bash
# validate/'s readers of ncu pages, kernel names and SASS text (harness/ncu_csv.py,
# kernel_names.py, sass_text.py: the capture's C++ readers through the Python module,
# harness/native.py) on the GPU machine's own Python, with the module that
# `bash validate/capture/build_carry.sh python` carried into build-gpu/python/:
#
#   OUT=DIR bash validate/harness/readers_on_gpu.sh      (about a minute; no GPU work)
#
# Steps: which Python and which module file load; then every test of tests/validate/
# (the scripts' tests on committed pages), each under its own limit, its exit status
# and output in the step log. Packs everything into $OUT/readers.tar.gz.
set -uo pipefail
cd "$(dirname "$0")/../.."
. validate/gpu_env.sh  # gpu_results, gpu_step, log, gpu_pack, gpu_environment
gpu_results readers "${BUDGET_S:-240}"
STEP_RESERVE=10
gpu_environment >"$R/environment.txt"
gpu_step module 30 python3 -c 'import sys; from validate.harness import native; print(sys.version); print(native.bankcheck.__file__)'
for t in tests/validate/*_test.py; do
  gpu_step "$(basename "$t" .py)" 120 python3 "$t"
done
log "done in $SECONDS s"
gpu_pack
cat "$R/environment.txt" "$R/steps.log" 2>/dev/null | head -c 8000
