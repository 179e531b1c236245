#!/usr/bin/env python3
"""Generate the single-instruction cases measured by validate/sm90/microbench.cu.

Two sets, written as bankcheck text traces (docs/trace-format.md):
  design  - structured patterns chosen to expose each rule (strides, broadcast,
            multicast inside a bank word, partial masks, lane groups for the
            8- and 16-byte phase rules);
  holdout - random patterns from a different seed (600 cases); measured with
            the design set and used, with it, to fit the sm90 rules;
  confirm - generated after the rules were written (2026-11-22), aimed at
            their edges (lane pairs that almost share an address, phase
            boundaries, partial masks) and measured once to confirm them.
  outlier - loads whose lane pairs share addresses but for one or two lanes,
            probing the two confirm cases the first rule missed.
  blind   - written after the rules were final; predictions were committed
            (blind_predictions.txt) before the set was measured.
  ld8mix  - 8-byte loads only, written after the sm90 rule under-counted some
            LDS.64 of CUB's DeviceMergeSort with 64-bit keys by about 0.5%:
            lane pairings mixed within one warp (l^1, l^2, l^3, l^16, none),
            one half-warp pairing and the other not, addresses duplicated
            across the half warps, partners that are inactive or differ by
            128/256 bytes, and loads taken from a simulation of CUB's
            BlockMergeSort (MergePath search and the two predicated loads of
            each SerialMerge step) on several inputs.
  ld8pair - 8-byte loads whose lanes share addresses in pairs or quads
  ld8split - the same with half warps of different degrees
  ld8cap  - 8-byte loads that bound the merge of paired half-warps found
            with ld8mix: real pairs at merged degrees 2..8 with and without
            words shared across the half warps, and pairings that hold only
            because partners are inactive; predictions committed before
            measuring (ld8cap_predictions.txt).
The test suite checks the preset on the first five sets.
Addresses stay inside the microbenchmark's 48 KiB shared array.
"""
import os
import random
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.sm90.case_format import SHARED, W, WIDTHS, fit, line  # noqa: E402
from validate.sm90.ld8_cases import ld8cap_cases, ld8mix_cases, ld8pair_cases  # noqa: E402

