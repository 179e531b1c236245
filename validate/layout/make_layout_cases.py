#!/usr/bin/env python3
"""Layout x access cases for the H100: CuTe shared layouts walked by one
access kind, every warp instruction a single-instruction probe.

  python3 validate/layout/make_layout_cases.py [OUTDIR]
  python3 validate/layout/make_layout_cases.py --predict BANKCHECK [OUTDIR]

writes, into OUTDIR (default: validate/layout/cases):

  cases.tsv          one row per case (tab-separated): name, layout (as cute::print writes
                     it), element type, access, vector mode, instructions
  layout.csv         the probe manifest (format of
                     validate/sm90/probes/cases/probes.csv) for the ldmatrix,
                     stmatrix and cp.async instructions: one row per
                     instruction, named CASE.iK, run by probes.cu
  layout_ldst.trace  the ld/st instructions as a trace for the LDS/STS
                     microbench (validate/sm90/microbench.cu)
  layout.trace       every instruction as the model sees it (docs/trace-format.md),
                     cp.async with its sources: the C++ layout code must give
                     the same addresses (tests/sim/layout/layout_access_test.cpp)
  commands.txt       each case as a `bankcheck layout` command

--predict BANKCHECK runs those commands with BANKCHECK and writes
validate/layout/predictions.txt: the model's wavefronts per instruction,
committed before the hardware measures them.

The addresses are computed here, independently of the C++ layout code, by a
small evaluator of CuTe layouts and swizzles (cute/swizzle.hpp's
definition: the B bits at [M + S, M + S + B) XORed into [M, M + B)) and of
the lane maps of docs/layout.md. Hardware, this file and the C++ code are
three separate things; the test compares the last two, the measurement the
first with the model. The trace lines are validate/sm90/case_format.py's
`line`. Standard library only; deterministic.
"""
import os
import re
import shlex
import subprocess
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.sm90.case_format import line  # noqa: E402

W = 32
SHARED = 48 * 1024
INACTIVE = None


# ---------------------------------------------------------------- CuTe layouts
def parse_tuple(text, pos):
    """(value, pos): an int or a nested tuple of ints; '_' before an int ignored."""
    while text[pos] == " ":
        pos += 1
    if text[pos] == "(":
        items, pos = [], pos + 1
        while True:
            item, pos = parse_tuple(text, pos)
            items.append(item)
            while text[pos] == " ":
                pos += 1
            if text[pos] == ")":
                return tuple(items), pos + 1
            assert text[pos] == ",", (text, pos)
            pos += 1
    m = re.compile(r"_?(-?\d+)").match(text, pos)
    assert m, (text, pos)
    return int(m.group(1)), m.end()


def left_strides(shape, start=1):
    """CuTe's compact column-major strides: (strides, next)."""
    if isinstance(shape, int):
        return start, start * shape
    out = []
    for s in shape:
        d, start = left_strides(s, start)
        out.append(d)
    return tuple(out), start


def size(shape):
    if isinstance(shape, int):
        return shape
    n = 1
    for s in shape:
        n *= size(s)
    return n


def evaluate(shape, stride, index):
    """Offset of the 1-D coordinate `index` of one mode (first sub-mode fastest)."""
    if isinstance(shape, int):
        return (index % shape) * stride, index // shape
    total = 0
    for s, d in zip(shape, stride):
        part, index = evaluate(s, d, index)
        total += part
    return total, index


def swizzle(b, m, s, x):
    yyy = ((1 << b) - 1) << (m + max(0, s))
    y = x & yyy
    return x ^ (y >> s if s >= 0 else y << -s)


