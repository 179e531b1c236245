"""The cp.async campaign's table: every measured case of a probe set
against the sm90 model (bankcheck replay), per form and zero-fill mode.

    python3 validate/fidelity/cpasync_table.py NAME [BANKCHECK] [--misses]

NAME: a set collected by collect_cpasync.py (validate/sm90/cases/NAME.trace,
validate/sm90/measured/NAME.csv); BANKCHECK: the binary (default
build/bankcheck). Prints, per form (the case's SASS form and its predicate
operand), the cases, how many the model gives equal, unequal and not modelled,
and how many measured a count that differs between executions (`-`);
--misses lists every unequal case with its tags (the trace's comments). Standard
library and the project's trace reader (validate/sm90/case_format.py)."""
import csv
import io
import os
import subprocess
import sys
from collections import defaultdict

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.sm90.case_format import records_of  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir)


def measured(name):
    rows = {}
    for line in open(os.path.join(ROOT, "validate", "sm90", "measured", f"{name}.csv")):
        if line.startswith("#") or line.startswith("site,"):
            continue
        site, per, ideal, execs, total, sass, pred = line.rstrip("\n").split(",")
        rows[site] = {"per": per, "ideal": ideal, "executions": int(execs), "total": int(total),
                      "sass": sass + (", " + pred if pred else "")}
    return rows


def modelled(name, bankcheck):
    trace = os.path.join(ROOT, "validate", "sm90", "cases", f"{name}.trace")
    run = subprocess.run([bankcheck, "replay", "--per-instruction", "--csv", "--quiet", trace],
                         capture_output=True, text=True)
    # exit 2 where the model costs none of the set's instructions (a set of declined shapes): every one `None`
    if run.returncode not in (0, 1) and "is of a kind the model costs" not in run.stderr:
        sys.exit(f"replay of {trace} failed: {run.stderr.strip()}")
    out = run.stdout
    model = {}
    for r in csv.DictReader(io.StringIO(out)):
        if r["scope"] == "instruction":
            model[r["site"]] = r["wavefronts"] if r["modelled"] == "true" else None
    tags = {}
    for r in records_of(trace, comments=True):
        tags[r["site"]] = r["comment"].strip()
        model.setdefault(r["site"], None)
    return model, tags


def form_of(site, sass):
    return sass


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    name = args[0]
    bankcheck = args[1] if len(args) > 1 else os.path.join(ROOT, "build", "bankcheck")
    meas = measured(name)
    model, tags = modelled(name, bankcheck)
    table = defaultdict(lambda: defaultdict(int))
    misses = []
    for site, m in meas.items():
        key = form_of(site, m["sass"])
        t = table[key]
        t["cases"] += 1
        p = model.get(site)
        if m["per"] == "-":
            t["varies"] += 1
        if p is None:
            t["not modelled"] += 1
        elif m["per"] != "-" and int(p) == int(m["per"]):
            t["equal"] += 1
        else:
            t["unequal"] += 1
            misses.append((site, p, m["per"], m["total"], m["executions"], tags.get(site, "")))
    cols = ["cases", "equal", "unequal", "not modelled", "varies"]
    print(f"| form | {' | '.join(cols)} |")
    print("|---|" + "---|" * len(cols))
    for key in sorted(table):
        print(f"| `{key}` | " + " | ".join(str(table[key][c]) for c in cols) + " |")
    if "--misses" in sys.argv:
        for site, p, per, total, execs, tag in sorted(misses):
            print(f"{site}: model {p}, measured {per} per execution ({total} / {execs}); {tag}")


if __name__ == "__main__":
    main()
