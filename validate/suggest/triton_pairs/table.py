#!/usr/bin/env python3
"""The Triton pairs' table: bankcheck's counts beside Nsight Compute's.

  table.py RESULTS_DIR

RESULTS_DIR is what run_on_gpu.sh packed: predictions.json (made before the
run by predict.py), manifest.txt (the profiled launches in order: index, case,
variant, tiles), ncu-source.csv or .csv.gz (SourceCounters per SASS
instruction, one block per launch), check.txt (outputs and times), ir/CASE.VARIANT.ptx (the
shared-memory instructions Triton emitted) and suggest-CASE.json (`bankcheck
suggest` on a capture of Triton's convert_layout variant).

Wavefronts per tile (one tile converted once: stores and loads), bankcheck's
and measured, for Triton's own layout and bankcheck's suggestion, then per
instruction by class (stores: STS, STSM; loads: LDS, LDSM). bankcheck's count
of a swizzled_shared Triton chose is `layout --suggest`'s "before"; of a
convert_layout, whose layout Triton picks inside its lowering, the capture's.
A prediction whose accesses are not the instructions Triton emitted for the
variant (its PTX) is "not comparable", never set beside the measurement.
"""
import argparse
import gzip
import json
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.harness import ncu_csv, sass_text  # noqa: E402

from validate.suggest.triton_pairs import cases as C  # noqa: E402

# bankcheck's access kind -> the PTX instruction Triton emits for it
PTX_OF = {"st.128": "st.shared.v4.b32", "st.64": "st.shared.v2.b32", "st.32": "st.shared.b32",
          "st.16": "st.shared.b16", "ld.128": "ld.shared.v4.b32", "ld.64": "ld.shared.v2.b32",
          "ld.32": "ld.shared.b32", "ld.16": "ld.shared.b16",
          "ldmatrix.x4": "ldmatrix.sync.aligned.m8n8.x4.shared.b16",
          "ldmatrix.x4.trans": "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16",
          "stmatrix.x4": "stmatrix.sync.aligned.m8n8.x4.shared.b16"}
PTX_SHARED = re.compile(r"\b((?:ld|st)\.shared[\w.]*|ldmatrix[\w.]*|stmatrix[\w.]*)")
VARIANTS = ("triton", "suggested", "plain")


def is_store(kind):
    return kind.startswith("st")


def sass_class(sass):
    """"store", "load" or None for a SASS instruction's text."""
    m = sass_text.mnemonic(sass)
    if m.startswith("STS"):
        return "store"
    if m.startswith("LDS"):
        return "load"
    return None


def read_manifest(path):
    out = []
    for line in open(path):
        f = line.split()
        if len(f) == 4:
            out.append((f[1], f[2], int(f[3])))
    return out


def measured(rows):
    """One launch's SASS rows -> {class: [executed, wavefronts, {mnemonics}, ideal wavefronts]}."""
    out = {"store": [0, 0, set(), 0], "load": [0, 0, set(), 0]}
    for r in rows:
        sass = " ".join(r.get("Source", "").replace(";", " ").split())
        c = sass_class(sass)
        executed = ncu_number(r.get("Instructions Executed"))
        if c is None or executed == 0:
            continue
        out[c][0] += executed
        out[c][1] += ncu_number(r.get("L1 Wavefronts Shared"))
        out[c][2].add(sass_text.mnemonic(sass))
        out[c][3] += ncu_number(r.get("L1 Wavefronts Shared Ideal"))
    return out


def ncu_number(text):
    text = (text or "").replace(",", "").strip()
    return int(float(text)) if text else 0


def launches(manifest, blocks):
    """{(case, variant): (tiles, measured)}; ValueError when the page's blocks
    are not one per launch of the manifest (all launches share one name)."""
    # Decided for the whole page: consecutive variants with one layout are identical
    # launches, so a block equal to the one before it is a copy only where all are.
    if len(blocks) == 2 * len(manifest) and ncu_csv.every_block_doubled(blocks):
        blocks = blocks[::2]
    if len(blocks) != len(manifest):
        raise ValueError(f"{len(blocks)} blocks on the source page for {len(manifest)} launches in the manifest")
    return {(c, v): (t, measured(rows)) for (c, v, t), (_, rows) in zip(manifest, blocks)}


def access_rows(pred, variant):
    """[(access kind, weight, wavefronts, instructions, ideal)] bankcheck counts for a variant's layout."""
    if variant == "plain":
        return [(a["access"], a["weight"], a["wavefronts"], a["instructions"], a["ideal"])
                for a in pred["plain"]["accesses"]]
    side = "before" if variant == "triton" else "after"
    return [(a["access"], a["weight"], a[side]["wavefronts"], a[side]["instructions"], a[side]["ideal"])
            for a in pred["suggest"]["accesses"]]


