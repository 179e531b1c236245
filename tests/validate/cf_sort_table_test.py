"""README and docs/cf-merge.md quote the CF-Merge sort table (CUB merge sort time / CF
time at every size and input) whole and unedited from the committed run,
validate/results/h100-2026-11-28/cf-sort-table/sort_table.md; and that run
checked every output (no FAIL line)."""
import os
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUN = os.path.join(ROOT, "validate/results/h100-2026-11-28/cf-sort-table/sort_table.md")


def table_after(text, heading):
    """The markdown table that follows `heading` (its lines, header included)."""
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines) if l.strip().endswith(heading))
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("|"):
            rows.append(line)
        elif rows:
            break
    return "\n".join(rows)


class CfSortTable(unittest.TestCase):
    def setUp(self):
        self.run_text = open(RUN).read()

    def test_the_run_checked_every_output(self):
        self.assertNotIn("FAIL", self.run_text)

    def test_readme_and_docs_hold_the_whole_tables(self):
        for heading, rows in (("CUB merge sort time / CF time", 70), ("CUB's worst input (n = CUB's tile x 2^k)", 12),
                              ("CUB merge sort time / CF time over every size and input", 4)):
            table = table_after(self.run_text, heading)
            self.assertEqual(table.count("\n") + 1, rows + 2, heading)
            for doc in ("README.md", "docs/cf-merge.md"):
                self.assertIn(table, open(os.path.join(ROOT, doc)).read(), f"{doc}: {heading}")


if __name__ == "__main__":
    unittest.main()
