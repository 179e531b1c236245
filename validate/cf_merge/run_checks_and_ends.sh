#!/usr/bin/env bash
# The CF sort's correctness checks and its timing outside the table's range, one
# GPU call (docs/cf-merge.md items 22-23). From the repository root:
#   B=dir-with-programs OUT=dir bash validate/cf_merge/run_checks_and_ends.sh
# with $B/kernel.cf_sort_bench and $B/cf_sort_table built on the development
# machine. Each step under `timeout`, its output in $OUT/checks-and-ends/:
#   check.txt          kernel.cf_sort_bench --mode check (must end "0 failure(s)")
#   memcheck.txt, racecheck.txt, synccheck.txt   compute-sanitizer on --mode check --quick
#   ends.md            cf_sort_table --sweep --ends
#   small.md           cf_sort_table --sweep --sizes (1000 to 30,000 keys, SIZES to change)
#   steps.log          each step's exit status and UTC time
set -uo pipefail
: "${B:?B: the directory of the programs}" "${OUT:?OUT: the output directory}"
SIZES=${SIZES:-100,1000,1500,2000,3000,4000,6000,10007,30000}
dir="$OUT/checks-and-ends"
mkdir -p "$dir"
step() {  # name seconds command...
  local name=$1 seconds=$2
  shift 2
  timeout "$seconds" "$@" > "$dir/$name" 2>&1
  echo "$name rc=$? $(date -u +%H:%M:%S)" >> "$dir/steps.log"
}
cd "$B" || exit 1
step check.txt 200 ./kernel.cf_sort_bench --mode check
for tool in ${TOOLS:-memcheck racecheck synccheck}; do
  step "$tool.txt" 450 compute-sanitizer --tool "$tool" ./kernel.cf_sort_bench --mode check --quick
done
step ends.md 200 ./cf_sort_table --sweep --ends
step small.md 120 ./cf_sort_table --sweep --sizes "$SIZES"
nvidia-smi --query-gpu=name,driver_version --format=csv > "$dir/gpu.txt" 2>&1
