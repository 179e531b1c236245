"""The cp.async campaign's third part (docs/bank-model.md, rule 6c): the
zero-fill form with its predicate operand negated (`, !Pn`, Triton's and
CUTLASS's main loops) or not, in every register P0 to P6, and the `.ZFILL`
form (any source size), over the pattern space of make_cpasync_cases.py.

    python3 validate/fidelity/make_cpasync_reg_cases.py OUTDIR [SEED]

writes OUTDIR/cpasync.cases and OUTDIR/cpasync.trace as make_cpasync_cases.py
does (validate/fidelity/cpasync.cu runs them; its reg_probe kernels,
cpasync_reg_kernels.cuh, steer the register). Families (case-name prefixes):
  sweep  one pattern copied through all 14 operands (!P0..!P6, P0..P6) of
         one form: what separates the operands, the pattern held fixed;
  tri    Triton's matmul copies (the warp requests captured on the H100,
         validate/results/h100-2026-11-26/triton-matmul/ldgsts.sample.trace)
         through !P0, P0 and P1 and the guarded !P3 and P3 kernels;
  negrand  random patterns, forms and operands, flat kernels, 1 warp to 264
         blocks of 8 warps;
  negocc random patterns through the guarded kernels (!P3, !P2, P3, P2):
         idle lanes, 1 to 3 stages in flight, occupancy, and timing twins;
  zfill  `.ZFILL` (a run-time source size of any value): each address
         pattern with every lane reading all its bytes, with size-0 lanes
         only, and with partial sizes, so whether the sizes matter shows;
  zlanes (seeds other than 4848) zero-filling lanes beside sector-moving
         readers through !P0, P0, !P1, P1, P3, and !P0's timing twins.
Standard library and, for Triton's trace, the project's trace reader (the Python
module, validate/sm90/case_format.py); the seed fixes every case (default 4848)."""
import os
import random
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.fidelity import make_cpasync_cases as base  # noqa: E402
from validate.sm90.case_format import records_of  # noqa: E402

REGS = [f"negf{r}" for r in range(7)] + [f"posf{r}" for r in range(7)]  # the flat kernels, by operand register
GUARDED = ["neg3", "neg2", "pos3", "pos2"]
FULL = (1 << 32) - 1
TRITON = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "results", "h100-2026-11-26",
                      "triton-matmul", "ldgsts.sample.trace")


def triton_patterns():
    """[(site, destinations, sources)]: each record rebased (the warp's row of
    512 shared bytes, the sources' first line at 0, offsets in lines kept)."""
    out = []
    for r in records_of(TRITON):
        d, s = r["addresses"], r["sources"]
        d0, s0 = min(d) // 512 * 512, min(s) // 128 * 128
        out.append((r["site"], [x - d0 for x in d], [x - s0 for x in s]))
    return out


