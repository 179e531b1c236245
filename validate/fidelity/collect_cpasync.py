"""Turns the cp.async campaign's Nsight Compute exports (validate/fidelity/
cpasync_on_gpu.sh) into the committed probe sets that tests/model re-runs:

    python3 validate/fidelity/collect_cpasync.py [--replace] RESULTS_DIR NAME [MORE_RESULTS_DIRS...]

RESULTS_DIR: the unpacked cpasync/ folder (cpasync.cases, cpasync.trace,
chunk-*.cases, cpasync-*.sass.csv, tma_forms.sass.csv, environment.txt).
NAME: writes validate/sm90/cases/NAME.trace (the cases
that were measured, as trace records) and validate/sm90/measured/NAME.csv:
per case the LDGSTS's total "L1 Wavefronts Shared", its executions (every
warp issues the copy once per stage: blocks x warps x stages, checked), the
wavefronts per execution where the total divides evenly (else `-`: the
executions did not all cost the same), ncu's ideal per execution and the
SASS form; MORE_RESULTS_DIRS: runs of the same seed that profiled chunks
RESULTS_DIR's run missed (CHUNKS=...); and validate/sm90/measured/NAME_tma.csv, the TMA instructions of
tma_forms.cu with their executions and wavefronts. Standard library and
the project's readers of traces and ncu pages (the Python module)."""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.sm90.probes.ncu_pages import column, instructions, mnemonic, number, read_source  # noqa: E402
from validate.harness import sass_text  # noqa: E402
from validate.harness.kernel_names import base_name  # noqa: E402
from validate.sm90.case_format import line, records_of  # noqa: E402

PROBES = ("cpasync_probe", "cg_srcsize_p1", "cg_ignore_p0", "cg_ignore_p2", "reg_probe")  # cpasync.cu's kernels

SM90 = os.path.join(HERE, os.pardir, "sm90")


def predicate_operand(sass):
    """The predicate operand of an LDGSTS (`P0`, `!P3`; '' without one), either operand order."""
    m = re.search(r",\s*(!?P[0-6T])\s*(,|;|$)", sass)
    return m.group(1) if m else ""


def op_of(sass):
    """The trace op the measured SASS gives (capture/host/sass/op_refinement.cpp's rule)."""
    mnemonic = sass_text.mnemonic(sass)
    if ".ZFILL" in mnemonic:
        return "cpasync.unmeasured" if ".BYPASS" in mnemonic or ".LTC" in mnemonic else "cpasync"
    if ".BYPASS" not in mnemonic:
        return "cpasync"
    pred = predicate_operand(sass)
    if pred == "!PT":
        return "cpasync.unmeasured"
    return {"P0": "cpasync.cg.zfill", "!P0": "cpasync.cg.notp0"}.get(pred, "cpasync.cg")


def header(env, what):
    return [f"# Nsight Compute per-instruction counts (SourceCounters) of {what}"] + ["# " + l for l in env]


def chunk_rows(res, chunk):
    """[(case line fields, {sass, wavefronts, ideal, executed})] of one chunk, in launch order."""
    cases = [l.split() for l in open(os.path.join(res, f"chunk-{chunk}.cases")) if l.strip()]
    launches = read_source(os.path.join(res, f"cpasync-{chunk}.sass.csv"))
    if not launches:
        print(f"{res}: chunk {chunk} profiled nothing; left out")
        return []
    if len(launches) != len(cases):
        sys.exit(f"{chunk}: {len(launches)} launches in the source page, {len(cases)} cases")
    out = []
    for fields, (kernel, rows) in zip(cases, launches):
        copies = [d for d in instructions(rows) if d["mnemonic"].startswith("LDGSTS")]
        if len(copies) != 1 or base_name(kernel) not in PROBES:
            sys.exit(f"{fields[0]}: {len(copies)} LDGSTS in launch of {kernel}")
        d = copies[0]
        out.append((fields, {"sass": d["mnemonic"], "text": d["sass"], "wavefronts": d["wavefronts"], "ideal": d["wavefronts_ideal"],
                             "executed": d["inst_executed"]}))
    return out


