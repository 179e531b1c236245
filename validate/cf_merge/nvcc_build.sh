# shellcheck shell=bash
# Sourced (from the repository root) by validate/cf_merge/run_on_gpu.sh and
# run_sort_table.sh: builds one CUDA program with nvcc alone, as the GPU
# machine can (it has no CLI11 and no Boost, so no CMake build of the project;
# the programs parse their own arguments, and the library sources their
# worst-case inputs need, sim/inputs/merge_sort_adversary.hpp, use neither).
#   cf_nvcc_build SOURCE.cu BINARY DIR SECONDS
# compiles those sources with $CXX (in parallel) and SOURCE.cu with nvcc
# (ptxas -v into DIR/ptxas.log), each under `timeout SECONDS`, objects in
# DIR/obj, messages in DIR/build.log, then links BINARY; returns nonzero if
# the program's compilation or the link fails.
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUDA=$(cd "$(dirname "$NVCC")/.." && pwd)
CCCL=$CUDA/include/cccl
[[ -d $CCCL ]] || CCCL=$(dirname "$(find "$CUDA" -path '*cccl/cub/cub.cuh' 2>/dev/null | head -1)")/..
FLAGS=(-arch=sm_90 -O3 -std=c++20 --expt-relaxed-constexpr -lineinfo -I. -I"$CCCL")
CXX=${CXX:-g++}

cf_nvcc_build() {
  local src=$1 bin=$2 dir=$3 seconds=$4 rc s o
  local sources=(sim/inputs/merge_sort_adversary.cpp sim/inputs/merge_adversary.cpp
                 sim/inputs/grouped_merge_worst_case.cpp sim/inputs/adversary_search.cpp sim/trace/atomic_file.cpp
                 model/analytic.cpp model/bank_model.cpp model/phase_rules.cpp model/simd_degree.cpp
                 model/simd_path_choice.cpp)
  local objs=() pids=()
  mkdir -p "$dir/obj"
  for s in "${sources[@]}"; do
    o="$dir/obj/$(basename "${s%.cpp}").o"
    objs+=("$o")
    timeout "$seconds" "$CXX" -std=c++20 -O2 -I. -c "$s" -o "$o" 2>> "$dir/build.log" &
    pids+=($!)
  done
  local main_obj
  main_obj="$dir/obj/$(basename "${src%.cu}").o"
  timeout "$seconds" "$NVCC" "${FLAGS[@]}" -Xptxas -v -c "$src" -o "$main_obj" > "$dir/ptxas.log" 2>&1
  rc=$?
  wait "${pids[@]}"
  if [[ $rc -eq 0 ]]; then
    "$NVCC" -arch=sm_90 "$main_obj" "${objs[@]}" -o "$bin" >> "$dir/build.log" 2>&1 || rc=1
  fi
  return $rc
}
