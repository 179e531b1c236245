#!/usr/bin/env python3
"""Predicted (bankcheck replay, sm90 preset) versus measured (Nsight Compute)
shared-memory counts, one row per profiled kernel launch.

  launch_compare.py --predicted P.predicted.csv --manifest P.manifest.csv --ncu P.ncu.csv \
             --csv out.csv --markdown out.md

P.predicted.csv comes from `kernel.P --mode predict` (CPU, this machine),
P.manifest.csv and P.ncu.csv from `ncu ... kernel.P --mode profile` on the GPU
machine: the manifest names launch i, the ncu rows are the launches in order.
Both sides carry the input's hash; a hash mismatch is reported, never hidden.
Exit status 0 only when every (case, op, quantity) is equal and nothing is
left unpaired: a mismatch, a launch without a profiled kernel (or the
reverse), a launch without a prediction or an input hash that differs exit 1.

Metrics compared (docs/validation.md says why):
  instructions  smsp__inst_executed_op_shared_{ld,st}.sum: the compiler kept
                one shared instruction per accessor call (else nothing else
                can match)
  wavefronts    l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum: the
                serialized bank passes, what the model predicts (primary)
  conflicts     l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum
                versus predicted wavefronts - ideal: secondary, since this
                counter can also count arbitration stalls
Only the standard library is used (the GPU machine has python3 and nothing else
we can rely on).
"""
import argparse
import csv
import itertools
import os
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.harness import ncu_csv  # noqa: E402

METRIC = {
    ("instructions", "ld"): "smsp__inst_executed_op_shared_ld.sum",
    ("instructions", "st"): "smsp__inst_executed_op_shared_st.sum",
    ("wavefronts", "ld"): "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    ("wavefronts", "st"): "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    ("conflicts", "ld"): "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    ("conflicts", "st"): "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
}



def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--predicted", required=True)
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--ncu", required=True)
    ap.add_argument("--csv", required=True)
    ap.add_argument("--markdown", required=True)
    ap.add_argument("--title", default="")
    a = ap.parse_args()

    with open(a.predicted, newline="") as f:
        predicted = {r["case"]: r for r in csv.DictReader(f)}
    with open(a.manifest, newline="") as f:
        manifest = list(csv.DictReader(f))
    measured = ncu_csv.read_raw(a.ncu)
    problems = []
    if len(measured) != len(manifest):
        problems.append(f"{len(manifest)} launches in the manifest but {len(measured)} profiled kernels in {a.ncu}")

    out_rows, mismatches = [], []
    # Paired in launch order; a launch on one side only is a problem, never dropped.
    for launch, (m, n) in enumerate(itertools.zip_longest(manifest, measured)):
        if n is None:
            problems.append(f"launch {launch} ({m['case']}) has no profiled kernel")
            continue
        if m is None:
            problems.append(f"profiled kernel {launch} ({n.get('Kernel Name', '')[:60]}) has no manifest row")
            continue
        case = m["case"]
        p = predicted.get(case)
        if p is None:
            problems.append(f"launch {launch} ({case}) has no prediction")
            continue
        if p["input_hash"] != m["input_hash"]:
            problems.append(f"{case}: input hash differs (predicted {p['input_hash']}, profiled {m['input_hash']})")
        for op in ("ld", "st"):
            pred = {
                "instructions": int(p[f"{op}_instructions"]),
                "wavefronts": int(p[f"{op}_wavefronts"]),
                "conflicts": int(p[f"{op}_conflicts"]),
            }
            for quantity in ("instructions", "wavefronts", "conflicts"):
                got = ncu_csv.number(n.get(METRIC[(quantity, op)]))
                row = {
                    "case": case, "op": op, "quantity": quantity, "metric": METRIC[(quantity, op)],
                    "predicted": pred[quantity], "measured": "" if got is None else int(got),
                    "kernel_name": n.get("Kernel Name", "")[:60],
                }
                row["match"] = got is not None and int(got) == pred[quantity]
                out_rows.append(row)
                if not row["match"]:
                    mismatches.append(row)

    with open(a.csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["case", "op", "quantity", "metric", "predicted", "measured", "match", "kernel_name"])
        w.writeheader()
        w.writerows(out_rows)

    def count(q):
        rows = [r for r in out_rows if r["quantity"] == q]
        return sum(r["match"] for r in rows), len(rows)

    with open(a.markdown, "w") as f:
        f.write(f"# Predicted vs measured shared-memory counts{(': ' + a.title) if a.title else ''}\n\n")
        f.write("Prediction: bankcheck's BlockRecorder replay of the same algorithm header on the same input "
                "(hash-checked), sm90 preset. Measurement: Nsight Compute, `--clock-control none --page raw`, "
                "one row per kernel launch (whole grid).\n\n")
        for q in ("instructions", "wavefronts", "conflicts"):
            ok, total = count(q)
            f.write(f"- {q}: {ok}/{total} (case, op) pairs equal\n")
        if problems:
            f.write("\n## Problems\n\n" + "".join(f"- {p}\n" for p in problems))
        f.write("\n## Mismatches\n\n")
        if not mismatches:
            f.write("None.\n")
        else:
            f.write("| case | op | quantity | predicted | measured | measured/predicted |\n|---|---|---|---|---|---|\n")
            for r in mismatches:
                ratio = (r["measured"] / r["predicted"]) if r["predicted"] and r["measured"] != "" else float("nan")
                f.write(f"| {r['case']} | {r['op']} | {r['quantity']} | {r['predicted']} | {r['measured']} | {ratio:.3f} |\n")
    for q in ("instructions", "wavefronts", "conflicts"):
        ok, total = count(q)
        print(f"{a.title:12s} {q:12s} {ok:4d}/{total:<4d} equal")
    for p in problems:
        print("PROBLEM:", p)
    if mismatches or problems:
        print(f"{a.title:12s} FAILED: {len(mismatches)} mismatches, {len(problems)} problems")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
