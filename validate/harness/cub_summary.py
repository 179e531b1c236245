#!/usr/bin/env python3
"""Sum the shared-memory counters of every CUB kernel of one sort
(merge.cub.<i>.<input>.ncu.csv from cub_profile.sh) into one CSV row."""
import csv
import glob
import os
import re
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.harness import ncu_csv  # noqa: E402

COLUMNS = ["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
           "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
           "smsp__inst_executed_op_shared_ld.sum", "smsp__inst_executed_op_shared_st.sum"]


def main(d):
    w = csv.writer(sys.stdout)
    w.writerow(["n", "input", "kernels", "ld_wavefronts", "st_wavefronts", "ld_conflicts", "st_conflicts", "ld_inst", "st_inst"])
    rows = []
    for path in glob.glob(os.path.join(d, "merge.cub.*.ncu.csv")):
        m = re.search(r"merge\.cub\.(\d+)\.(\w+)\.ncu\.csv$", path)
        recs = ncu_csv.read_raw(path)
        sums = [sum(ncu_csv.number(r.get(c)) or 0.0 for r in recs) for c in COLUMNS]
        rows.append((256 * 17 << int(m.group(1)), m.group(2), len(recs), *[int(s) for s in sums]))
    for r in sorted(rows):
        w.writerow(r)


if __name__ == "__main__":
    main(sys.argv[1])
