"""Randomized cp.async (LDGSTS) probe campaign for docs/bank-model.md, rule 6:
the forms (.ca of 4, 8, 16 bytes, .cg of 16; plain, with a source size of 0
or the copy's, with the ignore-src predicate, with any source size) x source
layouts in global memory (one line per phase, two rows `d` bytes apart per
quarter warp as Triton's and CUTLASS's tiles read them, a few lines, many
lines, shared source addresses) x destination layouts (linear, permuted,
k-way conflicting, swizzled, random) x lane masks (an idle lane is skipped
by a guard predicate on the instruction) x zero-filling lanes x occupancy
(1 warp; 132 blocks of 1 warp; 132 and 264 blocks of 8 warps) x stages in
flight (1 to 3 commit groups, or each waited for), and twins that change
only the timing (each warp delayed by a multiple of `stagger` cycles).

    python3 validate/fidelity/make_cpasync_cases.py OUTDIR [SEED]

writes OUTDIR/cpasync.cases (one case per line, for validate/fidelity/
cpasync.cu) and OUTDIR/cpasync.trace (the same cases as bankcheck text trace
records, op from the form, `z` for a zero-filling lane; each case's site
names it, written by validate/sm90/case_format.py's `line`). Standard library
only; the seed fixes every case (default 4646)."""
import os
import random
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.sm90.case_format import line  # noqa: E402

OCC = [(1, 1), (132, 1), (132, 8), (264, 8)]
FORMS = ["ca4", "ca8", "ca16", "cg16"]
WIDTH = {"ca4": 4, "ca8": 8, "ca16": 16, "cg16": 16, "cg16l": 16}
SPAN_ONE, SPAN_MANY = 16384, 8192  # source bytes a single warp / a warp of a many-warp launch may reach


PRED_MODES = ["srcsizeP1", "ignoreP0", "ignoreP2"]  # cpasync.cu's fixed-register kernels: one warp, every lane


def op_of(form, zmode):
    """The op as the SASS will give it (collect_cpasync.py takes it from the measured SASS)."""
    if zmode.startswith(("neg", "pos")):  # cpasync_reg_kernels.cuh: the register is in the name
        reg = int(zmode[-1])
        if not form.startswith("cg"):
            return "cpasync"
        return ("cpasync.cg.notp0" if zmode.startswith("neg") else "cpasync.cg.zfill") if reg == 0 else "cpasync.cg"
    if zmode == "ignoreP0":
        return "cpasync.cg.zfill"
    if zmode in PRED_MODES:
        return "cpasync.cg"
    if zmode == "partial":
        return "cpasync.unmeasured" if form.startswith("cg") else "cpasync"
    if form == "cg16":
        return "cpasync.cg" if zmode == "plain" else "cpasync.cg.zfill"
    return "cpasync"


