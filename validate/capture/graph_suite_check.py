"""One line of validate/capture/graph_suite.sh's summary: a capture of one
program checked against its plain run.

    python3 graph_suite_check.py NAME MODE PLAIN.bin RUN.bin PLAIN.out CAPTURE_DIR RC

PASS needs: the result bytes equal the plain run's; capture.json says
complete (or what the program declares, `expected_status partial`, with a
reason naming device graph launches, which a capture cannot see); launches.csv has one row per kernel execution the program reports
(`expected_launches N` in its plain output; a program without it: at least
one row) and every row is `captured`. The line also counts the rows that
came from graph launches (graph_exec set) and the distinct graph nodes.
The suite's programs are deterministic, so every launch of one kernel with
one grid and block must hold as many records as the others (a trace that
received another node's records, or none, breaks this)."""
import csv
import json
import os
import re
import sys


def main():
    name, mode, plain, run, plain_out, cap, rc = sys.argv[1:8]
    problems = []
    same = os.path.exists(run) and open(plain, "rb").read() == open(run, "rb").read()
    if not same:
        problems.append("result bytes differ from the plain run" if os.path.exists(run) else "no result file")
    if rc != "0":
        problems.append("exit " + rc)
    with open(plain_out) as f:
        text = f.read()
    m = re.search(r"expected_launches (\d+)", text)
    expected = int(m.group(1)) if m else None
    m = re.search(r"expected_status (\w+)", text)
    expected_status = m.group(1) if m else "complete"
    rows, status, reasons = [], "no capture.json", []
    try:
        with open(os.path.join(cap, "capture.json")) as f:
            report = json.load(f)
            status, reasons = report["status"], report["reasons"]
        with open(os.path.join(cap, "launches.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
    except (OSError, ValueError, KeyError) as e:
        problems.append("capture unreadable: %s" % e)
    if status != expected_status:
        problems.append("capture %s (expected %s): %s" % (status, expected_status, "; ".join(reasons)[:300]))
    elif status == "partial" and not any("from the device" in r for r in reasons):
        problems.append("partial for another reason: " + "; ".join(reasons)[:300])
    if expected_status == "partial" and rc == "1":
        problems.remove("exit 1")  # a partial capture of a program that succeeded exits 1
    captured = sum(1 for r in rows if r.get("status") == "captured")
    graph_rows = [r for r in rows if r.get("graph_exec")]
    nodes = {(r["graph_exec"], r.get("graph_node")) for r in graph_rows}
    if expected is not None and len(rows) != expected:
        problems.append("%d launches in launches.csv, the program made %d" % (len(rows), expected))
    if expected is None and not rows:
        problems.append("no launches")
    if captured != len(rows):
        bad = [r.get("status", "") for r in rows if r.get("status") != "captured"]
        problems.append("%d not captured (%s)" % (len(bad), "; ".join(sorted(set(bad)))[:300]))
    groups = {}
    for r in rows:
        groups.setdefault((r.get("kernel"), r.get("grid"), r.get("block")), set()).add(r.get("records_written"))
    uneven = [k[0][:40] + " " + ",".join(sorted(v)) for k, v in groups.items() if len(v) > 1]
    if uneven:
        problems.append("launches of one kernel and shape hold different record counts: " + "; ".join(uneven)[:300])
    verdict = "PASS" if not problems else "FAIL"
    print("%-20s %-8s %s  launches %3d (expected %s), captured %3d, from graphs %3d (%d nodes)%s" % (
        name, mode, verdict, len(rows), "?" if expected is None else expected, captured, len(graph_rows),
        len(nodes), "" if not problems else "  -- " + "; ".join(problems)))
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
