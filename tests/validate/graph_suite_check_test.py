#!/usr/bin/env python3
"""validate/capture/graph_suite_check.py on capture folders written here by
hand, each built to meet or break one rule of the suite (the expected
verdicts follow from the rules in the script's docstring, not from running
it): a segfaulting program whose capture ended the same way and kept its
launches passes; the same capture with another exit status, a launch before
the crash not captured, other result bytes, or a partial capture whose
reasons do not name the crash fails; a result that differs where the program
declares it may (the occupancy probe) passes with a note."""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "validate", "capture", "graph_suite_check.py")
HEADER = "id,kernel,demangled,grid,block,dynamic_shared_bytes,records_written,device_records,status,untraced,trace\n"


def folder(root, name, exit_code, status, reasons, row_status):
    cap = os.path.join(root, name)
    os.makedirs(cap)
    with open(os.path.join(cap, "capture.json"), "w") as f:
        json.dump({"status": status, "reasons": reasons, "exit_code": exit_code}, f)
    with open(os.path.join(cap, "launches.csv"), "w") as f:
        f.write(HEADER)
        for i, s in enumerate(row_status):
            f.write("%d,_Z1kv,k(),32x1x1,128x1x1,,512,512,%s,,launch-%d.bktrace\n" % (i, s, i))
    return cap


def check(root, cap, plain_out, rc, plain_rc, run_bytes=b"\x01\x02"):
    plain, run, out = (os.path.join(root, n) for n in ("plain.bin", cap + ".bin", cap + ".out"))
    with open(plain, "wb") as f:
        f.write(b"\x01\x02")
    with open(run, "wb") as f:
        f.write(run_bytes)
    with open(out, "w") as f:
        f.write(plain_out)
    p = subprocess.run([sys.executable, SCRIPT, "prog", "full", plain, run, out, cap, str(rc), str(plain_rc)],
                       capture_output=True, text=True)
    return p.returncode, p.stdout


def main():
    failures = []

    def expect(what, got, verdict):
        code, line = got
        ok = (code == 0) == (verdict == "PASS") and (" %s " % verdict) in line
        if not ok:
            failures.append("%s: expected %s, got %r" % (what, verdict, line))

    crash = "expected_launches 3\nexpected_status partial\nexpected_reason killed by signal 11\n"
    signal = ["the program was killed by signal 11"]
    with tempfile.TemporaryDirectory() as root:
        cap = folder(root, "crash", 139, "partial", signal, ["captured"] * 3)
        expect("a segfault passed on, launches kept", check(root, cap, crash, 139, 139), "PASS")
        expect("another exit status under capture", check(root, cap, crash, 139, 0), "FAIL")
        cap2 = folder(root, "crash-json", 1, "partial", signal, ["captured"] * 3)
        expect("capture.json's exit code not the plain run's", check(root, cap2, crash, 139, 139), "FAIL")
        expect("other result bytes", check(root, cap, crash, 139, 139, b"\x01\x03"), "FAIL")
        cap = folder(root, "crash-lost", 139, "partial", signal, ["captured", "incomplete: x", "captured"])
        expect("a launch before the crash not captured", check(root, cap, crash, 139, 139), "FAIL")
        cap = folder(root, "crash-why", 139, "partial", ["launch 2 (k()): incomplete"], ["captured"] * 3)
        expect("partial, but the reasons do not name the crash", check(root, cap, crash, 139, 139), "FAIL")
        asserting = "expected_launches 3\nexpected_captured 2\nexpected_status partial\nexpected_reason code 1\n"
        cap = folder(root, "assert", 1, "partial", ["the program exited with code 1"],
                     ["captured", "captured", "incomplete: kernel error"])
        expect("the failing launch itself may be incomplete", check(root, cap, asserting, 1, 1), "PASS")
        cap = folder(root, "probe", 0, "complete", [], ["captured"] * 2)
        probe = "expected_launches 2\nexpected_result may differ\n"
        got = check(root, cap, probe, 0, 0, b"\x09")
        expect("a declared difference", got, "PASS")
        if "result bytes differ" not in got[1]:
            failures.append("the declared difference is not reported: %r" % got[1])
        expect("a complete capture's bankcheck exit 1", check(root, cap, probe, 1, 0), "FAIL")
        cap = folder(root, "child", 0, "partial", ["child process 7 made 2 kernel launches that were not captured"],
                     ["captured"] * 2)
        child = "expected_launches 2\nexpected_status partial\nexpected_reason child process\n"
        expect("partial by design exits 1", check(root, cap, child, 1, 0), "PASS")
        expect("partial by design exiting 0", check(root, cap, child, 0, 0), "FAIL")
    for f in failures:
        print("FAIL:", f)
    print("graph_suite_check: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
