#!/usr/bin/env python3
"""Generate the single-instruction probe cases for validate/sm90/probes/probes.cu.

  python3 validate/sm90/probes/make_probe_cases.py [OUTDIR]

writes, into OUTDIR (default: validate/sm90/probes/cases):

  probes.csv     the manifest the probe program reads: one row per case,
                 in launch order, with the addresses the hardware gets
                 (a0..a31), the active mask, the kind and its variant;
  atom.trace     shared atomics, `atom` lines
  matrix.trace   ldmatrix / stmatrix, `ldsm` / `stsm` lines
  cpasync.trace  cp.async shared destinations, `cpasync` lines
  cgsrc.trace    cp.async.cg (16 bytes) with source and destination varied
                 in 16-byte chunks, `cpasync.cg` lines with `from`
  cgline.trace   the cgsrc patterns that read several source lines, with
                 the lines 128 to 4096 bytes apart
  cgwarm.trace   cgline's patterns (and a few of one line) with the sources
                 read into L2 just before the copy
  cgsrcsize.trace, cgignore.trace   the same copies in Triton's forms (a
                 run-time source size; an ignore-src predicate)
  cgpair.trace, cgpairplain.trace   each copy followed by a second one of
                 the other halves of its source lines (source size form, plain)
  cgwarmsrcsize.trace   the source size form with the sources read into L2 first
  casrcsize.trace   cpasync.trace's .ca copies in the source-size form
  caltc.trace, cgltc.trace   cpasync.trace's .ca copies and cpasync's and
                 cgsrc's .cg copies with the L2::128B hint (SASS .LTC128B)
  zfill.trace    the ignore-src form, with and without the hint, some or
                 all lanes zero-filling (source `z`)
  s12.trace      12-byte struct accesses, expanded into the ld/st
                 instructions the compiler emits (plain ld/st lines)
  global.trace   global loads and stores, `gld` / `gst` lines
  ld8pred.trace  8-byte loads of the ld8mix set whose idle lanes are
                 predicated off or diverged (plain ld lines: the model's
                 view is the ld8mix case's)

Trace lines follow docs/trace-format.md (site, op, width, 32 lane tokens,
`-` for a lane that takes no part) with the op tokens this probe set
introduces; the site name is the case name, which is also the manifest's
`name`, so a measurement joins to its case by name. A comment at the end of
each line repeats the variant (e.g. `# func=add.u32 used=1`).

Conventions per kind (what a lane token means):
  atom     byte offset of the lane's word (width 4) or doubleword (width 8)
           in the probe's shared array; inactive lanes `-`.
  ldsm/stsm  width 16: the 16-byte row address given by the lane; lanes
           8i..8i+7 give the rows of matrix i; lanes past 8 * (x1/x2/x4)
           are `-` in the trace. The manifest holds what those unused lanes
           really pass to the hardware (`fill` in the note column): a copy
           of a used lane's address, addresses that would conflict, or
           random rows, so a difference between fills would show that the
           hardware reads them.
  cpasync  the shared destination of each lane, then `from` and each
           lane's global source (byte offset into a 4096-byte-aligned
           buffer; the manifest's s0..s31). The first cases of each
           variant read lane l's element of one coalesced block; the
           `-src-` cases vary the source with the destination fixed.
  s12      the manifest's a_l is an element index; the trace holds the
           byte addresses of each emitted instruction (site `CASE+OFFSET`,
           OFFSET the instruction's immediate offset in the SASS).
  gld/gst  byte offset into a 4096-byte-aligned global buffer.
  ld8      byte offset in shared memory (an ld line); the manifest also
           holds what the idle lanes' address registers contain.

Only the standard library is used; the seed is fixed, so the files are
reproducible byte for byte.
"""
import os
import random
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.sm90.probes.probe_case_kinds import (S12_SASS, SHARED, W, atom_cases, cpasync_cases,  # noqa: E402,F401
                                                   global_cases, ld8_cases, matrix_cases, row_lanes, s12_cases)
from validate.sm90.case_format import line  # noqa: E402
from validate.sm90.probes.probe_cases_cgsrc import cgline_cases, cgsrc_cases  # noqa: E402
from validate.sm90.probes.probe_cases_ltc import IGNORE_SOURCE, hinted_cases, zero_fill_cases  # noqa: E402


