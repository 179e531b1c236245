"""8-byte load case sets for validate/sm90/make_cases.py (the ld8mix and
ld8cap sets; see that file's docstring). Split out so each file holds one
concern."""
import random

from validate.sm90.case_format import SHARED, W, line

def ld8mix_cases():
    """The ld8mix set's trace lines (every one `ld 8`)."""
    return [line(site, "ld", 8, a) for site, a in ld8mix_requests()]


def ld8mix_requests():
    """[(site, addresses per lane, None idle)] of the ld8mix set, in order."""
    rnd = random.Random(8_2026_11_23)
    out = []

    def add(name, a):
        assert len(a) == W and all(x is None or (0 <= x < SHARED and x % 8 == 0) for x in a), name
        out.append((f"ld8mix-{name}", list(a)))  # a copy: callers reuse their list

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




def ld8cap_cases():
    """Where does the merge of paired half warps stop? Each case pairs lanes
    (partner l^1 or l^2); each half reads `words` distinct doublewords of one
    bank pair (128-byte rows apart), so a half alone costs `words`, the
    unmerged warp 2 * words and the merged warp `words`. Variants: half 1
    reads the very words of half 0 ("shared") or as many words of another
    bank pair ("own"); every partner active ("real") or only one lane of each
    pair active ("vacuous").
    """
    rnd = random.Random(8_2026_11_24)
    out = []

    def build(partner, words, shared, vacuous):
        column, other = (8 * c for c in rnd.sample(range(16), 2))
        rows = rnd.sample(range(0, SHARED // 128), 2 * words)
        half_words = [[column + 128 * r for r in rows[:words]],
                      [column + 128 * r for r in rows[:words]] if shared
                      else [other + 128 * r for r in rows[words:]]]
        addr = [None] * W
        for half in (0, 1):
            # the 8 pair slots of a half take the words round-robin
            slots = [l for l in range(16 * half, 16 * half + 16) if l == min(l, l ^ partner)]
            for i, l in enumerate(slots):
                a = half_words[half][i % words]
                addr[l] = a
                addr[l ^ partner] = None if vacuous else a
        return addr

    for partner in (1, 2):
        for words in (2, 3, 4, 5, 6, 7, 8):
            for shared in (False, True):
                for vacuous in (False, True):
                    if vacuous and words > 4:
                        continue
                    name = (f"p{partner}-w{words}-{'shared' if shared else 'own'}-"
                            f"{'vacuous' if vacuous else 'real'}")
                    out.append(line(f"ld8cap-{name}", "ld", 8, build(partner, words, shared, vacuous)))
    return out


def ld8pair_cases(split=False):
    """8-byte loads whose lanes share addresses in pairs (l and l^1, or l and
    l^2) or quads (l..l^3), each half warp reading a few distinct
    doublewords: conflict-free, two per bank pair, or all in one bank pair;
    the upper half reading the lower half's very words ("shared"), other
    words of the same bank pairs ("same-banks") or of other bank pairs
    ("other-banks"); every lane active, the upper half idle, every other
    group idle, or a fixed three quarters of the groups active. A held-out
    report measured 2 on patterns of this class where the per-instruction rule of
    rule 3 says 3 or 4.
    """
    rnd = random.Random(8_2026_11_26 + (1 if split else 0))
    out = []

    def build(group, spread, upper, active):
        # group: lanes of one address, as the xor-closed set around l
        members = {"x1": (0, 1), "x2": (0, 2), "quad": (0, 1, 2, 3)}[group]
        leaders = [l for l in range(W) if all((l ^ m) >= l for m in members) and l == min(l ^ m for m in members)]
        per_half = len(leaders) // 2
        column, other = (8 * c for c in rnd.sample(range(16), 2))
        rows = rnd.sample(range(0, SHARED // 128 - 2), 2 * per_half)  # "two" reaches one row further

        def words(col, rws):
            if spread == "free":      # consecutive doublewords: distinct bank pairs
                base = 128 * rws[0]
                return [base + 8 * i for i in range(per_half)]
            if spread == "two":       # two doublewords per bank pair
                base = 128 * rws[0]
                return [base + 8 * (i // 2) + 128 * (i % 2) for i in range(per_half)]
            return [col + 128 * r for r in rws[:per_half]]  # "one": every word in one bank pair

        lower = words(column, rows[:per_half])
        if upper == "shared":
            higher = lower
        elif upper == "same-banks":
            higher = [a + 128 * (SHARED // 256) if a + 128 * (SHARED // 256) < SHARED else a - 128 * (SHARED // 256)
                      for a in lower]
        else:
            higher = [(a + 64) % SHARED for a in lower]
        addr = [None] * W
        for i, l in enumerate(leaders):
            a = (lower if l < 16 else higher)[i % per_half]
            for m in members:
                addr[l ^ m] = a
        keep = {"full": lambda i, l: True, "lower": lambda i, l: l < 16, "alternate": lambda i, l: i % 2 == 0,
                "three-quarters": lambda i, l: i % 4 != 3}[active]
        for i, l in enumerate(leaders):
            if not keep(i, l):
                for m in members:
                    addr[l ^ m] = None
        return addr

    if split:  # "ld8split": the two halves with different degrees (d0 != d1), each from its own words
        for group in ("x1", "x2", "quad"):
            for lower_spread, upper_spread in (("two", "free"), ("one", "free"), ("one", "two"), ("free", "two"),
                                               ("free", "one"), ("two", "one")):
                for active in ("full", "three-quarters"):
                    lo = build(group, lower_spread, "other-banks", active)
                    hi = build(group, upper_spread, "other-banks", active)
                    name = f"{group}-{lower_spread}-{upper_spread}-{active}"
                    out.append(line(f"ld8split-{name}", "ld", 8, lo[:16] + hi[16:]))
        return out
    for group in ("x1", "x2", "quad"):
        for spread in ("free", "two", "one"):
            for upper in ("shared", "same-banks", "other-banks"):
                for active in ("full", "lower", "alternate", "three-quarters"):
                    if active == "lower" and upper != "shared":
                        continue  # the upper half is idle: its words do not matter
                    name = f"{group}-{spread}-{upper}-{active}"
                    out.append(line(f"ld8pair-{name}", "ld", 8, build(group, spread, upper, active)))
    return out
