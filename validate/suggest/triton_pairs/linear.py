"""Triton's blocked layouts as linear layouts: the register, lane and warp
bases ((dim0, dim1) per basis) that `bankcheck layout --suggest --from/--to`
takes (docs/layout.md, "Choosing the instructions").

A blocked layout (size_per_thread, threads_per_warp, warps_per_cta, order) over
a shape: along the dims in `order` (fastest first), a thread's own elements
(register bases 1, 2, 4, ... up the dim), then the lanes (steps of
size_per_thread), then the warps (steps of size_per_thread x
threads_per_warp); where the shape exceeds that CTA tile, the tile repeats,
each repeat one more register basis (steps of the CTA tile), again along the
dims in `order`. A layout that would hold an element twice (a CTA tile larger
than the shape) is refused: bankcheck does not model broadcasts.

An mma v2 accumulator (("mma2", warps_per_cta), 16x8 per warp instruction,
PTX's m16n8 C fragment): lane l holds row l / 4 and l / 4 + 8, columns
2 (l mod 4) and + 1, so registers [0,1], [8,0], lanes [0,2], [0,4], [1,0],
[2,0], [4,0]; the warps step 16 rows (or 8 columns), and the tile repeats
along the columns, then the rows. Only warps along one dim are converted
(their order is then unambiguous).
"""


def _log2(v):
    if v < 1 or v & (v - 1):
        raise ValueError(f"{v} is not a power of two")
    return v.bit_length() - 1


def _unit(dim, value):
    return [value, 0] if dim == 0 else [0, value]


def mma2_bases(spec, shape):
    _, wpc = spec
    if wpc[0] > 1 and wpc[1] > 1:
        raise ValueError("mma v2 warps along both dims are not converted here")
    reg = [[0, 1], [8, 0]]
    lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]
    warp = [[16 << i, 0] for i in range(_log2(wpc[0]))] + [[0, 8 << i] for i in range(_log2(wpc[1]))]
    cta = [16 * wpc[0], 8 * wpc[1]]
    for d in (1, 0):
        if cta[d] > shape[d]:
            raise ValueError(f"the CTA tile ({cta[d]}) exceeds the shape ({shape[d]}) along dim {d}: a broadcast")
        reg += [_unit(d, cta[d] << i) for i in range(_log2(shape[d] // cta[d]))]
    return {"register": reg, "lane": lane, "warp": warp}


def bases(spec, shape):
    """A blocked or mma v2 layout's bases."""
    return mma2_bases(spec, shape) if spec[0] == "mma2" else blocked_bases(spec, shape)


def blocked_bases(spec, shape):
    kind, spt, tpw, wpc, order = spec
    if kind != "blocked":
        raise ValueError(f"only blocked layouts convert here, not {kind}")
    reg, lane, warp = [], [], []
    for d in order:
        reg += [_unit(d, 1 << i) for i in range(_log2(spt[d]))]
    for d in order:
        lane += [_unit(d, spt[d] << i) for i in range(_log2(tpw[d]))]
    for d in order:
        warp += [_unit(d, spt[d] * tpw[d] << i) for i in range(_log2(wpc[d]))]
    for d in order:
        cta = spt[d] * tpw[d] * wpc[d]
        if cta > shape[d]:
            raise ValueError(f"the CTA tile ({cta}) exceeds the shape ({shape[d]}) along dim {d}: a broadcast")
        reg += [_unit(d, cta << i) for i in range(_log2(shape[d] // cta))]
    return {"register": reg, "lane": lane, "warp": warp}


def text(bases):
    """As `bankcheck layout --from` reads it."""
    def part(v):
        return "[" + ",".join(f"[{a},{b}]" for a, b in v) + "]"
    return f"register={part(bases['register'])} lane={part(bases['lane'])} warp={part(bases['warp'])}"


def at(bases, r, l, w):
    """The (row, col) that register r of lane l in warp w holds."""
    row = col = 0
    for part, bits in (("register", r), ("lane", l), ("warp", w)):
        for i, (a, b) in enumerate(bases[part]):
            if bits >> i & 1:
                row ^= a
                col ^= b
    return row, col
