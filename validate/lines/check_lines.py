#!/usr/bin/env python3
"""Checks the source line bankcheck gives each conflicting shared-memory
instruction against Nsight Compute's source page for the same launches
(validate/lines/README.md).

    check_lines.py --compare compare.json --capture CAPTURE_DIR \
        --ncu-sass sass.csv --ncu-source cuda_sass.csv [--root DIR] [--csv OUT.csv] \
        [--report REPORT.html]

compare.json is `bankcheck compare --json` of the capture against sass.csv
(`ncu -i REP --page source --print-source sass --csv --print-kernel-base mangled`);
its rows carry bankcheck's line (from the capture's sass.csv, nvdisasm -gi).
cuda_sass.csv is the same report's `--print-source cuda,sass --csv` page: ncu's
own correlation of each SASS address with a file and line (per source file
and function a "File Path" and a "Function Name" row, a header with "Line
No" and "Address", each line's row followed by its SASS rows), and ncu's
warning for each kernel it has no line info for. A captured launch meets
ncu's block of the same kernel in order (the k-th with the k-th); an
instruction's address is its block's first address plus its offset.

An instruction is conflicting when ncu measured more shared wavefronts than
its ideal (summed over the launches that run its code). For each one the
table gives bankcheck's line, ncu's, and the MARK comment on that line where
the file is readable under --root (the programs here mark each access they
make). The verdict: `same` (ncu names the line bankcheck gives, and any
other line it names is one bankcheck lists as an inlined-at site; files
compared by whole path components from the end), `ncu: call site` (ncu names
only inlined-at sites), `both: no line info` (bankcheck has none, and
ncu says it has none for the kernel), `DIFFER`, or `ncu: not found` (ncu's
page neither has the address nor says the kernel has no line info). Exit 0
when some instruction was checked and none says DIFFER or `ncu: not found`,
1 otherwise, 2 on unreadable input. --report also checks the line each
instruction of a `bankcheck report` page of the capture shows (its inline
data), conflicting or not; a site whose function name ncu ran as several
codes is counted as not checked. Standard library only."""
import argparse
import collections
import csv
import json
import os
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.harness import ncu_csv  # noqa: E402
from validate.harness.kernel_names import display_name  # noqa: E402


def number(text):
    return int(ncu_csv.number(text) or 0)


def rows_of(path):
    with open(path, newline="", errors="replace") as f:
        return [r for r in csv.reader(f) if r and any(c.strip() for c in r)]


def read_ncu_sass(path):
    """[(mangled kernel, first address, {offset: (wavefronts, ideal)})] per launch block of the SASS
    page, in ncu's order; when every block is followed by an identical one (ncu 2025.3 prints each
    block twice), the copies are dropped, as `bankcheck compare` drops them (harness/ncu_csv.py)."""
    out = []
    for kernel, rows in ncu_csv.drop_copies(ncu_csv.read_blocks(path)):
        if not rows:
            continue
        first = int(rows[0]["Address"], 16)
        out.append((kernel, first, {int(d["Address"], 16) - first: (number(d.get("L1 Wavefronts Shared")),
                                                                     number(d.get("L1 Wavefronts Shared Ideal")))
                                    for d in rows}))
    return out


def read_ncu_no_lineinfo(path):
    """The kernels ncu says it has no line info for (its warning on the cuda,sass page)."""
    out = set()
    with open(path, errors="replace") as f:
        for text in f:
            if text.startswith("==WARNING== No lineinfo available") and "related to '" in text:
                out.add(text.split("related to '", 1)[1].rsplit("'", 1)[0])
    return out


def pair_launches(capture, blocks):
    """{capture launch id: ncu block}: per kernel, the k-th captured launch meets ncu's k-th block of that
    kernel (both tools selected the same launches with one expression), after dropping a block equal to
    the one before it while the kernel has more blocks than captured launches. Triton compiles one name
    into several kernels (one per argument type), so a name alone does not give the code's address."""
    with open(os.path.join(capture, "launches.csv"), newline="") as f:
        launches = [r for r in csv.DictReader(f) if r.get("status", "") != "skipped"]
    by_kernel, wanted = {}, {}
    for b in blocks:
        by_kernel.setdefault(b[0], []).append(b)
    for r in launches:
        wanted[r["kernel"]] = wanted.get(r["kernel"], 0) + 1
    for kernel, queue in by_kernel.items():  # ncu 2025.3 prints some blocks twice: drop copies it has too many of
        extra, kept = len(queue) - wanted.get(kernel, 0), []
        for b in queue:
            if extra > 0 and kept and b == kept[-1]:
                extra -= 1
            else:
                kept.append(b)
        by_kernel[kernel] = kept
    pairs, notes = {}, []
    for r in sorted(launches, key=lambda r: int(r["id"])):
        queue = by_kernel.get(r["kernel"], [])
        if queue:
            pairs[int(r["id"])] = queue.pop(0)
        else:
            notes.append(f"launch {r['id']} ({r['kernel'][:60]}): no ncu block left for it")
    return pairs, notes


