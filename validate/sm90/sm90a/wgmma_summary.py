"""Joins the wgmma probes' own output (name, operand bytes, warpgroups: the
probe program prints them) with Nsight Compute's per-instruction table of
the same run, and checks rule 8 (docs/bank-model.md): an HGMMA/QGMMA costs
(A bytes + B bytes) / 128 wavefronts per warpgroup, equal to its ideal.
The prediction comes from the sizes the program states, not from bankcheck.

    python3 wgmma_summary.py PROBE_OUTPUT.log NCU_SOURCE.csv > wgmma.csv
Exit 1 when a probe's measurement differs from the rule or is missing.
"""
import os
import re
import sys

# ncu's source page is read by its one Python reader (harness/ncu_csv.py).
if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.harness.ncu_csv import read_blocks  # noqa: E402


def measured(path):
    """HGMMA-family rows by kernel (mangled name): (sass, executions, wavefronts, ideal)."""
    out = {}
    for kernel, rows in read_blocks(path):
        for d in rows:
            if re.match(r"\s*[A-Z]GMMA\.", d.get("Source", "")) and int(d.get("Instructions Executed", "0") or 0) > 0:
                out[kernel] = (d["Source"].strip(), int(d["Instructions Executed"]), int(d["L1 Wavefronts Shared"]),
                               int(d["L1 Wavefronts Shared Ideal"]))
    return out


def main(probe_log, ncu_csv):
    rows = measured(ncu_csv)
    print("probe,sass,executions,wavefronts,ideal,a_bytes,b_bytes,warpgroups,rule8,equal")
    bad = 0
    for line in open(probe_log):
        m = re.match(r"(\S+) a_bytes=(\d+) b_bytes=(\d+) warpgroups=(\d+)", line)
        if not m:
            continue
        name, a, b, wg = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))
        ident = "wg_" + name.replace("-", "_")
        hit = [v for k, v in rows.items() if re.search(r"\d" + re.escape(ident) + r"P", k)]
        rule = (a + b) // 128 * wg
        if len(hit) != 1:
            print(f"{name},,,,,{a},{b},{wg},{rule},missing")
            bad += 1
            continue
        sass, ex, wf, ideal = hit[0]
        ok = wf == rule and ideal == rule and ex == 4 * wg
        bad += not ok
        print(f'{name},"{sass.split(" ")[0]}",{ex},{wf},{ideal},{a},{b},{wg},{rule},{"yes" if ok else "no"}')
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