def two_rows(w, row, d, o, base=0):
    """Lane l's source when rows of `row` bytes lie `d` bytes apart: the
    warp's 32 * w bytes read row after row, each from offset o in its line."""
    return [base + (l * w // row) * d + o + (l * w) % row for l in range(32)]


def source_layout(rng, w, span):
    kind = rng.choice(["lin", "perm", "tworows", "tworows", "fewlines", "manylines", "same"])
    lines = span // 128
    if kind == "lin":
        base = rng.randrange(0, span - 32 * w, 128)
        return kind, [base + w * l for l in range(32)]
    if kind == "perm":  # each 128-byte line's lanes read it in a random order
        base = rng.randrange(0, span - 32 * w, 128)
        per = 128 // w
        out = []
        for g in range(0, 32, per):
            order = list(range(per))
            rng.shuffle(order)
            out += [base + w * (g + k) for k in order[:min(per, 32 - g)]]
        return kind, out[:32]
    if kind == "tworows":
        row = rng.choice([32, 64]) if w == 16 else rng.choice([16, 32, 64])
        d = 128 * rng.choice([1, 2, 3, 4, 6, 8, 16])
        while (32 * w // row) * d + 128 > span:
            d //= 2
        d = max(d, 128)
        o = rng.randrange(0, 128 - row + 1, w)
        return f"tworows-r{row}-d{d}-o{o}", two_rows(w, row, d, o)
    if kind == "fewlines":
        picked = rng.sample(range(lines), rng.choice([2, 3, 4]))
        return f"fewlines{len(picked)}", [128 * rng.choice(picked) + w * rng.randrange(128 // w) for _ in range(32)]
    if kind == "manylines":
        return kind, [rng.randrange(0, span, w) for _ in range(32)]
    pool = [rng.randrange(0, span, w) for _ in range(rng.choice([1, 2, 4, 8]))]
    return f"same{len(pool)}", [rng.choice(pool) for _ in range(32)]


def dest_layout(rng, w):
    kind = rng.choice(["lin", "perm", "kway", "kway", "random", "sw"] if w == 16 else ["lin", "perm", "kway", "random"])
    if kind == "lin":
        base = rng.randrange(0, 4096 - 32 * w + 1, 128)
        return kind, [base + w * l for l in range(32)]
    if kind == "perm":
        base = rng.randrange(0, 4096 - 32 * w + 1, 128)
        order = list(range(32))
        rng.shuffle(order)
        return kind, [base + w * k for k in order]
    if kind == "kway":
        k = rng.choice([2, 4, 8])
        groups = max(1, 128 // w // k)
        rows = rng.sample(range(32), 32 // groups if 32 // groups <= 32 else 32) if groups < 32 else list(range(32))
        return f"kway{k}", [128 * rows[(l // groups) % len(rows)] + w * (l % groups) for l in range(32)]
    if kind == "sw":  # Triton's / CUTLASS's XOR swizzle of 16-byte chunks, one 128-byte row per quarter warp
        base = rng.randrange(0, 4096 - 512 + 1, 512)
        return kind, [base + 128 * (l // 8) + 16 * ((l % 8) ^ (l // 8 % 8)) for l in range(32)]
    return kind, [rng.randrange(0, 4096, w) for _ in range(32)]


def lane_mask(rng):
    kind = rng.choice(["full", "full", "full", "random", "quarters", "half", "sparse"])
    if kind == "full":
        m = (1 << 32) - 1
    elif kind == "random":
        p = rng.choice([0.5, 0.75, 0.9])
        m = sum(1 << l for l in range(32) if rng.random() < p)
    elif kind == "quarters":
        qs = rng.sample(range(4), rng.choice([1, 2, 3]))
        m = sum(0xFF << (8 * q) for q in qs)
    elif kind == "half":
        m = 0xFFFF << (16 * rng.randrange(2))
    else:
        m = sum(1 << l for l in rng.sample(range(32), rng.choice([1, 2, 3, 5])))
    return kind, m or 1


def zero_lanes(rng, zmode, src_kind):
    """Lanes that fill zeros (a source size of 0 / the ignore-src predicate true)."""
    if zmode == "plain":
        return "none", 0
    kind = rng.choice(["none", "none", "random", "all", "quarter", "rowhalf"])
    if kind == "random":
        p = rng.choice([0.25, 0.5])
        return kind, sum(1 << l for l in range(32) if rng.random() < p)
    if kind == "all":
        return kind, (1 << 32) - 1
    if kind == "quarter":
        return kind, sum(0xFF << (8 * q) for q in rng.sample(range(4), rng.choice([1, 2])))
    if kind == "rowhalf":  # the upper half of every quarter warp: a tile's second row at its edge
        return kind, sum(0xF0 << (8 * q) for q in range(4))
    return "none", 0


class Writer:
    def __init__(self):
        self.cases, self.trace, self.n = [], ["warp 32"], 0

    def save(self, outdir, generator, seed):
        """OUTDIR/cpasync.cases and OUTDIR/cpasync.trace, headed by the generator's name and seed."""
        os.makedirs(outdir, exist_ok=True)
        with open(os.path.join(outdir, "cpasync.cases"), "w") as f:
            f.write(f"# validate/fidelity/{generator}, seed {seed}\n" + "\n".join(self.cases) + "\n")
        with open(os.path.join(outdir, "cpasync.trace"), "w") as f:
            f.write(f"# validate/fidelity/{generator}, seed {seed}: the cases of cpasync.cases\n" +
                    "\n".join(self.trace) + "\n")
        print(f"{len(self.cases)} cp.async cases (seed {seed})")

    def add(self, family, form, zmode, occ, stages, dst, src, mask, zero, tags, rng, *, stagger=0, wait_each=0,
            shared_src=False, zero_null=None, sizes=None):
        w = WIDTH[form]
        blocks, warps = occ
        span = max(src) + w
        stage_stride = (span + 1023) // 1024 * 1024
        warp_stride = 0 if shared_src or blocks * warps == 1 else stages * stage_stride
        zero_null = rng.randrange(2) if zero_null is None else zero_null
        if sizes is None:
            sizes = [0 if (zero >> l) & 1 else w for l in range(32)]
        name = f"cpa-{family}-{self.n:04d}-{form}-{zmode}-b{blocks}w{warps}s{stages}"
        name += ("-stag%d" % stagger if stagger else "") + ("-waiteach" if wait_each else "")
        name += ("-shsrc" if warp_stride == 0 and blocks * warps > 1 else "") + ("-znull" if zero_null else "")
        self.n += 1
        act = [(mask >> l) & 1 for l in range(32)]
        d = [str(dst[l]) if act[l] else "-" for l in range(32)]
        s = [str(src[l]) for l in range(32)]
        self.cases.append(" ".join([name, form, zmode, str(blocks), str(warps), str(stages), str(warp_stride),
                                    str(stage_stride), str(stagger), str(wait_each), str(zero_null)] + d + s +
                                   [str(sizes[l]) for l in range(32)]))
        td = [dst[l] if act[l] else None for l in range(32)]
        ts = [("z" if sizes[l] == 0 else src[l]) if act[l] else None for l in range(32)]
        if zmode[:4] in ("negf", "posf") and not all(act):
            # The flat kernels (cpasync_reg_kernels.cuh) copy in every lane: a lane the mask leaves
            # out still copies, its destination 0 (the case's zero-initialized one), its source and
            # size as given. The trace records what runs.
            td = [0 if a is None else a for a in td]
            ts = ["z" if sizes[l] == 0 else src[l] for l in range(32)]
            tags = tags + ["masked lanes copy"]
        self.trace.append(line(name, op_of(form, zmode), w, td, ts, " ".join(tags)))


def issue_family(out, rng):
    """The held-out pattern: each quarter warp reads two 64-byte rows d bytes
    apart (one warp: 8 rows), into one 128-byte shared row per quarter."""
    full = (1 << 32) - 1
    lin = [16 * l for l in range(32)]
    sw = [128 * (l // 8) + 16 * ((l % 8) ^ (l // 8)) for l in range(32)]
    half = sum(0xF0 << (8 * q) for q in range(4))
    for d in [128, 256, 384, 512, 768, 1024, 2048]:
        for o in [0, 64]:
            for zmode in ["plain", "srcsize", "ignore"]:
                out.add("rows", "cg16", zmode, (1, 1), 1, lin, two_rows(16, 64, d, o), full, 0,
                        [f"tworows d={d} o={o}", "dst lin", "mask full", "zero none"], rng, zero_null=1)
    for d in [256, 512, 1024]:
        for zmode in ["srcsize", "ignore"]:
            for zname, zero in [("random", rng.getrandbits(32)), ("rowhalf", half)]:
                for zn in [0, 1]:
                    out.add("rows", "cg16", zmode, (1, 1), 1, lin, two_rows(16, 64, d, 0), full, zero,
                            [f"tworows d={d} o=0", "dst lin", "mask full", f"zero {zname}"], rng, zero_null=zn)
    for d in [256, 1024]:
        out.add("rows", "cg16", "srcsize", (1, 1), 1, sw, two_rows(16, 64, d, 0), full, 0,
                [f"tworows d={d} o=0", "dst sw", "mask full", "zero none"], rng, zero_null=1)
        for zmode in ["plain", "srcsize"]:
            out.add("rows", "ca16", zmode, (1, 1), 1, lin, two_rows(16, 64, d, 0), full, 0,
                    [f"tworows d={d} o=0", "dst lin", "mask full", "zero none"], rng, zero_null=1)
    for d in [256, 1024]:
        for occ in OCC[1:]:
            for stages in [1, 3]:
                for zmode, zero in [("plain", 0), ("srcsize", 0), ("ignore", rng.getrandbits(32))]:
                    out.add("rows", "cg16", zmode, occ, stages, lin, two_rows(16, 64, d, 0), full, zero,
                            [f"tworows d={d} o=0", "dst lin", "mask full", "zero random" if zero else "zero none"],
                            rng, zero_null=1)
        for zmode in ["plain", "srcsize", "ignore"]:
            zero = rng.getrandbits(32) if zmode == "ignore" else 0
            out.add("rows", "cg16", zmode, (264, 8), 3, lin, two_rows(16, 64, d, 0), full, zero,
                    [f"tworows d={d} o=0", "dst lin", "mask full", "timing twin"], rng, stagger=2000, zero_null=1)


def pred_family(out, rng):
    """The zero-fill form with its predicate in P0, P1 or P2 whatever the PTX
    form: the issue's pattern and random layouts, every lane active."""
    full = (1 << 32) - 1
    half = sum(0xF0 << (8 * q) for q in range(4))
    for zmode in PRED_MODES:
        for d in [256, 1024]:
            for zname, zero in [("none", 0), ("rowhalf", half)]:
                out.add("pred", "cg16", zmode, (1, 1), 1, [16 * l for l in range(32)], two_rows(16, 64, d, 0), full,
                        zero, [f"tworows d={d} o=0", "dst lin", "mask full", f"zero {zname}"], rng, zero_null=0)
        for _ in range(int(os.environ.get("CPASYNC_PRED", "20"))):
            sk, src = source_layout(rng, 16, SPAN_ONE)
            dk, dst = dest_layout(rng, 16)
            zk, zero = zero_lanes(rng, "ignore", sk)
            out.add("pred", "cg16", zmode, (1, 1), 1, dst, src, full, zero,
                    [f"src {sk}", f"dst {dk}", "mask full", f"zero {zk}"], rng, zero_null=0)


def random_case(out, rng, family, occ, stages, zmodes=("plain", "srcsize", "ignore"), **kw):
    form = rng.choice(FORMS)
    zmode = rng.choice(zmodes)
    if zmode == "partial" and form == "ca4":
        form = rng.choice(["ca8", "ca16", "cg16"])
    w = WIDTH[form]
    sk, src = source_layout(rng, w, SPAN_ONE if occ == (1, 1) else SPAN_MANY)
    dk, dst = dest_layout(rng, w)
    mk, mask = lane_mask(rng)
    zk, zero = zero_lanes(rng, zmode, sk)
    sizes = None
    if zmode == "partial":
        sizes = [rng.choice([0, 4, w // 2, w - 4, w]) for _ in range(32)]
        zk = "partial"
    tags = [f"src {sk}", f"dst {dk}", f"mask {mk}", f"zero {zk}"]
    out.add(family, form, zmode, occ, stages, dst, src, mask, zero, tags, rng, sizes=sizes, **kw)
    return form, zmode, dst, src, mask, zero, tags


def main():
    outdir = sys.argv[1]
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 4646
    n_single = int(os.environ.get("CPASYNC_SINGLE", "240"))
    n_multi = int(os.environ.get("CPASYNC_MULTI", "72"))
    rng = random.Random(seed)
    out = Writer()
    issue_family(out, rng)
    for _ in range(n_single):
        random_case(out, rng, "rand", (1, 1), 1)
    for i in range(n_multi):
        occ = rng.choice(OCC[1:])
        stages = rng.choice([1, 2, 3])
        wait_each = int(stages > 1 and rng.random() < 0.3)
        shared = rng.random() < 0.25
        state = rng.getstate()
        random_case(out, rng, "occ", occ, stages, wait_each=wait_each, shared_src=shared)
        if i % 3 == 0:  # the same case, only the timing changed: warps staggered
            rng.setstate(state)
            random_case(out, rng, "occ", occ, stages, wait_each=wait_each, shared_src=shared, stagger=1500)
    pred_family(out, rng)
    for _ in range(int(os.environ.get("CPASYNC_PARTIAL", "24"))):
        random_case(out, rng, "part", (1, 1), 1, zmodes=("partial",))
    out.save(outdir, "make_cpasync_cases.py", seed)


if __name__ == "__main__":
    main()
