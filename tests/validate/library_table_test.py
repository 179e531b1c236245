"""README's library-kernel table is validate/library/library_table.py's output
on the committed compare CSVs (validate/results/h100-2026-11-27/library),
whole and unedited; and the summary's verdict reading is checked on rows
whose verdict strings overlap ("no" is a prefix of "not modelled")."""
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "validate", "library", "library_table.py")


class LibraryTable(unittest.TestCase):
    def test_readme_holds_the_whole_table(self):
        table = subprocess.run([sys.executable, SCRIPT, os.path.join(ROOT, "validate/results/h100-2026-11-27/library")],
                               check=True, capture_output=True, text=True).stdout
        self.assertGreater(table.count("\n"), 10)
        readme = open(os.path.join(ROOT, "README.md")).read()
        self.assertIn(table, readme)

    def test_readme_holds_the_whole_hopper_table(self):
        folders = [os.path.join(ROOT, "validate/results/h100-2026-11-27b", f) for f in ("library-sm90", "hopper-gemm")]
        table = subprocess.run([sys.executable, SCRIPT, "--hopper", *folders],
                               check=True, capture_output=True, text=True).stdout
        self.assertGreater(table.count("\n"), 8)
        self.assertIn(table, open(os.path.join(ROOT, "README.md")).read())

    def test_verdicts_are_read_whole(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "p.compare.csv"), "w") as f:
                f.write("launch,kernel,offset,sass,executions,model_executions,model_wavefronts,measured_wavefronts,equal\n")
                f.write('0,k,16,"LDGSTS.E.LTC128B [R1], desc[UR4][R2.64]",1,1,0,4,not modelled (LDGSTS.E.LTC128B)\n')
                f.write('0,k,32,"LDS R1, [R2]",1,1,2,1,no\n')
                f.write('0,k,48,"HGMMA.64x64x16.F32 R24, gdesc[UR4], RZ",4,4,32,32,yes\n')
            out = subprocess.run([sys.executable, SCRIPT, d], check=True, capture_output=True, text=True).stdout
        row = [l for l in out.splitlines() if l.startswith("| p |")][0].split("|")
        self.assertEqual([c.strip() for c in row[2:8]], ["3", "1", "1", "1", "0", "0"])
        self.assertEqual(row[8].strip(), "0 / 1 / 0")
        self.assertEqual(row[9].strip(), "1 of 1")


if __name__ == "__main__":
    unittest.main()
