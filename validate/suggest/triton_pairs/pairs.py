#!/usr/bin/env python3
"""The Triton pairs of cases.py as Gluon kernels, on the GPU.

  pairs.py ttgir DIR                 the plain Triton kernels whose TTGIR names Triton's choices
  pairs.py check [--bytes N]         every variant: output == input bitwise, median time (N bytes in)
  pairs.py profile MANIFEST          one launch of every variant (for ncu); MANIFEST: "index case variant tiles"
  pairs.py capture CASE VARIANT      one launch of one variant (for bankcheck capture)

A pair kernel loads a tile per program in the SRC register layout, writes it
to shared memory and reads it back in the DST layout, and stores it where it
came from: the output equals the input whatever the shared layout. Variants:
"triton", Triton's own choice (its swizzled_shared, or a convert_layout that
Triton lowers with a layout of its own); "suggested", bankcheck's suggestion
(predictions.json, made before the run); "plain", the unswizzled tile.
Every case and variant runs in its own try: one failure is printed, the rest run.
"""
import argparse
import os
import sys
import traceback

import torch
import triton

HERE = os.path.dirname(os.path.abspath(__file__))
if not __package__:  # run as a file: import validate.* from the repository root
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.suggest.triton_pairs import cases as C  # noqa: E402
from validate.suggest.triton_pairs.kernels import VARIANTS, distributed, dot_kernel, pair_kernel, predictions, shared, variant_layout  # noqa: E402

TORCH = {"fp16": torch.float16, "fp32": torch.float32, "int8": torch.int8}
BITS = {"fp16": torch.int16, "fp32": torch.int32, "int8": torch.int8}
ELEMENT_BYTES = {"fp16": 2, "fp32": 4, "int8": 1}


def launch(case, variant, preds, x, y, tiles):
    v = variant_layout(case, variant, preds)
    if isinstance(v, str):
        return v
    smem, convert = v
    R, COLS = case["shape"]
    dummy = ("swizzled", 1, 1, 1, [1, 0])
    pair_kernel[(tiles,)](x, y, R, COLS, distributed(case["src"]), shared(smem or dummy), distributed(case["dst"]),
                          convert, num_warps=case["num_warps"])
    return None


def inputs(case, tiles):
    R, COLS = case["shape"]
    g = torch.Generator(device="cuda").manual_seed(45)
    n = tiles * R * COLS
    if case["dtype"] == "int8":
        x = torch.randint(-128, 128, (n,), device="cuda", generator=g, dtype=torch.int8)
    else:
        x = torch.randn(n, device="cuda", generator=g).to(TORCH[case["dtype"]])
    return x, torch.zeros_like(x)


