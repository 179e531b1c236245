"""Generic loads and stores into shared memory (LD.E, ST.E, .STRONG.SYS,
.STRONG.GPU) against the same cases as LDS/STS: the tables of a
validate/sm90/generic_on_gpu.sh run.

    python3 validate/sm90/generic_compare.py DIR SET...

DIR holds SET.NN.trace (the chunks of cases run) and, per form,
SET.FORM.NN.raw.csv (kernel-level counters, one single-instruction kernel
per case in the chunk's order) and SET.FORM.NN.source.csv (per-instruction
counters; absent in a kernel-level-only run). Per form, operation and width:
the cases, how many kernel-level counts equal the shared form's in the same
run (else the set's committed measurement, validate/sm90/measured/SET.csv),
and how many per-instruction counts equal the form's own kernel-level count.
With --csv, every case's counts instead (site, op, width, form, kernel,
instruction, sass). Standard library only (and the project's readers of traces and ncu pages)."""
import csv
import glob
import os
import sys
from collections import defaultdict

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.harness.ncu_csv import number, read_raw  # noqa: E402
from validate.sm90.probes.ncu_pages import instructions, read_source  # noqa: E402
from validate.sm90.case_format import records_of  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED_OPS = ("LDS", "STS", "LD.", "ST.", "LD ", "ST ")


def chunk_sites(path):
    """[(site, op, width)] of one chunk's trace, in order."""
    return [(r["site"], r["op"], r["width"]) for r in records_of(path)]


def committed(set_name):
    """{site: wavefronts} of the set's committed measurement."""
    path = os.path.join(HERE, "measured", f"{set_name}.csv")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return {r["site"]: int(r["wavefronts"]) for r in csv.DictReader(x for x in f if not x.startswith("#"))}


def the_access(rows):
    """(sass, wavefronts) of the one shared-memory access of a probe kernel's source block."""
    found = [i for i in instructions(rows) if (i["mnemonic"] + " ").startswith(SHARED_OPS)]
    return (found[0]["sass"], found[0]["wavefronts"]) if len(found) == 1 else (None, None)


def measured(run_dir, set_name, form):
    """{site: (op, width, kernel count, instruction count or None, sass or None)} of one form."""
    out = {}
    for trace in sorted(glob.glob(os.path.join(run_dir, f"{set_name}.[0-9][0-9].trace"))):
        n = trace.rsplit(".", 2)[-2]
        cases = chunk_sites(trace)
        prefix = os.path.join(run_dir, f"{set_name}.{form}.{n}")
        raw = read_raw(prefix + ".raw.csv") if os.path.exists(prefix + ".raw.csv") else []
        blocks = read_source(prefix + ".source.csv")
        for i, row in enumerate(raw[:len(cases)]):
            site, op, width = cases[i]
            sass, per_instruction = the_access(blocks[i][1]) if len(blocks) == len(raw) else (None, None)
            kernel = int(number(row[f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum"]))
            out[site] = (op, width, kernel, per_instruction, sass)
    return out


def main():
    args = [a for a in sys.argv[1:] if a != "--csv"]
    if len(args) < 2:
        raise SystemExit(__doc__)
    run_dir, as_csv = args[0], "--csv" in sys.argv
    writer = csv.writer(sys.stdout) if as_csv else None
    if writer:
        writer.writerow(["set", "site", "op", "width", "form", "kernel", "instruction", "sass"])
    for set_name in args[1:]:
        forms = sorted({os.path.basename(p).split(".")[1] for p in glob.glob(os.path.join(run_dir, f"{set_name}.*.raw.csv"))})
        runs = {form: measured(run_dir, set_name, form) for form in forms}
        reference = {s: v[2] for s, v in runs.get("shared", {}).items()} or committed(set_name)
        for form in forms:
            if writer:
                for site, (op, width, kernel, per_instruction, sass) in runs[form].items():
                    writer.writerow([set_name, site, op, width, form, kernel, per_instruction, sass])
                continue
            table = defaultdict(lambda: [0, 0, 0, 0])
            for site, (op, width, kernel, per_instruction, _) in runs[form].items():
                row = table[(op, width)]
                row[0] += 1
                row[1] += kernel == reference.get(site)
                row[2] += per_instruction is not None
                row[3] += per_instruction == kernel
            sass = sorted({v[4].split()[0] for v in runs[form].values() if v[4]})
            print(f"\n{set_name}, form {form} ({', '.join(sass) or 'no source page'}):")
            print("| op | width | cases | kernel count = shared form's | per instruction read | per instruction = kernel count |")
            print("|---|---:|---:|---:|---:|---:|")
            for (op, width), r in sorted(table.items()):
                print(f"| {op} | {width} | {r[0]} | {r[1]} | {r[2]} | {r[3]} |")


if __name__ == "__main__":
    main()
