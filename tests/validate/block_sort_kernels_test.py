"""validate/cf_merge/block_sort_kernels.py on a hand-written Nsight Compute CSV:
each launch's n from its grid, the kernel's tile from its name (CF's Policy<u, E, ...>,
CUB's 256 x 17 / 256 x 8), medians, and the ratios to CUB worked out here by hand:
per-level time = time / (n log2(tile))."""
import math
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "validate/cf_merge/block_sort_kernels.py")

CUB = ('void merge_sort::DeviceMergeSortBlockSortKernel<merge_sort::policy_hub<unsigned int *>::Policy600, '
       'unsigned int *, NullType *, unsigned int *, NullType *, long, <unnamed>::Less, unsigned int>(bool, T2, T3, T4, '
       'T5, T6, T8 *, T9 *, T7)')
CF = ('void bankcheck::cf::detail::block_sort_kernel<bankcheck::cf::Policy<256, 32, 4, 4, 4>, unsigned int, '
      'bankcheck::CfNoValue, <unnamed>::Less, 1>(bool, T2 *, T3 *, T2 *, T3 *, long, long, T4)')
CF_ODD_EVEN = CF.replace("Less, 1>(", "Less, 0>(")
CF_PAIRS_U64 = ('void bankcheck::cf::detail::block_sort_kernel<bankcheck::cf::Policy<128, 16, 4, 4, 8>, unsigned long, '
                'unsigned long, <unnamed>::Less, 1>(bool, T2 *, T3 *, T2 *, T3 *, long, long, T4)')
HEADER = ('"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size",'
          '"Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"')


def row(launch, name, grid, metric, value):
    return (f'"{launch}","1","cf_sort_table","h","{name}","1","7","(256, 1, 1)","({grid}, 1, 1)","0","9.0","",'
            f'"{metric}","","{value}"')


class BlockSortKernels(unittest.TestCase):
    def run_script(self, lines, sizes="1048576"):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "ncu.csv")
            with open(path, "w") as f:
                f.write("==PROF== Connected to process 1\n# a line of the program's own output\n")
                f.write("\n".join([HEADER] + lines) + "\n")
            return subprocess.run([sys.executable, SCRIPT, "--sizes", sizes, f"run={path}"], capture_output=True,
                                  text=True)

    def cells(self, out, kernel):
        line = next(l for l in out.splitlines() if f"| {kernel} |" in l)
        return [c.strip() for c in line.strip("|").split("|")]

    def test_ratios_against_cub_by_hand(self):
        n = 1 << 20
        cub_grid, cf_grid = math.ceil(n / 4352), n // 8192
        lines = [row(0, CUB, cub_grid, "gpu__time_duration.sum", "20,000"),
                 row(0, CUB, cub_grid, "smsp__inst_executed.sum", "52,428,800"),
                 row(1, CUB, cub_grid, "gpu__time_duration.sum", "21,000"),
                 row(1, CUB, cub_grid, "smsp__inst_executed.sum", "52,428,800"),
                 row(2, CUB, cub_grid, "gpu__time_duration.sum", "40,000"),  # the median of three: 21,000
                 row(2, CUB, cub_grid, "smsp__inst_executed.sum", "52,428,800"),
                 row(3, CF, cf_grid, "gpu__time_duration.sum", "23,100"),
                 row(3, CF, cf_grid, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", "1,048,576"),
                 row(4, CF_ODD_EVEN, cf_grid, "gpu__time_duration.sum", "25,000"),
                 row(5, CF, 77, "gpu__time_duration.sum", "5"),  # fits no size: left out
                 row(6, CF_PAIRS_U64, n // 2048, "gpu__time_duration.sum", "30,000")]  # no CUB launch of its kind
        result = self.run_script(lines)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("1 kernels at grids that fit no size or more than one", result.stderr)
        cub = self.cells(result.stdout, "CUB 256 x 17")
        self.assertEqual(cub[1:6], ["u32", str(n), "CUB 256 x 17", f"{math.log2(4352):.2f}", "3"])
        self.assertEqual(cub[6], "21.0")
        self.assertEqual(cub[10], "50.00")  # warp instructions per key
        cf = self.cells(result.stdout, "CF 256 x 32 (4 blocks/SM)")
        self.assertEqual(cf[6:8], ["23.1", "1.100"])
        self.assertEqual(cf[8], f"{23100 * 1000 / (n * 13):.3f}")
        self.assertEqual(cf[9], f"{1.1 * math.log2(4352) / 13:.3f}")
        self.assertEqual(cf[12], "1.00")  # bank conflicts per key
        odd_even = self.cells(result.stdout, "CF 256 x 32 (4 blocks/SM, odd-even sort)")
        self.assertEqual(odd_even[7], f"{25000 / 21000:.3f}")
        pairs = self.cells(result.stdout, "CF 128 x 16 (8 blocks/SM)")
        self.assertEqual(pairs[1], "u64 pairs")
        self.assertEqual(pairs[7], "")  # no CUB launch to hold it against

    def test_a_grid_two_sizes_fit_is_left_out(self):
        result = self.run_script([row(0, CF, 128, "gpu__time_duration.sum", "23,100")], sizes="1048575,1048576")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("1 kernels at grids that fit no size or more than one", result.stderr)
        self.assertNotIn("CF 256 x 32", result.stdout)

    def test_bad_arguments_exit_2(self):
        for args in (["--sizes"], ["--sizes", "2^20", "a=b"], ["--sizes", "4", "no-label"]):
            result = subprocess.run([sys.executable, SCRIPT] + args, capture_output=True, text=True)
            self.assertEqual(result.returncode, 2, args)


if __name__ == "__main__":
    unittest.main()
