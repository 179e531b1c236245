#!/usr/bin/env python3
"""validate/gpu_env.sh, the helper the GPU scripts source, run in bash without a
GPU: gpu_step keeps a step's output in STEP_DIR/NAME.log, logs "exit RC after
S s" in STEP_LOG and returns the step's own exit status (a failure is
recorded, never hidden); a step that no longer fits STEP_BUDGET is skipped
and says so; a step over its limit is stopped by timeout (124); log appends
to GPU_LOG; and the scripts that source it do so after they have changed to
the repository root, where the relative path resolves."""
import os
import re
import subprocess
import sys
import tempfile

from repo_root import ROOT


def bash(script, cwd):
    return subprocess.run(["bash", "-c", script], cwd=cwd, capture_output=True, text=True)


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        r = bash(f"""source validate/gpu_env.sh
OUT={tmp} STEP_LOG={tmp}/steps.log
gpu_step fails 10 bash -c 'echo some output; exit 3'; echo "rc=$?"
gpu_step slow 1 sleep 5; echo "rc=$?"
STEP_BUDGET=$((SECONDS + 2)) gpu_step late 10 true; echo "rc=$?"
GPU_LOG={tmp}/log.txt; log a line
""", ROOT)
        out = r.stdout
        for want in ("rc=3", "rc=124", "== late: skipped"):
            if want not in out:
                failures.append(f"missing {want!r} in: {out}")
        if open(os.path.join(tmp, "fails.log")).read() != "some output\n":
            failures.append("the step's output is not in STEP_DIR/NAME.log")
        steps = open(os.path.join(tmp, "steps.log")).read()
        if not re.search(r"== fails: exit 3 after \d+ s", steps) or "== slow: exit 124" not in steps:
            failures.append(f"steps.log: {steps}")
        if open(os.path.join(tmp, "log.txt")).read() != "a line\n":
            failures.append("log does not append to GPU_LOG")
    # Every script that sources it changes to the repository root first.
    for folder, _, files in os.walk(os.path.join(ROOT, "validate")):
        for name in files:
            path = os.path.join(folder, name)
            if not name.endswith(".sh") or name == "gpu_env.sh":
                continue
            text = open(path).read()
            at = text.find("source validate/gpu_env.sh")
            if at >= 0 and text.rfind('cd "$(dirname "$0")', 0, at) < 0:
                failures.append(f"{os.path.relpath(path, ROOT)} sources gpu_env.sh before changing to the root")
    for f in failures:
        print("FAIL:", f)
    print("gpu_env:", "failed" if failures else "passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
