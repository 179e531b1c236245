#!/usr/bin/env python3
"""Predictions for the fourteenth cp.async run (validate/fidelity/make_cpasync_zrow_cases.py,
seed 6060: quarter warps with two colliding groups, two rows at one place or at two, one row
at two places), written before it is measured:

  python3 validate/fidelity/make_cpasync_zrow_cases.py DIR 6060
  python3 validate/sm90/cpasync14_predictions.py BANKCHECK DIR/cpasync.trace > validate/sm90/cpasync14_predictions.txt

Columns: `today`, the model (rule 6b; it declines a quarter with two colliding groups:
`nm`); `reading`, the reading run 12's 184 such copies gave (all 320 of run 12 and every
other zero-filling run equal under it): per quarter warp its (row, line) pairs, plus per
row that reads several lines at one place those lines less one, plus a 16-byte store of
its zero-filling lanes and those reads; where a quarter has two such groups at different
places (one row or two), the larger of their extras, not the sum; where two rows read at
one place, the lines read at that place less one, and a store of one pass."""
import os
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.sm90.cpasync9_predictions import print_predictions, quarter_reads, store, warp_columns  # noqa: E402


def quarter(dst, src, q):
    lanes, reads, pairs, groups, hit, zero = quarter_reads(dst, src, q)
    if not hit:
        return len(pairs) + store(lanes, dst)
    coll = [l for l in reads if (dst[l] // 128, src[l] % 128 // 32) in hit]
    if len({place for _, place in hit}) < len(hit):  # two rows at one place
        return len(pairs) + len({x for k in hit for x in groups[k]}) - 1 + 1
    return len(pairs) + max(len(groups[k]) - 1 for k in hit) + store(zero + coll, dst)


def main():
    print_predictions(sys.argv[1], sys.argv[2], [
        "# Predictions for the fourteenth cp.async run (seed 6060), written before it is measured",
        "# the model of commit b2bf655 (today) and the reading from run 12 (reading)",
        "# site kinds today reading"],
        warp_columns(quarter, ()))


if __name__ == "__main__":
    main()
