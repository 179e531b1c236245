#!/usr/bin/env python3
"""Join the probe run's Nsight Compute exports with the cases they measured.

  probe_summary.py RES              write RES/summary/*.csv and RES/summary.txt,
                                print a compact summary
  probe_summary.py --selftest STEP EXPECTED
                                check one calibration step (STEP.launches.txt,
                                STEP.raw.csv, STEP.source.csv): the listed
                                wavefronts (comma-separated, one per launch)
                                must be what both the per-instruction and the
                                kernel-level load counters report; exit 1 if not

A step (files RES/ncu/STEP.*) is one ncu run over consecutive launches:
  STEP.launches.txt  one line per launch, in launch order: the case name,
                     and for the probe program a tab and the kernel function
  STEP.raw.csv       `ncu -i STEP.ncu-rep --page raw --csv --print-units base`
  STEP.source.csv    `ncu -i STEP.ncu-rep --page source --csv --print-source sass`
ncu numbers profiled kernels in launch order, so the k-th launch, the k-th
raw row and the k-th source block describe the same kernel; the kernel
names are compared to make sure (a mismatch is reported, never guessed).
ncu 2025.3 prints every source block twice; exact repeats are dropped.

Outputs, per group (the step name before its last '.'):
  summary/GROUP.cases.csv         one row per launch: the case (manifest
      fields for the probe program), every kernel-level metric collected
      (columns named as ncu names them), and sums over the case's target
      instructions (ATOMS/LDS for atomics, LDSM, STSM, LDGSTS, LDS/STS, LDG,
      STG) from the source page: src_targets (target instructions that
      executed), src_wavefronts, src_wavefronts_ideal, src_l2_sectors,
      src_l2_sectors_ideal, src_l1_tag_requests, src_other_wavefronts
      (shared wavefronts of any other instruction), src_sass
  summary/GROUP.instructions.csv  one row per memory instruction per launch:
      offset in the function (PC - the function's first PC), SASS, executed
      count, predicated-on threads, and the per-instruction memory columns
Standard library only.
"""
import csv
import glob
import os
import re
import sys
from collections import OrderedDict, defaultdict

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.harness.kernel_names import is_function  # noqa: E402
from validate.sm90.probes.ncu_pages import COLUMNS, instructions, number, read_raw, read_source  # noqa: E402

# The kinds whose probed instruction is a cp.async (LDGSTS).
COPY_KINDS = ("cpasync", "cgsrc", "cgline", "cgwarm", "cgsrcsize", "cgignore", "cgpair", "cgpairplain", "cgwarmsrcsize",
              "casrcsize", "caltc", "cgltc", "zfill")
TARGET = {
    "atom": r"^(ATOMS|LDS)", "ldsm": r"^LDSM", "stsm": r"^STSM", "s12": r"^(LDS|STS)",
    "gld": r"^LDG", "gst": r"^STG", "ld8": r"^LDS", "microbench": r"^(LDS|STS)", "cub12": r"^(LDS|STS)",
    **{k: r"^LDGSTS" for k in COPY_KINDS},
}


def read_manifest(path):
    out = {}
    if not os.path.exists(path):
        return out
    lines = [l for l in open(path) if l.strip() and not l.startswith("#")]
    for r in csv.DictReader(lines):
        out[r["name"]] = r
    return out


def step_files(res):
    steps = []
    for p in sorted(glob.glob(os.path.join(res, "ncu", "*.launches.txt"))):
        steps.append(p[:-len(".launches.txt")])
    return steps


def group_of(step):
    name = os.path.basename(step)
    return name.rsplit(".", 1)[0] if "." in name else name


def target_kind(group, case):
    if case and case.get("kind") in TARGET:
        return case["kind"]
    return "cub12" if group.startswith("cub12") else "microbench"


