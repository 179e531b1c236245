"""Checks of validate/capture/scaling_on_gpu.sh, printed one per line (PASS/FAIL/INFO).

    python3 scaling_check.py OUT WORK

OUT holds the program's outputs (plain1.txt, summary.txt, full.txt), the
replays' JSON (replay-full.json, replay-stopped.json); WORK the capture
folders summary/, full/, stopped/.
"""
import csv
import json
import os
import sys


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        return {"_error": str(e)}


def launches(folder):
    try:
        with open(os.path.join(folder, "launches.csv")) as f:
            return {row["id"]: row for row in csv.DictReader(f)}
    except OSError:
        return {}


def same_file(a, b):
    try:
        with open(a, "rb") as x, open(b, "rb") as y:
            return x.read() == y.read()
    except OSError:
        return False


def say(ok, what):
    print(f"{'PASS' if ok else 'FAIL'} {what}")


def main(out, work):
    plain = os.path.join(out, "plain1.txt")
    for run in ("summary", "full"):
        say(same_file(plain, os.path.join(out, f"{run}.txt")), f"{run}: the program's output equals the plain run's")
    cap = {c: read_json(os.path.join(work, c, "capture.json")) for c in ("summary", "full", "stopped")}
    for c, j in cap.items():
        print(f"INFO {c}: status {j.get('status')}, launches {j.get('launches')}, captured {j.get('captured_launches')}, "
              f"seconds {j.get('seconds')}, reasons {str(j.get('reasons'))[:400]}")
    say(cap["full"].get("status") == "complete", "full: capture.json says complete")
    rows_s, rows_f = launches(os.path.join(work, "summary")), launches(os.path.join(work, "full"))
    executions = sum(int(r["records_written"] or 0) for r in rows_f.values())
    print(f"INFO full: {len(rows_f)} launches, {executions} warp executions written "
          f"({sum(1 for r in rows_f.values() if r['status'] == 'captured')} captured)")
    both = [i for i in rows_f if i in rows_s and rows_f[i]["status"] == "captured" and rows_s[i]["status"] == "captured"]
    differ = [i for i in both if rows_f[i]["records_written"] != rows_s[i]["records_written"]]
    say(both and not differ, f"full against summary, per launch: {len(both) - len(differ)} of {len(both)} launches "
        f"have the same warp executions" + (f" (first differing: {differ[:5]})" if differ else ""))
    replayed = read_json(os.path.join(out, "replay-full.json")).get("totals", {})
    summary = read_json(os.path.join(work, "summary", "summary.json")).get("totals", {})
    keys = ("instructions", "lane_accesses", "wavefronts", "ideal", "conflicts")
    complete = cap["full"].get("status") == "complete" and cap["summary"].get("status") == "complete"
    print("PASS" if complete and all(replayed.get(k) == summary.get(k) for k in keys) else
          "FAIL" if complete else "INFO (the full capture is partial: totals not comparable)",
        "replay of the full capture against the GPU's summary, totals: " +
        ", ".join(f"{k} {replayed.get(k)} / {summary.get(k)}" for k in keys))
    stopped = os.path.join(work, "stopped")
    if not os.path.isdir(stopped):
        print("INFO stopped: not run (SKIP_STOP)")
        return
    j = cap["stopped"]
    say(os.path.isdir(stopped) and j.get("status") == "partial" and "SIGINT" in json.dumps(j.get("reasons")),
        "stopped: the folder exists, capture.json says partial with the SIGINT reason")
    left = [n for n in os.listdir(work) if ".capture-" in n]
    say(not left, f"stopped: no staging folder left in WORK ({left or 'none'})")
    r = read_json(os.path.join(out, "replay-stopped.json"))
    say("totals" in r, f"stopped: bankcheck replay reads its folder ({r.get('totals', r.get('_error'))})")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
