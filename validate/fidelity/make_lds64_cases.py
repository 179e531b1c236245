"""Probe campaign for paired 8-byte shared loads (docs/bank-model.md, rule
3): the address patterns where the per-instruction rule (a paired load whose
merged phase conflicts costs the half warps' degrees added, d0 + d1) and a
"merged pairs" rule (the merged degree u, what the kernel-level counter
reports) disagree, generated on purpose, with controls where they agree.
Each pattern is run by validate/fidelity/lds64.cu in several SASS forms and
launch shapes (the plan below), so that what the single-warp probes kept
fixed (one warp, one LDS.64 at [R+UR] per kernel, lanes exited) varies.

    python3 validate/fidelity/make_lds64_cases.py OUTDIR [SEED]

writes OUTDIR/lds64.cases (one pattern per line: name, then 32 byte
offsets, -1 for an inactive lane; the first FULL patterns have every lane
active, the rest are the masked pool) and OUTDIR/lds64.plan (one launch per
line: form, blocks, threads per block, exit mask, first pattern,
iterations, warp rows: see lds64.cu). Standard library only; the seed fixes everything (default 4646).
"""
import os
import random
import sys

SITES = 256          # LDS.64 sites per kernel (lds64.cu's kSites)
FULL = 2048          # patterns with every lane active
MASKED = 1024        # patterns with inactive lanes
LINE = 128
REGION = 16384       # offsets stay below this (lds64.cu's shared array, less its 512-byte margin)


