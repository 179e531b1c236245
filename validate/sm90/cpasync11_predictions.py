#!/usr/bin/env python3
"""Predictions for the eleventh cp.async run (rows read from several lines at
one place beside zero-filling lanes, validate/fidelity/make_cpasync_zrow_cases.py,
seed 5757), written before it is measured:

  python3 validate/fidelity/make_cpasync_zrow_cases.py DIR 5757
  python3 validate/sm90/cpasync11_predictions.py BANKCHECK DIR/cpasync.trace > validate/sm90/cpasync11_predictions.txt

The model declines these copies (docs/bank-model.md, rule 6b: two lanes of a
row read two lines at one place). Per copy, from the trace alone, per quarter
warp with its (row, line) pairs P, its 16-byte store degree over all its lanes
S, and for each row the most sectors read at one place of their lines M:
  h0    P + S (the rule elsewhere);
  hmax  P + max(S, the largest M): a row's sectors read at one place pass one
        after another, as the store's lanes on one bank quad do, and the two
        passes overlap;
  hsum  P + S + the sum over rows of (M - 1): the extra passes add.
Both hmax and hsum give run 2's two such copies (18, 16); the hypothesis
stated before the run: hmax."""
import os
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.sm90.cpasync9_predictions import copies, quarter_reads, store  # noqa: E402
from validate.sm90.ltc_predictions import model  # noqa: E402


def terms(dst, src, q):
    lanes, _, pairs, at_place, _, _ = quarter_reads(dst, src, q)
    per_row = {}
    for (row, _), lines in at_place.items():
        per_row[row] = max(per_row.get(row, 1), len(lines))
    return len(pairs), store(lanes, dst), per_row


def predict(dst, src):
    h0 = hmax = hsum = 0
    for q in range(4):
        p, s, per_row = terms(dst, src, q)
        most = max(per_row.values(), default=1)
        h0 += p + s
        hmax += p + max(s, most)
        hsum += p + s + sum(m - 1 for m in per_row.values())
    return h0, hmax, hsum


def main():
    try:
        today = model(sys.argv[1], sys.argv[2])
    except SystemExit:  # replay exits 2 where it costs none of the copies: every one declined
        today = {}
    today = {site: today.get(site, "nm") for site, *_ in copies(sys.argv[2])}
    print("# Predictions for the eleventh cp.async run (seed 5757), written before it is measured")
    print("# hypothesis: hmax")
    print("# site today h0 hmax hsum")
    for site, dst, src, _ in copies(sys.argv[2]):
        print(site, today.get(site, "?"), *predict(dst, src))


if __name__ == "__main__":
    main()
