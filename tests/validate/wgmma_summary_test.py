"""validate/sm90/sm90a/wgmma_summary.py on the committed blind set
(validate/results/h100-2026-11-27/wgmma-blind/): every probe equals rule 8's
count from its own operand sizes, and a probe whose stated sizes do not give
ncu's count is reported and fails the run."""
import gzip
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "validate", "sm90", "sm90a", "wgmma_summary.py")
RUN = os.path.join(ROOT, "validate", "results", "h100-2026-11-27", "wgmma-blind")


class WgmmaSummary(unittest.TestCase):
    def run_summary(self, native_log):
        with tempfile.TemporaryDirectory() as d:
            sass = os.path.join(d, "wgmma.sass.csv")
            with gzip.open(os.path.join(RUN, "wgmma.sass.csv.gz"), "rt", newline="") as src, open(sass, "w") as dst:
                dst.write(src.read())
            log = os.path.join(d, "native.log")
            with open(log, "w") as f:
                f.write(native_log)
            return subprocess.run([sys.executable, SCRIPT, log, sass], capture_output=True, text=True)

    def test_the_blind_set_holds(self):
        r = self.run_summary(open(os.path.join(RUN, "wgmma.native.log")).read())
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        rows = [l for l in r.stdout.splitlines()[1:] if l]
        self.assertEqual(len(rows), 24)
        self.assertTrue(all(l.endswith(",yes") for l in rows))

    def test_a_wrong_size_fails(self):
        text = open(os.path.join(RUN, "wgmma.native.log")).read()
        wrong = text.replace("ss-f16-n24-none a_bytes=2048 b_bytes=768", "ss-f16-n24-none a_bytes=2048 b_bytes=896")
        self.assertNotEqual(wrong, text)
        r = self.run_summary(wrong)
        self.assertEqual(r.returncode, 1)
        self.assertIn("ss-f16-n24-none", [l.split(",")[0] for l in r.stdout.splitlines() if l.endswith(",no")])


if __name__ == "__main__":
    unittest.main()