def predicted(pred, variant):
    """{"tile": weighted wavefronts, "store"/"load": [wavefronts, instructions], "ptx": {...}}
    from bankcheck's layout counts, or None (Triton's convert_layout: no layout to count)."""
    if variant == "triton" and C.by_name()[pred["name"]]["triton"] == "convert":
        return None
    out = {"tile": 0, "store": [0, 0, 0], "load": [0, 0, 0], "ptx": set()}
    for access, weight, waves, instructions, ideal in access_rows(pred, variant):
        kind = access.split(",")[0]
        c = "store" if is_store(kind) else "load"
        out["tile"] += weight * waves
        out[c][0] += waves
        out[c][1] += instructions
        out[c][2] += ideal
        out["ptx"].add(PTX_OF.get(kind, kind))
    return out


def captured(doc, tiles):
    """bankcheck's count of a capture: {"tile": before per tile, "after": after per tile,
    "store"/"load": [before, executions], "verdict": ...}."""
    out = {"tile": 0, "after": 0, "store": [0, 0, 0], "load": [0, 0, 0], "verdict": []}
    for launch in doc.get("launches", []):
        for buf in launch.get("buffers", []):
            out["verdict"].append(buf.get("verdict") or buf.get("why_not") or "")
            for ins in buf.get("instructions", []):
                if ins.get("before") is None:
                    continue
                c = "store" if str(ins.get("op", "")).startswith("st") else "load"
                out[c][0] += ins["before"]
                out[c][1] += ins["executions"]
                out[c][2] += ins.get("ideal") or 0
                out["tile"] += ins["before"]
                out["after"] += ins["after"]
    out["tile"] /= tiles
    out["after"] /= tiles
    return out


def comparable(pred, ptx_text):
    """Do the variant's PTX shared instructions equal the accesses bankcheck counted?"""
    if ptx_text is None:
        return False
    return set(PTX_SHARED.findall(ptx_text)) == pred["ptx"]


def verdict(triton, suggested):
    """The suggestion against Triton's own layout, per tile (lower is better)."""
    if triton is None or suggested is None:
        return "-"
    if suggested < triton:
        return "suggestion fewer"
    if suggested == triton:
        return "equal"
    return "Triton's fewer"


def fmt(x):
    if x is None:
        return "-"
    return f"{x:g}" if float(x) == int(x) else f"{x:.2f}"


def per_instruction(pair):
    """"w/i" of a [wavefronts, instructions] pair, or "-"."""
    return f"{pair[1] and pair[0] / pair[1]:.2f}" if pair and pair[1] else "-"


def excess(waves, ideal):
    """Excess accesses per ideal wavefront, (wavefronts - ideal) / ideal: Triton's bank_conflicts unit."""
    return f"{(waves - ideal) / ideal:.2f}" if ideal else "-"


def read_results(results):
    """Everything table() needs from RESULTS_DIR; missing pieces are empty."""
    def path(*p):
        return os.path.join(results, *p)
    preds = {p["name"]: p for p in json.load(open(path("predictions.json")))}
    got = {}
    page = path("ncu-source.csv")
    if not os.path.exists(page) and os.path.exists(page + ".gz"):  # as committed
        with gzip.open(page + ".gz", "rt") as src, tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as dst:
            dst.write(src.read())
        page = dst.name
    if os.path.exists(path("manifest.txt")) and os.path.exists(page):
        got = launches(read_manifest(path("manifest.txt")), ncu_csv.read_blocks(page))
    checks = {}
    if os.path.exists(path("check.txt")):
        for line in open(path("check.txt")):
            f = dict(kv.split("=", 1) for kv in line.split() if "=" in kv)
            if "case" in f and "wrong" in f:
                checks[(f["case"], f["variant"])] = f
    caps = {}
    for name in preds:
        cap = path(f"suggest-{name}.json")
        log = path(f"capture-{name}.log")
        m = re.search(r"launched, (\d+) tiles", open(log).read()) if os.path.exists(log) else None
        if os.path.exists(cap) and m and open(cap).read().strip():  # an empty file: suggest refused (its .txt says why)
            caps[name] = captured(json.load(open(cap)), int(m.group(1)))
    ptx = {}
    for name in preds:
        for v in VARIANTS:
            p = path("ir", f"{name}.{v}.ptx")
            ptx[(name, v)] = open(p).read() if os.path.exists(p) else None
    counts = path("triton_counts.json")  # else the committed one beside this script
    counts = counts if os.path.exists(counts) else os.path.join(HERE, "triton_counts.json")
    tcounts = json.load(open(counts)) if os.path.exists(counts) else {}
    return preds, got, checks, caps, ptx, tcounts


