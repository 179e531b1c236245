#!/usr/bin/env python3
"""Check that every probe kernel holds exactly the memory instructions it is
meant to measure, on the SASS that `cuobjdump -sass` prints.

  check_sass.py KIND SASS.txt [KIND SASS.txt ...]

KIND is `probes` (validate/sm90/probes/probes.cu), `microbench`
(validate/sm90/microbench.cu), `latency` (validate/latency/shmem_latency.cu)
or `cub12` (listed only: CUB's instructions are what is being observed).
Prints one line per kernel (OK / FAIL, expected, found) and a total; exits 1
if any kernel fails. The rules are static: they count instructions in the
code, which for the probe kernels (no loops, except the CAS loops of the
atomics that have no native form) is what one launch executes.

Memory instructions are classified by mnemonic: shared LDS/STS/ATOMS/LDSM/
STSM, global LDG/STG/ATOMG/RED, LDGSTS (global to shared), local LDL/STL.
Instructions predicated on !PT (never executed; ptxas puts three
`@!PT LDS RZ, [RZ]` before LDGSTS) are listed apart and allowed.
"""
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.harness.kernel_names import mangled_base_name as demangle  # noqa: E402
from validate.harness.sass_text import split_guard  # noqa: E402
from validate.sm90.probes.make_probe_cases import S12_SASS  # noqa: E402  (the documented 12-byte mapping)

