#!/usr/bin/env python3
"""The block-sort kernels of CF and CUB side by side, per key and per merge level.

  block_sort_kernels.py --sizes N,N,... LABEL=ncu.csv [LABEL=ncu.csv ...]

Input: Nsight Compute CSV (`ncu --csv --print-units base --kernel-name-base
demangled --metrics gpu__time_duration.sum,smsp__inst_executed.sum,
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,
l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum`) of the block-sort launches
of `cf_sort_table --sweep --sizes N,...` (validate/cf_merge/run_block_sort_kernels.sh),
one file per program (LABEL names it). A launch's n is the size in --sizes whose
tiles its grid counts; launches whose grid fits no size or more than one are left out
and counted on stderr.

A block sort of tiles of T keys sorts each key through log2(T) levels (its thread's
sort and its in-block merge rounds); CF's tiles (u x E) and CUB's (256 x 17 for 4-byte
keys, 256 x 8 for 8-byte) differ, so besides the time the table gives the time per key
and level, and both against CUB's launch at the same n and key type from the same
program. Medians over every launch of a kernel at one n. Only the standard library.
"""
import math
import os
import re
import statistics
import sys
from collections import defaultdict

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.harness import ncu_csv  # noqa: E402

CUB_TILE = {4: (256, 17), 8: (256, 8)}
METRICS = {"gpu__time_duration.sum": "ns", "smsp__inst_executed.sum": "inst",
           "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum": "wavefronts",
           "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum": "conflicts"}
KEY_BYTES = {"unsigned int": 4, "unsigned long": 8, "unsigned long long": 8}


def kernel_form(name):
    """(key bytes, pairs, 'CUB' or 'CF <blocks an SM>[, odd-even sort]', u, E) of a block-sort kernel's
    demangled name, or None."""
    cub = re.search(r"DeviceMergeSortBlockSortKernel<.*?policy_hub<([a-z ]+) \*>[^,]*, [a-z ]+ \*, ([\w: ]+?) \*", name)
    if cub:
        key = KEY_BYTES[cub.group(1)]
        return (key, not cub.group(2).endswith("NullType"), "CUB", *CUB_TILE[key])
    cf = re.search(r"block_sort_kernel<[\w:]*Policy<(\d+), (\d+),[^<>]*?(\d+)>, ([a-z ]+), ([\w: ]+?), .*, (\d)>\(",
                   name)
    if cf:
        variant = f"{cf.group(3)} blocks/SM" + ("" if cf.group(6) == "1" else ", odd-even sort")
        return (KEY_BYTES[cf.group(4)], not cf.group(5).endswith("CfNoValue"), "CF " + variant, int(cf.group(1)),
                int(cf.group(2)))
    return None


def read_launches(path):
    """{(kernel name, grid): {metric: [values]}} from one ncu CSV."""
    launches = defaultdict(lambda: defaultdict(list))
    for r in ncu_csv.read_metric_rows(path):
        metric = METRICS.get(r["Metric Name"])
        if metric:
            launches[(r["Kernel Name"], r["Grid Size"])][metric].append(ncu_csv.number(r["Metric Value"]))
    return launches


def size_of(grid, tile, sizes):
    """The n in `sizes` whose tiles of `tile` keys number `grid`, or None (none or several)."""
    fits = [n for n in sizes if -(-n // tile) == grid]
    return fits[0] if len(fits) == 1 else None


def rows_of(label, launches, sizes):
    rows, skipped = [], 0
    for (name, grid), m in launches.items():
        form = kernel_form(name)
        if form is None or not m.get("ns"):
            continue
        key, pairs, who, u, e = form
        tile = u * e
        n = size_of(int(grid.strip("()").split(",")[0]), tile, sizes)
        if n is None:
            skipped += 1
            continue
        med = {k: statistics.median(v) for k, v in m.items()}
        rows.append(dict(label=label, key=key, pairs=pairs, who=who, u=u, e=e, tile=tile, n=n,
                         launches=len(m["ns"]), levels=math.log2(tile), **med))
    return rows, skipped


def table(rows):
    out = ["| program | keys | n | kernel (u x E) | levels | launches | time (us) | time / CUB's | "
           "ps per key and level | per level / CUB's | warp inst. per key | shared wavefronts per key | "
           "bank conflicts per key |",
           "|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    cub = {(r["label"], r["key"], r["pairs"], r["n"]): r for r in rows if r["who"] == "CUB"}
    order = sorted(rows, key=lambda r: (r["label"], r["key"], r["pairs"], r["n"], r["who"] != "CUB", r["tile"], r["u"], r["who"]))
    for r in order:
        per_level = r["ns"] * 1000 / (r["n"] * r["levels"])
        c = cub.get((r["label"], r["key"], r["pairs"], r["n"]))
        ratio = f"{r['ns'] / c['ns']:.3f}" if c else ""
        level_ratio = f"{per_level / (c['ns'] * 1000 / (c['n'] * c['levels'])):.3f}" if c else ""

        def per_key(metric, r=r):
            return f"{r[metric] / r['n']:.2f}" if metric in r else ""

        keys = f"u{8 * r['key']}{' pairs' if r['pairs'] else ''}"
        variant = f" ({r['who'].split(' ', 1)[1]})" if " " in r["who"] else ""
        out.append(f"| {r['label']} | {keys} | {r['n']} | {r['who'].split()[0]} {r['u']} x {r['e']}{variant} | {r['levels']:.2f} | "
                   f"{r['launches']} | {r['ns'] / 1000:.1f} | {ratio} | {per_level:.3f} | {level_ratio} | "
                   f"{per_key('inst')} | {per_key('wavefronts')} | {per_key('conflicts')} |")
    return "\n".join(out)


def main(argv):
    if len(argv) < 3 or argv[0] != "--sizes":
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        sizes = [int(s) for s in argv[1].split(",")]
    except ValueError:
        print(f"block_sort_kernels.py: --sizes: '{argv[1]}' is not a list of sizes", file=sys.stderr)
        return 2
    rows = []
    for arg in argv[2:]:
        label, sep, path = arg.partition("=")
        if not sep:
            print(f"block_sort_kernels.py: '{arg}' is not LABEL=FILE", file=sys.stderr)
            return 2
        got, skipped = rows_of(label, read_launches(path), sizes)
        if skipped:
            print(f"block_sort_kernels.py: {path}: {skipped} kernels at grids that fit no size or more than one", file=sys.stderr)
        rows += got
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
