"""Checks of validate/capture/record_table_on_gpu.sh, one per line (PASS/FAIL/INFO).

    python3 record_table_check.py OUT WORK

For each case C of the stress program (validate/capture/programs/record_stress.cu),
WORK/C-table (default capture: records merged on the device), WORK/C-ring
(--no-dedup: every record through the ring) and WORK/C-summary (--summary)
are its captures and OUT/C-{table,ring}.json their replays: the table's
replay must equal the ring's site by site (instructions, lane accesses,
wavefronts, ideal, worst degree), and both the GPU summary's totals; the
program's output must equal its plain run's under every capture.
"""
import os
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.capture.scaling_check import read_json, same_file, say  # noqa: E402

KEYS = ("instructions", "lane_accesses", "wavefronts", "ideal", "conflicts", "worst_degree")
TOTALS = ("instructions", "lane_accesses", "wavefronts", "ideal", "conflicts")


def sites(replay):
    return {s["site"]: tuple(s["totals"].get(k) for k in KEYS) for s in replay.get("sites", [])}


def check_case(out, work, case):
    for run in ("table", "ring", "summary"):
        say(same_file(os.path.join(out, f"{case}-plain.bin"), os.path.join(out, f"{case}-{run}.bin")),
            f"{case} {run}: the program's output equals the plain run's")
        j = read_json(os.path.join(work, f"{case}-{run}", "capture.json"))
        say(j.get("status") == "complete", f"{case} {run}: capture.json says {j.get('status')} "
            f"({str(j.get('reasons'))[:300]})")
    table = read_json(os.path.join(out, f"{case}-table.json"))
    ring = read_json(os.path.join(out, f"{case}-ring.json"))
    a, b = sites(table), sites(ring)
    differ = sorted(s for s in set(a) | set(b) if a.get(s) != b.get(s))
    say(bool(a) and not differ, f"{case}: the table's replay equals the ring's at {len(a) - len(differ)} of {len(set(a) | set(b))} "
        f"sites" + (f" (differing: {[(s, a.get(s), b.get(s)) for s in differ[:4]]})" if differ else ""))
    summary = read_json(os.path.join(work, f"{case}-summary", "summary.json")).get("totals", {})
    got = table.get("totals", {})
    say(all(got.get(k) == summary.get(k) for k in TOTALS),
        f"{case}: the table's replay against the GPU's summary, totals: " +
        ", ".join(f"{k} {got.get(k)} / {summary.get(k)}" for k in TOTALS))


def main(out, work, cases):
    for case in cases:
        check_case(out, work, case)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:] or ["distinct", "repeating"])
