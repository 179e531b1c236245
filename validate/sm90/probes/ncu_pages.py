"""Nsight Compute's exported pages as the probe summary reads them
(probe_summary.py): the raw page (one row of kernel-level metrics per profiled
kernel) and the source page (per launch, one row per SASS instruction), and
the memory instructions of a launch with their per-instruction counters.
Standard library only."""
import os
import re
import sys
from collections import OrderedDict

# ncu's source page is read as the per-instruction harness reads it.
from validate.harness import ncu_csv
from validate.harness.ncu_csv import drop_copies, raw_rows, read_blocks
from validate.harness.sass_text import split_guard

MEM = re.compile(r"^(LDS|STS|ATOMS|LDSM|STSM|LDGSTS|LDG|STG|ATOMG|ATOM|RED|REDG|LDL|STL|LD|ST)(\.|$)")
# Source-page columns: the label ncu prints with --section SourceCounters,
# then the metric name (a page of individually requested metrics may use it).
COLUMNS = OrderedDict([
    ("inst_executed", ["Instructions Executed", "inst_executed"]),
    ("thread_pred_on", ["Predicated-On Thread Instructions Executed", "thread_inst_executed_true"]),
    ("space", ["Address Space", "memory_type"]),
    ("access", ["Access Operation", "memory_access_type"]),
    ("size", ["Access Size", "memory_access_size_type"]),
    ("wavefronts", ["L1 Wavefronts Shared", "memory_l1_wavefronts_shared"]),
    ("wavefronts_ideal", ["L1 Wavefronts Shared Ideal", "memory_l1_wavefronts_shared_ideal"]),
    ("l1_tag_requests", ["L1 Tag Requests Global", "memory_l1_tag_requests_global"]),
    ("l2_sectors", ["L2 Theoretical Sectors Global", "memory_l2_theoretical_sectors_global"]),
    ("l2_sectors_ideal", ["L2 Theoretical Sectors Global Ideal", "memory_l2_theoretical_sectors_global_ideal"]),
])
NUMERIC = {"inst_executed", "thread_pred_on", "wavefronts", "wavefronts_ideal", "l1_tag_requests", "l2_sectors",
           "l2_sectors_ideal"}


def number(text):
    """ncu_csv.number, as an int where the value is whole."""
    v = ncu_csv.number(text)
    return v if v is None or v != int(v) else int(v)


def read_raw(path):
    """[row dict] per profiled kernel, in ncu's order (harness/ncu_csv.py)."""
    if not os.path.exists(path):
        return []
    with open(path, newline="", errors="replace") as f:
        return raw_rows(f)


def read_source(path):
    """[(kernel name, [row dict])] per launch, ncu's copies dropped where every block is doubled."""
    if not os.path.exists(path):
        return []
    return drop_copies(read_blocks(path))  # no launch list here (ncu_csv.py)


def column(row, key):
    for label in COLUMNS[key]:
        if label in row:
            return row[label]
    return None


def mnemonic(sass):
    """(mnemonic, guard) of a SASS text (harness/sass_text.py)."""
    guard, mn = split_guard(sass)
    return mn, guard


def instructions(rows):
    """Memory instructions of one launch as dicts (offset from the first PC)."""
    if not rows:
        return []
    first = int(rows[0]["Address"], 16)
    out = []
    for r in rows:
        sass = " ".join(r.get("Source", "").split())
        mn, pred = mnemonic(sass)
        if not MEM.match(mn):
            continue
        d = {"offset": f"0x{int(r['Address'], 16) - first:04x}", "sass": sass, "mnemonic": mn, "predicate": pred}
        for key in COLUMNS:
            v = column(r, key)
            d[key] = (number(v) if key in NUMERIC else v) if v is not None else None
        out.append(d)
    return out

