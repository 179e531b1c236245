"""One line of validate/capture/graph_suite.sh's summary: a capture of one
program checked against its plain run.

    python3 graph_suite_check.py NAME MODE PLAIN.bin RUN.bin PLAIN.out CAPTURE_DIR RC PLAIN_RC

PASS needs:
- the result bytes equal the plain run's (a program that declares
  `expected_result may differ`, the occupancy probe, has its difference
  reported, not failed);
- the program ended as it did plainly: capture.json's exit code (128 +
  signal when a signal killed it) is the plain run's, and `bankcheck
  capture` exited with it (1 when the program succeeded and the capture is
  partial);
- capture.json's status is what the program declares (`expected_status`:
  complete by default, partial, or any), and a partial capture's reasons hold
  the words it declares (`expected_reason`);
- launches.csv has the rows the program declares (`expected_launches N`
  exactly, `expected_launches_at_least N`; without either, at least one),
  and the first `expected_captured N` of them (all by default) are
  `captured`;
- every captured launch of one kernel with one grid and block holds as many
  records as the others (the programs are deterministic: a trace that
  received another node's records, or none, breaks this).
The line also counts the rows that came from graph launches (graph_exec
set) and the distinct graph nodes."""
import csv
import json
import os
import re
import sys


def declared(text, key, default=None, kind=str):
    m = re.search(r"^%s (.+)$" % re.escape(key), text, re.M)
    return kind(m.group(1).strip()) if m else default


def capture_problems(cap, text, plain_rc, rc):
    """(problems, rows, status) of the capture folder against the declarations in the plain output."""
    problems, rows, status, reasons, exit_code = [], [], "no capture.json", [], None
    try:
        with open(os.path.join(cap, "capture.json")) as f:
            report = json.load(f)
        status, reasons, exit_code = report["status"], report["reasons"], report["exit_code"]
        with open(os.path.join(cap, "launches.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
    except (OSError, ValueError, KeyError) as e:
        problems.append("capture unreadable: %s" % e)
    if exit_code is not None and exit_code != plain_rc:
        problems.append("the program ended with %s under capture, %d plainly" % (exit_code, plain_rc))
    want_rc = plain_rc if plain_rc != 0 else (0 if status == "complete" else 1)
    if rc != want_rc:
        problems.append("bankcheck capture exited %d (expected %d)" % (rc, want_rc))
    expected_status = declared(text, "expected_status", "complete")
    why = declared(text, "expected_reason")
    if expected_status != "any" and status != expected_status:
        problems.append("capture %s (expected %s): %s" % (status, expected_status, "; ".join(reasons)[:300]))
    elif status == "partial" and why and not any(why in r for r in reasons):
        problems.append("partial, but no reason says '%s': %s" % (why, "; ".join(reasons)[:300]))
    elif status == "partial" and not reasons:
        problems.append("partial without a reason")
    exact = declared(text, "expected_launches", None, int)
    least = declared(text, "expected_launches_at_least", None, int)
    if exact is not None and len(rows) != exact:
        problems.append("%d launches in launches.csv, the program made %d" % (len(rows), exact))
    if least is not None and len(rows) < least:
        problems.append("%d launches in launches.csv, the program finished %d" % (len(rows), least))
    if exact is None and least is None and not rows:
        problems.append("no launches")
    first = declared(text, "expected_captured", len(rows), int)
    bad = [r for r in rows[:first] if r.get("status") != "captured"]
    if bad or len(rows) < first:
        problems.append("%d of the first %d not captured (%s)" % (
            len(bad) + max(0, first - len(rows)), first, "; ".join(sorted({r.get("status", "") for r in bad}))[:300]))
    groups = {}
    for r in rows:
        if r.get("status") == "captured":
            groups.setdefault((r.get("kernel"), r.get("grid"), r.get("block")), set()).add(r.get("records_written"))
    uneven = [k[0][:40] + " " + ",".join(sorted(v)) for k, v in groups.items() if len(v) > 1]
    if uneven:
        problems.append("launches of one kernel and shape hold different record counts: " + "; ".join(uneven)[:300])
    return problems, rows, status


def main():
    name, mode, plain, run, plain_out, cap, rc, plain_rc = sys.argv[1:9]
    with open(plain_out) as f:
        text = f.read()
    problems, rows, status = capture_problems(cap, text, int(plain_rc), int(rc))
    notes = []
    same = os.path.exists(run) and open(plain, "rb").read() == open(run, "rb").read()
    if not same:
        what = "result bytes differ from the plain run" if os.path.exists(run) else "no result file"
        (notes if declared(text, "expected_result") else problems).append(what)
    captured = sum(1 for r in rows if r.get("status") == "captured")
    graph_rows = [r for r in rows if r.get("graph_exec")]
    nodes = {(r["graph_exec"], r.get("graph_node")) for r in graph_rows}
    verdict = "PASS" if not problems else "FAIL"
    print("%-20s %-8s %s  launches %3d, captured %3d, from graphs %3d (%d nodes), exit %s, %s%s%s" % (
        name, mode, verdict, len(rows), captured, len(graph_rows), len(nodes), plain_rc, status,
        "" if not notes else "  (" + "; ".join(notes) + ")", "" if not problems else "  -- " + "; ".join(problems)))
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
