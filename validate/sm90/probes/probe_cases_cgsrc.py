"""cp.async.cg probe cases (kind `cgsrc`, validate/sm90/cases/cgsrc.trace):
sources and destinations varied in 16-byte chunks (docs/bank-model.md, rule 6b)."""
from validate.sm90.probes.probe_case_kinds import W


def cgsrc_cases(c, rnd):
    """LDGSTS.E.BYPASS.128 (cp.async.cg, 16 bytes) with the source and the
    destination varied in 16-byte chunks, to find which lanes one wavefront
    serves. Destination d = (row, chunk): shared offset 128*row +
    16*chunk; source (line, chunk): global offset 256*line + 16*chunk (lines
    256 bytes apart, so a line index names one 128-byte line). Small masks
    first (2, 4, 8 lanes: the count says which lanes merge), then whole
    warps, structured and random."""
    def add(name, dst, src, note):
        assert len(dst) == W and len(src) == W
        d = [None if x is None else 128 * x[0] + 16 * x[1] for x in dst]
        s = [None if x is None else 256 * x[0] + 16 * x[1] for x in src]
        c.add("cgsrc.trace", f"cgsrc-{name}", "cgsrc", "cg.16", 16, d, src=s, op="cpasync.cg", comment=note)

    def lanes(n, f):
        return [f(l) if l < n else None for l in range(W)]

    # Chunk permutations of one line or row (used by the whole-warp and the
    # 8-lane cases below).
    perms = {"id": list(range(8)), "rev": list(range(7, -1, -1)), "pairswap": [1, 0, 3, 2, 5, 4, 7, 6],
             "sectorswap": [2, 3, 0, 1, 6, 7, 4, 5], "halfswap": [4, 5, 6, 7, 0, 1, 2, 3],
             "sectorrev": [6, 7, 4, 5, 2, 3, 0, 1], "evenodd": [0, 2, 4, 6, 1, 3, 5, 7]}
    for r in (1, 2, 3, 5, 6, 7):
        perms[f"rot{r}"] = [(l + r) % 8 for l in range(8)]
    for i in range(4):
        p = list(range(8))
        rnd.shuffle(p)
        perms[f"rand{i}"] = p
    # Whole warps first (launch order is priority if a run is cut short):
    # quarter q writes row q in lane order.
    full_dst = [(l // 8, l % 8) for l in range(W)]
    for pn in ("rev", "pairswap", "sectorswap", "rot1", "rot2", "halfswap", "rand0", "rand1"):
        p = perms[pn]
        add(f"32-src-{pn}", full_dst, [(l // 8, p[l % 8]) for l in range(W)], "quarter q: line q, chunks permuted")
    add("32-src-linerev", full_dst, [(3 - l // 8, l % 8) for l in range(W)], "quarter q reads line 3-q")
    add("32-src-sameline", full_dst, [(0, l % 8) for l in range(W)], "every quarter reads line 0")
    add("32-src-samehalf", full_dst, [(0, l % 4) for l in range(W)], "every 4 lanes read line 0's first half")
    for s in (2, 3, 6):
        add(f"32-shift{s}", full_dst, [divmod(l + s, 8) for l in range(W)], "source shifted by s chunks")
    add("32-rows64-0", full_dst, [(l // 4, l % 4) for l in range(W)], "64-byte source rows at line starts")
    add("32-rows64-64", full_dst, [(l // 4, 4 + l % 4) for l in range(W)], "64-byte source rows at mid-line")
    add("32-rows64-pack", full_dst, [(l // 8, l % 8) for l in range(W)], "64-byte rows packed two per line")
    # Triton-style: 64-byte rows (4 lanes) into a swizzled 128-byte shared row pair.
    for base in (0, 4):
        for sw in (0, 1, 2):
            def dst(l, sw=sw):
                row, j = l // 4, l % 4          # source row, chunk within it
                r, half = row // 2, row % 2     # two 64-byte rows per 128-byte shared row
                return (r, (4 * half + j) ^ ((r >> sw) % 8 if sw else 0))
            add(f"32-tri-b{base}-sw{sw}", [dst(l) for l in range(W)], [(l // 4, base + l % 4) for l in range(W)],
                f"triton-like: 64-byte source rows at chunk {base}, destination swizzle {sw}")
    for i in range(10):
        src = [(l // 8, l % 8) for l in range(W)]
        rnd.shuffle(src)
        add(f"32-rand{i}", full_dst, src, "random permutation of the 32 chunks of 4 lines")
    for i in range(4):
        dst = full_dst[:]
        rnd.shuffle(dst)
        add(f"32-drand{i}", dst, [(l // 8, l % 8) for l in range(W)], "random permutation of the destinations")

    # One quarter (8 lanes) into row 0 in lane order; the source one line
    # read in a chunk permutation, or two lines (a shift by s chunks).
    for pn, p in perms.items():
        add(f"8-src-{pn}", lanes(8, lambda l: (0, l)), lanes(8, lambda l: (0, p[l])), "8 lanes, source permuted")
        if pn != "id":
            add(f"8-dst-{pn}", lanes(8, lambda l: (0, p[l])), lanes(8, lambda l: (0, l)), "8 lanes, destination permuted")
    for s in range(1, 8):
        add(f"8-shift{s}", lanes(8, lambda l: (0, l)), lanes(8, lambda l: divmod(l + s, 8)), "8 lanes, source two lines")
        add(f"8-dshift{s}", lanes(8, lambda l: divmod(l + s, 8)), lanes(8, lambda l: (0, l)), "8 lanes, destination two rows")
    add("8-src-2lines-alt", lanes(8, lambda l: (0, l)), lanes(8, lambda l: (l % 2, l)), "even lanes line 0, odd line 1")
    add("8-src-2lines-half", lanes(8, lambda l: (0, l)), lanes(8, lambda l: (l // 4, l)), "lanes 0-3 line 0, 4-7 line 1, chunks kept")
    add("8-src-2lines-halfswap", lanes(8, lambda l: (0, l)), lanes(8, lambda l: (l // 4, (l + 4) % 8)), "64-byte halves from two lines, swapped")
    add("8-src-2lines-rows64", lanes(8, lambda l: (0, l)), lanes(8, lambda l: (l // 4, l % 4)), "two 64-byte rows at line starts")
    add("8-src-2lines-rows64mid", lanes(8, lambda l: (0, l)), lanes(8, lambda l: (l // 4, 4 + l % 4)), "two 64-byte rows at mid-line")
    add("8-src-8lines", lanes(8, lambda l: (0, l)), lanes(8, lambda l: (l, l)), "one line per lane, chunk kept")
    add("8-src-dup2", lanes(8, lambda l: (0, l)), lanes(8, lambda l: (0, l // 2)), "pairs of lanes read one chunk")
    add("8-src-bcast", lanes(8, lambda l: (0, l)), lanes(8, lambda l: (0, 0)), "all read one chunk")
    add("8-dst-2rows-alt", lanes(8, lambda l: (l % 2, l)), lanes(8, lambda l: (0, l)), "even lanes row 0, odd row 1")
    add("8-dst-2rows-half", lanes(8, lambda l: (l // 4, l)), lanes(8, lambda l: (0, l)), "lanes 0-3 row 0, 4-7 row 1")
    add("8-both-2-half", lanes(8, lambda l: (l // 4, l)), lanes(8, lambda l: (l // 4, l)), "halves: row r from line r")
    add("8-both-2-halfcross", lanes(8, lambda l: (l // 4, l)), lanes(8, lambda l: (1 - l // 4, l)), "halves: row r from line 1-r")

    # 4 lanes.
    add("4-id", lanes(4, lambda l: (0, l)), lanes(4, lambda l: (0, l)), "4 lanes")
    add("4-rev", lanes(4, lambda l: (0, l)), lanes(4, lambda l: (0, 3 - l)), "4 lanes")
    add("4-mid", lanes(4, lambda l: (0, l)), lanes(4, lambda l: (0, 2 + l)), "4 lanes, source chunks 2-5")
    add("4-dmid", lanes(4, lambda l: (0, 2 + l)), lanes(4, lambda l: (0, l)), "4 lanes, destination chunks 2-5")
    add("4-both-mid", lanes(4, lambda l: (0, 2 + l)), lanes(4, lambda l: (0, 2 + l)), "4 lanes, chunks 2-5 both")
    add("4-hi", lanes(4, lambda l: (0, l)), lanes(4, lambda l: (0, 4 + l)), "4 lanes, source 2nd half")
    add("4-stride2", lanes(4, lambda l: (0, l)), lanes(4, lambda l: (0, 2 * l)), "4 lanes, source every other chunk")
    add("4-dstride2", lanes(4, lambda l: (0, 2 * l)), lanes(4, lambda l: (0, l)), "4 lanes, destination every other chunk")
    add("4-both-stride2", lanes(4, lambda l: (0, 2 * l)), lanes(4, lambda l: (0, 2 * l)), "4 lanes, every other chunk both")

    # 2 lanes: does a pair merge? destination pair x source pair.
    dst2 = {"d01": [(0, 0), (0, 1)], "d10": [(0, 1), (0, 0)], "d02": [(0, 0), (0, 2)], "d04": [(0, 0), (0, 4)],
            "d12": [(0, 1), (0, 2)], "d34": [(0, 3), (0, 4)], "drow": [(0, 0), (1, 0)], "drow1": [(0, 0), (1, 1)]}
    src2 = {"s01": [(0, 0), (0, 1)], "s10": [(0, 1), (0, 0)], "s02": [(0, 0), (0, 2)], "s12": [(0, 1), (0, 2)],
            "s04": [(0, 0), (0, 4)], "s34": [(0, 3), (0, 4)], "s00": [(0, 0), (0, 0)], "sline": [(0, 0), (1, 1)],
            "sline0": [(0, 0), (1, 0)]}
    for dn, dp in dst2.items():
        for sn, sp in src2.items():
            add(f"2-{dn}-{sn}", dp + [None] * (W - 2), sp + [None] * (W - 2), "2 lanes")



def cgline_cases(c, kind="cgline", spacings=(128, 384, 512, 1024, 2048, 4096)):
    """The cgsrc patterns that read two or more source lines, repeated with the
    lines `spacing` bytes apart (cgsrc keeps them 256 apart): Triton's matmul
    reads 64-byte rows of lines 1 KiB apart and measured one wavefront per
    shared row where the 256-byte probes measured two (docs/bank-model.md,
    rule 6b). Destination (row, chunk) as in cgsrc; source (line, chunk) at
    global offset spacing*line + 16*chunk. Kind `cgwarm`: the same copies
    with their sources read into L2 first (probe_cpasync_cg16warm), plus
    one-line patterns, to see whether the cost depends on where the source is;
    kinds `cgsrcsize` and `cgignore`: the same in the two forms Triton emits."""
    def lanes(n, f):
        return [f(l) if l < n else None for l in range(W)]

    def tri(sw):
        def dst(l):
            row, j = l // 4, l % 4
            r, half = row // 2, row % 2
            return (r, (4 * half + j) ^ ((r >> sw) % 8 if sw else 0))
        return [dst(l) for l in range(W)]

    row8 = lanes(8, lambda l: (0, l))
    full_dst = [(l // 8, l % 8) for l in range(W)]
    patterns = [
        ("8-rows64", row8, lanes(8, lambda l: (l // 4, l % 4)), "two 64-byte rows at line starts into one row"),
        ("8-rows64mid", row8, lanes(8, lambda l: (l // 4, 4 + l % 4)), "two 64-byte rows at mid-line into one row"),
        ("8-half", row8, lanes(8, lambda l: (l // 4, l)), "lanes 0-3 line 0, 4-7 line 1, chunks kept"),
        ("8-halfswap", row8, lanes(8, lambda l: (l // 4, (l + 4) % 8)), "64-byte halves of two lines, swapped"),
        ("8-shift1", row8, lanes(8, lambda l: divmod(l + 1, 8)), "source shifted by one chunk"),
        ("8-shift2", row8, lanes(8, lambda l: divmod(l + 2, 8)), "source shifted by two chunks"),
        ("8-8lines", row8, lanes(8, lambda l: (l, l)), "one line per lane, chunk kept"),
        ("2-sline0", lanes(2, lambda l: (0, l)), lanes(2, lambda l: (l, 0)), "2 lanes, chunk 0 of two lines"),
        ("32-rows64", full_dst, [(l // 4, l % 4) for l in range(W)], "8 lines, 64 bytes each, into 4 rows"),
        ("32-tri-sw0", tri(0), [(l // 4, l % 4) for l in range(W)], "triton-like, no swizzle"),
        ("32-tri-sw1", tri(1), [(l // 4, l % 4) for l in range(W)], "triton-like, swizzle 1"),
        ("32-tri-sw1mid", tri(1), [(l // 4, 4 + l % 4) for l in range(W)], "triton-like mid-line, swizzle 1"),
    ]
    if kind != "cgline":
        patterns += [
            ("8-id", row8, row8, "one line into one row in lane order"),
            ("8-rot1", row8, lanes(8, lambda l: (0, (l + 1) % 8)), "one line rotated by 16 bytes"),
            ("8-evenodd", row8, lanes(8, lambda l: (0, [0, 2, 4, 6, 1, 3, 5, 7][l])), "one line, even then odd chunks"),
            ("32-lines", full_dst, full_dst, "4 lines into 4 rows in lane order"),
        ]
    for spacing in spacings:
        for name, dst, src, note in patterns:
            d = [None if x is None else 128 * x[0] + 16 * x[1] for x in dst]
            s = [None if x is None else spacing * x[0] + 16 * x[1] for x in src]
            c.add(f"{kind}.trace", f"{kind}-{spacing}-{name}", kind, "cg.16", 16, d, src=s, op="cpasync.cg",
                  comment=f"{note}; lines {spacing} bytes apart")