class Layout:
    """A cute::print-ed layout: [Sw<B,M,S> o (offset | smem_ptr[Nb](...)) o] shape:stride."""

    def __init__(self, text):
        self.text = text
        self.sw, self.byte_swizzle, self.offset, self.ptr_bits = None, False, 0, None
        rest = text
        m = re.match(r"\s*(?:Sw|Swizzle)<(-?\d+),(-?\d+),(-?\d+)>\s+o\s+", rest)
        if m:
            self.sw = tuple(int(g) for g in m.groups())
            rest = rest[m.end():]
            p = re.match(r"smem_ptr\[(\d+)b\]\([^)]*\)\s+o\s+", rest)
            o = re.match(r"_?(-?\d+)\s+o\s+", rest)
            if p:
                self.byte_swizzle, self.ptr_bits = True, int(p.group(1))
                rest = rest[p.end():]
            elif o:
                self.offset = int(o.group(1))
                rest = rest[o.end():]
        self.shape, pos = parse_tuple(rest + " ", 0)
        if pos < len(rest) and rest[pos] == ":":
            self.stride, pos = parse_tuple(rest + " ", pos + 1)
        else:
            self.stride, _ = left_strides(self.shape)
        assert rest[pos:].strip() == "", text
        assert isinstance(self.shape, tuple) and len(self.shape) in (2, 3), text

    def extent(self, mode):
        return size(self.shape[mode]) if mode < len(self.shape) else 1

    def address(self, tile, row, col, ebytes, base=0):
        off = evaluate(self.shape[0], self.stride[0], row)[0] + evaluate(self.shape[1], self.stride[1], col)[0]
        if len(self.shape) == 3:
            off += evaluate(self.shape[2], self.stride[2], tile)[0]
        if self.byte_swizzle:
            a = base + off * ebytes
            return swizzle(*self.sw, a) if self.sw else a
        e = self.offset + off
        return base + (swizzle(*self.sw, e) if self.sw else e) * ebytes


ELEMENT_BYTES = {"fp16": 2, "bf16": 2, "tf32": 4, "f32": 4, "int8": 1, "fp8": 1, "f64": 8}


def access_info(access):
    """(op token, probe kind, probe variant, bytes per lane, matrices)."""
    m = re.fullmatch(r"(ld|st)\.(8|16|32|64|128)", access)
    if m:
        return m.group(1), None, None, int(m.group(2)) // 8, 0
    m = re.fullmatch(r"(ldmatrix|stmatrix)\.x([124])(\.trans)?", access)
    if m:
        op = "ldsm" if m.group(1) == "ldmatrix" else "stsm"
        return op, op, "x" + m.group(2) + (m.group(3) or ""), 16, int(m.group(2))
    m = re.fullmatch(r"cp\.async\.(?:(ca|cg)\.)?(4|8|16)", access)
    if m:
        kind = m.group(1) or "ca"
        return ("cpasync.cg" if kind == "cg" else "cpasync"), "cpasync", f"{kind}.{m.group(2)}", int(m.group(2)), 0
    raise ValueError(access)


