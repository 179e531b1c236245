"""Randomized probe campaign for two sm90 rules (docs/bank-model.md, rules 3
and 4): 8-byte shared loads and stores whose lanes share addresses (pairs
l, l^1; quads; groups of 8 and 16; broadcasts; l and l+16; random pools of
few addresses), under full, half and random masks; and 64-bit shared
atomicAdd (nvcc's LDS.64 + ATOMS.CAST.SPIN.64 loop) with 1 to 32 lanes per
address, adjacent, spread and random, in distinct banks and in one bank.

    python3 validate/fidelity/make_cases.py OUTDIR [SEED]

writes OUTDIR/ldst8.trace (a bankcheck text trace, one case per line, for
validate/sm90/microbench.cu) and OUTDIR/atom64.cases (one case per line:
name, then 32 slot indices of 8-byte elements, -1 for an inactive lane, for
validate/fidelity/atom64.cu). The trace's lines are validate/sm90/case_format.py's
`line`. Standard library only; the seed fixes every case (default 4646)."""
import os
import random
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.sm90.case_format import line  # noqa: E402

SHARED = 48 * 1024
SLOTS = 1024  # atom64.cu's shared array: 1024 eight-byte elements


def group_map(rng, kind):
    """lane -> group id for one sharing structure."""
    if kind == "pairs":
        return [l >> 1 for l in range(32)]
    if kind == "quads":
        return [l >> 2 for l in range(32)]
    if kind == "oct":
        return [l >> 3 for l in range(32)]
    if kind == "sixteen":
        return [l >> 4 for l in range(32)]
    if kind == "bcast":
        return [0] * 32
    if kind == "xor2":
        return [(l >> 2) * 2 + (l & 1) for l in range(32)]
    if kind == "half":  # l and l + 16
        return [l & 15 for l in range(32)]
    if kind == "pairs-mixed":  # pairs where some pairs are split
        g = [l >> 1 for l in range(32)]
        for l in range(0, 32, 2):
            if rng.random() < 0.25:
                g[l + 1] = 100 + l
        return g
    if kind == "pool":  # each lane one of a few addresses
        n = rng.choice([1, 2, 3, 4, 6, 8])
        return [rng.randrange(n) for _ in range(32)]
    if kind == "quads-pool":  # quads, the quads drawing from a few addresses
        n = rng.choice([1, 2, 3, 4])
        q = [rng.randrange(n) for _ in range(8)]
        return [q[l >> 2] for l in range(32)]
    if kind == "pairs-pool":
        n = rng.choice([2, 3, 4, 8])
        p = [rng.randrange(n) for _ in range(16)]
        return [p[l >> 1] for l in range(32)]
    raise ValueError(kind)


KINDS = ["pairs", "quads", "oct", "sixteen", "bcast", "xor2", "half", "pairs-mixed", "pool", "quads-pool",
         "pairs-pool"]


