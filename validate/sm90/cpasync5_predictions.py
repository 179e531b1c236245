#!/usr/bin/env python3
"""Predictions for the fifth cp.async run (quarter warps that read and fill
zeros, validate/fidelity/make_cpasync_zrow_cases.py, seed 5151), written
before it is measured:

  python3 validate/fidelity/make_cpasync_zrow_cases.py DIR 5151
  python3 validate/sm90/cpasync5_predictions.py BANKCHECK DIR/cpasync.trace > validate/sm90/cpasync5_predictions.txt

Per case: the site; the model as it stands (`today`: rule 6b, per quarter
two per (row, line) pair of its readers, plus its zero-filling lanes as a
16-byte store, less one where the quarter has both kinds); and three
readings of the "less one", computed here from the trace alone (the same
sum, the one subtracted only where):
  row    every zero-filling lane of the quarter writes a row one of its
         readers writes (the shape of every equal probe so far, and not of
         the fourth run's four misses, which wrote another row);
  bank   no zero-filling lane of the quarter uses a bank quad a reader of it
         uses (the misses shared every quad);
  none   never (the misses: 3 per quarter where today says 2).
The hypothesis stated before the run: `row`. It failed (47 of 203 equal;
`bank` 122, today's 44); what run 5 showed was a fifth column, added
after it for the sixth run (seed 5252, the zmix family, written before that
run into cpasync6_predictions.txt):
  write  per quarter, one per (row, line) pair of its readers plus a write
         pass of all its lanes: the larger of their 16-byte store's degree
         and the most lines filling one row; `nm` where a quarter has both
         above 1 (never measured) or a pair spans quarters."""
import os
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.sm90.ltc_predictions import model  # noqa: E402  (site -> the model's wavefronts, or nm)
from validate.sm90.case_format import records_of  # noqa: E402


def quarter_cost(dst, src, lanes, less_one):
    """Rule 6b's count of one quarter warp: 2 per (row, line) pair of its
    readers, the zero-filling lanes' 16-byte store degree (the most distinct
    destinations one bank quad takes), less one where less_one(readers, zeros)."""
    reads = [l for l in lanes if src[l] != "z"]
    zeros = [l for l in lanes if src[l] == "z"]
    pairs = {(int(dst[l]) // 128, int(src[l]) // 128) for l in reads}
    quads = {}
    for l in zeros:
        quads.setdefault(int(dst[l]) // 16 % 8, set()).add(int(dst[l]))
    store = max((len(v) for v in quads.values()), default=0)
    return 2 * len(pairs) + store - (1 if reads and zeros and less_one(reads, zeros) else 0)


def rule(dst, src, less_one):
    active = [l for l in range(32) if dst[l] is not None]
    if all(src[l] == "z" for l in active) or all(src[l] != "z" for l in active):
        return None  # not the mixed case: today's count stands
    return sum(quarter_cost(dst, src, [l for l in active if l // 8 == q], less_one) for q in range(4))


def write_pass(dst, src):
    """The `write` reading: None where it declines."""
    active = [l for l in range(32) if dst[l] is not None]
    total, pairs_by_quarter = 0, set()
    for q in range(4):
        lanes = [l for l in active if l // 8 == q]
        reads = [l for l in lanes if src[l] != "z"]
        pairs = {(int(dst[l]) // 128, int(src[l]) // 128) for l in reads}
        quads, lines = {}, {}
        for l in lanes:
            quads.setdefault(int(dst[l]) // 16 % 8, set()).add(int(dst[l]))
        for l in reads:
            lines.setdefault(int(dst[l]) // 128, set()).add(int(src[l]) // 128)
        store = max((len(v) for v in quads.values()), default=0)
        most = max((len(v) for v in lines.values()), default=0)
        if store > 1 and most > 1 or pairs & pairs_by_quarter:
            return None
        pairs_by_quarter |= pairs
        total += len(pairs) + max(store, most)
    return total


def same_rows(dst):
    return lambda reads, zeros: {int(dst[l]) // 128 for l in zeros} <= {int(dst[l]) // 128 for l in reads}


def other_quads(dst):
    return lambda reads, zeros: not ({int(dst[l]) // 16 % 8 for l in zeros} & {int(dst[l]) // 16 % 8 for l in reads})


def main():
    bankcheck, trace = sys.argv[1], sys.argv[2]
    today = model(bankcheck, trace)
    print("# Predictions for the fifth cp.async run (seed 5151), before it is measured")
    print("# site today row bank none write")
    for r in records_of(trace):
        site, dst, src = r["site"], r["addresses"], r["sources"]  # None: an idle lane; "z": a zero-filling source
        cols = [rule(dst, src, f) for f in (same_rows(dst), other_quads(dst), lambda r, z: False)]
        mixed = rule(dst, src, lambda r, z: False) is not None
        write = write_pass(dst, src) if mixed else today.get(site, "?")
        print(site, today.get(site, "?"), *[today.get(site, "?") if c is None else c for c in cols],
              "nm" if write is None else write)


if __name__ == "__main__":
    main()
