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
The test suite checks the preset on the first five sets.
Addresses stay inside the microbenchmark's 48 KiB shared array.
"""
import random
import sys

W = 32
SHARED = 48 * 1024
WIDTHS = (1, 2, 4, 8, 16)


def line(site, op, width, addrs):
    cells = ["-" if a is None else str(a) for a in addrs]
    return f"@{site} {op} {width} " + " ".join(cells)


def fit(a, width):
    return (a % SHARED) // width * width


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


def ld8mix_cases():
    rnd = random.Random(8_2026_11_23)
    out = []

    def add(name, a):
        assert len(a) == W and all(x is None or (0 <= x < SHARED and x % 8 == 0) for x in a), name
        out.append(line(f"ld8mix-{name}", "ld", 8, a))

    def pool(kind):
        """A source of distinct 8-byte addresses."""
        base = rnd.randrange(0, 64) * 128
        if kind == "row":      # consecutive doublewords: few conflicts
            seq = [base + 8 * j for j in range(64)]
        elif kind == "bank":   # one bank pair, distinct rows: every pair conflicts
            col = rnd.randrange(0, 16) * 8
            seq = [col + 128 * j for j in range(64)]
            rnd.shuffle(seq)
        else:                  # random in 4 KiB
            seq = rnd.sample(range(0, 4096, 8), 64)
        return iter(seq)

    def quad(kind, fresh):
        x, y, z, t = next(fresh), next(fresh), next(fresh), next(fresh)
        return {"p1": [x, x, y, y], "p2": [x, y, x, y], "p3": [x, y, y, x], "all": [x, x, x, x],
                "none": [x, y, z, t], "half1": [x, x, y, z], "half2": [x, y, x, z]}[kind]

    def quads(kinds, fresh):
        a = []
        for k in kinds:
            a += quad(k, fresh)
        return a

    qkinds = ("p1", "p2", "p3", "all", "none", "half1", "half2")
    pools = ("row", "bank", "rand")
    # A: quads of mixed pairings; a third of them copy some quads of the
    # first half into the second (lane l and l+16 share an address).
    for i in range(33):
        pk = pools[i % 3]
        fresh = pool(pk)
        kinds = [rnd.choice(qkinds) for _ in range(8)]
        a = quads(kinds, fresh)
        tag = "".join(k[0] + (k[-1] if k[-1].isdigit() else "") for k in kinds)
        if i % 3 == 2:
            for q in range(4):
                if rnd.random() < 0.5:
                    a[16 + 4 * q:20 + 4 * q] = a[4 * q:4 * q + 4]
            tag += "-dup16"
        add(f"mix{i}-{pk}-{tag}", a)
    # B: pairs everywhere, with one quad pairing through the other partner.
    for base_kind, odd_kind in (("p1", "p2"), ("p2", "p1")):
        for q in (0, 3, 4, 7):
            fresh = pool(pools[q % 3])
            kinds = [base_kind] * 8
            kinds[q] = odd_kind
            add(f"oddquad-{base_kind}-q{q}-{odd_kind}", quads(kinds, fresh))
    # C: the half warps differ: one pairs (or broadcasts), the other does not.
    halves = {
        "p1": lambda f: quads(["p1"] * 4, f),
        "p2": lambda f: quads(["p2"] * 4, f),
        "p3": lambda f: quads(["p3"] * 4, f),
        "bcast": lambda f: [next(f)] * 16,
        "distinct": lambda f: quads(["none"] * 4, f),
    }
    combos = [("p1", "distinct"), ("p2", "distinct"), ("p1", "p2"), ("p1", "p3"), ("bcast", "distinct"),
              ("bcast", "p1"), ("p3", "distinct"), ("bcast", "p2")]
    for lo, hi in combos:
        for first, second in ((lo, hi), (hi, lo)):
            for pk in ("row", "bank") if (lo, hi) in combos[:4] else ("bank",):
                fresh = pool(pk)
                add(f"halves-{first}-{second}-{pk}", halves[first](fresh) + halves[second](fresh))
    # D: addresses duplicated across the half warps.
    for kind in ("distinct", "p1", "p2", "p3"):
        for pk in ("row", "bank"):
            h = halves[kind](pool(pk))
            add(f"dup16-{kind}-{pk}", h + h)
    for pk in ("row", "bank"):
        h = halves["distinct"](pool(pk))
        add(f"dup17-{pk}", h + [h[l ^ 1] for l in range(16)])          # lane 16+l = lane l^1
        h = halves["distinct"](pool(pk))
        fresh = pool("rand")
        add(f"dup16-some-{pk}", h + [h[l] if l % 3 == 0 else next(fresh) for l in range(16)])
        h = halves["p1"](pool(pk))
        add(f"dup16-p1-plus128-{pk}", h + [(x + 128) % SHARED for x in h])
    # E: partners inactive.
    for k in (1, 2, 4, 8):
        for pk in ("row", "bank"):
            a = quads(["p1"] * 8, pool(pk))
            for l in rnd.sample(range(W), k):
                a[l] = None
            add(f"p1-idle{k}-{pk}", a)
            a = quads(["p2"] * 8, pool(pk))
            for l in rnd.sample(range(W), k):
                a[l] = None
            if k in (2, 8):
                add(f"p2-idle{k}-{pk}", a)
    for mname, m in (("even", 0x55555555), ("odd", 0xAAAAAAAA), ("mod4", 0x11111111), ("q0q3", 0xFF0000FF)):
        for pk in ("row", "bank", "rand") if mname in ("even", "odd") else ("row", "bank"):
            fresh = pool(pk)
            a = [next(fresh) if (m >> l) & 1 else None for l in range(W)]
            add(f"only-{mname}-{pk}", a)
    for mname, m in (("lo16", 0xFFFF), ("hi16", 0xFFFF0000)):
        for kind in ("p1", "distinct"):
            a = halves[kind](pool("bank")) * 2
            add(f"only-{mname}-{kind}", [x if (m >> l) & 1 else None for l, x in enumerate(a)])
    for i in range(2):  # even lanes active, equal in l^2 pairs among themselves
        fresh = pool("bank")
        a = [None] * W
        for q in range(8):
            x = next(fresh)
            a[4 * q] = a[4 * q + 2] = x
        add(f"even-p2-{i}", a)
    for i in range(4):
        a = quads([rnd.choice(qkinds) for _ in range(8)], pool(pools[i % 3]))
        m = rnd.getrandbits(W) | 1
        add(f"randmask{i}", [x if (m >> l) & 1 else None for l, x in enumerate(a)])
    # F: partners that differ by a same-bank row step (or by one doubleword).
    for d in (8, 128, 256, 512, 4096):
        for pk in ("row", "bank") if d in (128, 256) else ("row",):
            fresh = pool(pk)
            a = []
            for _ in range(16):
                x = next(fresh)
                a += [x, (x + d) % SHARED]
            add(f"pairdiff{d}-{pk}", a)
    for d in (128, 256):
        for lane in (0, 15, 16, 31):
            a = quads(["p1"] * 8, pool("row"))
            a[lane ^ 1] = (a[lane] + d) % SHARED
            add(f"p1-onediff{d}-l{lane}", a)
    fresh = pool("row")
    a = quads(["p2"] * 8, fresh)
    for q in range(8):
        a[4 * q + 2] = (a[4 * q] + 128) % SHARED
    add("p2-diff128", a)
    # G: CUB BlockMergeSort of 64-bit keys (256 threads, 17 keys each).
    for name, a in merge_like_cases(rnd):
        add(name, a)
    return out


def merge_like_cases(rnd, threads=256, items=17):
    """Loads of CUB's BlockMergeSort merge loop (cub/block/block_merge_sort.cuh,
    CUDA 13.0), simulated on the keys, per warp: MergePath's two loads per
    search iteration (lanes still searching), SerialMerge's two initial
    loads, then per item the two predicated loads that nvcc emits for
    `if (p) key2 = keys[++k2]; else key1 = keys[++k1];` (@!P for key1,
    @P for key2; checked on the SASS of a BlockMergeSort<u64, 256, 17>).
    Keys are 8 bytes at byte offset 8*index of keys_shared (offset 0)."""
    n = threads * items
    inputs = {
        "rand": [rnd.getrandbits(64) for _ in range(n)],
        "dup4": [rnd.randrange(4) for _ in range(n)],
        "dup64": [rnd.randrange(64) for _ in range(n)],
        "sorted": list(range(n)),
        "reverse": list(range(n, 0, -1)),
        "saw": [(i * 7919) % 1031 for i in range(n)],
    }
    picks = []
    for iname, keys in inputs.items():
        instrs = {"search": [], "init": [], "serial": []}
        regs = [sorted(keys[t * items:(t + 1) * items]) for t in range(threads)]
        target = 2
        while target <= threads:
            sh = [k for r in regs for k in r] + [0]   # one key past the tile: CUB may read it
            merged, mask = target // 2, target - 1
            per_thread = []
            for t in range(threads):
                start = items * (t & ~mask)
                size = items * merged
                diag = items * (t & mask)
                k1b, k1e = start, min(n, start + size)
                k2b, k2e = k1e, min(n, k1e + size)
                n1, n2 = k1e - k1b, k2e - k2b
                lo, hi = (0 if diag < n2 else diag - n2), min(diag, n1)
                search = []
                while lo < hi:
                    mid = (lo + hi) // 2
                    search.append((8 * (k1b + mid), 8 * (k2b + diag - 1 - mid)))
                    if sh[k2b + diag - 1 - mid] < sh[k1b + mid]:
                        hi = mid
                    else:
                        lo = mid + 1
                k1, k2 = k1b + lo, k2b + diag - lo
                init = (8 * k1, 8 * k2)
                key1, key2 = sh[k1], sh[k2]
                steps, out_keys = [], []
                for _ in range(items):
                    p = k2 < k2e and (k1 >= k1e or key2 < key1)
                    if p:
                        out_keys.append(key2)
                        k2 += 1
                        key2 = sh[k2]
                        steps.append((None, 8 * k2))
                    else:
                        out_keys.append(key1)
                        k1 += 1
                        key1 = sh[k1]
                        steps.append((8 * k1, None))
                per_thread.append((search, init, steps, out_keys))
            for w in range(threads // W):
                lanes = per_thread[W * w:W * (w + 1)]
                depth = max(len(s) for s, _, _, _ in lanes)
                for it in range(depth):
                    for j in (0, 1):
                        instrs["search"].append((f"t{target}-w{w}-search{it}{'ab'[j]}",
                                                 [s[it][j] if it < len(s) else None for s, _, _, _ in lanes]))
                for j in (0, 1):
                    instrs["init"].append((f"t{target}-w{w}-init{'ab'[j]}", [i[j] for _, i, _, _ in lanes]))
                for it in range(items):
                    for j in (0, 1):
                        a = [st[it][j] for _, _, st, _ in lanes]
                        if any(x is not None for x in a):
                            instrs["serial"].append((f"t{target}-w{w}-item{it}{'ab'[j]}", a))
            regs = [r[3] for r in per_thread]
            target *= 2
        assert [k for r in regs for k in r] == sorted(keys), iname

        def shared_most(a):
            counts = {}
            for x in a:
                if x is not None:
                    counts[x] = counts.get(x, 0) + 1
            return max(counts.values())

        seen = set()

        def take(pool_, k):
            got = 0
            for name, a in rnd.sample(pool_, len(pool_)):
                key = tuple(a)
                if key in seen or all(x is None for x in a) or max(x for x in a if x is not None) >= SHARED:
                    continue
                seen.add(key)
                picks.append((f"merge-{iname}-{name}", a))
                got += 1
                if got == k:
                    break

        take(instrs["serial"], 7)
        take(instrs["search"], 4)
        take(instrs["init"], 2)
        # and the loads where the most lanes read one key
        ranked = sorted(instrs["serial"] + instrs["init"] + instrs["search"], key=lambda x: -shared_most(x[1]))
        take(ranked[:40], 3)
    return picks


if __name__ == "__main__":
    which = sys.argv[1] if len(sys.argv) > 1 else "design"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 600
    cases = {"design": design_cases, "holdout": lambda: holdout_cases(count),
             "confirm": lambda: confirm_cases(count), "outlier": outlier_cases,
             "blind": lambda: blind_cases(count), "ld8mix": ld8mix_cases}[which]()
    print(f"# sm90 single-instruction cases: {which} set, generated by validate/sm90/make_cases.py {which}")
    print("warp 32")
    print("\n".join(cases))
