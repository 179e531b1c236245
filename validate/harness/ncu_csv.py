"""Nsight Compute's CSV pages: the one Python reader of them.

The raw page (`ncu --csv --page raw`, one row per profiled launch) is read by
read_raw; the details page in its long form (`ncu --csv` with --metrics and no
--page: one row per launch and metric, "Metric Name", "Metric Unit", "Metric
Value") by read_metric_rows; the source page by read_blocks.

The source page: `ncu -i REPORT --page source --csv --print-source sass` prints one block per
profiled launch, in profiling order: a "Kernel Name" line, then a header row
opened by "Address", then one row per SASS instruction (its address 0x...).
The C++ reader is capture/host/ncu/ncu_table.hpp; the rules for the blocks ncu
prints twice are the same as there (ncu_table.hpp, ncu_launches.hpp):

  drop_copies                 without a launch list: only when every block is
                              followed by an identical one are the copies dropped
                              (ncu 2025.3 doubles most pages); a page where some
                              blocks are single (cuDNN's sm90 attention kernels,
                              H100, 2026-11-26) keeps every block, since copies
                              cannot be told from launches by the page alone
  drop_copies_by_launch_list  with the launch list: each launch takes the next
                              block (of its name, where the list names it), and a
                              block identical to the one before it is a copy while
                              more blocks than launches remain

Only the standard library is used.
"""
import csv


def number(text):
    """A value of a page's cell: ncu's thousands separators ("1,024") dropped;
    None where the cell is missing, empty, "n/a" or not a number."""
    text = (text or "").replace(",", "").strip()
    try:
        return float(text)
    except ValueError:
        return None


def raw_rows(lines):
    """The launch rows of a raw page's lines, in launch order: ncu's own log
    lines (==PROF==, ==WARNING==) and the units row under the header dropped."""
    rows = csv.DictReader(line for line in lines if line.startswith('"'))
    return [r for r in rows if r.get("ID", "").strip().isdigit()]


def read_raw(path):
    """raw_rows of the file at path."""
    with open(path, newline="") as f:
        return raw_rows(f)


def metric_rows(lines):
    """The rows of a long-form details page's lines, one per launch and metric,
    in page order: ncu's own log lines and the profiled program's output (any
    line not opened by a quote) dropped."""
    return list(csv.DictReader(line for line in lines if line.startswith('"')))


def read_metric_rows(path):
    """metric_rows of the file at path."""
    with open(path, newline="") as f:
        return metric_rows(f)


def read_blocks(path):
    """[(kernel name, [row dict per SASS instruction])] per block, in page order."""
    blocks, header = [], None
    for row in csv.reader(open(path, newline="", errors="replace")):
        if not row:
            continue
        if row[0] == "Kernel Name":
            blocks.append((row[1] if len(row) > 1 else "", []))
            header = None
        elif row[0] == "Address":
            header = row
        elif header and blocks and row[0].startswith("0x"):
            blocks[-1][1].append(dict(zip(header, row)))
    return blocks


def every_block_doubled(blocks):
    """Is every block followed by an identical one (an even, non-empty page)?"""
    n = len(blocks)
    return n > 0 and n % 2 == 0 and all(blocks[i] == blocks[i + 1] for i in range(0, n, 2))


def drop_copies(blocks):
    """The blocks without ncu's copies, where every block was printed twice; else all of them."""
    return blocks[::2] if every_block_doubled(blocks) else blocks


def drop_copies_by_launch_list(blocks, launches):
    """The blocks of the launch list, one per launch. `launches` holds each
    launch's kernel name as ncu prints it, or None where the list does not name
    it (then only the order and the count pair them).
    Raises ValueError when the blocks cannot be matched to the list in order."""
    kept, b = [], 0
    for l, name in enumerate(launches):
        if b >= len(blocks) or (name is not None and blocks[b][0] != name):
            raise ValueError(f"the source page's block {b} is not launch {l} of the launch list")
        kept.append(blocks[b])
        b += 1
        launches_left = len(launches) - l - 1
        if b < len(blocks) and len(blocks) - b > launches_left and blocks[b] == kept[-1]:
            b += 1
    if b != len(blocks):
        raise ValueError(f"the source page has {len(blocks) - b} blocks more than the launch list's "
                         f"{len(launches)} launches")
    return kept
