#!/usr/bin/env python3
"""CUTLASS 4.2's CuTe tutorial sgemm_2.cu, as shipped, and with bankcheck's suggestion applied.

  make_variants.py OUTDIR [--source DIR | --wheel WHL]

DIR is the nvidia-cutlass wheel's source tree (cutlass_library/source: the
examples, include/ and tools/util/include); WHL the wheel itself, whose
source tree is unpacked into OUTDIR/source (fetch_wheel.sh puts it in
.deps/cutlass-wheel); by default the installed cutlass_library package's.
Prints the example's path: its source tree is four folders up. Writes OUTDIR/orig.cu
(the example) and OUTDIR/suggested.cu (gemm_tn's sA and sB, padded m-major
(128,8):(1,129), replaced by the layout `bankcheck layout --suggest` returned
for them: predictions.txt). Both get one added line after the first run: a
hash of the result's bytes, so that the two outputs can be compared bitwise
(the layout moves no arithmetic). Refuses (exit 2) if the example's text is
not the one this was written against.
"""
import argparse
import os
import sys
import zipfile

PADDED = """  auto sA = make_layout(make_shape (      bM,          bK),
                        make_stride(Int<1>{}, bM+Int<1>{}));        // (m,k) -> smem_idx; padded m-major
  auto sB = make_layout(make_shape (      bN,          bK),
                        make_stride(Int<1>{}, bN+Int<1>{}));        // (n,k) -> smem_idx; padded n-major
"""
# bankcheck layout "(128,8):(1,129)" --type f32 --suggest --access st.32,along=1 --access ld.32,along=0
SUGGESTED = """  auto sA = composition(Swizzle<3,0,5>{}, make_layout(make_shape(bM, bK), make_stride(Int<8>{}, Int<1>{})));
  auto sB = composition(Swizzle<3,0,5>{}, make_layout(make_shape(bN, bK), make_stride(Int<8>{}, Int<1>{})));
"""
RESULT = "  thrust::host_vector<TC> cute_result = d_C;\n"
HASH = RESULT + """  {  // added: FNV-1a of the result's bytes, to compare variants bitwise
    unsigned long long h = 1469598103934665603ull;
    const unsigned char* p = reinterpret_cast<const unsigned char*>(cute_result.data());
    for (size_t i = 0; i < cute_result.size() * sizeof(TC); ++i) h = (h ^ p[i]) * 1099511628211ull;
    printf("result_fnv1a=%016llx\\n", h);
  }
"""


def source_dir(given, wheel, outdir):
    if given:
        return given
    if wheel:
        prefix = "cutlass_library/source/"
        with zipfile.ZipFile(wheel) as z:
            for name in z.namelist():
                if name.startswith(prefix) and not name.endswith("/"):
                    target = os.path.join(outdir, "source", name[len(prefix):])
                    os.makedirs(os.path.dirname(target), exist_ok=True)
                    with open(target, "wb") as f:
                        f.write(z.read(name))
        return os.path.join(outdir, "source")
    try:
        import cutlass_library
        return os.path.join(os.path.dirname(cutlass_library.__file__), "source")
    except ImportError:
        return "(no cutlass_library installed: give --source or --wheel)"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--source")
    ap.add_argument("--wheel")
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    path = os.path.join(source_dir(a.source, a.wheel, a.outdir), "examples", "cute", "tutorial", "sgemm_2.cu")
    try:
        text = open(path).read()
    except OSError as e:
        print(f"make_variants.py: cannot read the example: {e}", file=sys.stderr)
        return 2
    for what, needle in (("gemm_tn's padded sA/sB", PADDED), ("the first result copy", RESULT)):
        if text.count(needle) != 1:
            print(f"make_variants.py: {path}: {what} found {text.count(needle)} times, expected once", file=sys.stderr)
            return 2
    orig = text.replace(RESULT, HASH)
    for name, body in (("orig.cu", orig), ("suggested.cu", orig.replace(PADDED, SUGGESTED))):
        with open(os.path.join(a.outdir, name), "w") as f:
            f.write(body)
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
