#!/usr/bin/env bash
# Capture real programs and compare the sm90 model with Nsight Compute per
# SASS instruction: validation on programs nobody here wrote.
# Run on the GPU machine from the repository root, after
# the capture pieces are in $B (build-gpu/smoke, from validate/capture/build_carry.sh smoke,
# or the copy validate/capture/gpu_smoke.sh makes in its OUT/build):
#   OUT=DIR B=DIR/build bash validate/programs/run_compare.sh GROUP...
# With BANKCHECK=path/to/bankcheck, the CLI captures and compares
# (`bankcheck capture --library $B/...`, `bankcheck compare --ncu`);
# without it, the minimal smoke driver in $B does.
# GROUP: programs (every program of validate/programs/ with a `compare:` line, below), cub-device cub-block
# triton torch global-search library script ldgsts atomics64 hopper-gemm (each a list of programs below).
# CAPTURE_ARGS: more options for `bankcheck capture`, e.g. `--global` (global loads and stores
# too, compared with ncu's sectors).
# Per program: capture (at most $LAUNCHES launches matching its kernel
# pattern), the same launches under `ncu --section SourceCounters`, exported
# as the SASS source page, and `smoke_driver compare`. Writes
# $OUT/compare-summary.txt and per-program logs and CSVs under $OUT/programs/.
# Every step has a timeout and a log; a failing step is reported and the
# script goes on. KEEP_OPS=REGEX (with BANKCHECK): also keep the first
# records of those ops (e.g. 'cpasync.cg'), as text, in
# $OUT/programs/NAME.kept.trace, for studying their lanes off the GPU.
# LIST=1: a dry run that needs no GPU, OUT or B: prints what each group would
# build and compare (`build NAME SOURCE`, `program NAME KERNEL_REGEX CMD...`)
# and runs nothing.
KEEP_LINES=${KEEP_LINES:-3000}
set -uo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${LIST:-}" ]; then
  : "${OUT:?set OUT}" "${B:?set B to the capture pieces (build-gpu/smoke)}"
  mkdir -p "$OUT/programs" "${PROGRAM_BIN:-$OUT/programs/bin}"
fi
P="${OUT:-\$OUT}/programs"  # LIST=1 without OUT prints the paths with $OUT in them
BIN=${PROGRAM_BIN:-$P/bin}
LAUNCHES=${LAUNCHES:-8}
SUM="${OUT:-}/compare-summary.txt"
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
log() { echo "$*" | tee -a "$SUM"; }
run() {  # run NAME SECONDS CMD...
  local name=$1 limit=$2
  shift 2
  local start=$SECONDS
  timeout "$limit" "$@" >"$P/$name.log" 2>&1
  local rc=$?
  echo "$(printf '%-34s rc=%-3s %3ss' "$name" "$rc" "$((SECONDS - start))")" >>"$SUM"
  return $rc
}