def design_cases():
    out = []
    rnd = random.Random(1)
    for op in ("ld", "st"):
        for wd in WIDTHS:
            tag = f"{op}{wd}"
            # Element strides: 0 is a broadcast, odd strides are conflict-free
            # for 4-byte words, powers of two pile lanes into few banks.
            for s in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 17, 24, 31, 32, 33, 64, 128):
                out.append(line(f"{tag}-stride{s}", op, wd, [fit(l * s * wd, wd) for l in range(W)]))
            # Byte strides for sub-word widths: lanes share 4-byte words.
            if wd < 4:
                for s in (1, 2, 4, 6, 8, 12, 64, 66, 128, 130):
                    if s % wd == 0:
                        out.append(line(f"{tag}-bstride{s}", op, wd, [fit(l * s, wd) for l in range(W)]))
            # Broadcast of one address at several offsets.
            for base in (0, 4, 132, 4096 + 8):
                out.append(line(f"{tag}-bcast{base}", op, wd, [fit(base, wd)] * W))
            # Groups of g consecutive lanes share one address; groups are
            # consecutive (g*?) or all in bank 0.
            for g in (2, 4, 8, 16):
                out.append(line(f"{tag}-group{g}-seq", op, wd, [fit((l // g) * wd, wd) for l in range(W)]))
                out.append(line(f"{tag}-group{g}-bank0", op, wd, [fit((l // g) * 128, wd) for l in range(W)]))
            # Lane l and lane l+h share an address (h = 8, 16): the halves or
            # quarters of the warp overlap exactly.
            for h in (4, 8, 16):
                out.append(line(f"{tag}-mirror{h}", op, wd, [fit((l % h) * wd, wd) for l in range(W)]))
                out.append(line(f"{tag}-mirror{h}-x128", op, wd, [fit((l % h) * 128, wd) for l in range(W)]))
            # Reversed and permuted consecutive elements.
            out.append(line(f"{tag}-reverse", op, wd, [fit((W - 1 - l) * wd, wd) for l in range(W)]))
            for k in range(3):
                perm = list(range(W))
                rnd.shuffle(perm)
                out.append(line(f"{tag}-perm{k}", op, wd, [fit(p * wd, wd) for p in perm]))
            # Half warps in different regions: lanes 0-15 consecutive, lanes
            # 16-31 consecutive but offset by 128 bytes (same banks as the first half).
            out.append(line(f"{tag}-halves128", op, wd,
                            [fit((l % 16) * wd + (l // 16) * 128, wd) for l in range(W)]))
            out.append(line(f"{tag}-quarters128", op, wd,
                            [fit((l % 8) * wd + (l // 8) * 128, wd) for l in range(W)]))
            # Active-mask patterns with consecutive and with bank-0 addresses.
            masks = {"lane0": 1, "lo16": 0xFFFF, "hi16": 0xFFFF0000, "even": 0x55555555,
                     "q0q2": 0x00FF00FF, "lane31": 1 << 31, "odd": 0xAAAAAAAA}
            for mname, m in masks.items():
                for pname, f in (("seq", lambda l: l * wd), ("bank0", lambda l: l * 128),
                                 ("pair", lambda l: (l // 2) * 128)):
                    out.append(line(f"{tag}-mask-{mname}-{pname}", op, wd,
                                    [fit(f(l), wd) if (m >> l) & 1 else None for l in range(W)]))
            # k lanes piled into bank 0 at distinct rows, the rest broadcast.
            for k in (2, 3, 5, 9, 17, 32):
                out.append(line(f"{tag}-pile{k}", op, wd,
                                [fit(l * 128, wd) if l < k else fit(4, wd) for l in range(W)]))
            # Random addresses in small and large regions.
            for region in (32, 128, 512, 2048, SHARED):
                for k in range(3):
                    out.append(line(f"{tag}-rand{region}-{k}", op, wd,
                                    [fit(rnd.randrange(0, region) // wd * wd, wd) for l in range(W)]))
    return out


def holdout_cases(n):
    rnd = random.Random(20261122)
    out = []
    for i in range(n):
        op = rnd.choice(("ld", "st"))
        wd = rnd.choice(WIDTHS)
        kind = rnd.randrange(6)
        if kind == 0:    # random in a random-size region
            region = rnd.choice((16, 64, 256, 1024, 8192, SHARED))
            a = [rnd.randrange(0, region) for _ in range(W)]
        elif kind == 1:  # random stride and base
            s, b = rnd.randrange(0, 80), rnd.randrange(0, 4096)
            a = [b + l * s * wd for l in range(W)]
        elif kind == 2:  # few distinct addresses reused by many lanes
            pool = [rnd.randrange(0, 2048) for _ in range(rnd.randint(1, 6))]
            a = [rnd.choice(pool) for _ in range(W)]
        elif kind == 3:  # random rows, chosen banks
            a = [rnd.randrange(0, 64) * 128 + rnd.choice((0, 4, 8, 64)) for _ in range(W)]
        elif kind == 4:  # permutation of a block of consecutive elements
            perm = list(range(W))
            rnd.shuffle(perm)
            b = rnd.randrange(0, 1024)
            a = [b + p * wd for p in perm]
        else:            # XOR swizzle of a 2-D tile
            cols = rnd.choice((4, 8, 16, 32))
            a = [((l // cols) * 128 + (((l % cols) ^ (l // cols)) % 32) * wd) for l in range(W)]
        mask = (1 << W) - 1 if rnd.random() < 0.6 else rnd.getrandbits(W) | 1
        out.append(line(f"holdout{i}-{op}{wd}", op, wd,
                        [fit(x // wd * wd, wd) if (mask >> l) & 1 else None for l, x in enumerate(a)]))
    return out


def confirm_cases(n):
    rnd = random.Random(7_2026_11_22)
    out = []
    for i in range(n):
        op = rnd.choice(("ld", "st", "ld"))
        wd = rnd.choice((8, 16, 8, 16, 4, 2, 1))
        pool = [rnd.randrange(0, 1 << rnd.choice((7, 9, 11, 15))) for _ in range(rnd.randint(1, 20))]
        kind = rnd.randrange(4)
        if kind == 0:    # lane pairs (2k, 2k+1) share an address ...
            a = [x for x in (rnd.choice(pool) for _ in range(W // 2)) for _ in range(2)]
        elif kind == 1:  # ... except one pair
            a = [x for x in (rnd.choice(pool) for _ in range(W // 2)) for _ in range(2)]
            k = rnd.randrange(W // 2) * 2
            a[k + 1] = a[k] + wd
        elif kind == 2:  # lanes k and k+16 share an address, pairs do not
            h = [rnd.choice(pool) for _ in range(W // 2)]
            a = h + h
        else:            # pairs share an address within each half, halves differ
            a = [x for x in (rnd.choice(pool) for _ in range(W // 2)) for _ in range(2)]
            a = a[:16] + [x + rnd.choice((0, 128, 4096)) for x in a[16:]]
        r = rnd.random()
        if r < 0.5:
            mask = (1 << W) - 1
        elif r < 0.75:  # whole pairs idle
            mask = 0
            for k in range(W // 2):
                if rnd.random() < 0.7:
                    mask |= 3 << (2 * k)
            mask |= 1
        else:
            mask = rnd.getrandbits(W) | 1
        out.append(line(f"confirm{i}-{op}{wd}", op, wd,
                        [fit(x // wd * wd, wd) if (mask >> l) & 1 else None for l, x in enumerate(a)]))
    return out


def outlier_cases():
    """Loads whose lane pairs all share one address but for one or two lanes
    (the edge of the pair rule, probed after the confirm set found two)."""
    out = []
    rnd = random.Random(3)
    for wd in (8, 16):
        A = 1024
        for other in (wd, 64, 128, 4096 + 64):
            for lane in (0, 1, 5, 14, 15, 16, 17, 21, 30, 31):
                a = [A] * W
                a[lane] = A + other
                out.append(line(f"outlier-ld{wd}-single-d{other}-l{lane}", "ld", wd, a))
        for other in (wd, 128):
            for lanes in ((4, 20), (4, 6), (4, 5), (0, 31), (14, 16)):
                a = [A] * W
                for l in lanes:
                    a[l] = A + other
                out.append(line(f"outlier-ld{wd}-two-d{other}-l{lanes[0]}-{lanes[1]}", "ld", wd, a))
            a = [A] * 16 + [A + 2 * 64] * 16
            for lane in (3, 19):
                b = list(a)
                b[lane] += other
                out.append(line(f"outlier-ld{wd}-halves-d{other}-l{lane}", "ld", wd, b))
        for k in (2, 3, 4, 8):
            for rep in range(4):
                pool = [rnd.randrange(0, 4096) // wd * wd for _ in range(k)]
                a = [x for x in (rnd.choice(pool) for _ in range(W // 2)) for _ in range(2)]
                lane = rnd.randrange(W)
                a[lane] = rnd.choice(pool) if rnd.random() < 0.5 else (a[lane] + wd)
                out.append(line(f"outlier-ld{wd}-pool{k}-{rep}-l{lane}", "ld", wd, a))
    return out


def blind_cases(n):
    """Written after the rules were final, predicted before measuring
    (validate/sm90/blind_predictions.txt records the predictions)."""
    rnd = random.Random(11_22_2026)
    out = []
    for i in range(n):
        op = rnd.choice(("ld", "st"))
        wd = rnd.choice(WIDTHS + (8, 16))
        pool = [rnd.randrange(0, 1 << rnd.choice((6, 8, 10, 14))) for _ in range(rnd.randint(1, 12))]
        kind = rnd.randrange(5)
        if kind < 3:     # partner l^p shares the address (p = 1, 2, 4)
            p = (1, 2, 4)[kind]
            a = [None] * W
            for l in range(W):
                if a[l] is None:
                    a[l] = a[l ^ p] = rnd.choice(pool)
            if rnd.random() < 0.3:
                a[rnd.randrange(W)] = rnd.choice(pool)
        elif kind == 3:  # strided with a random base
            s, b = rnd.randrange(0, 40), rnd.randrange(0, 2048)
            a = [b + l * s * wd for l in range(W)]
        else:
            a = [rnd.choice(pool) for _ in range(W)]
        mask = (1 << W) - 1 if rnd.random() < 0.5 else rnd.getrandbits(W) | (1 << rnd.randrange(W))
        out.append(line(f"blind{i}-{op}{wd}", op, wd,
                        [fit(x // wd * wd, wd) if (mask >> l) & 1 else None for l, x in enumerate(a)]))
    return out


if __name__ == "__main__":
    which = sys.argv[1] if len(sys.argv) > 1 else "design"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 600
    cases = {"design": design_cases, "holdout": lambda: holdout_cases(count),
             "confirm": lambda: confirm_cases(count), "outlier": outlier_cases,
             "blind": lambda: blind_cases(count), "ld8mix": ld8mix_cases,
             "ld8cap": ld8cap_cases, "ld8pair": ld8pair_cases,
             "ld8split": lambda: ld8pair_cases(split=True)}[which]()
    print(f"# sm90 single-instruction cases: {which} set, generated by validate/sm90/make_cases.py {which}")
    print("warp 32")
    print("\n".join(cases))