def collect_copies(dirs, env, name):
    """The chunks of every results folder in `dirs` (a later folder fills a
    chunk an earlier run profiled nothing of: the cases of a seed are the same)."""
    cases = {r["site"]: r for r in records_of(os.path.join(dirs[0], "cpasync.trace"), comments=True)}
    trace = [f"# validate/fidelity/make_cpasync_cases.py's cases measured by cpasync_on_gpu.sh (collect_cpasync.py)",
             "warp 32"]
    csv = header(env, f"validate/sm90/cases/{name}.trace: the one LDGSTS of each case's kernel")
    csv.append("site,wavefronts,ideal,executions,total,sass,predicate")
    done, n = set(), 0
    for res in dirs:
        chunks = sorted(f[len("chunk-"):-len(".cases")] for f in os.listdir(res)
                        if f.startswith("chunk-") and f.endswith(".cases"))
        for chunk in chunks:
            if chunk in done or not os.path.exists(os.path.join(res, f"cpasync-{chunk}.sass.csv")):
                continue
            rows = chunk_rows(res, chunk)
            done.update([chunk] if rows else [])
            for fields, m in rows:
                site, blocks, warps, stages = fields[0], int(fields[3]), int(fields[4]), int(fields[5])
                executions = blocks * warps * stages
                if m["executed"] != executions:
                    sys.exit(f"{site}: {m['executed']} executions, expected {executions}")
                if site not in cases:
                    sys.exit(f"{site}: not a case of {dirs[0]}")
                total, ideal = m["wavefronts"], m["ideal"]
                per = str(total // executions) if total % executions == 0 else "-"
                ideal_per = str(ideal // executions) if ideal % executions == 0 else "-"
                pred = predicate_operand(m["text"])
                csv.append(f"{site},{per},{ideal_per},{executions},{total},{m['sass']},{pred}")
                c = cases[site]  # the generator's record, its op the one the SASS gives
                trace.append(line(site, op_of(m["text"]), c["width"], c["addresses"], c["sources"],
                                  c["comment"].strip()))
                n += 1
    open(os.path.join(SM90, "cases", f"{name}.trace"), "w").write("\n".join(trace) + "\n")
    open(os.path.join(SM90, "measured", f"{name}.csv"), "w").write("\n".join(csv) + "\n")
    return n


def collect_tma(res, env, name):
    if not os.path.exists(os.path.join(res, "tma_forms.sass.csv")):  # a run with TMA=0
        return 0
    csv = header(env, "validate/fidelity/tma_forms.cu: every TMA instruction of its two kernels")
    csv.append("kernel,sass,executions,wavefronts")
    n = 0
    for kernel, rows in read_source(os.path.join(res, "tma_forms.sass.csv")):
        short = base_name(kernel)  # tma_control or tma_multicast
        for r in rows:  # TMA instructions are not among ncu_pages' memory mnemonics: read the rows
            mn, _ = mnemonic(" ".join(r.get("Source", "").split()))
            if mn.startswith(("UTMA", "UBLK")):
                csv.append(f"{short},{mn},{number(column(r, 'inst_executed'))},{number(column(r, 'wavefronts'))}")
                n += 1
    open(os.path.join(SM90, "measured", f"{name}_tma.csv"), "w").write("\n".join(csv) + "\n")
    return n


def main():
    args = sys.argv[1:]
    replace = "--replace" in args
    args = [a for a in args if a != "--replace"]
    if len(args) < 2:
        print("usage: collect_cpasync.py [--replace] RESULTS_DIR NAME [MORE_RESULTS_DIRS...] (NAME: the set to write)",
              file=sys.stderr)
        sys.exit(2)
    res, name, dirs = args[0], args[1], [args[0]] + args[2:]
    if os.path.exists(os.path.join(SM90, "measured", f"{name}.csv")) and not replace:
        print(f"collect_cpasync.py: validate/sm90/measured/{name}.csv exists: another NAME, or --replace to rewrite it",
              file=sys.stderr)
        sys.exit(2)
    env = [l.rstrip("\n") for d in dirs for l in open(os.path.join(d, "environment.txt"))]
    print(f"{name}: {collect_copies(dirs, env, name)} copies; {collect_tma(res, env, name)} TMA instructions")


if __name__ == "__main__":
    main()