def degree(off, lanes):
    """Most distinct 4-byte words one bank serves for these lanes (0: none)."""
    words = {o // 4 + k for l in lanes for o in [off[l]] for k in (0, 1)}
    per = {}
    for w in words:
        per[w % 32] = per.get(w % 32, 0) + 1
    return max(per.values(), default=0)


def pairs_up(off, active, partner):
    return all(off[l] == off[l ^ partner] for l in active if (l ^ partner) in active)


def rules(off):
    """(model, merged, worst half): rule 3 per instruction, the merged degree, max(d0, d1)."""
    active = [l for l in range(32) if off[l] >= 0]
    lo, hi = [l for l in active if l < 16], [l for l in active if l >= 16]
    d0, d1 = degree(off, lo), degree(off, hi)
    if pairs_up(off, set(active), 1) or pairs_up(off, set(active), 2):
        u = degree(off, active)
        return (u if u <= 1 else d0 + d1), u, max(d0, d1)
    return d0 + d1, None, max(d0, d1)


def group_map(rng, kind):
    """lane -> group: lanes of a group read one address."""
    maps = {
        "pairs": lambda l: l >> 1,                 # l, l^1
        "quads": lambda l: l >> 2,                 # four lanes on one address
        "quads-x16": lambda l: (l >> 1) & 7,       # l, l^1, l^16, l^17: halves share words
        "pairs-x2": lambda l: (l >> 2) * 2 + (l & 1),  # l, l^2
        "quads-x2x16": lambda l: ((l >> 2) * 2 + (l & 1)) & 7,
        "oct": lambda l: l >> 3,
        "oct-x16": lambda l: (l >> 1) & 3,         # 8 lanes: l^1 pairs spread over both halves
        "pairs-x8": lambda l: ((l >> 1) & 3) + 4 * (l >> 4),  # l, l^1, l^8, l^9 within a half
    }
    if kind == "pairs-pool":  # pairs drawing from a few addresses
        n = rng.choice([2, 3, 4, 6])
        p = [rng.randrange(n) for _ in range(16)]
        return [p[l >> 1] for l in range(32)]
    return [maps[kind](l) for l in range(32)]


KINDS = ["pairs", "quads", "quads", "quads-x16", "quads-x16", "pairs-x2", "quads-x2x16", "oct", "oct-x16",
         "pairs-x8", "pairs-pool"]


def place(rng, groups, how):
    """An 8-byte-aligned offset per group: bank pairs from a small set, rows
    (128-byte lines) from a small set, so that halves conflict by 1 to 4."""
    ids = sorted(set(groups))
    base = rng.randrange(0, REGION // 2, LINE)
    if how == "line-bcast":  # every group in one 128-byte line
        words = rng.sample(range(16), min(16, len(ids)))
        return {g: base + 8 * words[i % len(words)] for i, g in enumerate(ids)}
    nbp = rng.choice([1, 2, 2, 3, 4, 8])
    nrows = rng.choice([2, 2, 3, 4])
    step = rng.choice([1, 1, 2, 8, 32])  # rows 128 B apart, or 256 B, 1 KiB, 4 KiB
    align = {"align16": 2, "align32": 4, "align128": 16}.get(how, 1)
    bps = rng.sample(range(0, 16, align), min(nbp, 16 // align))
    rows = [base + LINE * step * k for k in range(nrows)]
    return {g: (rng.choice(rows) + 8 * rng.choice(bps)) % REGION for g in ids}


def mask(rng, kind):
    if kind == "lower":
        return [l < 16 for l in range(32)]
    if kind == "upper":
        return [l >= 16 for l in range(32)]
    if kind == "first":  # a partial warp: lanes 0..n-1
        n = rng.randrange(2, 32)
        return [l < n for l in range(32)]
    if kind == "pairs":  # whole pairs on or off
        on = [rng.random() < 0.6 for _ in range(16)]
        return [on[l >> 1] for l in range(32)]
    if kind == "quads":
        on = [rng.random() < 0.6 for _ in range(8)]
        return [on[l >> 2] for l in range(32)]
    return [rng.random() < 0.5 for _ in range(32)]  # random lanes: pairs through inactive partners


MASKS = ["lower", "upper", "first", "pairs", "quads", "random"]
PLACES = ["any", "any", "any", "align16", "align32", "align128", "line-bcast"]


def draw(rng, masked):
    """One pattern, accepted mostly where the rules disagree (model > merged)."""
    while True:
        kind, how = rng.choice(KINDS), rng.choice(PLACES)
        groups = group_map(rng, kind)
        where = place(rng, groups, how)
        mk = rng.choice(MASKS) if masked else "full"
        on = mask(rng, mk) if masked else [True] * 32
        if not any(on):
            continue
        off = [where[groups[l]] if on[l] else -1 for l in range(32)]
        model, merged, worst = rules(off)
        disagree = merged is not None and model != merged
        if disagree or rng.random() < 0.2:  # about 1 in 5 controls among the disagreeing
            tag = "dis" if disagree else "ctl"
            return f"{kind}-{how}-{mk}-{tag}-m{model}-u{merged if merged is not None else 'x'}-w{worst}", off


# Launches: (form, blocks, threads per block, exit mask, pool, chunks, iterations, warp shift).
# Forms (lds64.cu): rur = LDS.64 [R+UR]; imm = [R+UR+0x100]; reg = [R] (address
# not provably uniform); pred = @P LDS.64 with per-site masks; loop = the sites
# in a loop; dep = each site's address waits on the previous load; u64 =
# ld.shared.u64 instead of ld.shared.v2.u32; mix = a 4-byte LDS before each site; gen = a generic volatile load (LD.E.64.STRONG.SYS); genw = a weak one (LD.E.64).
# Warp shift: warp w reads a copy of the patterns with w * shift bytes added
# (the same degrees in other banks), appended to the cases after the pools.
FULLMASK = 0xFFFFFFFF
PLAN = [
    ("rur", 1, 32, FULLMASK, "full", range(0, 8), 1, 0),     # every full pattern, one warp, sites back to back
    ("rur", 132, 256, FULLMASK, "full", range(0, 8), 1, 0),  # one block of 8 warps per SM
    ("pred", 1, 32, FULLMASK, "masked", range(0, 4), 1, 0),  # per-site masks by predication
    ("pred", 132, 256, FULLMASK, "masked", range(0, 4), 1, 0),
    ("rur", 264, 512, FULLMASK, "full", range(0, 4), 1, 0),  # two blocks of 16 warps per SM
    ("rur", 1, 256, FULLMASK, "full", range(0, 4), 1, 0),    # 8 warps of one block
    ("rur", 132, 256, FULLMASK, "full", range(4, 6), 1, 8),  # 8 warps, each 8 bytes further
    ("rur", 1, 32, 0x000FFFFF, "full", range(0, 2), 1, 0),   # partial warps: lanes exited
    ("rur", 1, 32, 0x00FFFFFF, "full", range(2, 4), 1, 0),
    ("rur", 1, 32, 0x33333333, "full", range(4, 6), 1, 0),   # pairs l, l^1 with l^2 exited
    ("rur", 1, 32, 0xFFFF00FF, "full", range(6, 8), 1, 0),
    ("rur", 132, 256, 0x0FFFFFFF, "full", range(0, 2), 1, 0),
    ("rur", 4, 48, FULLMASK, "full", range(0, 2), 1, 0),     # a block of 48 threads: a full and a 16-lane warp
    ("imm", 1, 32, FULLMASK, "full", range(0, 4), 1, 0),
    ("imm", 132, 256, FULLMASK, "full", range(4, 6), 1, 0),
    ("reg", 1, 32, FULLMASK, "full", range(0, 4), 1, 0),
    ("reg", 132, 256, FULLMASK, "full", range(4, 6), 1, 0),
    ("mix", 1, 32, FULLMASK, "full", range(0, 4), 1, 0),
    ("mix", 132, 256, FULLMASK, "full", range(4, 6), 1, 0),
    ("loop", 1, 32, FULLMASK, "full", range(0, 2), 3, 0),
    ("loop", 132, 256, FULLMASK, "full", range(2, 4), 3, 0),
    ("dep", 1, 32, FULLMASK, "full", range(0, 4), 1, 0),
    ("dep", 132, 256, FULLMASK, "full", range(4, 6), 1, 0),
    ("u64", 1, 32, FULLMASK, "full", range(0, 2), 1, 0),
    # gen = the same loads through generic pointers into shared memory (LD.E.64), appended so that the
    # launches above keep their line numbers
    ("gen", 1, 32, FULLMASK, "full", range(0, 4), 1, 0),
    ("gen", 132, 256, FULLMASK, "full", range(4, 6), 1, 0),
    ("gen", 1, 32, 0x33333333, "full", range(6, 8), 1, 0),
    # genw = the same generic loads, weak (LD.E.64 without .STRONG.SYS)
    ("genw", 1, 32, FULLMASK, "full", range(0, 4), 1, 0),
    ("genw", 132, 256, FULLMASK, "full", range(4, 6), 1, 0),
    ("genw", 1, 32, 0x33333333, "full", range(6, 8), 1, 0),
]


def main():
    outdir = sys.argv[1]
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 4646
    rng = random.Random(seed)
    os.makedirs(outdir, exist_ok=True)
    pats = [draw(rng, False) for _ in range(FULL)] + [draw(rng, True) for _ in range(MASKED)]
    with open(os.path.join(outdir, "lds64.cases"), "w") as f:
        f.write(f"# validate/fidelity/make_lds64_cases.py, seed {seed}: {FULL} full and {MASKED} masked "
                f"8-byte load patterns, lanes pairing on equal addresses\n")
        for i, (name, off) in enumerate(pats):
            f.write(f"p{i:04d}-{name} " + " ".join(str(o) for o in off) + "\n")
        copies = len(pats)  # the shifted copies follow the pools
        lines = []
        for form, blocks, threads, exitmask, pool, chunks, iters, shift in PLAN:
            first_pool = 0 if pool == "full" else FULL
            for c in chunks:
                first = first_pool + SITES * c
                if shift == 0:
                    lines.append(f"{form} {blocks} {threads} 0x{exitmask:08x} {first} {iters} 0")
                    continue
                lines.append(f"{form} {blocks} {threads} 0x{exitmask:08x} {copies} {iters} {SITES}")
                for w in range((threads + 31) // 32):
                    for i in range(first, first + SITES):
                        name, off = pats[i]
                        moved = [(o + w * shift) % REGION if o >= 0 else -1 for o in off]
                        f.write(f"p{i:04d}+{w * shift}-{name} " + " ".join(str(o) for o in moved) + "\n")
                    copies += SITES
    with open(os.path.join(outdir, "lds64.plan"), "w") as f:
        f.write("# form blocks threads exit_mask first_pattern iterations warp_rows (each launch: lds64.cu's 256 sites;\n"
                "# warp w of a block reads patterns first + w * warp_rows + site)\n")
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
