#!/usr/bin/env python3
"""validate/harness/time_model.py on a made-up results folder whose numbers
are worked out by hand: 132 SMs x 1.98 GHz serve 261.36 million wavefronts
per millisecond, so a variant with 261.36 million more wavefronts (counted
on 2 blocks, timed on 20) is predicted to take 1 ms longer."""
import csv
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "validate", "harness", "time_model.py")


def write(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def main():
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR")) as d:
        pred = ["case", "blocks", "threads", "shared_bytes", "input_hash", "ld_instructions", "ld_wavefronts",
                "ld_conflicts", "st_instructions", "st_wavefronts", "st_conflicts"]
        # per 2 blocks: plain 26.136M + 0 wavefronts more than padded; timed on 20 blocks (x10)
        write(os.path.join(d, "transpose.predicted.csv"), pred, [
            ["transpose/plain/random/tile=32;bytes=4", 2, 1024, 0, 0, 0, 26_136_000 + 1000, 26_136_000, 0, 500, 0],
            ["transpose/padded/random/tile=32;bytes=4", 2, 1024, 0, 0, 0, 1000, 0, 0, 500, 0]])
        write(os.path.join(d, "transpose.timing.csv"),
              ["case", "blocks", "threads", "shared_bytes", "input_hash", "items", "median_ms", "repeats"], [
                  ["transpose/plain/random/tile=32;bytes=4", 20, 1024, 0, 0, 0, 3.5, 15],
                  ["transpose/padded/random/tile=32;bytes=4", 20, 1024, 0, 0, 0, 2.0, 15]])
        out = os.path.join(d, "out.csv")
        subprocess.run([sys.executable, SCRIPT, d, "--csv", out], check=True, capture_output=True)
        rows = list(csv.DictReader(open(out)))
        failures = 0
        if len(rows) != 1:
            print(f"expected one pair, got {len(rows)}")
            return 1
        r = rows[0]
        for name, want, got in [("predicted_extra_ms", 1.0, float(r["predicted_extra_ms"])),
                                ("measured_extra_ms", 1.5, float(r["measured_extra_ms"])),
                                ("ratio", 1.5, float(r["ratio"])),
                                ("conflicts", 261_360_000, float(r["conflicts"]))]:
            ok = abs(got - want) <= 1e-9 * max(1.0, abs(want))
            print(f"{name}: {got} (want {want}) {'ok' if ok else 'WRONG'}")
            failures += not ok
        print(f"{4 - failures} passed, {failures} failed")
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
