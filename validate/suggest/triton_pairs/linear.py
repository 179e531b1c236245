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
"""


def _log2(v):
    if v < 1 or v & (v - 1):
        raise ValueError(f"{v} is not a power of two")
    return v.bit_length() - 1


def _unit(dim, value):
    return [value, 0] if dim == 0 else [0, value]


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
