#!/usr/bin/env bash
# Several GPU validations in one device call (device time is scarce and a
# machine starts cold: batch the work). Run from the repository root on the
# GPU machine, with build-gpu/ carried (validate/capture/build_carry.sh smoke cli):
#
#   OUT=DIR bash validate/gpu_batch.sh STEP...
#
# STEP, each under its own time limit, a failure logged and the next run:
#   cgsrc    the cp.async.cg probes (PROBE_GROUPS=cgsrc validate/sm90/probes/run_on_gpu.sh)
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
#   probes   single-instruction probes (validate/sm90/probes/run_on_gpu.sh) of PROBE_GROUPS (default zfill,caltc,cgltc)
#            within PROBES_BUDGET_S seconds (default 400)
#   ld8pair  8-byte loads with lanes paired on addresses (validate/sm90/cases/ld8pair.trace);
#   ld8split the same with half warps of different degrees (ld8split.trace)
#   microbench:NAME  any LDS/STS probe set validate/sm90/cases/NAME.trace the same way: one kernel
#            per case, ncu per instruction, the source page in microbench-NAME/NAME.sass.csv for
#            validate/sm90/collect_set.py (validate/README.md, "A probe set")
#   programs the real programs of validate/programs/ with a `compare:` line, captured and compared
#            (validate/programs/run_compare.sh programs; validate/README.md, "A real program")
#   hopper   wgmma probes (validate/sm90/sm90a/run_hopper.sh)
#   tensormaps  the TMA probes alone (run_hopper.sh with TMA_ONLY=1): ncu, capture, compare, and the
#            capture's tensor maps checked against the probe's (validate/sm90/sm90a/check_tensor_maps.py)
#   speed    capture against the program's run, memcheck and ncu (validate/capture/capture_speed.sh)
#   wgmma-blind  the blind wgmma set (validate/sm90/sm90a/wgmma_blind_predictions.txt), measured and captured
#   wgmma-int8   the s8/u8 wgmma set (validate/sm90/sm90a/wgmma_int8_predictions.txt), measured and captured
#   wgmma-summary  `capture --summary` of the wgmma probes and the GEMM against full traces
#            (validate/sm90/sm90a/summary_check.sh)
#   wgmma-timing one wgmma shape in good and bad layouts: cycles per wgmma and ncu's counts
#   hopper-gemm  a hand-written TMA + wgmma GEMM, right and with wrong swizzles (validate/sm90/sm90a/tma_wgmma_gemm.cu):
#            captured, profiled, compared (its capture folder kept), then timed natively
#   checks   the GPU programs' own correctness checks: the CF sort and its benchmark table, the TMA +
#            wgmma GEMM, built here with nvcc (validate/gpu_checks.sh)
#   bench    bench.replay on this machine's cores, with the SIMD path it measures
#            fastest and again with BANKCHECK_SIMD=avx512 (model/simd_degree.hpp)
#   run:DIR/NAME.sh  any other GPU script of validate/ (validate/DIR/NAME.sh, its own
#            variables as its header says, set in the environment), with OUT=$OUT/run-DIR-NAME,
#            B and PROGRAM_BIN (the carried pieces) and BANKCHECK set, under RUN_LIMIT_S
#            seconds (default 560); a path outside validate/, to no script, to a file the
#            scripts source (no #! line) or to this one is refused and logged, and the next
#            step runs
# DRY=1 prints each step's command instead of running it (no GPU, no build-gpu/ needed).
# Results under $OUT/STEP/; large files (traces, reports, cubins) are removed
# so that what comes back stays small.
set -uo pipefail
cd "$(dirname "$0")/.."
: "${OUT:?set OUT}"
mkdir -p "$OUT"
W=$(mktemp -d /tmp/bankcheck-batch.XXXXXX)
B=$W/B
source validate/gpu_env.sh  # gpu_environment, gpu_step (each step's output in $OUT/STEP.log)
STEP_LOG=$OUT/batch.log
if [ -n "${DRY:-}" ]; then
  gpu_step() { echo "$1 $2: ${*:3}" | tee -a "$STEP_LOG"; }