def cmd_check(a):
    preds = predictions()
    for case in C.CASES:
        for variant in VARIANTS:
            tag = f"case={case['name']} variant={variant}"
            try:
                tiles = max(1, a.bytes // (case["shape"][0] * case["shape"][1] * ELEMENT_BYTES[case["dtype"]]))
                x, y = inputs(case, tiles)
                why = launch(case, variant, preds, x, y, tiles)
                if why:
                    print(f"{tag} skipped: {why}", flush=True)
                    continue
                torch.cuda.synchronize()
                bits = BITS[case["dtype"]]  # bitwise: -0.0 and NaN compare as their bits
                wrong = int((y.view(bits) != x.view(bits)).sum().item())
                times = []
                for _ in range(a.reps):  # 10 launches back to back per sample: the launch overhead hidden
                    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                    s.record()
                    for _ in range(10):
                        launch(case, variant, preds, x, y, tiles)
                    e.record()
                    torch.cuda.synchronize()
                    times.append(s.elapsed_time(e) / 10)
                times.sort()
                print(f"{tag} tiles={tiles} median_ms={times[len(times) // 2]:.4f} wrong={wrong}", flush=True)
            except Exception:
                print(f"{tag} error:", flush=True)
                traceback.print_exc(file=sys.stdout)
    return 0


def cmd_profile(a):
    preds = predictions()
    launched = []
    for case in C.CASES:
        for variant in VARIANTS:
            try:
                x, y = inputs(case, a.tiles)
                torch.cuda.synchronize()
                why = launch(case, variant, preds, x, y, a.tiles)
                torch.cuda.synchronize()
                if not why:
                    launched.append(f"{len(launched)} {case['name']} {variant} {a.tiles}")
            except Exception:
                print(f"case={case['name']} variant={variant} error:", flush=True)
                traceback.print_exc(file=sys.stdout)
    with open(a.manifest, "w") as f:
        f.write("\n".join(launched) + "\n")
    return 0


def cmd_capture(a):
    case = C.by_name()[a.case]
    x, y = inputs(case, a.tiles)
    torch.cuda.synchronize()
    why = launch(case, a.variant, predictions(), x, y, a.tiles)
    torch.cuda.synchronize()
    print(why or f"case={a.case} variant={a.variant} launched, {a.tiles} tiles")
    return 0


def cmd_ttgir(a):
    """Triton's own choices: compile (and run) the plain kernels the cases come from."""
    os.makedirs(a.dir, exist_ok=True)
    for M, N, K, dt, ta in [(64, 64, 64, "fp16", 0), (128, 64, 64, "fp16", 0), (64, 64, 32, "fp16", 0),
                            (64, 32, 64, "fp16", 0), (64, 64, 64, "fp16", 1), (64, 64, 32, "fp32", 0),
                            (64, 64, 16, "fp16", 0), (64, 64, 64, "int8", 0), (64, 64, 16, "fp32", 0)]:
        name = f"dot_{dt}_M{M}_N{N}_K{K}_ta{ta}"
        try:
            t = TORCH[dt]
            A = torch.ones(M * K, device="cuda", dtype=t)
            B = torch.ones(K * N, device="cuda", dtype=t)
            Cm = torch.empty(M * N, device="cuda", dtype=torch.int32 if dt == "int8" else torch.float32)
            k = dot_kernel[(1,)](A, B, Cm, M, N, K, ta, num_warps=2)
            open(os.path.join(a.dir, name + ".ttgir"), "w").write(k.asm["ttgir"])
            print(name, "ok")
        except Exception:
            print(name, "error:")
            traceback.print_exc(file=sys.stdout)
    for case in C.CASES:  # the Gluon kernels' TTGIR and PTX, for the record
        for variant in VARIANTS:
            try:
                x, y = inputs(case, 1)
                v = variant_layout(case, variant, predictions())
                if isinstance(v, str):
                    continue
                smem, convert = v
                R, COLS = case["shape"]
                k = pair_kernel[(1,)](x, y, R, COLS, distributed(case["src"]),
                                      shared(smem or ("swizzled", 1, 1, 1, [1, 0])), distributed(case["dst"]),
                                      convert, num_warps=case["num_warps"])
                for ext in ("ttgir", "ptx"):
                    open(os.path.join(a.dir, f"{case['name']}.{variant}.{ext}"), "w").write(k.asm[ext])
            except Exception:
                print(case["name"], variant, "error:")
                traceback.print_exc(file=sys.stdout)
    print("triton", triton.__version__, "torch", torch.__version__)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("ttgir")
    p.add_argument("dir")
    p = sub.add_parser("check")
    p.add_argument("--bytes", type=int, default=1 << 27, help="input bytes per launch (as many tiles)")
    p.add_argument("--reps", type=int, default=21)
    p = sub.add_parser("profile")
    p.add_argument("manifest")
    p.add_argument("--tiles", type=int, default=8)
    p = sub.add_parser("capture")
    p.add_argument("case")
    p.add_argument("variant", choices=VARIANTS)
    p.add_argument("--tiles", type=int, default=4)
    a = ap.parse_args()
    return {"ttgir": cmd_ttgir, "check": cmd_check, "profile": cmd_profile, "capture": cmd_capture}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
