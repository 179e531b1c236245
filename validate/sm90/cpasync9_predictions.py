#!/usr/bin/env python3
"""Predictions for the ninth cp.async run (rule 6b's declined sub-cases with
zero-filling lanes, validate/fidelity/make_cpasync_zrow_cases.py, seed 5555),
written before it is measured:

  python3 validate/fidelity/make_cpasync_zrow_cases.py DIR 5555
  python3 validate/sm90/cpasync9_predictions.py DIR/cpasync.trace > validate/sm90/cpasync9_predictions.txt

The model declines every copy of this run (docs/bank-model.md, rule 6b).
Per copy, computed from the trace alone:
  h0     the rule as it stands, without its declines: per quarter warp, one
         per (row, line) pair of its readers plus a 16-byte store of all its
         lanes (the most distinct destinations one bank quad takes);
  share  h0 plus one for every further quarter warp that writes a row
         another quarter writes (the two probes of run 7 cost one more);
  shift  h0 with two per (row, line) pair, instead of one, in every row a
         quarter fills from several lines with a source shifted within its
         line (the two probes of run 2 cost two per pair).
The hypotheses stated before the run: `share` for the family share, `shift`
for the family shift (each column applies its change only where its
sub-case is; elsewhere it is h0)."""
import os
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.sm90.ltc_predictions import model  # noqa: E402
from validate.sm90.case_format import records_of  # noqa: E402


def copies(trace):
    """(site, destinations, sources (None: zero-filling), the line's comment) per copy of a trace."""
    for r in records_of(trace, comments=True):
        yield r["site"], r["addresses"], [None if s == "z" else s for s in r["sources"]], r["comment"]


def store(lanes, dst):
    quads = {}
    for l in lanes:
        quads.setdefault(dst[l] // 16 % 8, set()).add(dst[l])
    return max((len(v) for v in quads.values()), default=0)


def quarter_reads(dst, src, q):
    """Quarter q's lanes, its reading lanes, its (row, line) pairs, the lines each
    (row, place) reads, the (row, place) groups of two or more lines, and its
    zero-filling lanes."""
    lanes = range(8 * q, 8 * q + 8)
    reads = [l for l in lanes if src[l] is not None]
    pairs = {(dst[l] // 128, src[l] // 128) for l in reads}
    groups = {}
    for l in reads:
        groups.setdefault((dst[l] // 128, src[l] % 128 // 32), set()).add(src[l] // 128)
    hit = [k for k, v in groups.items() if len(v) > 1]
    return lanes, reads, pairs, groups, hit, [l for l in lanes if src[l] is None]


def print_predictions(bankcheck, trace, lines, columns):
    """A run's predictions: the `lines` above the table (title, hypotheses,
    column names), then per copy of `trace` its site, its quarters' kinds
    (from the generator's comment), the model's count today (`nm`: declined)
    and `columns(dst, src)`."""
    try:
        today = model(bankcheck, trace)
    except SystemExit:  # replay exits 2 where it costs none of the copies: every one declined
        today = {}
    for line in lines:
        print(line)
    for site, dst, src, comment in copies(trace):
        if comment.strip():
            print(site, comment.split()[1], today.get(site, "nm"), *columns(dst, src))


def warp_columns(quarter, *variants):
    """print_predictions' columns: per variant (the further arguments of
    `quarter`), the warp's count, quarter(dst, src, q, *variant) summed over
    its four quarters."""
    return lambda dst, src: tuple(sum(quarter(dst, src, q, *v) for q in range(4)) for v in variants)


def quarter_terms(dst, src, q):
    lanes = range(8 * q, 8 * q + 8)
    pairs = {(dst[l] // 128, src[l] // 128) for l in lanes if src[l] is not None}
    shifted_rows = set()
    for row in {r for r, _ in pairs}:
        readers = [l for l in lanes if src[l] is not None and dst[l] // 128 == row]
        if len({src[l] // 128 for l in readers}) > 1 and any(src[l] % 128 != dst[l] % 128 for l in readers):
            shifted_rows.add(row)
    doubled = sum(1 for r, _ in pairs if r in shifted_rows)
    return len(pairs), store(lanes, dst), doubled


def predict(dst, src):
    h0 = share = shift = 0
    writers = {}
    for q in range(4):
        pairs, store, doubled = quarter_terms(dst, src, q)
        h0 += pairs + store
        shift += pairs + doubled + store
        for l in range(8 * q, 8 * q + 8):
            writers.setdefault(dst[l] // 128, set()).add(q)
    share = h0 + sum(len(qs) - 1 for qs in writers.values())
    return h0, share, shift


def main():
    print("# Predictions for the ninth cp.async run (seed 5555), written before it is measured")
    print("# hypotheses: share for the family share, shift for the family shift")
    print("# site family h0 share shift")
    for site, dst, src, comment in copies(sys.argv[1]):
        print(site, comment.split("zdecl ")[1].split()[0], *predict(dst, src))


if __name__ == "__main__":
    main()
