#!/usr/bin/env bash
# MPI scaling on one machine of many cores (docs/scaling.md), from
# the repository root, with build/ holding bankcheck and bench.replay built
# with MPI (validate/capture/build_carry.sh cli) and, where the machine has
# no OpenMPI, MPI=build-gpu/mpi (build_carry.sh mpi: OPAL_PREFIX relocation):
#   OUT=DIR [MPI=DIR] [RANKS=16] bash validate/mpi_scaling.sh
# Each job three ways: one process on one thread, one process on RANKS
# threads, RANKS ranks of one thread; wall seconds, and whether the outputs
# are identical (byte for byte, the verify CSV without its seconds column).
set -uo pipefail
cd "$(dirname "$0")/.."
: "${OUT:?set OUT}"
RANKS=${RANKS:-$(nproc)}
mkdir -p "$OUT"
RES="$OUT/mpi_scaling.txt"
: >"$RES"
W=$(mktemp -d)
if [ -n "${MPI:-}" ]; then
  export OPAL_PREFIX=$PWD/$MPI
  export LD_LIBRARY_PATH=$OPAL_PREFIX/lib/x86_64-linux-gnu:$OPAL_PREFIX/lib/x86_64-linux-gnu/openmpi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export PATH=$OPAL_PREFIX/bin:$PATH
  MPIRUN=(orterun)
else
  MPIRUN=(mpirun)
fi
MPIRUN+=(--allow-run-as-root --oversubscribe --bind-to none -n "$RANKS")
export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1 OMPI_MCA_mtl=^ofi,psm,psm2
log() { echo "$*" | tee -a "$RES"; }
secs() {  # secs NAME CMD...: wall seconds, output in $W/NAME.out
  local name=$1 s e
  shift
  s=$(date +%s.%N)
  timeout 300 "$@" >"$W/$name.out" 2>"$W/$name.err" || log "  $name: rc=$? $(tail -n 2 "$W/$name.err" | tr '\n' ' ')"
  e=$(date +%s.%N)
  awk -v a="$s" -v b="$e" 'BEGIN { printf "%.2f", b - a }'
}
same() { cmp -s "$W/$1.out" "$W/$2.out" && echo yes || echo NO; }
log "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); ranks $RANKS; $(date -u +%FT%TZ)"
log "mpirun: $(command -v "${MPIRUN[0]}") ($("${MPIRUN[0]}" --version 2>&1 | head -n 1))"
log "$(printf '%-52s %9s %9s %9s %s' job '1 thread' "$RANKS thr" "$RANKS rk" 'same output')"

B=build/bankcheck
a=$(secs v1 $B verify spaa --w 1..64 --E 1..128 --threads 1 --csv)
b=$(secs vt $B verify spaa --w 1..64 --E 1..128 --threads "$RANKS" --csv)
c=$(secs vr "${MPIRUN[@]}" $B verify spaa --w 1..64 --E 1..128 --threads 1 --csv)
for f in v1 vt vr; do cut -d, -f1-6 "$W/$f.out" >"$W/$f.cut.out"; done
log "$(printf '%-52s %9s %9s %9s %s' 'verify spaa --w 1..64 --E 1..128' "$a" "$b" "$c" "$(same v1.cut vt.cut)/$(same v1.cut vr.cut)")"

BENCH=build/bench.replay; [ -x "$BENCH" ] || BENCH=build/bench/bench.replay
"$BENCH" --instructions 2000000 --runs 1 --keep "$W/t.bktrace" >/dev/null 2>&1
mkdir -p "$W/dir" && for i in $(seq -w 1 64); do ln -s "$W/t.bktrace" "$W/dir/t$i.bktrace"; done
a=$(secs r1 $B replay "$W/dir" --threads 1 --json)
b=$(secs rt $B replay "$W/dir" --threads "$RANKS" --json)
c=$(secs rr "${MPIRUN[@]}" $B replay "$W/dir" --threads 1 --json)
log "$(printf '%-52s %9s %9s %9s %s' 'replay DIR: 64 links to a 2M-instruction trace' "$a" "$b" "$c" "$(same r1 rt)/$(same r1 rr)")"

a=$(secs a1 $B adversary merge E=17 u=64 --search --iterations 200000 --chains "$RANKS")
c=$(secs ar "${MPIRUN[@]}" $B adversary merge E=17 u=64 --search --iterations 200000 --chains "$RANKS")
log "$(printf '%-52s %9s %9s %9s %s' "adversary merge E=17 u=64 --search --chains $RANKS" "$a" '-' "$c" "$(same a1 ar)")"
rm -rf "$W"