build() {  # build NAME SOURCE [FLAGS...]: unless a binary was carried in PROGRAM_BIN
  [ -x "$BIN/$1" ] && return 0
  local name=$1 source=$2
  shift 2
  local flags=("$@")
  [ ${#flags[@]} -eq 0 ] && flags=(-std=c++17)
  # ARCH: what to compile for (wgmma needs sm_90a, which -arch=sm_90 lacks)
  run "build.$name" 240 "$NVCC" ${ARCH:--arch=sm_90} -O2 "${flags[@]}" -o "$BIN/$name" "$source"
}

program() {  # program NAME KERNEL_REGEX CMD...   (ONLY=REGEX: only the programs whose NAME matches)
  local name=$1 regex=$2
  shift 2
  [[ -n ${ONLY:-} && ! $name =~ $ONLY ]] && return 0
  local cap="$P/cap-$name"
  # A program too long for one device call runs in two (the same OUT, kept
  # on the machine): STOP_AFTER_NCU=1 captures and profiles; REUSE=1 then
  # exports and compares what the first call left.
  [ -z "${REUSE:-}" ] && rm -rf "$cap"
  # One regex selects the same launches in both tools: both search the name
  # in NAME_BASE (docs/capture.md, "Comparing with Nsight Compute").
  local base=${NAME_BASE:-mangled}
  if [ -n "${REUSE:-}" ]; then
    :
  elif [ -n "${BANKCHECK:-}" ]; then
    run "capture.$name" "${CAPTURE_S:-120}" "$BANKCHECK" capture --library "$B/libbankcheck_capture.so" \
      --patches "$B/bankcheck_capture_patches.fatbin" ${CAPTURE_ARGS:-} --kernel-name-base "$base" --kernel "$regex" \
      --launch-count "$LAUNCHES" -o "$cap" -- "$@"
  else
    base=function  # the smoke driver's filter searches the function name, ncu's default
    SMOKE_KERNEL="$regex" SMOKE_LAUNCH_COUNT="$LAUNCHES" \
      run "capture.$name" 120 "$B/smoke_driver" capture "$cap" "$B/libbankcheck_capture.so" \
      "$B/bankcheck_capture_patches.fatbin" 65536 -- "$@"
  fi
  [ -z "${REUSE:-}" ] && run "ncu.$name" "${NCU_S:-240}" "$NCU" --section SourceCounters --kernel-name-base "$base" \
    -k "regex:$regex" -c "$LAUNCHES" -f -o "$P/$name" "$@"
  [ -n "${STOP_AFTER_NCU:-}" ] && return 0
  run "export.$name" "${EXPORT_S:-120}" "$NCU" -i "$P/$name.ncu-rep" --page source --print-source sass --csv --print-kernel-base mangled
  cp "$P/export.$name.log" "$P/$name.sass.csv"
  run "launches.$name" 120 "$NCU" -i "$P/$name.ncu-rep" --page raw --csv --metrics launch__grid_size \
    --print-kernel-base mangled
  cp "$P/launches.$name.log" "$P/$name.launches.csv"
  cp "$cap/launches.csv" "$P/$name.capture-launches.csv" 2>/dev/null
  local traces=("$cap"/launch-*.bktrace)
  if [ -e "${traces[0]}" ]; then
    if [ -n "${BANKCHECK:-}" ]; then
      local shapes=(--ncu-launches "$P/$name.launches.csv")
      "$BANKCHECK" compare --ncu "$P/$name.sass.csv" "${shapes[@]}" "${traces[0]}" >/dev/null 2>&1
      [ $? -eq 2 ] && shapes=()  # a launch list ncu printed otherwise: compare without the shape check, visibly
      [ ${#shapes[@]} -eq 0 ] && echo "$name: --ncu-launches refused, compared without shapes" >>"$SUM"
      run "compare.$name" 120 "$BANKCHECK" compare --ncu "$P/$name.sass.csv" "${shapes[@]}" "${traces[@]}"
      "$BANKCHECK" compare --ncu "$P/$name.sass.csv" "${shapes[@]}" --csv "${traces[@]}" >"$P/$name.compare.csv" 2>/dev/null
      if [ -n "${KEEP_OPS:-}" ]; then
        for t in "${traces[@]}"; do
          timeout 120 "$BANKCHECK" convert "$t" - --to text 2>/dev/null |
            grep -E -m "$KEEP_LINES" "^(at launch|@[^ ]+ ($KEEP_OPS) )" >>"$P/$name.kept.trace"
        done
        grep -E "LDGSTS|HGMMA|UTMA|LDS|STS|LDSM|ATOMS" "$cap/sass.csv" >"$P/$name.capture-sass.csv" 2>/dev/null
      fi
    else
      run "compare.$name" 120 "$B/smoke_driver" compare "$P/$name.sass.csv" "$P/$name.compare.csv" "${traces[@]}"
    fi
    log "$(printf '%-24s %s | %s | %s' "$name" "$(grep -E 'instructions equal' "$P/compare.$name.log" | tail -n 1)" \
      "$(grep -E '^verdicts:' "$P/compare.$name.log" | tail -n 1)" "$(grep -E '^launches:' "$P/compare.$name.log" | tail -n 1)")"
  else
    log "$(printf '%-24s %s' "$name" "no trace captured: $(tail -n 3 "$P/capture.$name.log" | tr '\n' ' ')")"
  fi
  # KEEP_CAPTURE=1: the capture folder (traces included) comes back as NAME.capture.tgz
  [ -n "${KEEP_CAPTURE:-}" ] && tar czf "$P/$name.capture.tgz" -C "$cap" --exclude=cubins --exclude='*.cubin' . 2>/dev/null
  rm -f "$P/$name.ncu-rep"
}

if [ -n "${LIST:-}" ]; then
  build() { echo "build $1 $2"; }
  program() {
    [[ -n ${ONLY:-} && ! $1 =~ $ONLY ]] && return 0
    echo "program $*"
  }
  log() { :; }
fi

# The programs of validate/programs/ that name themselves, one line each (validate/README.md,
# "A real program"): a .cu file is built once as $BIN/<its name without .cu> and run with ARGS,
# a .py file runs as `python3 FILE ARGS`. KERNEL_REGEX has no spaces.
#   // compare: NAME KERNEL_REGEX [ARGS...]      (in a .cu file)
#   # compare: NAME KERNEL_REGEX [ARGS...]       (in a .py file)
self_named_programs() {
  local f line words stem
  for f in validate/programs/*.cu validate/programs/*.py; do
    [ -e "$f" ] || continue
    stem=$(basename "${f%.*}")
    [[ $f == *.cu ]] && grep -qE '^// compare: ' "$f" && build "$stem" "$f"
    while IFS= read -r line; do
      read -r -a words <<<"$line"
      if [[ $f == *.cu ]]; then
        program "${words[2]}" "${words[3]}" "$BIN/$stem" "${words[@]:4}"
      else
        program "${words[2]}" "${words[3]}" python3 "$f" "${words[@]:4}"
      fi
    done < <(grep -E "^$([[ $f == *.cu ]] && echo '//' || echo '#') compare: [^ ]+ [^ ]+" "$f")
  done
}

for group in "$@"; do
  log "== $group"
  case $group in
    cub-device)
      build cub_device validate/programs/cub_device.cu
      for a in merge_sort_u32 merge_sort_u64 merge_sort_pairs radix_sort_u32 histogram select scan reduce; do
        program "cub.$a" "." "$BIN/cub_device" "$a" 65536
      done ;;
    cub-block)
      build cub_block validate/programs/cub_block.cu
      for a in exchange radix_sort scan_raking scan_warp_scans histogram merge_sort load_transpose load_warp_transpose; do
        program "block.$a" "." "$BIN/cub_block" "$a"
      done ;;
    global-search)
      # Karsin's GMS and B-tree: global-memory probes, K beyond shared memory.
      build search_bench validate/global_search/search_bench.cu -std=c++20 --expt-relaxed-constexpr -I.
      program search.gms gms_kernel "$BIN/search_bench" --K 65536 --queries 2048 --per-thread 1 --cached 1 --runs 1
      program search.btree btree_kernel "$BIN/search_bench" --K 65536 --queries 2048 --per-thread 1 --cached 1 --runs 1 ;;
    triton | torch | library | script)
      # PyTorch registers thousands of kernels: load (and patch) only the modules used.
      export CUDA_MODULE_LOADING=${CUDA_MODULE_LOADING:-LAZY} ;;&
    triton)
      for k in transpose softmax matmul; do
        program "triton.$k" "${k}_kernel" python3 validate/programs/triton_kernels.py "$k"
      done ;;
    torch)
      program torch.sum "reduce" python3 validate/programs/torch_ops.py sum
      program torch.softmax "[Ss]oft[Mm]ax" python3 validate/programs/torch_ops.py softmax
      program torch.layer_norm "layer_norm" python3 validate/programs/torch_ops.py layer_norm
      program torch.sort "sort|radix|Sort|Radix" python3 validate/programs/torch_ops.py sort
      program torch.cumsum "scan|Scan|cumsum" python3 validate/programs/torch_ops.py cumsum ;;
    ldgsts)
      # cp.async tiles as GEMM main loops copy them (validate/library/ldgsts_tiles.cu)
      build ldgsts_tiles validate/library/ldgsts_tiles.cu -std=c++17
      LAUNCHES=${TILE_LAUNCHES:-12} program ldgsts "_tile" "$BIN/ldgsts_tiles" ;;
    hopper-gemm)
      # A hand-written TMA + wgmma GEMM, right and with wrong swizzles (validate/sm90/sm90a/tma_wgmma_gemm.cu)
      ARCH="-gencode=arch=compute_90a,code=sm_90a" build tma_wgmma_gemm validate/sm90/sm90a/tma_wgmma_gemm.cu -std=c++17 -lcuda
      LAUNCHES=4 program hopper.gemm "gemm_kernel" "$BIN/tma_wgmma_gemm" ;;
    atomics64)
      # Compare-and-swap loops of 64-bit and float shared atomics.
      build atomics64 validate/library/atomics64.cu -std=c++17
      LAUNCHES=${ATOM_LAUNCHES:-40} program atomics64 "add_kernel" "$BIN/atomics64" 2 ;;
    library)
      # Library and framework kernels that move tiles with cp.async, wgmma and TMA
      # (validate/library/library_kernels.py).
      L=validate/library/library_kernels.py
      program lib.mm_f32_512 "gemm|xmma|sgemm|cutlass" python3 $L mm_f32_512
      program lib.mm_f32_1024 "gemm|xmma|sgemm|cutlass" python3 $L mm_f32_1024
      program lib.mm_f32_odd "gemm|xmma|sgemm|cutlass" python3 $L mm_f32_odd
      program lib.bmm_f32 "gemm|xmma|sgemm|cutlass" python3 $L bmm_f32
      program lib.mm_f16_1024 "gemm|xmma|nvjet|cutlass" python3 $L mm_f16_1024
      program lib.mm_bf16_2048 "gemm|xmma|nvjet|cutlass" python3 $L mm_bf16_2048
      program lib.sdpa_efficient "fmha|attention|Attention" python3 $L sdpa_efficient
      program lib.sdpa_flash "flash" python3 $L sdpa_flash
      program lib.sdpa_cudnn "cudnn|fmha|flash|attn|sdpa" python3 $L sdpa_cudnn
      program lib.sdpa_flash_bwd "flash" python3 $L sdpa_flash_bwd
      program lib.sdpa_efficient_bwd "fmha|attention|Attention" python3 $L sdpa_efficient_bwd
      program lib.mm_f32_tn "gemm|xmma|sgemm|cutlass" python3 $L mm_f32_tn
      program lib.conv_f16 "conv|fprop|implicit|xmma" python3 $L conv_f16
      program lib.conv_f32 "conv|fprop|implicit|xmma" python3 $L conv_f32
      for c in triton_mm_s2 triton_mm_s3 triton_mm_s4 triton_mm_big; do
        program "lib.$c" "matmul_kernel" python3 $L "$c"
      done
      for c in triton_attn_s2 triton_attn_s3; do
        program "lib.$c" "attn_fwd_kernel" python3 $L "$c"
      done ;;
    script)
      # A PyTorch script of many launches: every captured launch compared or listed.
      LAUNCHES=${SCRIPT_LAUNCHES:-200} program lib.script "${SCRIPT_RE:-gemm|xmma|nvjet|reduce|softmax|SoftMax|sort|Sort|fmha|flash|conv|fprop|unique|scan|Scan|median}" \
        python3 validate/library/library_kernels.py script ;;
    programs)
      # every program of validate/programs/ with a `compare:` line (self_named_programs above)
      self_named_programs ;;
    *) log "unknown group $group" ;;
  esac
done
log "done in ${SECONDS}s"