def bankcheck_tile(name, variant, preds, caps, ptx):
    """bankcheck's wavefronts per tile for a variant and where they come from, or (None, why)."""
    p = predicted(preds[name], variant)
    if p is None:
        return (caps[name]["tile"], "capture") if name in caps else (None, "no capture")
    if ptx[(name, variant)] is None:
        return None, "no PTX"
    if not comparable(p, ptx[(name, variant)]):
        return None, "not comparable"
    return p["tile"], "layout"


def measured_tile(name, variant, got):
    if (name, variant) not in got:
        return None
    tiles, m = got[(name, variant)]
    return (m["store"][1] + m["load"][1]) / tiles


def comparison_rows(preds, got, checks, caps, ptx):
    rows = []
    for name, pred in preds.items():
        case = C.by_name()[name]
        tri = "convert_layout (Triton's lowering)" if case["triton"] == "convert" else \
            "SwizzledSharedLayout({}, {}, {}, {})".format(*case["triton"][1:])
        sug = pred["suggest"]["suggestion"]
        bt, bt_src = bankcheck_tile(name, "triton", preds, caps, ptx)
        bs, _ = bankcheck_tile(name, "suggested", preds, caps, ptx)
        mt, ms = measured_tile(name, "triton", got), measured_tile(name, "suggested", got)
        bp, _ = bankcheck_tile(name, "plain", preds, caps, ptx)
        wrong = [checks.get((name, v), {}).get("wrong") for v in VARIANTS]
        outputs = "identical" if wrong and all(w == "0" for w in wrong) else \
            "wrong: " + ", ".join(f"{v}={w if w is not None else 'not run'}" for v, w in zip(VARIANTS, wrong))
        times = "{} / {}".format(*(checks.get((name, v), {}).get("median_ms", "-") for v in ("triton", "suggested")))
        cap = caps.get(name)
        capture = f"{fmt(cap['tile'])} -> {fmt(cap['after'])}: {'; '.join(cap['verdict'])}" if cap else "-"
        rows.append([name, tri + ("" if bt_src == "layout" else f" [{bt_src}]"),
                     f"`{sug['layout']}` = " + ("SwizzledSharedLayout({}, {}, {}, {})".format(*pred["gluon"][1:])
                                                if pred.get("gluon") else "not expressible as a SwizzledSharedLayout"),
                     f"{fmt(bt)} / {fmt(bs)}", f"{fmt(mt)} / {fmt(ms)}",
                     f"{fmt(bp)} / {fmt(measured_tile(name, 'plain', got))}",
                     verdict(bt, bs), verdict(mt, ms), outputs, times, capture])
    return rows


def detail_rows(preds, got, caps, ptx, tcounts):
    rows = []
    for name, pred in preds.items():
        for v in VARIANTS:
            if (name, v) not in got:
                continue
            tiles, m = got[(name, v)]
            p = predicted(pred, v)
            if p is None:
                p = caps.get(name)
                src = "capture" if p else "no capture"
            else:
                src = "layout" if comparable(p, ptx[(name, v)]) else "not comparable"
            ok = src in ("layout", "capture")
            sass = " / ".join(",".join(sorted(m[c][2])) or "-" for c in ("store", "load"))
            t = tcounts.get(f"{name}.{v}")
            ex = "; ".join(f"{t[c + '_excess'] if t else '-'} / {excess(*p[c][0:3:2]) if ok else '-'} / "
                           f"{excess(m[c][1], m[c][3])}" for c in ("store", "load"))
            rows.append([name, v, sass, src,
                         f"{per_instruction(p['store']) if ok else '-'} / {per_instruction(m['store'][1::-1])}",
                         f"{per_instruction(p['load']) if ok else '-'} / {per_instruction(m['load'][1::-1])}",
                         f"{fmt(m['store'][0] / tiles)} / {fmt(m['load'][0] / tiles)}", ex])
    return rows


def markdown(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(str(c) for c in r) + " |" for r in rows])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results")
    a = ap.parse_args()
    preds, got, checks, caps, ptx, tcounts = read_results(a.results)
    print(markdown(["case", "Triton's layout", "bankcheck's suggestion", "bankcheck: Triton's / suggested",
                    "measured: Triton's / suggested", "plain: bankcheck / measured", "verdict (bankcheck)",
                    "verdict (measured)", "outputs", "ms Triton's / suggested",
                    "`bankcheck suggest` on Triton's own instructions (capture): per tile"],
                   comparison_rows(preds, got, checks, caps, ptx)))
    print()
    print(markdown(["case", "variant", "SASS stores / loads", "bankcheck from", "store w/i: bankcheck / measured",
                    "load w/i: bankcheck / measured", "instructions per tile: stores / loads",
                    "excess per ideal wavefront, stores; loads: Triton's model / bankcheck / measured"],
                   detail_rows(preds, got, caps, ptx, tcounts)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
