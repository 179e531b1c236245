#!/usr/bin/env bash
# The GPU programs' own correctness checks in one device call of a few minutes,
# for a change to their code that the CPU tests cannot run (the CF sort's
# dispatch, its benchmark table, the TMA + wgmma GEMM). From the repository
# root on the GPU machine, nothing carried (each program is built here with
# nvcc alone, validate/cf_merge/nvcc_build.sh):
#
#   OUT=DIR bash validate/gpu_checks.sh        (or: validate/gpu_batch.sh checks)
#
# Steps, each under `timeout`, its exit status and time in steps.log, a
# failure recorded and the next step run, within BUDGET seconds (default 290):
#   build        kernel.cf_sort_bench, cf_sort_table and tma_wgmma_gemm, in parallel
#   gemm         tma_wgmma_gemm: exits 0 only when exactly its two descriptor variants are wrong
#   sort-check   kernel.cf_sort_bench --mode check: ours and CUB's against std::sort ("0 failure(s)")
#   profile      cf_sort_table --profile --quick --reps 1: every form's output checked
#   table        cf_sort_table --quick --reps 1: every output checked against CUB's merge sort
#   sweep        cf_sort_table --sweep --quick --reps 1
#   gemm-sass    cuobjdump -sass of the GEMM (its instructions are what the hopper results name)
# Everything lands in $OUT/gpu_checks.tar.gz (packed after every step).
# The CF sort's two programs take longer than a step's 200 s to compile on the
# GPU machine: build them on the development machine first (nvcc needs no GPU),
#   PREBUILD=1 bash validate/gpu_checks.sh          (into build-gpu/checks, the same nvcc lines)
# and carry build-gpu/checks: the build step then takes them from there.
set -uo pipefail
cd "$(dirname "$0")/.."
source validate/cf_merge/nvcc_build.sh  # NVCC, CXX, cf_nvcc_build
prebuilt=build-gpu/checks
# build_sorts DIR LOGS SECONDS: the CF sort's two programs into DIR (build logs under LOGS), in the
# background, each unless DIR holds it already
build_sorts() {
  [[ -x $1/kernel.cf_sort_bench ]] || cf_nvcc_build kernels/cf_sort_bench.cu "$1/kernel.cf_sort_bench" "$2/sort" "$3" &
  [[ -x $1/cf_sort_table ]] || cf_nvcc_build validate/cf_merge/sort_table.cu "$1/cf_sort_table" "$2/table" "$3" &
}
if [[ -n ${PREBUILD:-} ]]; then  # on the development machine: the two slow programs, afresh, then stop
  mkdir -p "$prebuilt"
  rm -f "$prebuilt/kernel.cf_sort_bench" "$prebuilt/cf_sort_table"
  build_sorts "$prebuilt" "$prebuilt" 3000
  wait
  ls -la "$prebuilt"
  [[ -x $prebuilt/kernel.cf_sort_bench && -x $prebuilt/cf_sort_table ]]
  exit
fi
: "${OUT:?set OUT}"
BUDGET=${BUDGET:-290}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
work=$(mktemp -d /tmp/bankcheck-gpu-checks.XXXXXX)
res=$work/gpu_checks
mkdir -p "$res/sort" "$res/table"
SECONDS=0
pack() { tar czf "$OUT/gpu_checks.tar.gz" -C "$work" --exclude='*.o' --exclude=bin gpu_checks; }
source validate/gpu_env.sh              # gpu_environment, gpu_step
STEP_DIR=$res STEP_LOG=$res/steps.log STEP_BUDGET=$BUDGET
step() { gpu_step "$@"; pack; }         # step NAME SECONDS CMD...: output in $res/NAME.log
gpu_environment | tee "$res/environment.txt"

bin=$res/bin
mkdir -p "$bin"
t0=$SECONDS
for p in kernel.cf_sort_bench cf_sort_table; do
  [[ -x $prebuilt/$p ]] && cp "$prebuilt/$p" "$bin/" && echo "build.$p carried from $prebuilt" | tee -a "$res/steps.log"
done
build_sorts "$bin" "$res" 200
timeout 120 "$NVCC" -gencode=arch=compute_90a,code=sm_90a -O2 -std=c++17 -o "$bin/tma_wgmma_gemm" \
  validate/sm90/sm90a/tma_wgmma_gemm.cu -lcuda >"$res/build.gemm.txt" 2>&1
echo "build.gemm rc=$?" | tee -a "$res/steps.log"
wait
for p in kernel.cf_sort_bench cf_sort_table tma_wgmma_gemm; do
  [[ -x $bin/$p ]] && echo "build.$p ok" || echo "build.$p FAILED"
done | tee -a "$res/steps.log"
echo "build $((SECONDS - t0))s" >>"$res/steps.log"
pack

step gemm 60 "$bin/tma_wgmma_gemm"
step sort-check 120 "$bin/kernel.cf_sort_bench" --mode check
step profile 90 "$bin/cf_sort_table" --profile --quick --reps 1
step table 90 "$bin/cf_sort_table" --quick --reps 1
step sweep 60 "$bin/cf_sort_table" --sweep --quick --reps 1
step gemm-sass 30 "$(dirname "$NVCC")/cuobjdump" -sass "$bin/tma_wgmma_gemm"
{
  cat "$res/steps.log"
  echo "gemm: $(tail -n 3 "$res/gemm.log" 2>/dev/null | tr '\n' ' ')"
  echo "sort-check: $(grep -E 'failure' "$res/sort-check.log" 2>/dev/null | tail -n 1)"
  for s in table profile sweep; do
    echo "$s: $(grep -c '^FAIL' "$res/$s.log" 2>/dev/null) FAIL lines; last: $(tail -n 1 "$res/$s.log" 2>/dev/null)"
  done
} >"$res/summary.txt"
cat "$res/summary.txt"
pack
cp "$res/summary.txt" "$OUT/summary.txt"
rm -rf "$work"
echo "done in ${SECONDS}s"
