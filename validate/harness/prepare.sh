#!/usr/bin/env bash
# Development-machine half of the harness: build the kernel programs (nvcc is
# here; no GPU needed) and write each program's predictions for the exact
# inputs the GPU run will use. The result, build-gpu/ (git-ignored through
# /build*/), is what the GPU call carries:
#   bash validate/harness/prepare.sh [program ...]
#   run: BIN=build-gpu/bin PRED=build-gpu/predicted bash validate/harness/run_all.sh   (carry: build-gpu)
set -euo pipefail
build=${BUILD:-build-kernels}
programs=${*:-"transpose pbs merge"}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$build" -j"${JOBS:-2}" $(for p in $programs; do echo --target kernel.$p; done)
rm -rf build-gpu && mkdir -p build-gpu/bin build-gpu/predicted
# kernel.merge_sort caches its worst-case inputs here (predict writes them,
# the GPU modes read them: the adversary's searched passes are time-bounded).
export BANKCHECK_MERGE_SORT_INPUTS=build-gpu/inputs
for p in $programs; do
  cp "$build/kernels/kernel.$p" build-gpu/bin/
  strip build-gpu/bin/kernel.$p
  "$build/kernels/kernel.$p" --mode predict --out build-gpu/predicted > build-gpu/predicted/$p.predict.log || echo "$p predict: exit $? (FAIL lines below)"
  echo "$p: $(wc -l < build-gpu/predicted/$p.predicted.csv) prediction rows, $(grep -c "^FAIL" build-gpu/predicted/$p.predict.log) FAIL"; grep "^FAIL" build-gpu/predicted/$p.predict.log | cut -c1-150 | head -3 || true
done
du -sh build-gpu
