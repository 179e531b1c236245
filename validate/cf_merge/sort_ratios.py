#!/usr/bin/env python3
"""Headline ratios of kernel.cf_sort_bench's CSV rows (time and tune modes).

  sort_ratios.py time.csv [more.csv ...] [--tune tune.csv]

Rows: key_bytes,pairs,algorithm,input,n,median_ms,keys_per_us. Per key size
and keys/pairs, over the n >= 2^22 E of each series (E = 17 / 8 for CUB's
tiling, 4- / 8-byte keys; E of our tiling for the worst-cf series), printed
as mean [min, max] (count of n):
  CF/CUB throughput, random          cub-merge time / cf-merge time, random keys
  CUB worst-cub/random time          the adversary's slowdown of CUB (the paper's premise)
  CUB time / CF time on worst-cub    the paper's claim (1.37-1.47x on an RTX 2080 Ti, E=15/u=512)
  CF worst-cub/random, CF worst-cf/random   input independence of CF-Merge
  CF/radix throughput, random        radix time / cf time (reference point)
--tune: the candidate policies' throughput relative to cub-merge on the same keys.
Only the standard library is used.
"""
import csv
import sys
from collections import defaultdict

E_CUB = {4: 17, 8: 8}


def read(paths):
    t = {}
    for p in paths:
        for r in csv.DictReader(open(p, newline="")):
            t[(int(r["key_bytes"]), r["pairs"] == "1", r["algorithm"], r["input"], int(r["n"]))] = float(r["median_ms"])
    return t


def headlines(t):
    out = []
    series_e = defaultdict(set)  # key size -> E of the worst-cf series
    for (kb, p, a, inp, n) in t:
        if inp == "worst-cf":
            for e in (16, 15, 8, 32, 17, 12):
                if n % e == 0 and (n // e) & (n // e - 1) == 0:
                    series_e[kb].add(e)
                    break
    for kb in (4, 8):
        for p in (False, True):
            acc = defaultdict(list)
            ns = sorted({n for (k, q, _, _, n) in t if k == kb and q == p})
            for n in ns:
                g = lambda a, i: t.get((kb, p, a, i, n))
                cub_r, cf_r, cub_w, cf_w = g("cub-merge", "random"), g("cf-merge", "random"), g("cub-merge", "worst-cub"), g("cf-merge", "worst-cub")
                cf_wf, radix = g("cf-merge", "worst-cf"), g("cub-radix", "random")
                e = E_CUB[kb]
                if n % e == 0 and n >= e << 22 and cub_r and cf_r:
                    acc["CF/CUB throughput, random (CUB's n)"].append(cub_r / cf_r)
                    if cub_w: acc["CUB worst-cub/random time"].append(cub_w / cub_r)
                    if cub_w and cf_w: acc["CUB time / CF time on worst-cub"].append(cub_w / cf_w)
                    if cf_w: acc["CF worst-cub/random time"].append(cf_w / cf_r)
                    if radix: acc["CF/radix throughput, random"].append(radix / cf_r)
                if cf_wf and cf_r and any(n % e2 == 0 and n >= e2 << 22 for e2 in series_e[kb]):
                    acc["CF worst-cf/random time"].append(cf_wf / cf_r)
                    if g("cub-merge", "worst-cf") and g("cub-merge", "random"):
                        acc["CUB worst-cf/random time"].append(g("cub-merge", "worst-cf") / g("cub-merge", "random"))
            for name, v in acc.items():
                out.append(f"{kb:<9d} {int(p):<5d} {name:40s} {sum(v) / len(v):.3f} [{min(v):.3f}, {max(v):.3f}] ({len(v)} n)")
    return out


def tune(path):
    rows = list(csv.DictReader(open(path, newline="")))
    out = []
    groups = defaultdict(list)
    for r in rows:
        groups[(r["key_bytes"], r["pairs"], r["n"])].append(r)
    for (kb, p, n), rs in groups.items():
        cub = [float(r["median_ms"]) for r in rs if r["algorithm"] == "cub-merge"]
        out.append(f"{kb}-byte keys, pairs={p}, n={n}:" + (f" cub-merge {cub[0]:.3f} ms" if cub else ""))
        for r in sorted(rs, key=lambda r: float(r["median_ms"])):
            if r["algorithm"] == "cub-merge":
                continue
            ms = float(r["median_ms"])
            out.append(f"  {r['algorithm']:52s} {ms:9.3f} ms {float(r['keys_per_us']):9.1f} keys/us"
                       + (f"  CF/CUB throughput {cub[0] / ms:.3f}" if cub else ""))
    return out


def main(argv):
    paths, tune_path = [], None
    i = 0
    while i < len(argv):
        if argv[i] == "--tune":
            tune_path = argv[i + 1]
            i += 2
        else:
            paths.append(argv[i])
            i += 1
    if paths:
        print("headline ratios (n >= 2^22 E; mean [min, max] over n)")
        print(f"{'key_bytes':9s} {'pairs':5s} {'ratio':40s} value")
        for line in headlines(read(paths)):
            print(line)
    if tune_path:
        print("\ntune (random keys):")
        for line in tune(tune_path):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
