#!/usr/bin/env bash
# Several GPU validations in one device call (device time is scarce and a
# machine starts cold: batch the work). Run from the repository root on the
# GPU machine, with build-gpu/ carried (validate/capture/build_carry.sh smoke cli):
#
#   OUT=DIR bash validate/gpu_batch.sh STEP...
#
# STEP, each under its own time limit, a failure logged and the next run:
#   cgsrc    the cp.async.cg probes (PROBE_GROUPS=cgsrc validate/probes/run_on_gpu.sh)
#   cgline   the cp.async.cg probes of several source lines, their spacing varied
#   cgwarm   the same copies with their sources read into L2 first
#   casrcsize  the .ca copies of the cpasync probes in the source-size form
#   cgforms  the same copies in Triton's forms (run-time source size, ignore-src predicate),
#            and in pairs (the second copy reading the other halves of the first's lines)
#   global   `capture --global` and ncu per instruction (sectors and
#            wavefronts) on the global-search kernels and CUB device programs
#            (validate/programs/run_compare.sh with CAPTURE_ARGS=--global)
#   stages   where the time of `capture --summary` goes (validate/capture/summary_stages.sh)
#   torch    the PyTorch ops of run_compare.sh (TORCH_ONLY, default softmax|layer_norm;
#            TORCH_CAPTURE_ARGS, e.g. --global)
#   triton   the Triton kernels of run_compare.sh (TRITON_ONLY, default matmul; KEEP_OPS,
#            e.g. 'cpasync.cg': keep those records as text, run_compare.sh)
#   fulltrace  full-trace capture rate of CUB sorts and the host's bound (validate/capture/full_trace_rate.sh)
#   mpi      validate/mpi_scaling.sh with the relocated OpenMPI of build-gpu/mpi (build_carry.sh mpi)
#   library  library and framework kernels (cuBLAS, CUTLASS attention, FlashAttention-2, cuDNN,
#            Triton matmul/attention at several num_stages): run_compare.sh library
#   script   a PyTorch script of many launches, compared launch by launch (run_compare.sh script)
#   atomics64  64-bit and float shared atomics (CAS loops), captured and compared
#   ldgsts   cp.async tiles as GEMM main loops copy them (validate/library/ldgsts_tiles.cu), captured and compared
#   probes   single-instruction probes (validate/probes/run_on_gpu.sh) of PROBE_GROUPS (default zfill,caltc,cgltc)
#            within PROBES_BUDGET_S seconds (default 400)
#   ld8pair  8-byte loads with lanes paired on addresses (validate/sm90/cases/ld8pair.trace);
#   ld8split the same with half warps of different degrees (ld8split.trace)
#   hopper   wgmma probes (validate/hopper/run_hopper.sh)
#   tensormaps  the TMA probes alone (run_hopper.sh with TMA_ONLY=1): ncu, capture, compare, and the
#            capture's tensor maps checked against the probe's (validate/hopper/check_tensor_maps.py)
#   speed    capture against the program's run, memcheck and ncu (validate/capture/capture_speed.sh)
#   wgmma-blind  the blind wgmma set (validate/hopper/wgmma_blind_predictions.txt), measured and captured
#   wgmma-int8   the s8/u8 wgmma set (validate/hopper/wgmma_int8_predictions.txt), measured and captured
#   wgmma-summary  `capture --summary` of the wgmma probes and the GEMM against full traces
#            (validate/hopper/summary_check.sh)
#   wgmma-timing one wgmma shape in good and bad layouts: cycles per wgmma and ncu's counts
#   hopper-gemm  a hand-written TMA + wgmma GEMM, right and with wrong swizzles (validate/hopper/tma_wgmma_gemm.cu):
#            captured, profiled, compared (its capture folder kept), then timed natively
#   bench    bench.replay on this machine's cores, with the SIMD path it measures
#            fastest and again with BANKCHECK_SIMD=avx512 (model/simd_degree.hpp)
# Results under $OUT/STEP/; large files (traces, reports, cubins) are removed
# so that what comes back stays small.
set -uo pipefail
cd "$(dirname "$0")/.."
: "${OUT:?set OUT}"
mkdir -p "$OUT"
W=$(mktemp -d /tmp/bankcheck-batch.XXXXXX)
B=$W/B
mkdir -p "$B" build
cp -r build-gpu/smoke/. "$B/"  # with lib/, the shared libraries the pieces load (RPATH $ORIGIN/lib)
cp build-gpu/programs/* "$B/"
cp -r build-gpu/cli/. build/
LOG=$OUT/batch.log
step() {  # step NAME SECONDS CMD...
  local name=$1 limit=$2
  shift 2
  local t0=$SECONDS
  echo "== $name: start" | tee -a "$LOG"
  timeout "$limit" "$@" >"$OUT/$name.log" 2>&1
  echo "== $name: exit $? after $((SECONDS - t0)) s" | tee -a "$LOG"
}
{
  date -u +"date %Y-%m-%dT%H:%M:%SZ"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
  echo "git: $(git rev-parse HEAD 2>/dev/null || echo 'not a git checkout')"
} >>"$LOG"
for s in "$@"; do
  case $s in
    cgforms) step cgforms 200 env PROBE_GROUPS=cgforms PROBES_BUDGET_S=180 OUT="$OUT/cgforms" bash validate/probes/run_on_gpu.sh ;;
    casrcsize) step casrcsize 200 env PROBE_GROUPS=casrcsize PROBES_BUDGET_S=180 OUT="$OUT/casrcsize" bash validate/probes/run_on_gpu.sh ;;
    cgwarm) step cgwarm 200 env PROBE_GROUPS=cgwarm PROBES_BUDGET_S=180 OUT="$OUT/cgwarm" bash validate/probes/run_on_gpu.sh ;;
    cgline) step cgline 200 env PROBE_GROUPS=cgline PROBES_BUDGET_S=180 OUT="$OUT/cgline" bash validate/probes/run_on_gpu.sh ;;
    cgsrc) step cgsrc 330 env PROBE_GROUPS=cgsrc PROBES_BUDGET_S=310 OUT="$OUT/cgsrc" bash validate/probes/run_on_gpu.sh ;;
    global)
      step global 300 env CAPTURE_ARGS=--global LAUNCHES=${LAUNCHES:-4} ONLY="${ONLY:-search|merge_sort_u32|radix_sort_u32|histogram|scan|reduce}" \
        OUT="$OUT/global" B="$B" PROGRAM_BIN="$B" BANKCHECK="$PWD/build/bankcheck" \
        bash validate/programs/run_compare.sh global-search cub-device ;;
    stages) step stages 200 env OUT="$OUT/stages" B="$B" REPS=${REPS:-3} bash validate/capture/summary_stages.sh ;;
    torch) step torch 300 env CUDA_MODULE_LOADING=LAZY CAPTURE_ARGS="${TORCH_CAPTURE_ARGS:-}" ONLY="${TORCH_ONLY:-softmax|layer_norm}" \
        OUT="$OUT/torch" B="$B" BANKCHECK="$PWD/build/bankcheck" bash validate/programs/run_compare.sh torch ;;
    mpi) step mpi 280 env OUT="$OUT/mpi" MPI=build-gpu/mpi bash validate/mpi_scaling.sh ;;
    fulltrace) step fulltrace 200 env OUT="$OUT/fulltrace" B="$B" bash validate/capture/full_trace_rate.sh ;;
    bench)
      step bench 150 build/bench.replay --runs 5
      step bench-avx512 120 env BANKCHECK_SIMD=avx512 build/bench.replay --runs 5 ;;
    triton) step triton 300 env CUDA_MODULE_LOADING=LAZY ONLY="${TRITON_ONLY:-matmul}" KEEP_OPS="${KEEP_OPS:-}" \
        OUT="$OUT/triton" B="$B" BANKCHECK="$PWD/build/bankcheck" bash validate/programs/run_compare.sh triton ;;
    library) step library 560 env CUDA_MODULE_LOADING=LAZY LAUNCHES=${LAUNCHES:-4} KEEP_OPS="${KEEP_OPS:-cpasync[.a-z]*|wgmma}" \
        CAPTURE_S=150 NCU_S=200 ONLY="${LIBRARY_ONLY:-}" OUT="$OUT/library" B="$B" BANKCHECK="$PWD/build/bankcheck" \
        bash validate/programs/run_compare.sh library ;;
    script) step script 560 env CUDA_MODULE_LOADING=LAZY CAPTURE_S=420 NCU_S=120 EXPORT_S="${EXPORT_S:-300}" OUT="$OUT/script" B="$B" \
        BANKCHECK="$PWD/build/bankcheck" bash validate/programs/run_compare.sh script ;;
    atomics64) step atomics64 200 env LAUNCHES=40 KEEP_OPS='atom[.a-z]*' KEEP_LINES=100000 OUT="$OUT/atomics64" B="$B" \
        BANKCHECK="$PWD/build/bankcheck" bash validate/programs/run_compare.sh atomics64 ;;
    ldgsts) step ldgsts 300 env LAUNCHES=12 KEEP_OPS='cpasync[.a-z]*' KEEP_LINES=30000 OUT="$OUT/ldgsts" B="$B" \
        BANKCHECK="$PWD/build/bankcheck" bash validate/programs/run_compare.sh ldgsts ;;
    probes) step probes 420 env OUT="$OUT/probes" PROBES_BUDGET_S="${PROBES_BUDGET_S:-400}" PROBE_GROUPS="${PROBE_GROUPS:-zfill,caltc,cgltc}" \
        bash validate/probes/run_on_gpu.sh ;;
    ld8pair|ld8split) step "$s" 200 env OUT="$OUT/$s" CASES="validate/sm90/cases/$s.trace" NAME="$s" \
        bash validate/sm90/run_ld8cap.sh ;;
    wgmma-blind) step wgmma-blind 300 env WGMMA_SET=blind OUT="$OUT/wgmma-blind" B="$B" BANKCHECK="$PWD/build/bankcheck" \
        bash validate/hopper/run_hopper.sh ;;
    wgmma-int8) step wgmma-int8 300 env WGMMA_SET=int8 OUT="$OUT/wgmma-int8" B="$B" BANKCHECK="$PWD/build/bankcheck" \
        bash validate/hopper/run_hopper.sh ;;
    wgmma-summary) step wgmma-summary 400 env OUT="$OUT/wgmma-summary" B="$B" BANKCHECK="$PWD/build/bankcheck" \
        bash validate/hopper/summary_check.sh ;;
    wgmma-timing) step wgmma-timing 200 env WGMMA_SET=timing OUT="$OUT/wgmma-timing" B="$B" BANKCHECK="$PWD/build/bankcheck" \
        bash validate/hopper/run_hopper.sh ;;
    speed) step speed 590 env OUT="$OUT/speed" B="$B" BANKCHECK="$PWD/build/bankcheck" bash validate/capture/capture_speed.sh ;;
    tensormaps) step tensormaps 300 env TMA_ONLY=1 OUT="$OUT/tensormaps" B="$B" BANKCHECK="$PWD/build/bankcheck" \
        bash validate/hopper/run_hopper.sh ;;
    hopper-gemm)
      step hopper-gemm 400 env KEEP_CAPTURE=1 OUT="$OUT/hopper-gemm" B="$B" BANKCHECK="$PWD/build/bankcheck" \
        bash validate/programs/run_compare.sh hopper-gemm
      step hopper-gemm-time 120 "$OUT/hopper-gemm/programs/bin/tma_wgmma_gemm" --time ;;
    hopper) step hopper 500 env OUT="$OUT/hopper" B="$B" BANKCHECK="$PWD/build/bankcheck" bash validate/hopper/run_hopper.sh ;;
    *) echo "unknown step $s" | tee -a "$LOG" ;;
  esac
done
find "$OUT" \( -name '*.bktrace' -o -name '*.ncu-rep' -o -name '*.cubin' -o -name bin \) -prune -exec rm -rf {} + 2>/dev/null
rm -rf "$W"
echo "== done in ${SECONDS}s" | tee -a "$LOG"