def lane_work(layout, along, per_lane, matrices):
    """Per instruction of one tile: 32 entries, (row, col) or None (docs/layout.md)."""
    ext_a, lines = layout.extent(along), layout.extent(1 - along)
    at = (lambda line, pos: (line, pos)) if along == 1 else (lambda line, pos: (pos, line))
    out = []
    if matrices:
        per_line = ext_a // per_lane
        count = lines // 8 * per_line
        assert ext_a % per_lane == 0 and lines % 8 == 0 and count % matrices == 0
        for first in range(0, count, matrices):
            lanes = [None] * W
            for j in range(matrices):
                mat = first + j
                for r in range(8):
                    lanes[8 * j + r] = at(mat // per_line * 8 + r, mat % per_line * per_lane)
            out.append(lanes)
        return out
    assert ext_a % per_lane == 0
    per_line = ext_a // per_lane
    vectors = lines * per_line
    for first in range(0, vectors, W):
        out.append([at((first + l) // per_line, (first + l) % per_line * per_lane) if first + l < vectors else None
                    for l in range(W)])
    return out


def instructions(case):
    """[(addrs, sources)] for every instruction of every tile; sources None unless cp.async."""
    lay = Layout(case["layout"])
    eb = ELEMENT_BYTES[case["type"]]
    op, kind, variant, nbytes, matrices = access_info(case["access"])
    along = case["along"]
    per_lane = nbytes // eb
    work = lane_work(lay, along, per_lane, matrices)
    tiles = lay.extent(2) if len(lay.shape) == 3 else 1
    tile_bytes = lay.extent(0) * lay.extent(1) * eb
    out = []
    for t in range(tiles):
        for i, lanes in enumerate(work):
            addrs, srcs = [], []
            for l, w in enumerate(lanes):
                if w is None:
                    addrs.append(None)
                    srcs.append(None)
                    continue
                a = lay.address(t, w[0], w[1], eb)
                # the lane's elements must be one aligned run (else no such instruction exists)
                for j in range(per_lane):
                    r, c = (w[0], w[1] + j) if along == 1 else (w[0] + j, w[1])
                    assert lay.address(t, r, c, eb) == a + j * eb, (case["name"], l, j)
                assert a % nbytes == 0, (case["name"], l)
                addrs.append(a)
                srcs.append(t * tile_bytes + (W * i + l) * nbytes)
            out.append((addrs, srcs if kind == "cpasync" else None))
    return out


# ---------------------------------------------------------------- the cases
SW128_E = "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)"          # sm80 fp16 K-major, 128-byte rows, element offsets
SW128_B = "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)"   # sm90 GMMA K-major SW128 atom (bytes)
SW64_B = "Sw<2,4,3> o smem_ptr[16b](unset) o (_8,_32):(_32,_1)"    # SW64 atom
SW32_B = "Sw<1,4,3> o smem_ptr[16b](unset) o (_8,_16):(_16,_1)"    # SW32 atom
SW128_MN = "Sw<3,4,3> o smem_ptr[16b](unset) o (_64,_8):(_1,_64)"  # MN-major SW128 atom
TF32_B = "Sw<3,4,3> o smem_ptr[32b](unset) o (_8,_32):(_32,_1)"    # tf32 K-major SW128 atom (bytes)
TF32_E = "Sw<3,2,3> o _0 o (_8,_32):(_32,_1)"                      # sm80 tf32 K-major (element offsets)
BF16_16 = "Sw<3,3,3> o _0 o (_16,_64):(_64,_1)"
STAGES = "Sw<3,3,3> o _0 o (_8,_64,_2):(_64,_1,_512)"              # two stages (mode 2)
NESTED = "Sw<3,3,3> o _0 o ((_8,_2),(_8,_8)):((_64,_512),(_1,_8))"  # nested modes, 16 x 64
PLAIN = "(_8,_64):(_64,_1)"
PLAIN16 = "(_16,_64):(_64,_1)"
ISSUE_334 = "Sw<3,3,4> o _0 o (_16,_64):(_64,_1)"   # CUTLASS issue class: S one too large
ISSUE_343E = "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)"   # the byte swizzle applied to fp16 element offsets
ISSUE_233 = "Sw<2,3,3> o _0 o (_8,_64):(_64,_1)"    # B one too small
WRONG_M = "Sw<3,2,3> o _0 o (_8,_64):(_64,_1)"      # base below 16 bytes: 8-byte chunks swizzled
WRONG_S = "Sw<3,3,5> o _0 o (_16,_64):(_64,_1)"
PAD = "(_8,_64):(_72,_1)"                           # +8 fp16 per row
PAD16 = "(_16,_64):(_72,_1)"
T32 = "(_32,_4):(_32,_1)"                           # 4 columns of an fp32 32 x 32 tile, read down a column
T32_PAD = "(_32,_4):(_33,_1)"                       # padded by one: conflict-free columns (gcd rule)
T32_XOR = "Sw<5,0,5> o _0 o (_32,_4):(_32,_1)"      # XOR transpose: column c of row r at c ^ r
T16_PAD = "(_32,_4):(_40,_1)"                       # fp16 rows padded by 8, a column of 2-byte elements

CASES = [
    # (name, layout, type, access, along)
    ("sw128e-ldsm4", SW128_E, "fp16", "ldmatrix.x4", 1),
    ("sw128e-ldsm4t", SW128_E, "fp16", "ldmatrix.x4.trans", 1),
    ("sw128e-ldsm2", SW128_E, "fp16", "ldmatrix.x2", 1),
    ("sw128e-ldsm1", SW128_E, "fp16", "ldmatrix.x1", 1),
    ("sw128e-stsm4", SW128_E, "fp16", "stmatrix.x4", 1),
    ("sw128e-ld128", SW128_E, "fp16", "ld.128", 1),
    ("sw128e-st128", SW128_E, "fp16", "st.128", 1),
    ("sw128e-ld64", SW128_E, "fp16", "ld.64", 1),
    ("sw128e-ld32", SW128_E, "fp16", "ld.32", 1),
    ("sw128e-cg16", SW128_E, "fp16", "cp.async.cg.16", 1),
    ("sw128b-ldsm4", SW128_B, "fp16", "ldmatrix.x4", 1),
    ("sw128b-ld128", SW128_B, "fp16", "ld.128", 1),
    ("sw128b-st128", SW128_B, "fp16", "st.128", 1),
    ("sw128b-ca16", SW128_B, "fp16", "cp.async.16", 1),
    ("sw64b-ldsm4", SW64_B, "fp16", "ldmatrix.x4", 1),
    ("sw64b-ld128", SW64_B, "fp16", "ld.128", 1),
    ("sw64b-stsm4", SW64_B, "fp16", "stmatrix.x4", 1),
    ("sw32b-ldsm2", SW32_B, "fp16", "ldmatrix.x2", 1),
    ("sw32b-ld128", SW32_B, "fp16", "ld.128", 1),
    ("bf16-ldsm4", BF16_16, "bf16", "ldmatrix.x4", 1),
    ("bf16-stsm4t", BF16_16, "bf16", "stmatrix.x4.trans", 1),
    ("tf32b-ldsm4", TF32_B, "tf32", "ldmatrix.x4", 1),
    ("tf32b-ld128", TF32_B, "tf32", "ld.128", 1),
    ("tf32b-ld32", TF32_B, "tf32", "ld.32", 1),
    ("tf32b-ca16", TF32_B, "tf32", "cp.async.16", 1),
    ("tf32b-ca4", TF32_B, "tf32", "cp.async.4", 1),
    ("tf32e-ld128", TF32_E, "tf32", "ld.128", 1),
    ("tf32e-ld64", TF32_E, "tf32", "ld.64", 1),
    ("mn-ldsm4t", SW128_MN, "fp16", "ldmatrix.x4.trans", 0),
    ("mn-ld128", SW128_MN, "fp16", "ld.128", 0),
    ("mn-stsm4t", SW128_MN, "fp16", "stmatrix.x4.trans", 0),
    ("stages-ldsm4", STAGES, "fp16", "ldmatrix.x4", 1),
    ("nested-ldsm4", NESTED, "fp16", "ldmatrix.x4", 1),
    ("nested-ld128", NESTED, "fp16", "ld.128", 1),
    ("plain-ldsm4", PLAIN, "fp16", "ldmatrix.x4", 1),
    ("plain-ldsm4t", PLAIN, "fp16", "ldmatrix.x4.trans", 1),
    ("plain-ldsm1", PLAIN, "fp16", "ldmatrix.x1", 1),
    ("plain-stsm4", PLAIN, "fp16", "stmatrix.x4", 1),
    ("plain-ld128", PLAIN, "fp16", "ld.128", 1),
    ("plain-st128", PLAIN, "fp16", "st.128", 1),
    ("plain-cg16", PLAIN, "fp16", "cp.async.cg.16", 1),
    ("plain-ca16", PLAIN, "fp16", "cp.async.16", 1),
    ("plain16-ldsm4", PLAIN16, "fp16", "ldmatrix.x4", 1),
    ("i334-ldsm4", ISSUE_334, "fp16", "ldmatrix.x4", 1),
    ("i334-ldsm4t", ISSUE_334, "fp16", "ldmatrix.x4.trans", 1),
    ("i334-ld128", ISSUE_334, "fp16", "ld.128", 1),
    ("i334-st128", ISSUE_334, "fp16", "st.128", 1),
    ("i343e-ldsm4", ISSUE_343E, "fp16", "ldmatrix.x4", 1),
    ("i343e-ldsm4t", ISSUE_343E, "fp16", "ldmatrix.x4.trans", 1),
    ("i343e-ld128", ISSUE_343E, "fp16", "ld.128", 1),
    ("i343e-st128", ISSUE_343E, "fp16", "st.128", 1),
    ("i233-ldsm4", ISSUE_233, "fp16", "ldmatrix.x4", 1),
    ("i233-ldsm4t", ISSUE_233, "fp16", "ldmatrix.x4.trans", 1),
    ("i233-ld128", ISSUE_233, "fp16", "ld.128", 1),
    ("i233-st128", ISSUE_233, "fp16", "st.128", 1),
    ("wrongm-ld64", WRONG_M, "fp16", "ld.64", 1),
    ("wrongm-ld32", WRONG_M, "fp16", "ld.32", 1),
    ("wrongs-ldsm4", WRONG_S, "fp16", "ldmatrix.x4", 1),
    ("wrongs-ld128", WRONG_S, "fp16", "ld.128", 1),
    ("pad-ldsm4", PAD, "fp16", "ldmatrix.x4", 1),
    ("pad-ld128", PAD, "fp16", "ld.128", 1),
    ("pad-st128", PAD, "fp16", "st.128", 1),
    ("pad16-ldsm4t", PAD16, "fp16", "ldmatrix.x4.trans", 1),
    ("pad-ca16", PAD, "fp16", "cp.async.16", 1),
    ("t32-col", T32, "f32", "ld.32", 0),
    ("t32-colst", T32, "f32", "st.32", 0),
    ("t32pad-col", T32_PAD, "f32", "ld.32", 0),
    ("t32pad-colst", T32_PAD, "f32", "st.32", 0),
    ("t32xor-col", T32_XOR, "f32", "ld.32", 0),
    ("t32xor-row", T32_XOR, "f32", "ld.32", 1),
    ("t16pad-col", T16_PAD, "fp16", "ld.16", 0),
]


def main():
    args = sys.argv[1:]
    bankcheck = None
    if args[:1] == ["--predict"]:
        bankcheck, args = args[1], args[2:]
    here = os.path.dirname(os.path.abspath(__file__))
    outdir = args[0] if args else os.path.join(here, "cases")
    os.makedirs(outdir, exist_ok=True)
    header = "# layout x access cases, generated by validate/layout/make_layout_cases.py\n"
    cases_csv, manifest, ldst, trace, commands = [], [], [], [], []
    for name, layout, etype, access, along in CASES:
        case = {"name": "layout-" + name, "layout": layout, "type": etype, "access": access, "along": along}
        op, kind, variant, nbytes, matrices = access_info(access)
        ins = instructions(case)
        cases_csv.append(f"{case['name']}\t{layout}\t{etype}\t{access}\t{along}\t{len(ins)}")
        commands.append(f"{case['name']}\tbankcheck layout {shlex.quote(layout)} --type {etype} --access {access} "
                        f"--along {along} --per-instruction --csv")
        for k, (addrs, srcs) in enumerate(ins):
            site = f"{case['name']}.i{k}"
            for a in addrs:
                assert a is None or a + nbytes <= SHARED, site
            trace.append(line(site, op, nbytes, addrs, srcs))
            if kind is None:
                ldst.append(line(site, op, nbytes, addrs))
                continue
            n = 8 * matrices if matrices else W
            mask = sum(1 << l for l, a in enumerate(addrs) if a is not None)
            # unused ldmatrix lanes pass a copy of a used lane's row (the probes' fill=copy)
            hw = [a if a is not None else (addrs[l % n] if matrices else 0) for l, a in enumerate(addrs)]
            hw = [0 if a is None else a for a in hw]
            s = [0 if v is None else v for v in (srcs or [0] * W)]
            manifest.append(f"{site},{kind},{variant},{nbytes},,0x{mask:08x},"
                            f"{'fill=copy' if matrices and n < W else ''},"
                            + ",".join(map(str, hw)) + "," + ",".join(map(str, s)))
    files = {
        "cases.tsv": header + "name\tlayout\ttype\taccess\talong\tinstructions\n" + "\n".join(cases_csv) + "\n",
        "layout.csv": header + "name,kind,variant,width,used,mask,note," + ",".join(f"a{l}" for l in range(W))
        + "," + ",".join(f"s{l}" for l in range(W)) + "\n" + "\n".join(manifest) + "\n",
        "layout_ldst.trace": header + "warp 32\n" + "\n".join(ldst) + "\n",
        "layout.trace": header + "warp 32\n" + "\n".join(trace) + "\n",
        "commands.txt": header + "\n".join(commands) + "\n",
    }
    for f, text in files.items():
        with open(os.path.join(outdir, f), "w") as out:
            out.write(text)
    print(f"{len(CASES)} cases, {len(trace)} instructions ({len(manifest)} probes, {len(ldst)} ld/st)", file=sys.stderr)
    if bankcheck:
        predict(bankcheck, here)


def predict(bankcheck, here):
    """predictions.txt: `CASE.iK wavefronts ideal` from `bankcheck layout`, or `not-modelled`."""
    lines = ["# bankcheck layout's predicted wavefronts per instruction (model sm90), written before the H100",
             "# measured them; regenerate: python3 validate/layout/make_layout_cases.py --predict build/bankcheck",
             "# instruction wavefronts ideal"]
    for name, layout, etype, access, along in CASES:
        cmd = [bankcheck, "layout", layout, "--type", etype, "--access", access, "--along", str(along),
               "--per-instruction", "--csv"]
        out = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if out.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed ({out.returncode}): {out.stderr}")
        rows = [r.split(",") for r in out.stdout.splitlines() if r.startswith("instruction,")]
        for r in rows:
            index, wavefronts, ideal, modelled = r[2], r[10], r[11], r[16]
            site = f"layout-{name}.i{index}"
            lines.append(f"{site} {wavefronts} {ideal}" if modelled == "true" else f"{site} not-modelled")
    with open(os.path.join(here, "predictions.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
