#!/usr/bin/env python3
"""capmaps.h from `bankcheck suggest --json` of the captured naive kernels.

  capmaps.py DIR > capmaps.h

DIR holds suggest-CASE.json, one per case of suggest_kernels.cu. For each,
the tile is the largest buffer of the launch (each kernel's other buffers are
a few hundred bytes); where bankcheck suggested a map for it other than "b"
(keep), capmap(ID, b) returns that C++ expression and kHasCap[ID] is true.
A case without a map keeps the identity and builds no capture-map variant.
"""
import json
import os
import sys

CASES = ["ldsm_trans", "cpasync_ldsm", "sgemm", "row_scan", "softmax", "transpose_fp16", "matvec", "stmatrix",
         "transpose_int8"]


def tile_map(path):
    """(C++ expression or None, what was found)."""
    if not os.path.exists(path):
        return None, "no suggest output"
    try:
        doc = json.load(open(path))
    except ValueError as e:
        return None, f"unreadable suggest output ({e})"
    buffers = [b for launch in doc.get("launches", []) for b in launch.get("buffers", [])]
    if not buffers:
        return None, "no buffers"
    tile = max(buffers, key=lambda b: b.get("bytes", 0))
    if not tile.get("suggested"):
        return None, f"buffer at {tile.get('base')}: {tile.get('why_not')}"
    cpp = (tile.get("map") or {}).get("cpp")
    if not cpp or cpp.strip() == "b":
        return None, f"buffer at {tile.get('base')}: {tile.get('verdict')}"
    return cpp, f"buffer at {tile.get('base')}, {tile.get('bytes')} bytes: {tile.get('verdict')}"


def main():
    folder = sys.argv[1]
    cases, notes = [], []
    for i, name in enumerate(CASES):
        cpp, why = tile_map(os.path.join(folder, f"suggest-{name}.json"))
        notes.append(f"// {name} (case {i}): {why}" + (f": {cpp}" if cpp else ""))
        if cpp:
            cases.append((i, cpp))
    print("// Written by validate/suggest/capmaps.py from bankcheck suggest --json.")
    print("\n".join(notes))
    print("#pragma once")
    print("__device__ __forceinline__ unsigned capmap(int c, unsigned b) {")
    print("  switch (c) {")
    for i, cpp in cases:
        print(f"    case {i}: return ({cpp});")
    print("    default: return b;")
    print("  }")
    print("}")
    flags = ["false"] * 16
    for i, _ in cases:
        flags[i] = "true"
    print("constexpr bool kHasCap[16] = {" + ", ".join(flags) + "};")
    return 0


if __name__ == "__main__":
    sys.exit(main())