def group_addresses(rng, groups, width, layout):
    """An address per group: consecutive, one bank (stride 128), or random."""
    ids = sorted(set(groups))
    base = rng.randrange(0, SHARED // 2, 128)
    if layout == "consecutive":
        order = ids[:]
        rng.shuffle(order) if rng.random() < 0.3 else None
        return {g: base + width * i for i, g in enumerate(order)}
    if layout == "samebank":
        return {g: base + 128 * i for i, g in enumerate(ids)}
    if layout == "twobanks":
        return {g: base + 128 * (i // 2) + width * (i % 2) * rng.choice([1, 2, 4]) for i, g in enumerate(ids)}
    return {g: rng.randrange(0, SHARED, width) for g in ids}


def mask(rng, kind):
    if kind == "full":
        return (1 << 32) - 1
    if kind == "lower":
        return 0xFFFF
    if kind == "upper":
        return 0xFFFF0000
    if kind == "random":
        m = 0
        while m == 0:
            m = rng.getrandbits(32)
        return m
    if kind == "pairs":  # whole pairs on or off
        m = 0
        while m == 0:
            m = sum(3 << (2 * i) for i in range(16) if rng.random() < 0.6)
        return m
    if kind == "sparse":
        m = 0
        while m == 0:
            m = sum(1 << l for l in range(32) if rng.random() < 0.2)
        return m
    raise ValueError(kind)


MASKS = ["full", "full", "lower", "upper", "random", "pairs", "sparse"]
LAYOUTS = ["consecutive", "samebank", "twobanks", "random"]


def ldst8_cases(rng, n_per_op):
    out = []
    for op in ("ld", "st"):
        for i in range(n_per_op):
            kind, layout, mk = rng.choice(KINDS), rng.choice(LAYOUTS), rng.choice(MASKS)
            groups = group_map(rng, kind)
            where = group_addresses(rng, groups, 8, layout)
            m = mask(rng, mk)
            lanes = [where[groups[l]] if (m >> l) & 1 else None for l in range(32)]
            out.append(line(f"fid8-{op}-{i:03d}-{kind}-{layout}-{mk}", op, 8, lanes))
    return out


def atom64_slots(rng, per, arrangement, layout):
    """32 slot indices: `per` lanes per address, adjacent / spread / random."""
    n_addr = 32 // per
    if arrangement == "adjacent":
        g = [l // per for l in range(32)]
    elif arrangement == "spread":
        g = [l % n_addr for l in range(32)]
    else:
        g = [l // per for l in range(32)]
        rng.shuffle(g)
    base = rng.randrange(0, 64)
    if layout == "distinct":   # consecutive 8-byte slots: distinct bank pairs
        slot = {a: (base + a) % SLOTS for a in range(n_addr)}
    elif layout == "samebank":  # 16 slots apart: 128 bytes, one bank pair
        slot = {a: (base + 16 * a) % SLOTS for a in range(n_addr)}
    else:
        picks = rng.sample(range(SLOTS), n_addr)
        slot = dict(enumerate(picks))
    return [slot[x] for x in g]


def atom64_cases(rng, n_random):
    out = []
    for per in (1, 2, 4, 8, 16, 32):
        for arrangement in ("adjacent", "spread"):
            for layout in ("distinct", "samebank"):
                if per == 1 and arrangement == "spread":
                    continue
                for mk in ("full", "lower", "random"):
                    s = atom64_slots(rng, per, arrangement, layout)
                    m = mask(rng, mk)
                    out.append((f"fid64-{per}-{arrangement}-{layout}-{mk}", s, m))
    for i in range(n_random):
        n = rng.choice([1, 2, 3, 4, 5, 8, 12])
        picks = rng.sample(range(SLOTS), n) if rng.random() < 0.5 else [
            (rng.randrange(64) + 16 * k) % SLOTS for k in range(n)]
        s = [rng.choice(picks) for _ in range(32)]
        m = mask(rng, rng.choice(MASKS))
        out.append((f"fid64-r{i:03d}-{n}addr", s, m))
    return [f"{name} " + " ".join(str(s[l]) if (m >> l) & 1 else "-1" for l in range(32))
            for name, s, m in out]


def main():
    outdir = sys.argv[1]
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 4646
    rng = random.Random(seed)
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "ldst8.trace"), "w") as f:
        f.write(f"# validate/fidelity/make_cases.py, seed {seed}: 8-byte loads and stores, lanes sharing addresses\n")
        f.write("warp 32\n")
        f.write("\n".join(ldst8_cases(rng, 160)) + "\n")
    with open(os.path.join(outdir, "atom64.cases"), "w") as f:
        f.write(f"# validate/fidelity/make_cases.py, seed {seed}: 64-bit shared atomicAdd, slot per lane (-1 inactive)\n")
        f.write("\n".join(atom64_cases(rng, 100)) + "\n")


if __name__ == "__main__":
    main()
