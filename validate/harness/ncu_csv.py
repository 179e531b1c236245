"""Nsight Compute's CSV pages, read by the capture's C++ reader
(capture/host/ncu/ncu_page.hpp, through the Python module: harness/native.py),
as dicts for the scripts.

The raw page (`ncu --csv --page raw`, one row per profiled launch) is read by
read_raw; the details page in its long form (`ncu --csv` with --metrics and no
--page: one row per launch and metric, "Metric Name", "Metric Unit", "Metric
Value") by read_metric_rows; the source page (`ncu -i REPORT --page source
--csv --print-source sass`, a block per profiled launch) by read_blocks. The
rules for the blocks ncu prints twice are ncu_page.hpp's:

  drop_copies                 without a launch list: only when every block is
                              followed by an identical one are the copies dropped
  drop_copies_by_launch_list  with the launch list: each launch takes the next
                              block (of its name, where the list names it), and a
                              block identical to the one before it is a copy while
                              more blocks than launches remain
"""
from validate.harness.native import bankcheck

ncu = bankcheck.ncu


def number(text):
    """A value of a page's cell for Python's arithmetic: ncu's thousands
    separators ("1,024") dropped; None where the cell is missing, empty, "n/a"
    or not a number."""
    text = (text or "").replace(",", "").strip()
    try:
        return float(text)
    except ValueError:
        return None


def _text(lines):
    """A page's text from its lines, with or without their line ends."""
    return "\n".join(line.rstrip("\r\n") for line in lines)


def raw_rows(lines, name="raw page"):
    """The launch rows of a raw page's lines ({column: cell}), in launch order:
    ncu's own log lines (==PROF==, ==WARNING==) and the units row under the header dropped."""
    return ncu.table_rows(_text(lines), name)


def read_raw(path):
    """raw_rows of the file at path."""
    with open(path, newline="") as f:
        return raw_rows(f, str(path))


def metric_rows(lines, name="details page"):
    """The rows of a long-form details page's lines, one per launch and metric,
    in page order: ncu's own log lines and the profiled program's output (any
    line not opened by a quote) dropped."""
    return ncu.table_rows(_text(lines), name)


def read_metric_rows(path):
    """metric_rows of the file at path."""
    with open(path, newline="") as f:
        return metric_rows(f, str(path))


def read_blocks(path):
    """[(kernel name, [row dict per SASS instruction])] per block, in page order."""
    with open(path, newline="", errors="replace") as f:
        return ncu.source_blocks(f.read(), str(path))


def drop_copies(blocks):
    """The blocks without ncu's copies, where every block was printed twice; else all of them."""
    return ncu.without_copies(blocks)


def drop_copies_by_launch_list(blocks, launches):
    """The blocks of the launch list, one per launch. `launches` holds each
    launch's kernel name as ncu prints it, or None where the list does not name
    it (then only the order and the count pair them).
    Raises ValueError when the blocks cannot be matched to the list in order."""
    return ncu.by_launch_list(blocks, launches)


def every_block_doubled(blocks):
    """Is every block followed by an identical one (an even, non-empty page)?"""
    return len(ncu.without_copies(blocks)) < len(blocks)
