#!/usr/bin/env bash
# CF-Merge against CUB's merge and radix sorts on the GPU machine: the table
# (every size and input) and the per-kernel breakdown (validate/cf_merge/sort_table.cu,
# docs/cf-merge.md "Timing against CUB"). From the repository root:
#   OUT=some/dir bash validate/cf_merge/run_sort_table.sh [--quick]
# The program: $BIN if set, else build/kernels/cf_sort_table if there (built on
# the development machine by `ninja -C build cf_sort_table` and carried), else
# built here with nvcc alone (validate/cf_merge/nvcc_build.sh, about a minute).
# Then, each under `timeout`:
#   cf_sort_table -o $OUT/sort_table.csv   > $OUT/sort_table.md   the tables
#   cf_sort_table --profile                > $OUT/profile.md      CF's launches at 2^24, 2^24 + 12,345
# (both with --quick if given), their stderr (progress, the first estimate of
# the time) in $OUT/progress.log and on the terminal, then the reports on stdout.
# Exit status 1 if the build failed, an output differed from CUB's (FAIL) or a
# step ran out of time.
set -uo pipefail
OUT=${OUT:-sort-table-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
quick=()
[[ ${1:-} == --quick ]] && quick=(--quick)
bin=${BIN:-build/kernels/cf_sort_table}
if [[ ! -x $bin ]]; then
  source validate/cf_merge/nvcc_build.sh
  bin=$OUT/cf_sort_table
  echo "building $bin with nvcc" >&2
  if ! cf_nvcc_build validate/cf_merge/sort_table.cu "$bin" "$OUT/build" 600; then
    echo "build failed:" >&2
    grep -h -m 20 error "$OUT/build/ptxas.log" "$OUT/build/build.log" >&2
    exit 1
  fi
fi
rc=0
rm -f "$OUT/sort_table.csv"  # the program appends to an existing file
timeout 400 "$bin" "${quick[@]}" -o "$OUT/sort_table.csv" > "$OUT/sort_table.md" 2> >(tee "$OUT/progress.log" >&2) || rc=1
timeout 120 "$bin" "${quick[@]}" --profile > "$OUT/profile.md" 2> >(tee -a "$OUT/progress.log" >&2) || rc=1
# $COMMIT names the tree where the GPU machine's copy of .git is older than the
# tree it carries (its HEAD would then be an earlier commit "with uncommitted changes").
if [[ -n ${COMMIT:-} ]]; then
  commit="$COMMIT (given by \$COMMIT)"
elif commit=$(git rev-parse HEAD 2> /dev/null); then
  git diff --quiet HEAD 2> /dev/null || commit+=", with uncommitted changes"
else
  commit="unknown (no git repository here)"
fi
for f in sort_table.md profile.md; do
  printf '\n- commit: %s; program: %s\n' "$commit" "$bin" >> "$OUT/$f"
done
cat "$OUT/profile.md" "$OUT/sort_table.md"
echo "exit status $rc; files in $OUT: sort_table.md sort_table.csv profile.md progress.log" >&2
exit $rc