FUNC = re.compile(r"Function : (\S+)")
INSTR = re.compile(r"^\s+/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
MEM = re.compile(r"^(LDS|STS|ATOMS|LDSM|STSM|LDGSTS|LDG|STG|ATOMG|ATOM|RED|REDG|LDL|STL|LD|ST)(\.|$)")


def read_sass(path):
    """{mangled function: [(offset, sass)]}"""
    out, fn = {}, None
    for line in open(path, errors="replace"):
        m = FUNC.search(line)
        if m:
            fn = m.group(1)
            out[fn] = []
            continue
        m = INSTR.match(line)
        if m and fn:
            out[fn].append((int(m.group(1), 16), m.group(2)))
    return out


def memory_ops(instrs):
    """[(mnemonic with modifiers, operands, never_executed)] of memory instructions."""
    ops = []
    for _, sass in instrs:
        pred, mnemonic = split_guard(sass)
        if not mnemonic:
            continue
        if MEM.match(mnemonic):
            operands = " ".join(sass.split(mnemonic, 1)[1].split())  # as printed, the ';' kept
            # the predicate stays in the operand text so reports show it
            ops.append((mnemonic, operands + (f" (if {pred})" if pred and pred != "@!PT" else ""), pred == "@!PT"))
    return ops


def shared_width(mnemonic):
    parts = mnemonic.split(".")
    for p in parts[1:]:
        if p in ("64", "128"):
            return int(p) // 8
        if p in ("U8", "S8"):
            return 1
        if p in ("U16", "S16"):
            return 2
    return 4


def offset_of(operands):
    m = re.search(r"\[[^\]]*?\+?(0x[0-9a-f]+)\]", operands)
    return int(m.group(1), 16) if m else 0


ATOM_EXPECT = {
    "add_u32": [r"ATOMS\.ADD R\d+"], "red_add_u32": [r"ATOMS\.ADD RZ"],
    "builtin_inc1_unused": [r"ATOMS\.POPC\.INC\.32 RZ"], "builtin_add_unused": [r"ATOMS\.ADD RZ"],
    "builtin_add_used": [r"ATOMS\.ADD R\d+"],
    "cas_b32": [r"ATOMS\.CAS R"], "cas_b64": [r"ATOMS\.CAS\.64 R"],
    "exch_b32": [r"ATOMS\.EXCH R"], "exch_b64": [r"ATOMS\.EXCH\.64 R"],
    "min_s32": [r"ATOMS\.MIN\.S32 R\d+"], "min_u32": [r"ATOMS\.MIN R\d+"],
    "max_s32": [r"ATOMS\.MAX\.S32 R\d+"], "max_u32": [r"ATOMS\.MAX R\d+"],
    "and_b32": [r"ATOMS\.AND R\d+"], "or_b32": [r"ATOMS\.OR R\d+"], "xor_b32": [r"ATOMS\.XOR R\d+"],
    "inc_u32": [r"ATOMS\.INC R\d+"], "red_min_u32": [r"ATOMS\.MIN RZ"], "red_or_b32": [r"ATOMS\.OR RZ"],
    # no native instruction: a CAS loop, one LDS and one ATOMS.CAST.SPIN in the code
    "add_f32": [r"LDS R", r"ATOMS\.CAST\.SPIN R"], "red_add_f32": [r"LDS R", r"ATOMS\.CAST\.SPIN R"],
    "add_u64": [r"LDS\.64 R", r"ATOMS\.CAST\.SPIN\.64 R"],
}


def expected_probe(base):
    """(list of regexes the executed memory instructions must match, one each,
    in code order; allowed extra global stores (the never-taken result store))."""
    if base.startswith("probe_atom_"):
        return ATOM_EXPECT.get(base[len("probe_atom_"):]), True
    m = re.match(r"probe_(ldsm|stsm)_x(\d)(_trans)?$", base)
    if m:
        op, n, trans = m.group(1).upper(), m.group(2), m.group(3)
        shape = "MT88" if trans else "M88"
        suffix = "" if n == "1" else rf"\.{n}"
        return [rf"{op}\.16\.{shape}{suffix} "], op == "LDSM"
    if base in ("probe_cpasync_cg16warm", "probe_cpasync_cg16warmsrcsize"):  # the source read through L2 first, then the copy
        return [r"LDG\.E[.A-Z0-9]* R", r"LDGSTS\.E\.BYPASS\.128 \["], True
    if base in ("probe_cpasync_cg16srcsize", "probe_cpasync_cg16ignore"):  # Triton's forms: a predicate operand
        return [r"LDGSTS\.E\.BYPASS\.128 \["], False
    if base in ("probe_cpasync_cg16pair", "probe_cpasync_cg16pairplain"):  # two copies, both measured
        return [r"LDGSTS\.E\.BYPASS\.128 \[", r"LDGSTS\.E\.BYPASS\.128 \["], False
    m = re.match(r"probe_cpasync_ca(\d+)srcsize$", base)  # the source-size form: a predicate operand
    if m:
        return [rf"LDGSTS\.E{ {'4': '', '8': r'.64', '16': r'.128'}[m.group(1)]} \[.*, !?P[0-6T]\b"], False
    m = re.match(r"probe_cpasync_(ca|cg)(\d+)(ltc)?(ign)?$", base)  # the L2::128B hint; the ignore-src form
    if m and (m.group(3) or m.group(4)):
        mod = r"\.BYPASS" if m.group(1) == "cg" else ""
        ltc = r"\.LTC128B" if m.group(3) else ""
        width = {4: "", 8: r"\.64", 16: r"\.128"}[int(m.group(2))]
        pred = r".*, !?P[0-6T]\b" if m.group(4) else ""
        return [rf"LDGSTS\.E{mod}{ltc}{width} \[{pred}"], False
    m = re.match(r"probe_cpasync_(ca|cg)(\d+)$", base)
    if m:
        size = int(m.group(2))
        mod = r"\.BYPASS" if m.group(1) == "cg" else ""
        width = {4: "", 8: r"\.64", 16: r"\.128"}[size]
        return [rf"LDGSTS\.E{mod}{width} \["], False
    if base == "probe_ld8_pred":
        return [r"LDS\.64 R"], True   # predicated: @P LDS.64 (the predicate is checked below)
    if base == "probe_ld8_div":
        return [r"LDS\.64 R"], True   # inside a loop that idle lanes branch around
    m = re.match(r"probe_g(ld|st)_(\d+)$", base)
    if m:
        width = {"4": "", "8": r"\.64", "16": r"\.128"}[m.group(2)]
        return ([rf"LDG\.E{width} R"], True) if m.group(1) == "ld" else ([rf"STG\.E{width} desc"], False)
    return None, False


def check_probes(funcs):
    results = []
    for fn, instrs in sorted(funcs.items(), key=lambda x: demangle(x[0])):
        base = demangle(fn)
        if not base.startswith("probe_"):
            continue
        ops = memory_ops(instrs)
        live = [(m, o) for m, o, never in ops if not never]
        never = [f"{m} {o}" for m, o, n in ops if n]
        found = [f"{m} {o}" for m, o in live]
        if base.startswith("probe_s12_"):
            # probe_s12_{ld,st}_{a4,a16,a4even,float3} -> S12_SASS key "ld.a4" ...
            _, _, op, var = base.split("_", 3)
            key = f"{op}.{var}"
            _, want = S12_SASS[key]
            got = Counter()
            others = []
            for m, o in live:
                if m.startswith(("LDS", "STS")):
                    got[("ld" if m.startswith("LDS") else "st", shared_width(m), offset_of(o))] += 1
                elif not m.startswith("STG"):
                    others.append(m)
            ok = got == Counter(want) and not others
            results.append((base, ok, f"{key}: {sorted(want)}", "; ".join(found)))
            continue
        want, result_store = expected_probe(base)
        if want is None:
            results.append((base, False, "no rule for this kernel", "; ".join(found)))
            continue
        target = [(m, o) for m, o in live if not (result_store and m.startswith("STG") and not want[0].startswith("STG"))]
        ok = len(target) == len(want) and all(re.match(w, f"{m} {o}") for w, (m, o) in zip(want, target))
        # the extra STG (result store) may appear only where the result is used
        extra_stg = [m for m, o in live if m.startswith("STG")] if not want[0].startswith("STG") else []
        if extra_stg and not result_store:
            ok = False
        if any(m.startswith(("LDL", "STL")) for m, _ in live):
            ok = False
        if base in ("probe_ld8_pred", "probe_ld8_div"):
            # the pred kernel must predicate the load, the div kernel must
            # branch around it (BSSY ... BSYNC), not predicate it
            preds = [s.split()[0] for _, s in instrs if "LDS.64" in s]
            branchy = any(s.startswith("BSSY") for _, s in instrs)
            ok = ok and (preds[0].startswith("@P") if base.endswith("pred") else (not preds[0].startswith("@") and branchy))
        desc = " + ".join(want) + (" (+ never-taken result STG)" if result_store else "")
        results.append((base, ok, desc, "; ".join(found) + (f" | never executed: {'; '.join(never)}" if never else "")))
    return results


# The microbench's spaces (validate/sm90/microbench.cu, enum Space): the shared
# window (LDS/STS) or a generic pointer into it, weak, volatile or relaxed.gpu.
MICROBENCH_SPACES = [("shared", ("LDS", "STS"), ""), ("generic", ("LD.E", "ST.E"), ""),
                     ("volatile", ("LD.E", "ST.E"), ".STRONG.SYS"), ("relaxed", ("LD.E", "ST.E"), ".STRONG.GPU")]


def check_microbench(funcs):
    results = []
    for fn, instrs in sorted(funcs.items()):
        base = demangle(fn)
        m = re.match(r"_Z15one_instructionILi(\d+)ELb([01])E(?:Li(\d)E)?", fn)
        if not m:
            continue
        width, store = int(m.group(1)), m.group(2) == "1"
        space, (load_op, store_op), strength = MICROBENCH_SPACES[int(m.group(3) or 0)]
        want = store_op if store else load_op
        live = [(mm, o) for mm, o, never in memory_ops(instrs) if not never]
        access = [(mm, o) for mm, o in live if mm == want or mm.startswith(want + ".")]
        ok = (len(access) == 1 and shared_width(access[0][0]) == width and
              (strength in access[0][0] if strength else ".STRONG" not in access[0][0]))
        results.append((f"{base}<{width},{'st' if store else 'ld'},{space}>", ok,
                        f"one {want}{strength} of {width} B", "; ".join(f"{a} {b}" for a, b in live)))
    return results


def check_latency(funcs):
    """Pointer-chase kernels: 8 warm-up + 16 timed loads (and 16 stores for
    the store-then-load chain, plus the initialising STS); throughput
    kernels: 8 loads or stores per loop iteration (plus the initialising STS)."""
    results = []
    for fn, instrs in sorted(funcs.items()):
        m = re.match(r"_Z\d+(latency|throughput)_kernelILi(\d+)ELb([01])E", fn)
        if not m:
            continue
        kind, width, flag = m.group(1), int(m.group(2)), m.group(3) == "1"
        c = Counter()
        for mm, o, never in memory_ops(instrs):
            if mm.startswith(("LDS", "STS")):
                c[(mm[:3], shared_width(mm))] += 1
        if kind == "latency":
            want = Counter({("LDS", width): 24, ("STS", 4): 1})
            if flag:
                want[("STS", width)] += 16
        else:
            want = Counter({("STS", 4): 1})
            want[("STS" if flag else "LDS", width)] += 8
        ok = c == want
        results.append((f"{kind}<{width},{int(flag)}>", ok, str(dict(want)), str(dict(c))))
    return results


def list_cub(funcs):
    results = []
    for fn, instrs in sorted(funcs.items()):
        base = demangle(fn)
        if not base.startswith("cub12_"):
            continue
        c = Counter(m for m, o, never in memory_ops(instrs) if not never)
        results.append((fn, True, "(listed)", ", ".join(f"{k} x{v}" for k, v in sorted(c.items()))))
    return results


def main():
    args = sys.argv[1:]
    if not args or len(args) % 2:
        print(__doc__)
        return 2
    failures = total = 0
    for kind, path in zip(args[::2], args[1::2]):
        funcs = read_sass(path)
        check = {"probes": check_probes, "microbench": check_microbench, "latency": check_latency,
                 "cub12": list_cub}[kind]
        rows = check(funcs)
        print(f"== {kind}: {path} ({len(rows)} kernels)")
        for name, ok, want, found in rows:
            print(f"{'OK  ' if ok else 'FAIL'} {name}: expected {want}; found {found}")
            failures += not ok
            total += 1
    print(f"== {total - failures}/{total} kernels as expected")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