def analyse_step(step, manifest, problems):
    launches = [l.rstrip("\n").split("\t") for l in open(step + ".launches.txt") if l.strip()]
    raw = read_raw(step + ".raw.csv")
    src = read_source(step + ".source.csv")
    name = os.path.basename(step)
    if len(raw) != len(launches):
        problems.append(f"{name}: {len(launches)} launches logged, {len(raw)} kernels in the raw page")
    if src and len(src) != len(launches):
        problems.append(f"{name}: {len(launches)} launches logged, {len(src)} blocks in the source page")
    cases, instrs = [], []
    group = group_of(step)
    for i, launch in enumerate(launches):
        case_name = launch[0]
        kernel_fn = launch[1] if len(launch) > 1 else ""
        r = raw[i] if i < len(raw) else {}
        kname = r.get("Kernel Name", "")
        if kernel_fn and kname and not is_function(kernel_fn, kname):
            problems.append(f"{name} launch {i}: case {case_name} expects kernel {kernel_fn}, ncu says {kname}")
        if src and i < len(src) and kernel_fn and not is_function(kernel_fn, src[i][0]):
            problems.append(f"{name} launch {i}: source block of {src[i][0]}, expected {kernel_fn}")
        case = manifest.get(case_name, {})
        kind = target_kind(group, case)
        tre = re.compile(TARGET[kind])
        ins = instructions(src[i][1]) if i < len(src) else []
        row = OrderedDict(step=name, launch=i, name=case_name)
        for f in ("kind", "variant", "width", "used", "mask", "note"):
            row[f] = case.get(f, "")
        row["kernel"] = kname
        for k, v in r.items():
            if k.endswith((".sum", ".max")) or k.startswith(("smsp__", "l1tex__", "sm__")):
                row[k] = v.replace(",", "")
        targets = [d for d in ins if tre.match(d["mnemonic"]) and d["predicate"] != "@!PT"]
        executed = [d for d in targets if (d["inst_executed"] or 0) > 0]

        def total(key, rows):
            vals = [d[key] for d in rows if d[key] is not None]
            return sum(vals) if vals else ""

        row["src_targets"] = len(executed) if ins else ""
        row["src_target_inst_executed"] = total("inst_executed", targets)
        row["src_wavefronts"] = total("wavefronts", targets)
        row["src_wavefronts_ideal"] = total("wavefronts_ideal", targets)
        row["src_l2_sectors"] = total("l2_sectors", targets)
        row["src_l2_sectors_ideal"] = total("l2_sectors_ideal", targets)
        row["src_l1_tag_requests"] = total("l1_tag_requests", targets)
        others = [d for d in ins if d not in targets]
        row["src_other_wavefronts"] = total("wavefronts", others)
        row["src_sass"] = " | ".join(
            f"{d['offset']} {d['sass']} [x{d['inst_executed']} wf {d['wavefronts']}/{d['wavefronts_ideal']}"
            + (f" l2 {d['l2_sectors']}/{d['l2_sectors_ideal']} tag {d['l1_tag_requests']}" if kind in ("gld", "gst") + COPY_KINDS else "")
            + "]" for d in targets)
        cases.append(row)
        for d in ins:
            instrs.append(OrderedDict([("step", name), ("launch", i), ("name", case_name), ("kernel", kname)]
                                      + [(k, d[k]) for k in ("offset", "sass", "predicate")]
                                      + [(k, d[k]) for k in COLUMNS]
                                      + [("target", int(d in targets))]))
    return cases, instrs


def write_csv(path, rows):
    if not rows:
        return
    fields = []
    for r in rows:
        for k in r:
            if k not in fields:
                fields.append(k)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, restval="")
        w.writeheader()
        w.writerows(rows)


