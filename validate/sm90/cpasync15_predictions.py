#!/usr/bin/env python3
"""Predictions for the fifteenth cp.async run (validate/fidelity/make_cpasync_zrow_cases.py,
seed 6161, family zbeside: the two shapes of colliding reads rule 6b declines as never
measured), written before it is measured:

  python3 validate/fidelity/make_cpasync_zrow_cases.py DIR 6161
  python3 validate/sm90/cpasync15_predictions.py BANKCHECK DIR/cpasync.trace > validate/sm90/cpasync15_predictions.txt

Columns: `today` (the model: `nm`, declined); `h1`, the rule as it stands with its declines
lifted (a group is a row's reads at one place from two or more lines; one group costs its
lines less one and a store of the zero-filling lanes and its reads; two at two places the
larger extra; two rows at one place the lines there less one and one store pass); `h2`,
the place read over all rows: every read at a group's place collides, a place costs its
distinct lines less one (the larger over places), and the store counts the zero-filling
lanes and every colliding read, one pass where two rows each read two lines there."""
import os
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.sm90.cpasync9_predictions import print_predictions, quarter_reads, store, warp_columns  # noqa: E402


def quarter(dst, src, q, place_wide):
    lanes, reads, pairs, groups, hit, zero = quarter_reads(dst, src, q)
    if not hit:
        return len(pairs) + store(lanes, dst)
    places = {p for _, p in hit}
    if place_wide:
        coll = [l for l in reads if src[l] % 128 // 32 in places]
        lines = {p: {src[l] // 128 for l in coll if src[l] % 128 // 32 == p} for p in places}
        extra = max(len(v) - 1 for v in lines.values())
    else:
        coll = [l for l in reads if (dst[l] // 128, src[l] % 128 // 32) in hit]
        if len(places) < len(hit):
            return len(pairs) + len({x for k in hit for x in groups[k]}) - 1 + 1
        extra = max(len(groups[k]) - 1 for k in hit)
    if place_wide and len(places) < len(hit):
        return len(pairs) + extra + 1
    return len(pairs) + extra + store(zero + coll, dst)


def main():
    print_predictions(sys.argv[1], sys.argv[2], [
        "# Predictions for the fifteenth cp.async run (seed 6161), written before it is measured",
        "# the model of commit 8873b98 (today) and the two readings h1, h2 (above)",
        "# site kinds today h1 h2"],
        warp_columns(quarter, (False,), (True,)))


if __name__ == "__main__":
    main()
