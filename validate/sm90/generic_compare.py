"""Generic loads and stores into shared memory (LD.E, ST.E) against the same
cases as LDS/STS: the tables of validate/sm90/generic_on_gpu.sh's run.

    python3 validate/sm90/generic_compare.py DIR SET...

DIR holds SET.{shared,generic}.NN.ncu.csv (raw pages, one single-instruction
kernel per case in the order of SET's trace, in chunks NN). Per operation and
width: the cases, how many generic counts equal the shared form's in the same
run, and how many of either equal the set's committed measurement
(validate/sm90/measured/SET.csv). Prints every case where they differ.
Standard library only (and the project's one ncu CSV reader)."""
import csv
import glob
import os
import sys
from collections import defaultdict

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.harness.ncu_csv import number, read_raw  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def sites(set_name):
    """[(site, op, width)] of the set's trace, in order."""
    out = []
    with open(os.path.join(HERE, "cases", f"{set_name}.trace")) as f:
        for line in f:
            if line.startswith("@"):
                site, op, width = line.split()[:3]
                out.append((site[1:], op, int(width)))
    return out


def committed(set_name):
    """{site: wavefronts} of the set's committed measurement."""
    with open(os.path.join(HERE, "measured", f"{set_name}.csv")) as f:
        rows = csv.DictReader(line for line in f if not line.startswith("#"))
        return {r["site"]: int(r["wavefronts"]) for r in rows}


def measured(run_dir, set_name, form, cases):
    """{site: wavefronts} of one form's chunks, the op's own counter."""
    out, at = {}, 0
    for path in sorted(glob.glob(os.path.join(run_dir, f"{set_name}.{form}.*.ncu.csv"))):
        rows = read_raw(path)
        for row in rows:
            site, op, _ = cases[at]
            out[site] = int(number(row[f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum"]))
            at += 1
        if not rows:  # a chunk cut short: the rest of the set is not measured in this form
            break
    return out


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    run_dir = sys.argv[1]
    for set_name in sys.argv[2:]:
        cases = sites(set_name)
        truth = committed(set_name)
        shared = measured(run_dir, set_name, "shared", cases)
        generic = measured(run_dir, set_name, "generic", cases)
        table = defaultdict(lambda: [0, 0, 0, 0])
        differ = []
        for site, op, width in cases:
            if site not in shared or site not in generic:
                continue
            row = table[(op, width)]
            row[0] += 1
            row[1] += generic[site] == shared[site]
            row[2] += shared[site] == truth.get(site)
            row[3] += generic[site] == truth.get(site)
            if generic[site] != shared[site]:
                differ.append(f"  {site}: generic {generic[site]}, shared {shared[site]}, committed {truth.get(site)}")
        print(f"{set_name}: {sum(r[0] for r in table.values())} of {len(cases)} cases measured in both forms")
        print("| op | width | cases | generic = shared | shared = committed | generic = committed |")
        print("|---|---:|---:|---:|---:|---:|")
        for (op, width), r in sorted(table.items()):
            print(f"| {op} | {width} | {r[0]} | {r[1]} | {r[2]} | {r[3]} |")
        print("\n".join(differ) if differ else "  no case differs between the forms")


if __name__ == "__main__":
    main()
