# shellcheck shell=bash
# Sourced (from the repository root) by run_partial_tile_profile.sh and
# run_block_sort_stalls.sh: one launch of cf_sort_table --sweep under Nsight
# Compute's full sections, its details and per-instruction source pages as CSV.
#   cf_profile_launch DIR NAME KERNEL_REGEX KEYS N [NCU_OPTION...]
# profiles the first launch whose demangled name matches KERNEL_REGEX while $BIN
# sorts N keys of KEYS bytes (keys only), into DIR/NAME-details.csv,
# DIR/NAME-source.csv and DIR/NAME.ncu-rep (the log in DIR/NAME.log, the exit
# status of the last step and the UTC time in DIR/steps.log).
cf_profile_launch() {
  local dir=$1 name=$2 kernel=$3 keys=$4 n=$5
  shift 5
  timeout 240 ncu --kernel-name-base demangled -k "regex:$kernel" --launch-count 1 --set full "$@" \
    --import-source no -o "$dir/$name" "$BIN" --sweep --sizes "$n" --reps 1 --keys "$keys" --pairs 0 \
    > "$dir/$name.log" 2>&1
  ncu -i "$dir/$name.ncu-rep" --page details --csv > "$dir/$name-details.csv" 2>> "$dir/$name.log"
  ncu -i "$dir/$name.ncu-rep" --page source --print-source sass --csv > "$dir/$name-source.csv" 2>> "$dir/$name.log"
  echo "$name rc=$? $(date -u +%H:%M:%S)" >> "$dir/steps.log"
}
