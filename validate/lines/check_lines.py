#!/usr/bin/env python3
"""Checks the source line bankcheck gives each conflicting shared-memory
instruction against Nsight Compute's source page for the same launches
(validate/lines/README.md).

    check_lines.py --compare compare.json --capture CAPTURE_DIR \
        --ncu-sass sass.csv --ncu-source cuda_sass.csv [--root DIR] [--csv OUT.csv]

compare.json is `bankcheck compare --json` of the capture against sass.csv
(`ncu -i REP --page source --print-source sass --csv --print-kernel-base mangled`);
its rows carry bankcheck's line (from the capture's sass.csv, nvdisasm -gi).
cuda_sass.csv is the same report's `--print-source cuda,sass --csv` page: ncu's
own correlation of each SASS address with a file and line. An instruction's
address is its kernel's first address in sass.csv plus its offset.

An instruction is conflicting when ncu measured more shared wavefronts than
its ideal (summed over the kernel's launches). For each one the table gives
bankcheck's line, ncu's, and the MARK comment on that line where the file is
readable under --root (the programs here mark each access they make). The
verdict: `same` (file and line equal, the file compared by whole path
components from the end), `ncu: call site` (ncu names a line bankcheck lists
as an inlined-at site), `both: no line info`, `DIFFER`, or `ncu: not found`
(bankcheck names a line, ncu's page has no row at that address; with no
line info on either side, `both: no line info`). Exit 0 when some
instruction was checked and none says DIFFER or `ncu: not found`, 1
otherwise, 2 on unreadable input. Standard library only."""
import argparse
import csv
import json
import os
import sys


def number(text):
    text = (text or "").replace(",", "").strip()
    try:
        return int(float(text))
    except ValueError:
        return 0


def rows_of(path):
    with open(path, newline="", errors="replace") as f:
        return [r for r in csv.reader(f) if r and any(c.strip() for c in r)]


def read_ncu_sass(path):
    """({mangled kernel: first address}, {(kernel, offset): [wavefronts, ideal]}) from the SASS page."""
    first, counts, kernel, header, block = {}, {}, None, None, None
    for r in rows_of(path):
        if r[0] == "Kernel Name":
            kernel, header, block = r[1] if len(r) > 1 else "", None, None
        elif r[0] == "Address":
            header = r
        elif header and kernel is not None and r[0].startswith("0x"):
            d = dict(zip(header, r))
            address = int(r[0], 16)
            if block is None:
                block = address
                if first.setdefault(kernel, address) != address:
                    raise ValueError(f"{path}: kernel {kernel} starts at two addresses")
            c = counts.setdefault((kernel, address - block), [0, 0])
            c[0] += number(d.get("L1 Wavefronts Shared"))
            c[1] += number(d.get("L1 Wavefronts Shared Ideal"))
    return first, counts


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


def launch_kernels(capture):
    """{capture launch id: mangled kernel} from the capture's launches.csv."""
    with open(os.path.join(capture, "launches.csv"), newline="") as f:
        return {int(r["id"]): r["kernel"] for r in csv.DictReader(f)}


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


def verdict(source, ncu):
    """bankcheck's source object against ncu's {(file, line)} for the same address."""
    at = None if not source or source.get("line") is None else (source["file"], source["line"])
    named = {(f, l) for f, l in ncu if f and l}
    if at is None:
        return "both: no line info" if not named else "DIFFER"
    if not ncu:
        return "ncu: not found"
    if not named:
        return "DIFFER"
    if any(same_file(f, at[0]) and l == at[1] for f, l in named):
        return "same"
    chain = [(s["file"], s["line"]) for s in source.get("inlined_at", [])]
    if any(same_file(f, cf) and l == cl for f, l in named for cf, cl in chain):
        return "ncu: call site"
    return "DIFFER"


def short_file_line(pairs):
    named = sorted({(os.path.basename(f), l) for f, l in pairs if f and l})
    return " / ".join(f"{f}:{l}" for f, l in named) or "no line info"


def table(compare, kernels, first, counts, lines, root):
    """One row per conflicting (kernel, offset), in compare's order."""
    seen, out = set(), []
    for r in compare["rows"]:
        kernel = kernels.get(r["launch"])
        key = (kernel, r["offset"])
        if kernel is None or key in seen or key not in counts:
            continue
        seen.add(key)
        wavefronts, ideal = counts[key]
        if wavefronts <= ideal:
            continue
        ncu = lines.get(first[kernel] + r["offset"], set()) if kernel in first else set()
        source = r.get("source")
        bc = source["text"] if source else "(no sass.csv)"
        at = source and source.get("line") is not None
        out.append({"kernel": r["kernel"], "offset": hex(r["offset"]), "sass": r["sass"],
                    "ncu_wavefronts": wavefronts, "ncu_ideal": ideal, "compare": r["verdict"],
                    "bankcheck": bc, "ncu": short_file_line(ncu), "verdict": verdict(source, ncu),
                    "mark": mark(root, source["file"], source["line"]) if at else ""})
    return out


def print_table(title, rows, totals):
    print(f"{title}: {len(rows)} conflicting instructions (ncu: wavefronts > ideal), {totals}")
    fmt = "{:<28} {:>7} {:<34} {:>9} {:>7}  {:<44} {:<22} {:<18} {}"
    print(fmt.format("kernel", "offset", "sass", "ncu wf", "ideal", "bankcheck line", "ncu line", "verdict",
                     "MARK"))
    for r in rows:
        print(fmt.format(r["kernel"][:28], r["offset"], r["sass"][:34], r["ncu_wavefronts"], r["ncu_ideal"],
                         r["bankcheck"][:44], r["ncu"][:22], r["verdict"], r["mark"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for name in ("--compare", "--capture", "--ncu-sass", "--ncu-source"):
        ap.add_argument(name, required=True)
    ap.add_argument("--root", default=".")
    ap.add_argument("--title", default="lines")
    ap.add_argument("--csv")
    a = ap.parse_args()
    try:
        with open(a.compare) as f:
            compare = json.load(f)
        kernels = launch_kernels(a.capture)
        first, counts = read_ncu_sass(a.ncu_sass)
        lines = read_ncu_lines(a.ncu_source)
    except (OSError, ValueError, KeyError) as e:
        print(f"check_lines: {e}", file=sys.stderr)
        return 2
    rows = table(compare, kernels, first, counts, lines, a.root)
    verdicts = {}
    for r in rows:
        verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
    totals = ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items())) or "none"
    print_table(a.title, rows, totals)
    if not lines:
        print("note: ncu's cuda,sass page gave no address a line (no line info, or a page this reader does not know)")
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else ["kernel"], lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
    if not rows:
        print("nothing checked: no conflicting instruction in these launches; exit 1, never a vacuous pass")
    failed = not rows or any(v in ("DIFFER", "ncu: not found") for v in verdicts)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
