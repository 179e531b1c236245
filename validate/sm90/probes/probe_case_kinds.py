"""The probe cases of each access kind, for make_probe_cases.py (which
documents what a lane token means per kind): each `KIND_cases(c, ...)` adds
the kind's cases to the case set `c` (make_probe_cases.Cases) in launch
order, drawing only from the seeded `rnd` it is given, so the files stay
reproducible byte for byte. Only the standard library is used."""
from validate.sm90.ld8_cases import ld8mix_requests

W = 32
SHARED = 48 * 1024
FULL = (1 << W) - 1

# What the compiler emits for the 12-byte element kernels (sm_90, nvcc 13.0,
# -O2), as (op, width, byte offset within the element) per SASS instruction;
# check_sass.py verifies the binary still matches this before the run.
S12_SASS = {
    "ld.a4": (12, [("ld", 4, 0), ("ld", 4, 4), ("ld", 4, 8)]),
    "st.a4": (12, [("st", 4, 0), ("st", 4, 4), ("st", 4, 8)]),
    "ld.a16": (16, [("ld", 16, 0)]),
    "st.a16": (16, [("st", 8, 0), ("st", 4, 8)]),
    "ld.a4even": (24, [("ld", 8, 0), ("ld", 4, 8)]),
    "st.a4even": (24, [("st", 8, 0), ("st", 4, 8)]),
    "ld.float3": (12, [("ld", 4, 0), ("ld", 4, 4), ("ld", 4, 8)]),
}


def masked(addrs, mask):
    return [a if (mask >> l) & 1 else None for l, a in enumerate(addrs)]


def row_lanes(row):
    """A manifest row's destinations and sources as the model sees them (None where idle)."""
    mask = int(row["mask"], 16)
    return masked(row["a"], mask), masked(row["s"], mask)