def pattern(rng, form, kind):
    w = base.WIDTH[form]
    if kind == "rows":
        d = rng.choice([256, 512, 1024])
        return [f"tworows d={d} o=0", "dst lin"], [16 * l for l in range(32)], base.two_rows(16, 64, d, 0)
    if kind == "lin-kway":
        k = rng.choice([2, 4, 8])
        groups = max(1, 128 // w // k)
        rows = rng.sample(range(32), min(32, 32 // groups))
        dst = [128 * rows[(l // groups) % len(rows)] + w * (l % groups) for l in range(32)]
        return ["src lin", f"dst kway{k}"], dst, [w * l for l in range(32)]
    sk, src = base.source_layout(rng, w, base.SPAN_MANY)
    dk, dst = base.dest_layout(rng, w)
    return [f"src {sk}", f"dst {dk}"], dst, src


def zero_of(rng, kind):
    if kind == "none":
        return "none", 0
    if kind == "rowhalf":
        return kind, sum(0xF0 << (8 * q) for q in range(4))
    if kind == "all":
        return kind, FULL
    return "random", rng.getrandbits(32)


def sweep(out, rng, form, kinds, zeros, occ=(1, 1)):
    for kind, zk in zip(kinds, zeros):
        tags, dst, src = pattern(rng, form, kind)
        zname, zero = zero_of(rng, zk)
        for zmode in REGS:
            out.add("sweep", form, zmode, occ, 1, dst, src, FULL, zero, tags + ["mask full", f"zero {zname}"], rng,
                    zero_null=0)


def tri(out, rng):
    for site, dst, src in triton_patterns():
        for zmode in ["negf0", "posf0", "posf1"]:
            out.add("tri", "cg16", zmode, (132, 4), 1, dst, src, FULL, 0, [f"triton {site}", "mask full", "zero none"],
                    rng, zero_null=0)
        for zmode in ["neg3", "pos3"]:
            out.add("tri", "cg16", zmode, (132, 4), 2, dst, src, FULL, 0, [f"triton {site}", "mask full", "zero none"],
                    rng, zero_null=0)


def negrand(out, rng, n):
    for _ in range(n):
        form = rng.choice(["cg16", "cg16", "cg16l", "ca4", "ca8", "ca16"])
        zmode = rng.choice(REGS[:7] * 3 + REGS[7:])
        occ = rng.choice(base.OCC)
        tags, dst, src = pattern(rng, form, rng.choice(["rand", "rand", "rows", "lin-kway"]))
        zname, zero = zero_of(rng, rng.choice(["none", "none", "random", "rowhalf", "all"]))
        out.add("negrand", form, zmode, occ, 1, dst, src, FULL, zero, tags + ["mask full", f"zero {zname}"], rng,
                zero_null=0)


def negocc(out, rng, n):
    for i in range(n):
        state = rng.getstate()
        for stagger in [0, 1500] if i % 3 == 0 else [0]:
            rng.setstate(state)
            form = rng.choice(["cg16", "cg16", "cg16l", "ca4", "ca8", "ca16"])
            zmode = rng.choice(GUARDED[:2] * 2 + GUARDED[2:])
            occ = rng.choice(base.OCC)
            stages = rng.choice([1, 2, 3])
            wait_each = int(stages > 1 and rng.random() < 0.3)
            tags, dst, src = pattern(rng, form, rng.choice(["rand", "rand", "rows", "lin-kway"]))
            mk, mask = base.lane_mask(rng)
            zname, zero = zero_of(rng, rng.choice(["none", "none", "random", "rowhalf"]))
            out.add("negocc", form, zmode, occ, stages, dst, src, mask, zero, tags + [f"mask {mk}", f"zero {zname}"],
                    rng, stagger=stagger, wait_each=wait_each, zero_null=rng.randrange(2))


def zfill(out, rng, n):
    for _ in range(n):
        form = rng.choice(["ca4", "ca8", "ca16", "cg16"])
        w = base.WIDTH[form]
        tags, dst, src = pattern(rng, form, rng.choice(["rand", "rand", "rows", "lin-kway"]))
        zero = rng.getrandbits(32)
        partial = [0 if (zero >> l) & 1 else rng.choice([v for v in [4, w // 2, w - 4, w] if 0 < v <= w])
                   for l in range(32)]
        for zname, sizes in [("none", [w] * 32), ("size0", [0 if (zero >> l) & 1 else w for l in range(32)]),
                             ("partial", partial)]:
            z = sum(1 << l for l in range(32) if sizes[l] == 0)
            out.add("zfill", form, "partial", (1, 1), 1, dst, src, FULL, z, tags + ["mask full", f"zero {zname}"],
                    rng, sizes=sizes, zero_null=0)


def zlanes(out, rng, n):
    """Zero-filling lanes, the sub-case the first run left open: readers that
    move whole sectors (rule 6b's domain) beside zero-filling lanes in rows,
    quarters, at random, everywhere, some writing one destination twice;
    each through !P0, P0, !P1, P1 and P3, and every other one twice more
    through !P0 on 132 x 8 warps, the second time with the warps staggered."""
    for i in range(n):
        kind = rng.choice(["rows", "lin-kway", "lin-kway", "rand"])
        tags, dst, src = pattern(rng, "cg16", kind)
        if rng.random() < 0.25:  # some zero-filling lanes share destinations
            pool = rng.sample(range(0, 4096, 16), 8)
            dst = [d if rng.random() < 0.5 else rng.choice(pool) for d in dst]
            tags = tags[:1] + [tags[1] + "+shared"]
        zname, zero = rng.choice([("rowhalf", sum(0xF0 << (8 * q) for q in range(4))),
                                  ("quarter", sum(0xFF << (8 * q) for q in rng.sample(range(4), rng.choice([1, 2, 3])))),
                                  ("random", rng.getrandbits(32)), ("all", FULL),
                                  ("onelane", sum(1 << (8 * q + rng.randrange(8)) for q in range(4)))])
        for zmode in ["negf0", "posf0", "negf1", "posf1", "posf3"]:
            out.add("zlanes", "cg16", zmode, (1, 1), 1, dst, src, FULL, zero, tags + ["mask full", f"zero {zname}"],
                    rng, zero_null=0)
        if i % 2 == 0:
            for stagger in [0, 1500]:
                out.add("zlanes", "cg16", "negf0", (132, 8), 1, dst, src, FULL, zero,
                        tags + ["mask full", f"zero {zname}"] + (["timing twin"] if stagger else []), rng,
                        stagger=stagger, zero_null=0)


def main():
    outdir = sys.argv[1]
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 4848
    rng = random.Random(seed)
    out = base.Writer()
    sweep(out, rng, "cg16", ["rows", "rows", "lin-kway", "lin-kway", "rand", "rand", "rand", "rand"],
          ["none", "rowhalf", "none", "random", "none", "random", "all", "rowhalf"])
    sweep(out, rng, "cg16", ["rows", "rand"], ["none", "random"], occ=(132, 8))
    sweep(out, rng, "cg16l", ["rows", "rand"], ["none", "random"])
    for form in ["ca4", "ca8", "ca16"]:
        sweep(out, rng, form, ["lin-kway", "rand"], ["none", "random"])
    tri(out, rng)
    negrand(out, rng, int(os.environ.get("CPASYNC_NEGRAND", "60")))
    negocc(out, rng, int(os.environ.get("CPASYNC_NEGOCC", "54")))
    zfill(out, rng, int(os.environ.get("CPASYNC_ZFILL", "16")))
    if seed != 4848:  # the second run: the zero-filling lanes the first left open (run 1's cases stay as they were)
        zlanes(out, rng, int(os.environ.get("CPASYNC_ZLANES", "24")))
    out.save(outdir, "make_cpasync_reg_cases.py", seed)


if __name__ == "__main__":
    main()
