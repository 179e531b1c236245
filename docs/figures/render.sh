#!/bin/sh
# Re-render every figure of docs/figures from the built CLI:
#   BANKCHECK=build/bankcheck sh docs/figures/render.sh
# (run from the repository root; FIGURES=DIR writes them elsewhere, as
# tests/cli/doc_figures_test.cpp does to compare them with the committed
# files byte for byte). Each command prints the round's replayed wavefronts
# and conflicts under the dmm preset, the papers' model.
set -e
BIN=${BANKCHECK:-build/bankcheck}
draw() { "$BIN" draw --model dmm "$@"; }
F=${FIGURES:-docs/figures}

# SPAA 2025 Figure 1: w = 12 lanes reading elements t*5 (coprime) and t*6.
draw strided w=12 stride=5 u=12 --label address --title "SPAA 2025 Fig. 1 (left): w = 12, stride 5 (coprime)" -o $F/spaa-fig1-stride5.svg
draw strided w=12 stride=6 u=12 --label address --title "SPAA 2025 Fig. 1 (right): w = 12, stride 6 (GCD 6)" -o $F/spaa-fig1-stride6.svg

# Tiled transpose, w = tile = 8: every warp's column read (phase 1), plain / padded / XOR-swizzled.
for v in transpose transpose-padded transpose-swizzled; do
  draw $v w=8 tile=8 --phase 1 --round 0 --all-warps --label thread -o $F/$v-w8-read.svg
done

# Aho-Corasick text staging, 8 banks, 8 threads, 32-byte chunks: phase 0 = staging stores,
# phase 1 = the first scan round (SM-1: 8-way; SM-2: stores 8-way, scan conflict-free).
for v in aho-sm1 aho-sm2 aho-skewed; do
  for ph in 0 1; do
    draw $v w=8 u=8 chunk=32 pattern_len=4 --phase $ph --round 0 --label thread -o $F/$v-w8-phase$ph.svg
  done
done

# HiPC 2015 Figures 4-6 (w = 8, K = 64 = w^2, one warp of 8 queries, the worst-case
# queries q_i = K[i*K/w] of Sec. V-B); phase 1 is the search, phase 0 stores the keys.
# Fig. 4: PBS, every probe round: threads pile up in bank 0, then w-way in later banks.
draw pbs w=8 K=64 u=8 queries=8 --input worst --phase 1 --round all --label thread \
  --title "HiPC 2015 Fig. 4: PBS, K = w^2 = 64, worst-case queries, all probe rounds" -o $F/hipc-fig4-pbs.svg
# Fig. 5: PBS-CF stage 1 (the probe rounds with delta >= w): each lane stays in its own bank.
# printed=1: the figures show the algorithms as printed (the default PBS-CF/CL stage 1 is corrected).
draw pbs-cf w=8 K=64 u=8 queries=8 printed=1 --input worst --phase 1 --round 0-1 --label thread \
  --title "HiPC 2015 Fig. 5: PBS-CF stage 1 (delta >= w), K = 64, w = 8" -o $F/hipc-fig5-pbs-cf-stage1.svg
# Fig. 6: PBS-CL stage 2 (the window binary search): 1, 2 and 4 distinct cells per bank.
draw pbs-cl w=8 K=64 u=8 queries=8 printed=1 --input worst --phase 1 --round 3-5 --label thread \
  --title "HiPC 2015 Fig. 6: PBS-CL stage 2 (delta < w), K = 64, w = 8" -o $F/hipc-fig6-pbs-cl-stage2.svg

# SPAA 2025 Figure 2: CF-Merge's gather (phase 2), w = 12, E = 5 (coprime), one warp, one
# panel per round j = 0..4: the 12 cells read in round j are green (one per bank).
for j in 0 1 2 3 4; do
  draw cf-merge w=12 E=5 u=12 a_size=31 --phase 2 --round $j --label thread \
    --title "SPAA 2025 Fig. 2: CF-Merge gather, w = 12, E = 5, round $j" -o $F/spaa-fig2-round$j.svg
done
# SPAA 2025 Figure 3: w = 9, E = 6 (d = 3): partitions of wE/d = 18 slots shifted by 0, 1, 2.
for j in 0 1 2 3 4 5; do
  draw cf-merge w=9 E=6 u=9 a_size=25 --phase 2 --round $j --label thread \
    --title "SPAA 2025 Fig. 3: CF-Merge gather, w = 9, E = 6, round $j" -o $F/spaa-fig3-round$j.svg
done
# SPAA 2025 Figure 4: the Section 4 worst-case inputs for the (Thrust/CUB) pairwise merge,
# w = 12, E = 5 and E = 9, built by `bankcheck adversary` (two warps: A-major then B-major;
# warp 0 drawn), every merge read round highlighted (init_a, init_b, merge_read).
T=$(mktemp -d "${TMPDIR:-/tmp}/bankcheck-figures.XXXXXX")
trap 'rm -rf "$T"' EXIT
"$BIN" adversary merge w=12 E=5 n=120 -o $T/bankcheck-spaa-w12-E5.txt
draw merge w=12 E=5 u=24 a_size=60 --input $T/bankcheck-spaa-w12-E5.txt --phase 1 --round 12-17 --label thread \
  --title "SPAA 2025 Fig. 4 (left): worst-case merge input, w = 12, E = 5" -o $F/spaa-fig4-E5.svg
"$BIN" adversary merge w=12 E=9 n=216 -o $T/bankcheck-spaa-w12-E9.txt
draw merge w=12 E=9 u=24 a_size=108 --input $T/bankcheck-spaa-w12-E9.txt --phase 1 --round 14-23 --label thread \
  --title "SPAA 2025 Fig. 4 (right): worst-case merge input, w = 12, E = 9" -o $F/spaa-fig4-E9.svg