def read_ncu_lines(path):
    """{address: {(file, line)}} from the cuda,sass page: per source file a "File Path" row, a header
    holding an address column and a line column ("Line No"), then each CUDA line's row (a line
    number, no address) followed by the SASS rows (an address) it covers."""
    out, file, header, line = {}, "", None, None
    for r in rows_of(path):
        cells = [c.strip() for c in r]
        if cells[0] in ("File Path", "File Name", "Source File") and len(cells) > 1:
            file, line = cells[1], None
        elif cells[0] in ("Kernel Name", "Function Name"):
            line = None
        elif any(c.endswith("Address") for c in cells):
            header = cells
        elif header is not None:
            a = next(i for i, h in enumerate(header) if h.endswith("Address"))
            lcol = next((i for i, h in enumerate(header) if h in ("Line No", "Line", "Line Number", "#")), None)
            address = cells[a] if a < len(cells) else ""
            if address.startswith("0x"):
                out.setdefault(int(address, 16), set()).add((file, line))
            elif lcol is not None and lcol < len(cells) and cells[lcol].isdigit():
                line = int(cells[lcol])
    return out


def same_file(a, b):
    """Whole path components from the end: "k.cu" is "/src/k.cu", not "/src/tk.cu"."""
    pa, pb = os.path.normpath(a).split(os.sep), os.path.normpath(b).split(os.sep)
    n = min(len(pa), len(pb))
    return n > 0 and pa[-n:] == pb[-n:]


def readable(root, file):
    """The file as recorded, else the longest end of its path that exists under root (nvcc records
    absolute paths on the machine that compiled), else None."""
    if os.path.isfile(file):
        return file
    parts = os.path.normpath(file).strip(os.sep).split(os.sep)
    for k in range(len(parts)):
        path = os.path.join(root, *parts[k:])
        if os.path.isfile(path):
            return path
    return None


def mark(root, file, line):
    """The MARK comment on FILE:LINE, where the file is readable; "" otherwise."""
    path = readable(root, file)
    if path is None:
        return ""
    with open(path, errors="replace") as f:
        lines = f.read().splitlines()
    if 1 <= line <= len(lines) and "MARK:" in lines[line - 1]:
        return lines[line - 1].split("MARK:", 1)[1].strip()
    return ""


def verdict(source, ncu, ncu_none):
    """bankcheck's source object against ncu's {(file, line)} for the same address; ncu_none: ncu said it
    has no line info for the kernel."""
    at = None if not source or source.get("line") is None else (source["file"], source["line"])
    named = {(f, l) for f, l in ncu if f and l}
    if not named and not ncu_none:
        return "ncu: not found"
    if at is None or not named:
        return "both: no line info" if at is None and not named else "DIFFER"
    # ncu lists an inlined instruction under its own line and, for some, under the lines it was inlined
    # at as well: every line ncu names must be one of bankcheck's, and the access's own line among them.
    chain = [(s["file"], s["line"]) for s in source.get("inlined_at", [])]
    known = [at] + chain
    if not all(any(same_file(f, kf) and l == kl for kf, kl in known) for f, l in named):
        return "DIFFER"
    return "same" if any(same_file(f, at[0]) and l == at[1] for f, l in named) else "ncu: call site"


def short_file_line(pairs):
    named = sorted({(os.path.basename(f), l) for f, l in pairs if f and l})
    return " / ".join(f"{f}:{l}" for f, l in named) or "no line info"


def short_source(source):
    """bankcheck's line with file names only: "k.cu:7 (inlined at k.cuh:3 < k.cu:9)"."""
    if not source:
        return "(no sass.csv)"
    if source.get("line") is None:
        return "no line info"
    text = f"{os.path.basename(source['file'])}:{source['line']}"
    chain = " < ".join(f"{os.path.basename(s['file'])}:{s['line']}" for s in source.get("inlined_at", []))
    return text + (f" (inlined at {chain})" if chain else "")


def table(compare, pairs, lines, no_lineinfo, root, conflicting=True):
    """One row per conflicting instruction (its address: a kernel's launches share it; conflicting=False:
    every compared instruction), counts summed over the launches, in compare's order."""
    totals, order = {}, []
    for r in compare["rows"]:
        block = pairs.get(r["launch"])
        if block is None or r["offset"] not in block[2]:
            continue
        address = block[1] + r["offset"]
        if address not in totals:
            totals[address] = [0, 0, r, block[0]]
            order.append(address)
        wavefronts, ideal = block[2][r["offset"]]
        totals[address][0] += wavefronts
        totals[address][1] += ideal
    out = []
    for address in order:
        wavefronts, ideal, r, kernel = totals[address]
        if conflicting and wavefronts <= ideal:
            continue
        ncu = lines.get(address, set())
        source = r.get("source")
        at = bool(source) and source.get("line") is not None
        out.append({"kernel": r["kernel"], "offset": hex(r["offset"]), "sass": r["sass"],
                    "ncu_wavefronts": wavefronts, "ncu_ideal": ideal, "compare": r["verdict"],
                    "bankcheck": short_source(source), "bankcheck_source": source["text"] if source else "",
                    "ncu": short_file_line(ncu),
                    "verdict": verdict(source, ncu, kernel in no_lineinfo),
                    "mark": mark(root, source["file"], source["line"]) if at else ""})
    return out