else
  mkdir -p "$B" build
  cp -r build-gpu/smoke/. "$B/"  # with lib/, the shared libraries the pieces load (RPATH $ORIGIN/lib)
  cp build-gpu/programs/* "$B/"
  cp -r build-gpu/cli/. build/
  gpu_environment >>"$STEP_LOG"
fi
for s in "$@"; do
  case $s in
    cgforms) gpu_step cgforms 200 env PROBE_GROUPS=cgforms PROBES_BUDGET_S=180 OUT="$OUT/cgforms" bash validate/sm90/probes/run_on_gpu.sh ;;
    casrcsize) gpu_step casrcsize 200 env PROBE_GROUPS=casrcsize PROBES_BUDGET_S=180 OUT="$OUT/casrcsize" bash validate/sm90/probes/run_on_gpu.sh ;;
    cgwarm) gpu_step cgwarm 200 env PROBE_GROUPS=cgwarm PROBES_BUDGET_S=180 OUT="$OUT/cgwarm" bash validate/sm90/probes/run_on_gpu.sh ;;
    cgline) gpu_step cgline 200 env PROBE_GROUPS=cgline PROBES_BUDGET_S=180 OUT="$OUT/cgline" bash validate/sm90/probes/run_on_gpu.sh ;;
    cgsrc) gpu_step cgsrc 330 env PROBE_GROUPS=cgsrc PROBES_BUDGET_S=310 OUT="$OUT/cgsrc" bash validate/sm90/probes/run_on_gpu.sh ;;
    global)
      gpu_step global 300 env CAPTURE_ARGS=--global LAUNCHES=${LAUNCHES:-4} ONLY="${ONLY:-search|merge_sort_u32|radix_sort_u32|histogram|scan|reduce}" \
        OUT="$OUT/global" B="$B" PROGRAM_BIN="$B" BANKCHECK="$PWD/build/bankcheck" \
        bash validate/programs/run_compare.sh global-search cub-device ;;
    stages) gpu_step stages 200 env OUT="$OUT/stages" B="$B" REPS=${REPS:-3} bash validate/capture/summary_stages.sh ;;
    torch) gpu_step torch 300 env CUDA_MODULE_LOADING=LAZY CAPTURE_ARGS="${TORCH_CAPTURE_ARGS:-}" ONLY="${TORCH_ONLY:-softmax|layer_norm}" \
        OUT="$OUT/torch" B="$B" BANKCHECK="$PWD/build/bankcheck" bash validate/programs/run_compare.sh torch ;;
    mpi) gpu_step mpi 280 env OUT="$OUT/mpi" MPI=build-gpu/mpi bash validate/mpi_scaling.sh ;;
    fulltrace) gpu_step fulltrace 200 env OUT="$OUT/fulltrace" B="$B" bash validate/capture/full_trace_rate.sh ;;
    bench)
      gpu_step bench 150 build/bench.replay --runs 5
      gpu_step bench-avx512 120 env BANKCHECK_SIMD=avx512 build/bench.replay --runs 5 ;;
    triton) gpu_step triton 300 env CUDA_MODULE_LOADING=LAZY ONLY="${TRITON_ONLY:-matmul}" KEEP_OPS="${KEEP_OPS:-}" \
        OUT="$OUT/triton" B="$B" BANKCHECK="$PWD/build/bankcheck" bash validate/programs/run_compare.sh triton ;;
    library) gpu_step library 560 env CUDA_MODULE_LOADING=LAZY LAUNCHES=${LAUNCHES:-4} KEEP_OPS="${KEEP_OPS:-cpasync[.a-z]*|wgmma}" \
        CAPTURE_S=150 NCU_S=200 ONLY="${LIBRARY_ONLY:-}" OUT="$OUT/library" B="$B" BANKCHECK="$PWD/build/bankcheck" \
        bash validate/programs/run_compare.sh library ;;
    script) gpu_step script 560 env CUDA_MODULE_LOADING=LAZY CAPTURE_S=420 NCU_S=120 EXPORT_S="${EXPORT_S:-300}" OUT="$OUT/script" B="$B" \
        BANKCHECK="$PWD/build/bankcheck" bash validate/programs/run_compare.sh script ;;
    atomics64) gpu_step atomics64 200 env LAUNCHES=40 KEEP_OPS='atom[.a-z]*' KEEP_LINES=100000 OUT="$OUT/atomics64" B="$B" \
        BANKCHECK="$PWD/build/bankcheck" bash validate/programs/run_compare.sh atomics64 ;;
    ldgsts) gpu_step ldgsts 300 env LAUNCHES=12 KEEP_OPS='cpasync[.a-z]*' KEEP_LINES=30000 OUT="$OUT/ldgsts" B="$B" \
        BANKCHECK="$PWD/build/bankcheck" bash validate/programs/run_compare.sh ldgsts ;;
    probes) gpu_step probes 420 env OUT="$OUT/probes" PROBES_BUDGET_S="${PROBES_BUDGET_S:-400}" PROBE_GROUPS="${PROBE_GROUPS:-zfill,caltc,cgltc}" \
        bash validate/sm90/probes/run_on_gpu.sh ;;
    ld8pair|ld8split) gpu_step "$s" 200 env OUT="$OUT/$s" CASES="validate/sm90/cases/$s.trace" NAME="$s" \
        bash validate/sm90/run_ld8cap.sh ;;
    microbench:*) gpu_step "microbench-${s#microbench:}" 200 env OUT="$OUT/microbench-${s#microbench:}" \
        CASES="validate/sm90/cases/${s#microbench:}.trace" NAME="${s#microbench:}" bash validate/sm90/run_ld8cap.sh ;;
    programs) gpu_step programs 560 env OUT="$OUT/programs" B="$B" BANKCHECK="$PWD/build/bankcheck" \
        bash validate/programs/run_compare.sh programs ;;
    wgmma-blind) gpu_step wgmma-blind 300 env WGMMA_SET=blind OUT="$OUT/wgmma-blind" B="$B" BANKCHECK="$PWD/build/bankcheck" \
        bash validate/sm90/sm90a/run_hopper.sh ;;
    wgmma-int8) gpu_step wgmma-int8 300 env WGMMA_SET=int8 OUT="$OUT/wgmma-int8" B="$B" BANKCHECK="$PWD/build/bankcheck" \
        bash validate/sm90/sm90a/run_hopper.sh ;;
    wgmma-summary) gpu_step wgmma-summary 400 env OUT="$OUT/wgmma-summary" B="$B" BANKCHECK="$PWD/build/bankcheck" \
        bash validate/sm90/sm90a/summary_check.sh ;;
    wgmma-timing) gpu_step wgmma-timing 200 env WGMMA_SET=timing OUT="$OUT/wgmma-timing" B="$B" BANKCHECK="$PWD/build/bankcheck" \
        bash validate/sm90/sm90a/run_hopper.sh ;;
    speed) gpu_step speed 590 env OUT="$OUT/speed" B="$B" BANKCHECK="$PWD/build/bankcheck" bash validate/capture/capture_speed.sh ;;
    tensormaps) gpu_step tensormaps 300 env TMA_ONLY=1 OUT="$OUT/tensormaps" B="$B" BANKCHECK="$PWD/build/bankcheck" \
        bash validate/sm90/sm90a/run_hopper.sh ;;
    hopper-gemm)
      gpu_step hopper-gemm 400 env KEEP_CAPTURE=1 OUT="$OUT/hopper-gemm" B="$B" BANKCHECK="$PWD/build/bankcheck" \
        bash validate/programs/run_compare.sh hopper-gemm
      gpu_step hopper-gemm-time 120 "$OUT/hopper-gemm/programs/bin/tma_wgmma_gemm" --time ;;
    hopper) gpu_step hopper 500 env OUT="$OUT/hopper" B="$B" BANKCHECK="$PWD/build/bankcheck" bash validate/sm90/sm90a/run_hopper.sh ;;
    checks) gpu_step checks 300 env OUT="$OUT/checks" bash validate/gpu_checks.sh ;;
    run:*)
      script=validate/${s#run:}
      if [[ $script != *.sh || $script == *..* || ! -f $script || $script == validate/gpu_batch.sh ]] ||
        [[ $(head -c 2 "$script") != '#!' ]]; then
        echo "== $s: refused, not a GPU script under validate/ (run:DIR/NAME.sh; a file sourced by others, or this one, is not)" |
          tee -a "$STEP_LOG"
        continue
      fi
      name=run-$(tr / - <<<"${s#run:}") name=${name%.sh}
      gpu_step "$name" "${RUN_LIMIT_S:-560}" env OUT="$OUT/$name" B="$B" PROGRAM_BIN="$B" BANKCHECK="$PWD/build/bankcheck" \
        bash "$script" ;;
    *) echo "unknown step $s" | tee -a "$STEP_LOG" ;;
  esac
done
find "$OUT" \( -name '*.bktrace' -o -name '*.ncu-rep' -o -name '*.cubin' -o -name bin \) -prune -exec rm -rf {} + 2>/dev/null
rm -rf "$W"
echo "== done in ${SECONDS}s" | tee -a "$STEP_LOG"
