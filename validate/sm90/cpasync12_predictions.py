#!/usr/bin/env python3
"""Predictions for the twelfth cp.async run (validate/fidelity/make_cpasync_zrow_cases.py,
seed 5858: rows read from several lines at one place beside zero-filling lanes,
with quarters of two such rows and of one row read at two places), written
before it is measured, with the rule the eleventh run gave in the model:

  python3 validate/fidelity/make_cpasync_zrow_cases.py DIR 5858
  python3 validate/sm90/cpasync12_predictions.py BANKCHECK DIR/cpasync.trace > validate/sm90/cpasync12_predictions.txt

Columns: `today`, the model (docs/bank-model.md, rule 6b: per quarter warp
its (row, line) pairs, plus per row that reads several lines at one place
those lines less one, plus a 16-byte store of its lanes, only of its
zero-filling lanes and those reads where it has such a row; declined where a
row reads several lines at two places); `hsum` (run 11's second column: the
store of all lanes); `groups` for the declined rows, the model with every
place of a row counted (its lines less one, added) instead of declining."""
import os
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.sm90.cpasync9_predictions import print_predictions, quarter_reads, store, warp_columns  # noqa: E402


def quarter(dst, src, q, store_all):
    lanes, reads, pairs, groups, hit, zero = quarter_reads(dst, src, q)
    extra = sum(len(groups[k]) - 1 for k in hit)
    stored = lanes if store_all or not hit else zero + [l for l in reads if (dst[l] // 128, src[l] % 128 // 32) in hit]
    return len(pairs) + extra + store(stored, dst)


def main():
    print_predictions(sys.argv[1], sys.argv[2], [
        "# Predictions for the twelfth cp.async run (seed 5858), written before it is measured",
        "# the rule: today (the model); hsum and groups for comparison",
        "# site kinds today hsum groups"],
        warp_columns(quarter, (True,), (False,)))


if __name__ == "__main__":
    main()
