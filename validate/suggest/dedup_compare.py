"""`bankcheck suggest` on a deduplicated capture against the same program's --no-dedup capture.

    python3 validate/suggest/dedup_compare.py DIR [COMMITTED_DIR]

DIR holds suggest-CASE.dedup.json and suggest-CASE.full.json (validate/suggest/dedup_on_gpu.sh). For each case,
prints per buffer the map and wavefronts of both and whether they are equal (buffers by base, instructions by
site); with COMMITTED_DIR (validate/results/h200-2026-11-29/suggest/cases), also whether the --no-dedup run's
maps equal the committed ones. Exit 1 when any compared field differs or a file is missing.
"""
import json
import pathlib
import sys

BUFFER_FIELDS = ("bytes", "suggested", "why_not", "verdict", "before", "after", "ideal")
INSTRUCTION_FIELDS = ("executions", "fits", "before", "after", "ideal")


def buffers(doc):
    """{(kernel, base): buffer} of a suggest --json document."""
    return {(launch["kernel"], b["base"]): b for launch in doc["launches"] for b in launch["buffers"]}


def map_cpp(b):
    return b["map"]["cpp"] if b.get("map") else None


def differences(a, b):
    """Fields of two buffers (and their instructions) that differ, in words."""
    out = [f"{k}: {a.get(k)!r} != {b.get(k)!r}" for k in BUFFER_FIELDS if a.get(k) != b.get(k)]
    if map_cpp(a) != map_cpp(b):
        out.append(f"map: {map_cpp(a)!r} != {map_cpp(b)!r}")
    ia = {i["site"]: i for i in a["instructions"]}
    ib = {i["site"]: i for i in b["instructions"]}
    if set(ia) != set(ib):
        out.append(f"instructions: {sorted(ia)} != {sorted(ib)}")
    for site in sorted(set(ia) & set(ib)):
        out += [f"{site} {k}: {ia[site][k]!r} != {ib[site][k]!r}" for k in INSTRUCTION_FIELDS
                if ia[site].get(k) != ib[site].get(k)]
    return out


def compare(name, left, right, label):
    """Print one line per buffer of `left` against `right`; the number of differing buffers."""
    bad = 0
    lb, rb = buffers(left), buffers(right)
    if set(lb) != set(rb):
        print(f"{name}: {label}: buffers differ: {sorted(lb)} != {sorted(rb)}")
        return 1
    for key in sorted(lb):
        d = differences(lb[key], rb[key])
        b = lb[key]
        what = f"{map_cpp(b)} {b['before']} -> {b['after']} (ideal {b['ideal']})" if b["suggested"] else b["why_not"]
        print(f"{name} buffer {key[1]}: {label}: {'equal' if not d else 'DIFFER'}: {what}")
        for line in d:
            print(f"    {line}")
        bad += bool(d)
    return bad


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = pathlib.Path(argv[1])
    committed = pathlib.Path(argv[2]) if len(argv) > 2 else None
    bad = 0
    cases = sorted(p.name[len("suggest-"):-len(".full.json")] for p in out.glob("suggest-*.full.json"))
    if not cases:
        print(f"{out}: no suggest-CASE.full.json")
        return 1
    for case in cases:
        try:
            full = json.loads((out / f"suggest-{case}.full.json").read_text())
            dedup = json.loads((out / f"suggest-{case}.dedup.json").read_text())
        except (OSError, ValueError) as e:
            print(f"{case}: missing or unreadable: {e}")
            bad += 1
            continue
        ev = {launch.get("fit_evidence") for launch in dedup["launches"]}
        records = [(launch.get("records"), launch.get("distinct_records")) for launch in dedup["launches"]]
        print(f"{case}: deduplicated capture: records (executions, distinct) {records}; fits on {sorted(map(str, ev))}")
        bad += compare(case, dedup, full, "dedup vs --no-dedup")
        if committed is not None:
            path = committed / f"suggest-{case}.json"
            if path.exists():
                old = json.loads(path.read_text())
                bad += compare(case, full, old, "--no-dedup vs committed")
            else:
                print(f"{case}: no committed {path.name}")
    print("all equal" if bad == 0 else f"{bad} differing")
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