# ------------------------------------------------------------------ atomics
def word_patterns(rnd):
    """32-bit atomics: name -> (addresses, mask)."""
    p = {}
    p["bcast"] = ([0] * W, FULL)
    p["bcast-w37"] = ([4 * 37] * W, FULL)
    p["distinct"] = ([4 * l for l in range(W)], FULL)
    perm = list(range(W))
    rnd.shuffle(perm)
    p["distinct-perm"] = ([4 * x for x in perm], FULL)
    for k in (2, 4, 8, 16, 32):
        # k distinct words of bank 0, lanes spread evenly over them
        p[f"kway{k}"] = ([(l % k) * 128 for l in range(W)], FULL)
    for k in (2, 4, 8, 16):
        # k lanes on k distinct words of bank 0, the other lanes on words of
        # their own banks (Karsin's "k threads in conflict")
        p[f"kway{k}-solo"] = ([l * 128 if l < k else 4 * l for l in range(W)], FULL)
    p["pairs"] = ([4 * (l // 2) for l in range(W)], FULL)
    p["pairs16"] = ([4 * (l % 16) for l in range(W)], FULL)
    p["groups4"] = ([4 * (l // 4) for l in range(W)], FULL)
    p["groups4-bank0"] = ([128 * (l // 4) for l in range(W)], FULL)
    p["mask-lane0"] = ([4 * l for l in range(W)], 1)
    p["mask-lo16"] = ([4 * l for l in range(W)], 0xFFFF)
    p["mask-even-bcast"] = ([0] * W, 0x55555555)
    p["mask-odd-kway4"] = ([(l % 4) * 128 for l in range(W)], 0xAAAAAAAA)
    p["rand1k"] = ([rnd.randrange(0, 1024) // 4 * 4 for _ in range(W)], FULL)
    p["rand48k"] = ([rnd.randrange(0, SHARED) // 4 * 4 for _ in range(W)], FULL)
    return p


def dword_patterns(rnd):
    """64-bit atomics: name -> (addresses, mask); every address 8-aligned."""
    p = {}
    p["bcast"] = ([0] * W, FULL)
    p["distinct"] = ([8 * l for l in range(W)], FULL)
    p["distinct-s16"] = ([16 * l for l in range(W)], FULL)
    for k in (2, 4, 8, 16, 32):
        p[f"kway{k}"] = ([(l % k) * 128 for l in range(W)], FULL)
    p["pairs"] = ([8 * (l // 2) for l in range(W)], FULL)
    p["pairs16"] = ([8 * (l % 16) for l in range(W)], FULL)
    p["halves128"] = ([8 * (l % 16) + 128 * (l // 16) for l in range(W)], FULL)
    p["mask-lo16"] = ([8 * l for l in range(W)], 0xFFFF)
    p["mask-even"] = ([8 * l for l in range(W)], 0x55555555)
    p["rand1k"] = ([rnd.randrange(0, 1024) // 8 * 8 for _ in range(W)], FULL)
    return p


def atom_cases(c, rnd):
    words = word_patterns(rnd)
    dwords = dword_patterns(rnd)
    core = ["bcast", "distinct", "kway4", "kway32", "kway4-solo", "pairs", "groups4"]
    tiny = ["bcast", "kway4"]
    loop = ["bcast", "distinct", "kway4", "pairs"]
    plan = [  # (variant, width, used, patterns, note)
        ("add.u32", 4, 1, [w for w in words if w not in ("bcast-w37", "distinct-perm")], "ATOMS.ADD"),
        ("red.add.u32", 4, 0, core, "ATOMS.ADD RZ"),
        ("builtin.inc1.unused", 4, 0, core, "atomicAdd(p,1) unused: ATOMS.POPC.INC.32"),
        ("cas.b32", 4, 1, core, "ATOMS.CAS"),
        ("exch.b32", 4, 1, core, "ATOMS.EXCH"),
        ("min.s32", 4, 1, tiny, "ATOMS.MIN.S32"),
        ("min.u32", 4, 1, tiny, "ATOMS.MIN"),
        ("max.s32", 4, 1, tiny, "ATOMS.MAX.S32"),
        ("max.u32", 4, 1, tiny, "ATOMS.MAX"),
        ("and.b32", 4, 1, tiny, "ATOMS.AND"),
        ("or.b32", 4, 1, tiny, "ATOMS.OR"),
        ("xor.b32", 4, 1, tiny, "ATOMS.XOR"),
        ("inc.u32", 4, 1, tiny, "ATOMS.INC"),
        ("red.min.u32", 4, 0, tiny, "ATOMS.MIN RZ"),
        ("red.or.b32", 4, 0, tiny, "ATOMS.OR RZ"),
        ("builtin.add.unused", 4, 0, tiny, "atomicAdd(p,lane) unused: ATOMS.ADD RZ"),
        ("builtin.add.used", 4, 1, tiny, "atomicAdd(p,lane) used: ATOMS.ADD"),
        ("cas.b64", 8, 1, list(dwords), "ATOMS.CAS.64"),
        ("exch.b64", 8, 1, ["bcast", "distinct", "kway2", "kway4", "kway32", "pairs", "pairs16", "halves128"],
         "ATOMS.EXCH.64"),
        # No single instruction on sm_90: a CAS loop (LDS + ATOMS.CAST.SPIN),
        # measured because programs write them; lanes on one address retry.
        ("add.f32", 4, 1, loop, "CAS loop: LDS + ATOMS.CAST.SPIN"),
        ("red.add.f32", 4, 0, loop, "CAS loop: LDS + ATOMS.CAST.SPIN"),
        ("add.u64", 8, 1, loop, "CAS loop: LDS.64 + ATOMS.CAST.SPIN.64"),
    ]
    for variant, width, used, pats, note in plan:
        table = words if width == 4 else dwords
        for pname in pats:
            addrs, mask = table[pname]
            name = f"atom-{variant}-{pname}"
            c.add("atom.trace", name, "atom", variant, width, masked(addrs, mask), used=str(used), note=note,
                  comment=f"func={variant} used={used}")


# ------------------------------------------------------- ldmatrix/stmatrix
def matrix_rows(pattern, rnd):
    """32 row addresses (lane 8i+r gives row r of matrix i) for a pattern."""
    if pattern.startswith("rand"):
        region = {"rand4k": 4096, "rand48k": SHARED}[pattern.split("-")[0]]
        return [rnd.randrange(0, region // 16) * 16 for _ in range(W)]
    rows = [0] * W
    for l in range(W):
        i, r = divmod(l, 8)
        if pattern == "contiguous":        # matrix i = 128 contiguous bytes
            rows[l] = i * 128 + r * 16
        elif pattern.startswith("stride"):  # tile with row pitch S, matrix i at column block i
            s = int(pattern[6:])
            rows[l] = i * 16 + r * s
        elif pattern == "stacked128":     # matrices stacked vertically in a 128-byte-pitch tile
            rows[l] = (8 * i + r) * 128
        elif pattern == "swizzled":       # pitch 128, 16-byte chunk index XOR row: conflict-free
            rows[l] = r * 128 + ((i ^ r) % 8) * 16
        elif pattern == "swizzled-stacked":
            rows[l] = (8 * i + r) * 128 + ((r ^ i) % 8) * 16
        elif pattern == "rowbcast":       # all 8 rows of matrix i on one address
            rows[l] = i * 16
        elif pattern == "rowbcast-bank0":  # matrix i's rows all at i*128: 4 distinct rows of bank group 0
            rows[l] = i * 128
        elif pattern == "allsame":
            rows[l] = 0
        else:
            raise ValueError(pattern)
    return rows


def matrix_cases(c, rnd):
    full = ["contiguous", "stride32", "stride64", "stride128", "stride256", "stacked128", "swizzled",
            "swizzled-stacked", "rowbcast", "rowbcast-bank0", "allsame", "rand4k-0"]
    trans = ["contiguous", "stride128", "swizzled", "rowbcast", "rand4k-0"]
    part = ["contiguous", "stride64", "stride128", "swizzled", "rowbcast"]
    part_trans = ["contiguous", "stride128"]
    for op in ("ldsm", "stsm"):
        for variant, pats in (("x4", full), ("x4.trans", trans), ("x2", part), ("x1", part),
                              ("x2.trans", part_trans), ("x1.trans", part_trans)):
            n = int(variant[1]) * 8
            for pname in pats:
                rows = matrix_rows(pname, rnd)
                model = [a if l < n else None for l, a in enumerate(rows)]
                # unused lanes pass a copy of a used lane's row: harmless if read
                hw = [rows[l] if l < n else rows[l % n] for l in range(W)]
                name = f"{op}-{variant}-{pname}"
                c.add("matrix.trace", name, op, variant, 16, model, hw=hw,
                      note="fill=copy" if n < W else "", comment=variant)
            if n < W:
                # The same used rows, with the unused lanes' addresses chosen
                # to conflict (distinct rows of bank group 0) or at random:
                # equal counts across fills mean the hardware ignores them.
                base = matrix_rows("contiguous", rnd)
                for fill in ("conflict", "random"):
                    if fill == "conflict":
                        hw = [base[l] if l < n else 4096 + (l - n) * 128 for l in range(W)]
                    else:
                        hw = [base[l] if l < n else rnd.randrange(0, SHARED // 16) * 16 for l in range(W)]
                    model = [a if l < n else None for l, a in enumerate(base)]
                    name = f"{op}-{variant}-contiguous-fill-{fill}"
                    c.add("matrix.trace", name, op, variant, 16, model, hw=hw, note=f"fill={fill}",
                          comment=f"{variant}; unused lanes pass {fill} addresses")


# ---------------------------------------------------------------- cp.async
def cpasync_sources(w, rnd):
    """Global source patterns for a cp.async of width w: name -> the byte
    offset lane l reads (into the 4096-byte-aligned probe buffer). Rows are
    256 bytes apart, so a row of g lanes is g * w bytes of its own 128-byte
    line; every other pattern says what it keeps fixed."""
    p = {}
    for g in (16, 8, 4, 2, 1):
        if g * w <= 128:
            p[f"rows{g}"] = [(l // g) * 256 + (l % g) * w for l in range(W)]
    p["off16"] = [w * l + 16 for l in range(W)]          # contiguous, one sector late
    p["off64"] = [w * l + 64 for l in range(W)]          # contiguous, half a line late
    p["interleave4"] = [(l % 4) * 256 + (l // 4) * w for l in range(W)]  # quarter warps span 4 rows
    p["bcast"] = [0] * W
    p["pairs"] = [w * (l // 2) for l in range(W)]
    perm = list(range(W))
    rnd.shuffle(perm)
    p["perm"] = [w * x for x in perm]                   # contiguous bytes, lanes permuted
    p["rev"] = [w * (W - 1 - l) for l in range(W)]
    p["rand4k"] = [rnd.randrange(0, 4096 // w) * w for _ in range(W)]
    p["page"] = [4096 * l for l in range(W)]            # one 4 KiB page per lane
    return p


def cpasync_cases(c, rnd):
    for variant, w in (("ca.4", 4), ("ca.8", 8), ("ca.16", 16), ("cg.16", 16)):
        pats = {}
        pats["consecutive"] = ([w * l for l in range(W)], FULL)
        for k in (2, 4, 8):
            if (W // k) * w <= 128:
                # k distinct rows per bank, every destination distinct
                pats[f"kway{k}"] = ([(l % k) * 128 + (l // k) * w for l in range(W)], FULL)
        pats["kway32"] = ([l * 128 for l in range(W)], FULL)   # all in bank (group) 0
        pats["stride2"] = ([2 * w * l for l in range(W)], FULL)
        pats["mask-lo16"] = ([w * l for l in range(W)], 0xFFFF)
        pats["mask-even"] = ([w * l for l in range(W)], 0x55555555)
        pats["mask-even-kway32"] = ([l * 128 for l in range(W)], 0x55555555)
        contig = [w * l for l in range(W)]
        for pname, (addrs, mask) in pats.items():
            name = f"cpasync-{variant}-{pname}"
            c.add("cpasync.trace", name, "cpasync", variant, w, masked(addrs, mask), src=masked(contig, mask),
                  comment=variant)
        # The same conflict-free (or conflicting) destinations fed from
        # other global sources: does the copy's shared-side cost depend on
        # the lines and sectors its source touches?
        srcs = cpasync_sources(w, rnd)
        plan = [("consecutive", s) for s in srcs]
        g_small = min(g for g in (4, 8, 16) if f"rows{g}" in srcs)
        for d in [k for k in ("kway4", "kway8", "kway32") if k in pats]:
            plan += [(d, "rows1"), (d, f"rows{g_small}"), (d, "interleave4")]
        plan += [("mask-even", f"rows{g_small}"), ("mask-lo16", "rows1")]
        for dname, sname in plan:
            addrs, mask = pats[dname]
            name = f"cpasync-{variant}-{dname}-src-{sname}"
            c.add("cpasync.trace", name, "cpasync", variant, w, masked(addrs, mask), src=masked(srcs[sname], mask),
                  comment=f"{variant} source {sname}")


# ------------------------------------------------------------ 12-byte
def s12_cases(c, rnd):
    perm = list(range(W))
    rnd.shuffle(perm)
    pats = {
        "consecutive": ([l for l in range(W)], FULL),
        "bcast": ([0] * W, FULL),
        "stride8": ([8 * l for l in range(W)], FULL),
        "mask-even": ([l for l in range(W)], 0x55555555),
    }
    for variant, (elem, instrs) in S12_SASS.items():
        for pname, (idx, mask) in pats.items():
            name = f"s12-{variant}-{pname}"
            model = masked(idx, mask)
            c.add(None, name, "s12", variant, elem, model, note=f"element {elem} bytes; a_l = element index")
            for op, width, off in instrs:
                addrs = [None if i is None else i * elem + off for i in model]
                c.trace_line("s12.trace", f"{name}+{off}", op, width, addrs,
                             comment=f"{variant}: {op}.{width * 8} at element*{elem}+{off}")


# --------------------------------------------- 8-byte loads, idle lanes
def ld8_cases(c):
    """The ld8mix loads (validate/sm90/make_cases.py) that have inactive
    lanes, run with those lanes predicated off (`@P LDS.64`) or diverged
    instead of exited. `pred-far`: every one of them, the idle lanes'
    address registers holding distinct rows of banks 0-1 far from the data
    (they would break every pairing and conflict, were they read);
    `pred-copy`: every eighth, the idle lanes holding their partner's
    address (l^1, else l^2, else l^3, else the first active lane's), which
    changes nothing if read; `div`: every eighth from the fifth on."""
    idle_cases = []
    for site, addrs in ld8mix_requests():
        if any(a is None for a in addrs):
            idle_cases.append((site[len("ld8mix-"):], addrs))
    for i, (orig, addrs) in enumerate(idle_cases):
        first_active = next(a for a in addrs if a is not None)
        idle = [l for l, a in enumerate(addrs) if a is None]
        far = [None] * W
        for j, l in enumerate(idle):
            far[l] = 40960 + 128 * j
        copy = [None] * W
        for l in idle:
            copy[l] = next((addrs[l ^ d] for d in (1, 2, 3) if addrs[l ^ d] is not None), first_active)
        variants = [("pred-far", "pred", far)]
        if i % 8 == 0:
            variants.append(("pred-copy", "pred", copy))
        if i % 8 == 4:
            variants.append(("div", "div", far))
        for tag, variant, fill in variants:
            hw = [a if a is not None else fill[l] for l, a in enumerate(addrs)]
            fill_name = tag.split("-")[-1] if variant == "pred" else "unset"
            c.add("ld8pred.trace", f"ld8{tag}-{orig}", "ld8", variant, 8, addrs, hw=hw, op="ld",
                  note=f"idle lanes {variant}; fill={fill_name}",
                  comment=f"idle lanes {'predicated off' if variant == 'pred' else 'diverged'}"
                          + (f", their address registers: {fill_name}" if variant == "pred" else ""))


# ------------------------------------------------------------- global
def global_cases(c, rnd):
    for op in ("gld", "gst"):
        for w in (4, 8, 16):
            pats = {}
            pats["contig"] = [w * l for l in range(W)]
            if w == 4:
                pats["contig+4"] = [4 + 4 * l for l in range(W)]
            else:
                pats[f"contig+{w}"] = [w + w * l for l in range(W)]
            if op == "gld":
                pats["contig+32"] = [32 + w * l for l in range(W)]
            for s in (2, 4, 8, 32):
                if op == "gst" and s in (4, 8):
                    continue
                pats[f"stride{s}"] = [s * w * l for l in range(W)]
            pats["same"] = [0] * W
            if op == "gld":
                pats["rand512"] = [rnd.randrange(0, 512 // w) * w for _ in range(W)]
            pats["rand64k"] = [rnd.randrange(0, 65536 // w) * w for _ in range(W)]
            if op == "gld":
                pats["mask-lo16"] = masked([w * l for l in range(W)], 0xFFFF)
            for pname, addrs in pats.items():
                name = f"{op}{w}-{pname}"
                c.add("global.trace", name, op, str(w), w, addrs, comment="byte offsets in a 4096-aligned buffer")

