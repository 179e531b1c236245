#!/usr/bin/env python3
"""Checks a capture of validate/sm90/sm90a/tma_probes.cu for its tensor maps.

    python3 validate/sm90/sm90a/check_tensor_maps.py CAPTURE_DIR [COMPARE_CSV]

The expected rows come from the probe's source: main() runs seven probes, each
encoding two maps (make_map: `in`, then `out`) of 2-D uint16 tensors of
kRows = 64 rows of row_bytes each (dims and box row_bytes/2 x 64, stride
row_bytes, element strides 1 1, no interleave, no L2 promotion, no OOB fill),
then launching tma_kernel(in, out, sums) once: the launch's parameters hold
`in` at byte 0 and `out` at byte 128 (each a 64-byte aligned CUtensorMap).
With COMPARE_CSV (`bankcheck compare --csv` of the same capture), every
TMA row (UTMALDG, UTMASTG, ...) must name its launch's two maps and, its
form measured at 0 wavefronts, say `yes (TMA: no shared wavefronts)`.
Prints PASS/FAIL lines; exit 1 on any FAIL.
"""
import csv
import os
import sys

if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.harness.sass_text import mnemonic  # noqa: E402

K_ROWS = 64
# (row_bytes, swizzle) of main()'s seven run<>() calls, in order.
PROBES = [(128, "none"), (32, "32B"), (32, "32B"), (64, "64B"), (64, "64B"), (128, "128B"), (128, "128B")]

failed = 0


def check(ok, what):
    global failed
    print(("PASS " if ok else "FAIL ") + what)
    if not ok:
        failed += 1


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    cap = sys.argv[1]
    for name in ("tensor_maps.csv", "launch_tensor_maps.csv", "launches.csv"):
        if not os.path.exists(os.path.join(cap, name)):
            check(False, f"{name} exists in {cap}")
            return 1
    maps = rows(os.path.join(cap, "tensor_maps.csv"))
    check(len(maps) == 2 * len(PROBES), f"{len(maps)} tensor maps encoded, expected {2 * len(PROBES)}")
    for i, m in enumerate(maps[: 2 * len(PROBES)]):
        row_bytes, swizzle = PROBES[i // 2]
        expected = {
            "id": str(i), "kind": "tiled", "data_type": "uint16", "rank": "2",
            "global_dims": f"{row_bytes // 2} {K_ROWS}", "global_strides": str(row_bytes),
            "box_dims": f"{row_bytes // 2} {K_ROWS}", "element_strides": "1 1", "interleave": "none",
            "swizzle": swizzle, "l2_promotion": "none", "oob_fill": "none",
        }
        wrong = {k: (m.get(k), v) for k, v in expected.items() if m.get(k) != v}
        check(not wrong, f"map {i} ({'in' if i % 2 == 0 else 'out'} of probe {i // 2}, {row_bytes}-byte rows, "
              f"swizzle {swizzle})" + (f": got/expected {wrong}" if wrong else ""))
    launches = [r for r in rows(os.path.join(cap, "launches.csv")) if "tma_kernel" in r["kernel"]]
    check(len(launches) == len(PROBES), f"{len(launches)} tma_kernel launches, expected {len(PROBES)}")
    given = {}
    for r in rows(os.path.join(cap, "launch_tensor_maps.csv")):
        given.setdefault(r["launch"], []).append((int(r["offset"]), int(r["tensor_map"])))
    for k, launch in enumerate(launches):
        # in, then out 128 bytes later: cuFuncGetParamInfo's numbering puts the first
        # parameter at 112 on the H100 (driver 580.159), so only the spacing is fixed.
        got = sorted(given.get(launch["id"], []))
        first = got[0][0] if got else 0
        expected = [(first, 2 * k), (first + 128, 2 * k + 1)]
        check(got == expected, f"launch {launch['id']} (probe {k}) was given maps {got}, expected {expected}")
    status = open(os.path.join(cap, "status.log")).read() if os.path.exists(os.path.join(cap, "status.log")) else ""
    line = "tensor maps: 14 encoded (swizzle: none 2, 32B 4, 64B 4, 128B 4)"
    check(line in status, f"status.log says '{line}'")
    check("not searched for tensor maps" not in status, "status.log: every launch's parameters were searched")
    if len(sys.argv) == 3:
        tma = [r for r in rows(sys.argv[2]) if mnemonic(r["sass"]).startswith("UTMA")]
        check(len(tma) > 0, f"compare has {len(tma)} TMA rows")
        for r in tma:
            check("tensor map" in r.get("detail", ""), f"compare row launch {r['launch']} {r['sass']}: "
                  f"detail '{r.get('detail', '')}'")
            check(r["equal"] == "yes (TMA: no shared wavefronts)", f"compare row launch {r['launch']} {r['sass']}: "
                  f"verdict '{r['equal']}'")
    print(f"{'FAIL' if failed else 'PASS'}: tensor maps of the TMA probes ({failed} failed checks)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