def nonzero_wavefront_metrics(row):
    parts = []
    for k, v in row.items():
        if (k.startswith("l1tex__data_pipe_lsu_wavefronts_mem_shared") or k.startswith(
                "l1tex__data_bank_conflicts_pipe_lsu_mem_shared")) and k.endswith(".sum"):
            n = number(v)
            if n:
                short = k.replace("l1tex__data_pipe_lsu_wavefronts_mem_shared", "wf").replace(
                    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared", "cf").replace(".sum", "")
                parts.append(f"{short}={n}")
    return " ".join(parts)


def global_metrics(row):
    parts = []
    for k, v in row.items():
        if k.startswith(("l1tex__t_sectors_pipe_lsu_mem_global", "l1tex__t_requests_pipe_lsu_mem_global")) \
                and k.endswith(".sum"):
            n = number(v)
            if n:
                parts.append(f"{k.replace('l1tex__t_', '').replace('_pipe_lsu_mem_global', '').replace('.sum', '')}={n}")
    return " ".join(parts)


def wavefronts_of(c):
    """Per-instruction wavefronts of the case's targets, else the kernel's
    shared-load wavefronts (when source counters are missing)."""
    if c.get("src_wavefronts") not in ("", None):
        return c["src_wavefronts"]
    return number(c.get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", ""))


def compare_pairs(index):
    """Cases measured to be compared with each other: the ld8 loads with idle
    lanes predicated off or diverged against the same load with the lanes
    exited (ld8mix), and ldmatrix/stmatrix .x1/.x2 with different
    addresses in the unused lanes."""
    out = []
    rows, differ = [], []
    for name, c in index.items():
        m = re.match(r"ld8(pred-far|pred-copy|div)-(.*)$", name)
        if not m:
            continue
        base = index.get(f"ld8mix-{m.group(2)}")
        if not base:
            continue
        a, b = wavefronts_of(base), wavefronts_of(c)
        rows.append((name, a, b))
        if a != b:
            differ.append(f"  {name}: exited {a}, {m.group(1)} {b}")
    if rows:
        by_kind = defaultdict(lambda: [0, 0])
        for name, a, b in rows:
            k = re.match(r"ld8(pred-far|pred-copy|div)", name).group(1)
            by_kind[k][0] += 1
            by_kind[k][1] += a != b
        out.append("== ld8 idle lanes against ld8mix (exited): " + ", ".join(
            f"{k}: {n} compared, {d} differ" for k, (n, d) in sorted(by_kind.items())))
        out += differ
    fills, fdiff = 0, []
    for name, c in index.items():
        m = re.match(r"(ldsm|stsm)-(x[12](\.trans)?)-contiguous-fill-(conflict|random)$", name)
        if not m:
            continue
        base = index.get(f"{m.group(1)}-{m.group(2)}-contiguous")
        if not base:
            continue
        fills += 1
        a, b = base.get("src_wavefronts"), c.get("src_wavefronts")
        ka, kb = nonzero_wavefront_metrics(base), nonzero_wavefront_metrics(c)
        if a != b or ka != kb:
            fdiff.append(f"  {name}: copy fill {a} ({ka}), {m.group(4)} fill {b} ({kb})")
    if fills:
        out.append(f"== ldsm/stsm unused lanes: {fills} fills compared with the copy fill, {len(fdiff)} differ")
        out += fdiff
    return out


def summary(res):
    manifest = read_manifest(os.path.join(res, "cases", "probes.csv"))
    # the layout x access cases (validate/layout/), when the run measured them
    manifest.update(read_manifest(os.path.join(res, "cases", "layout.csv")))
    problems = []
    by_group = defaultdict(lambda: ([], []))
    for step in step_files(res):
        if os.path.basename(step).startswith("selftest"):
            continue
        cases, instrs = analyse_step(step, manifest, problems)
        g = by_group[group_of(step)]
        g[0].extend(cases)
        g[1].extend(instrs)
    os.makedirs(os.path.join(res, "summary"), exist_ok=True)
    lines, short = [], []
    expected_counts = defaultdict(int)
    for r in manifest.values():
        expected_counts[r["kind"]] += 1
    for group, (cases, instrs) in by_group.items():
        write_csv(os.path.join(res, "summary", f"{group}.cases.csv"), cases)
        write_csv(os.path.join(res, "summary", f"{group}.instructions.csv"), instrs)
        measured = sum(1 for c in cases if c["kernel"])
        with_src = sum(1 for c in cases if c["src_targets"] != "")
        single = [c for c in cases if c["src_targets"] == 1]
        multi = [c for c in cases if c["src_targets"] not in ("", 1)]
        head = (f"{group}: {len(cases)} launches, {measured} with kernel metrics, {with_src} with source counters, "
                f"{len(single)} with exactly one executed target instruction"
                + (f", {len(multi)} with another number (loops, 12-byte, CUB)" if multi else ""))
        lines.append("")
        lines.append("== " + head)
        short.append(head)
        lines.append("name | kernel-level nonzero shared wavefront (wf) / conflict (cf) counters | "
                     "per-instruction targets: wavefronts/ideal | SASS [executed, wf/ideal]")
        for c in cases:
            gm = global_metrics(c) if c.get("kind") in ("gld", "gst") + COPY_KINDS else ""
            lines.append(f"{c['name']} | {nonzero_wavefront_metrics(c)}{(' | ' + gm) if gm else ''} | "
                         f"{c['src_wavefronts']}/{c['src_wavefronts_ideal']} | {c['src_sass']}")
    comparisons = compare_pairs({c["name"]: c for cases, _ in by_group.values() for c in cases})
    if comparisons:
        lines.append("")
        lines += comparisons
        short += [l for l in comparisons if l.startswith("==")]
    if problems:
        lines.append("")
        lines.append("== problems")
        lines += problems
        short.append(f"{len(problems)} problems (see summary.txt), first: {problems[0]}")
    with open(os.path.join(res, "summary.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(short))
    # a few key rows, so the run's console output says something by itself
    keys = ["atom-add.u32-bcast", "atom-add.u32-distinct", "atom-add.u32-kway4", "atom-add.u32-kway32",
            "atom-add.u32-pairs", "atom-cas.b64-distinct", "atom-add.f32-bcast", "ldsm-x4-contiguous",
            "ldsm-x4-stride128", "ldsm-x4-swizzled", "ldsm-x1-contiguous-fill-conflict", "stsm-x4-stride128",
            "cpasync-ca.16-consecutive", "cpasync-ca.4-kway32", "gld4-contig", "gld4-contig+4", "gld16-stride32"]
    index = {c["name"]: c for cases, _ in by_group.values() for c in cases}
    for k in keys:
        c = index.get(k)
        if c:
            gm = global_metrics(c) if c.get("kind") in ("gld", "gst") + COPY_KINDS else ""
            print(f"  {k}: {nonzero_wavefront_metrics(c)} {gm} | src {c['src_wavefronts']}/{c['src_wavefronts_ideal']}"
                  f" targets={c['src_targets']}")
    return 0


def selftest(step, expected):
    problems = []
    cases, _ = analyse_step(step, {}, problems)
    want = [int(x) for x in expected.split(",")]
    got_src = [c["src_wavefronts"] for c in cases]
    got_kernel = [number(c.get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "")) for c in cases]
    print(f"selftest {os.path.basename(step)}: expected {want}, per-instruction {got_src}, kernel-level {got_kernel}")
    # the columns the probes read must all be on the source page
    src = read_source(step + ".source.csv")
    header = set(src[0][1][0]) if src and src[0][1] else set()
    missing = [k for k in ("inst_executed", "wavefronts", "wavefronts_ideal", "l1_tag_requests", "l2_sectors",
                           "l2_sectors_ideal") if not any(label in header for label in COLUMNS[k])]
    if missing:
        problems.append(f"source page lacks columns for {missing}")
    for p in problems:
        print("  " + p)
    ok = got_src == want and got_kernel == want and not problems
    print("SELFTEST " + ("OK" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--selftest":
        sys.exit(selftest(sys.argv[2], sys.argv[3]))
    if len(sys.argv) == 2:
        sys.exit(summary(sys.argv[1]))
    print(__doc__)
    sys.exit(2)
