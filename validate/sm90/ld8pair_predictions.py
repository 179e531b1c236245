"""Predictions for validate/sm90/cases/ld8pair.trace, written before the
measurement: per case, the degrees of the two half warps (d0, d1:
the most distinct 4-byte words one bank serves to the half), the merged
degree u (the same over the whole warp), and what rule 3 as documented
(docs/bank-model.md) predicts per instruction and for the kernel-level
counter. Brute force from the addresses (read by the trace reader,
validate/sm90/case_format.py); no bankcheck code beyond that.

    python3 validate/sm90/ld8pair_predictions.py > validate/sm90/ld8pair_predictions.txt
"""
import os
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.sm90.case_format import records_of  # noqa: E402

W, BANKS = 32, 32


def degree(addrs):
    words = {}
    for a in addrs:
        for k in (0, 1):  # an 8-byte access touches two 4-byte words
            w = a // 4 + k
            words.setdefault(w % BANKS, set()).add(w)
    return max((len(s) for s in words.values()), default=0)


def pairs_up(addr, partner):
    return all(addr[l] is None or addr[l ^ partner] is None or addr[l] == addr[l ^ partner] for l in range(W))


def main(path):
    print("# site d0 d1 u merged rule3_instruction rule3_kernel")
    for r in records_of(path):
        site, addr = r["site"], r["addresses"]
        lo = [a for a in addr[:16] if a is not None]
        hi = [a for a in addr[16:] if a is not None]
        d0, d1, u = degree(lo), degree(hi), degree(lo + hi)
        merged = pairs_up(addr, 1) or pairs_up(addr, 2)
        instruction = (1 if u == 1 else d0 + d1) if merged else d0 + d1
        kernel = u if merged else d0 + d1
        print(f"{site} {d0} {d1} {u} {int(merged)} {instruction} {kernel}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "validate/sm90/cases/ld8pair.trace")