class Cases:
    def __init__(self):
        self.rows = []          # manifest rows (dicts)
        self.traces = {}        # file -> [lines]
        self.names = set()

    def add(self, trace, name, kind, variant, width, addrs, *, hw=None, src=None, hw_src=None, used="", note="",
            op=None, comment=""):
        """addrs: the model's view, None for a lane that takes no part;
        hw: what the hardware gets (defaults to addrs with 0 for idle lanes);
        src: cp.async's global source offsets (None for an idle lane, "z"
        for a zero-filling one); hw_src: the sources the hardware gets
        (defaults to src)."""
        assert name not in self.names, name
        assert len(addrs) == W
        self.names.add(name)
        mask = sum(1 << l for l, a in enumerate(addrs) if a is not None)
        if hw is None:
            hw = [0 if a is None else a for a in addrs]
        assert len(hw) == W
        s = [0] * W if src is None else [0 if a is None else a for a in (src if hw_src is None else hw_src)]
        self.rows.append({"name": name, "kind": kind, "variant": variant, "width": width, "used": used,
                          "mask": f"0x{mask:08x}", "note": note, "a": hw, "s": s})
        if trace is not None:
            self.trace_line(trace, name, op or kind, width, addrs, comment, src)

    def trace_line(self, trace, site, op, width, addrs, comment="", src=None):
        self.traces.setdefault(trace, []).append(line(site, op, width, addrs, src, comment))


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")
    os.makedirs(outdir, exist_ok=True)
    c = Cases()
    # Order = launch order = priority: if a run is cut short, the earlier
    # kinds are the ones measured.
    atom_cases(c, random.Random(2026_11_23))
    matrix_cases(c, random.Random(16))
    cpasync_cases(c, random.Random(17))
    # The .ca copies again in the source-size form (kind casrcsize).
    for r in [r for r in c.rows if r["kind"] == "cpasync" and r["variant"].startswith("ca.")]:
        dst, src = row_lanes(r)
        c.add("casrcsize.trace", "casrcsize" + r["name"][len("cpasync"):], "casrcsize", r["variant"], r["width"],
              dst, src=src,
              op="cpasync", comment=r["variant"] + ", source-size form")
    s12_cases(c, random.Random(12))
    cgsrc_cases(c, random.Random(90))
    cgline_cases(c)
    cgline_cases(c, "cgwarm", (256, 1024))
    cgline_cases(c, "cgsrcsize", (1024,))
    cgline_cases(c, "cgignore", (1024,))
    cgline_cases(c, "cgpair", (1024,))
    cgline_cases(c, "cgpairplain", (1024,))
    cgline_cases(c, "cgwarmsrcsize", (1024,))
    global_cases(c, random.Random(128))
    ld8_cases(c)
    hinted_cases(c)
    zero_fill_cases(c, random.Random(25))
    for r in c.rows:
        for a in r["a"] + r["s"]:
            assert 0 <= a < (1 << 20) or (r["kind"] == "zfill" and a == IGNORE_SOURCE), (r["name"], a)
        if r["kind"] in ("atom", "ldsm", "stsm", "cpasync", "cgsrc", "cgline", "cgwarm", "cgsrcsize", "cgignore", "cgpair", "cgpairplain", "cgwarmsrcsize", "casrcsize", "ld8", "caltc", "cgltc", "zfill"):
            assert all(0 <= a and a + int(r["width"]) <= SHARED and a % int(r["width"]) == 0 for a in r["a"]), r["name"]
    with open(os.path.join(outdir, "probes.csv"), "w") as f:
        f.write("# single-instruction probe cases, generated by validate/sm90/probes/make_probe_cases.py\n")
        f.write("name,kind,variant,width,used,mask,note," + ",".join(f"a{l}" for l in range(W)) + ","
                + ",".join(f"s{l}" for l in range(W)) + "\n")
        for r in c.rows:
            note = r["note"].replace(",", ";")
            f.write(f"{r['name']},{r['kind']},{r['variant']},{r['width']},{r['used']},{r['mask']},{note},"
                    + ",".join(str(a) for a in r["a"]) + "," + ",".join(str(a) for a in r["s"]) + "\n")
    for trace, lines in c.traces.items():
        with open(os.path.join(outdir, trace), "w") as f:
            f.write(f"# {trace[:-6]} probe cases, generated by validate/sm90/probes/make_probe_cases.py\n")
            f.write("warp 32\n")
            f.write("\n".join(lines) + "\n")
    counts = {}
    for r in c.rows:
        counts[r["kind"]] = counts.get(r["kind"], 0) + 1
    print(f"{len(c.rows)} cases: " + ", ".join(f"{k} {n}" for k, n in counts.items()), file=sys.stderr)


if __name__ == "__main__":
    main()
