#!/usr/bin/env python3
"""validate/gpu_batch.sh, the one entry point of GPU runs, in its dry mode
(DRY=1: each step's command printed, nothing run, no GPU): every step its
header documents dispatches to a command (none falls to "unknown step"); and
`run:DIR/NAME.sh` reaches every GPU script of validate/ (a file with a #!
line), while a path outside validate/, a missing file, a file the scripts
source and the batch itself are refused, each logged, the next step still run."""
import os
import re
import subprocess
import sys
import tempfile

from repo_root import ROOT


def dry(steps):
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run(["bash", "validate/gpu_batch.sh", *steps], cwd=ROOT, capture_output=True, text=True,
                           env={**os.environ, "DRY": "1", "OUT": tmp})
        return r.stdout + r.stderr


def documented_steps():
    """The step names of the header's list: `#   NAME  text` at the list's indent."""
    header = open(os.path.join(ROOT, "validate", "gpu_batch.sh")).read().split("set -uo pipefail")[0]
    names = re.findall(r"^#   ([a-z0-9][a-zA-Z0-9:.-]*)\s", header, re.M)
    return [n.replace("microbench:NAME", "microbench:fid8") for n in names if not n.startswith("run:")]


def gpu_scripts():
    out = []
    for folder, dirs, files in os.walk(os.path.join(ROOT, "validate")):
        dirs[:] = [d for d in dirs if d != "results"]
        out += [os.path.relpath(os.path.join(folder, f), os.path.join(ROOT, "validate")) for f in files if f.endswith(".sh")]
    return sorted(out)


def main():
    failures = []
    steps = documented_steps()
    if len(steps) < 30:
        failures.append(f"the header lists only {len(steps)} steps: {steps}")
    out = dry(steps)
    for step in steps:
        if f"unknown step {step}" in out:
            failures.append(f"documented step {step} is not dispatched")
    scripts = gpu_scripts()
    out = dry([f"run:{s}" for s in scripts])
    for s in scripts:
        text = open(os.path.join(ROOT, "validate", s)).read()
        reached = f"bash validate/{s}" in out
        sourced = not text.startswith("#!")
        if s == "gpu_batch.sh" or sourced:
            if reached or f"== run:{s}: refused" not in out:
                failures.append(f"run:{s} should be refused")
        elif not reached:
            failures.append(f"run:{s} does not reach validate/{s}")
    out = dry(["run:../README.md", "run:capture/none.sh", "run:../../etc/x.sh", "probes"])
    for bad in ("run:../README.md", "run:capture/none.sh", "run:../../etc/x.sh"):
        if f"== {bad}: refused" not in out:
            failures.append(f"{bad} not refused: {out}")
    if "bash validate/sm90/probes/run_on_gpu.sh" not in out:
        failures.append("the step after a refused one did not run")
    for f in failures:
        print("FAIL:", f)
    print("gpu_batch:", "failed" if failures else f"passed ({len(steps)} steps, {len(scripts)} scripts)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