def report_instructions(path):
    """The instructions of a `bankcheck report` page: its inline JSON (a "</" written as "<\\/")."""
    with open(path, errors="replace") as f:
        text = f.read()
    marker = '<script type="application/json" id="report-data">'
    start = text.index(marker) + len(marker)
    return json.loads(text[start:text.index("</script>", start)].replace("<\\/", "</"))["instructions"]


def parse_source_text(text, file, line):
    """A report instruction's source as compare's object: "F:L (inlined at G:M < H:N)" gives the chain."""
    chain = []
    if text and " (inlined at " in text:
        for part in text.split(" (inlined at ", 1)[1].rstrip(")").split(" < "):
            f, _, l = part.rpartition(":")
            chain.append({"file": f, "line": int(l) if l.isdigit() else 0})
    return {"file": file, "line": line, "inlined_at": chain}


def check_report(path, blocks, lines, no_lineinfo):
    """{verdict: instructions} for the lines a report page shows, against ncu's for the same address. A
    site names a function; where ncu ran several codes under that name (Triton's variants), which one
    the site is cannot be told: counted apart, not checked."""
    starts = {}
    for b in blocks:
        starts.setdefault(b[0], set()).add(b[1])
    out = collections.Counter()
    for i in report_instructions(path):
        function, _, offset = i["site"].rpartition("+0x")
        if len(starts.get(function, ())) != 1:
            v = "not checked (no single ncu code for the name)"
        else:
            address = next(iter(starts[function])) + int(offset, 16)
            v = verdict(parse_source_text(i.get("source"), i.get("file"), i.get("line")), lines.get(address, set()),
                        function in no_lineinfo)
        out[v] += 1
    return out


def print_table(title, rows, totals):
    print(f"{title}: {len(rows)} conflicting instructions (ncu: wavefronts > ideal), {totals}")
    fmt = "{:<24} {:>7} {:<32} {:>7} {:>6}  {:<76} {:<20} {:<18} {}"
    print(fmt.format("kernel", "offset", "sass", "ncu wf", "ideal", "bankcheck line", "ncu line", "verdict",
                     "MARK"))
    for r in rows:
        print(fmt.format(display_name(r["kernel"])[:24], r["offset"], r["sass"][:32], r["ncu_wavefronts"],
                         r["ncu_ideal"], r["bankcheck"][:76], r["ncu"][:20], r["verdict"], r["mark"]))


def tally(verdicts):
    """{verdict: count} of an iterable of verdicts, and its text "a 1, b 2" ("none" when empty)."""
    out = {}
    for v in verdicts:
        out[v] = out.get(v, 0) + 1
    return out, ", ".join(f"{k} {v}" for k, v in sorted(out.items())) or "none"


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else ["kernel"], lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for name in ("--compare", "--capture", "--ncu-sass", "--ncu-source"):
        ap.add_argument(name, required=True)
    ap.add_argument("--root", default=".")
    ap.add_argument("--title", default="lines")
    ap.add_argument("--csv")
    ap.add_argument("--report", help="a `bankcheck report` page of the capture: check the lines it shows too")
    a = ap.parse_args()
    try:
        with open(a.compare) as f:
            compare = json.load(f)
        blocks = read_ncu_sass(a.ncu_sass)
        pairs, notes = pair_launches(a.capture, blocks)
        lines, no_lineinfo = read_ncu_lines(a.ncu_source), read_ncu_no_lineinfo(a.ncu_source)
        shown = tally(check_report(a.report, blocks, lines, no_lineinfo).elements()) if a.report else None
    except (OSError, ValueError, KeyError) as e:  # json's decode error is a ValueError
        print(f"check_lines: {e}", file=sys.stderr)
        return 2
    rows = table(compare, pairs, lines, no_lineinfo, a.root)
    verdicts, text = tally(r["verdict"] for r in rows)
    print_table(a.title, rows, text)
    every = table(compare, pairs, lines, no_lineinfo, a.root, conflicting=False)
    print(f"every compared instruction, conflicting or not ({len(every)}): {tally(r['verdict'] for r in every)[1]}")
    if shown is not None:
        print(f"the report's instructions ({sum(shown[0].values())}): {shown[1]}")
    notes += [] if lines else ["ncu's cuda,sass page gave no address a line (no line info, or a page this reader "
                               "does not know)"]
    notes += [f"ncu says it has no line info for {len(no_lineinfo)} kernels"] if no_lineinfo else []
    for n in notes:
        print(f"note: {n}")
    if a.csv:
        write_csv(a.csv, rows)
    if not rows:
        print("nothing checked: no conflicting instruction in these launches; exit 1, never a vacuous pass")
    failed = not rows or any(v in ("DIFFER", "ncu: not found") for v in list(verdicts) + list(shown[0] if shown else []))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
