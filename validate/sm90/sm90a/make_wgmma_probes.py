"""Writes wgmma_probes.cu: one kernel per wgmma probe, each a
block of one or more warpgroups issuing `wgmma.mma_async` on operands in
shared memory laid out by a matrix descriptor (PTX ISA, "Matrix
Descriptor Format": start address, leading and stride byte offsets, swizzle
mode), so that Nsight Compute can count each HGMMA's shared wavefronts per
instruction. The probes vary N, the operand type, the swizzle mode, the
byte offsets (overlapping and atom-breaking ones too), A from registers or
shared memory, and the warpgroups in flight.

    python3 make_wgmma_probes.py [--set blind|timing|int8] > wgmma_probes.cu
    nvcc -gencode=arch=compute_90a,code=sm_90a -O2 -std=c++17 -o wgmma_probes wgmma_probes.cu

The program prints, per probe, its name and the operand bytes a warpgroup
reads (A's and B's), which predictions.txt turns into the rule's count.
"""
import sys

TYPES = {  # name: (ptx shape suffix without N, K, bytes per element, transposes allowed, fill word)
    "f16": ("k16.f32.f16.f16", 16, 2, True, "0x3c003c00u"),
    "bf16": ("k16.f32.bf16.bf16", 16, 2, True, "0x3f803f80u"),
    "tf32": ("k8.f32.tf32.tf32", 8, 4, False, "0x3f800000u"),
    "e4m3": ("k32.f32.e4m3.e4m3", 32, 1, False, "0x38383838u"),
    "e5m2": ("k32.f32.e5m2.e5m2", 32, 1, False, "0x3c3c3c3cu"),
    "s8": ("k32.s32.s8.s8", 32, 1, False, "0x01010101u"),
    "u8": ("k32.s32.u8.u8", 32, 1, False, "0x01010101u"),
}
INTEGER = {"s8", "u8"}  # s32 accumulators, and no scale-a/scale-b immediates (PTX ISA, wgmma.mma_async integer forms)
SWIZZLE = {"none": 0, "128B": 1, "64B": 2, "32B": 3}
ROW = {"none": 16, "128B": 128, "64B": 64, "32B": 32}  # bytes of one row of a core matrix / swizzle atom


def probes():
    out = []
    # (name, type, N, a_from_regs, swizzle, lbo, sbo, a_offset, warpgroups, trans_b)
    for n in (8, 16, 32, 64, 128, 256):
        out.append((f"ss-f16-n{n}-none", "f16", n, False, "none", 128, 256, 0, 1, 0))
    for n in (8, 64, 256):
        out.append((f"rs-f16-n{n}-none", "f16", n, True, "none", 128, 256, 0, 1, 0))
    for sw, sbo in (("128B", 1024), ("64B", 512), ("32B", 256)):
        for n in (64, 256):
            out.append((f"ss-f16-n{n}-{sw}", "f16", n, False, sw, 16, sbo, 0, 1, 0))
        out.append((f"rs-f16-n64-{sw}", "f16", 64, True, sw, 16, sbo, 0, 1, 0))
    for t in ("bf16", "tf32", "e4m3"):
        for n in (8, 64, 256):
            out.append((f"ss-{t}-n{n}-none", t, n, False, "none", 128, 256, 0, 1, 0))
        out.append((f"ss-{t}-n64-128B", t, 64, False, "128B", 16, 1024, 0, 1, 0))
    # MN-major B (transposed) for 16-bit types
    for sw, sbo in (("none", 256), ("128B", 1024)):
        out.append((f"ss-f16-n64-{sw}-transB", "f16", 64, False, sw, 128 if sw == "none" else 16, sbo, 0, 1, 1))
    # odd descriptors: overlapping core matrices, tiny and huge offsets, starts off the atom
    out.append(("ss-f16-n64-none-overlap", "f16", 64, False, "none", 16, 16, 0, 1, 0))
    out.append(("ss-f16-n64-none-lbo2048", "f16", 64, False, "none", 2048, 128, 0, 1, 0))
    out.append(("ss-f16-n64-none-sbo2048", "f16", 64, False, "none", 128, 2048, 0, 1, 0))
    out.append(("ss-f16-n64-128B-sbo512", "f16", 64, False, "128B", 16, 512, 0, 1, 0))
    out.append(("ss-f16-n64-128B-start32", "f16", 64, False, "128B", 16, 1024, 32, 1, 0))
    out.append(("ss-f16-n64-128B-start96", "f16", 64, False, "128B", 16, 1024, 96, 1, 0))
    # several warpgroups in flight on one SM
    out.append(("ss-f16-n64-none-wg2", "f16", 64, False, "none", 128, 256, 0, 2, 0))
    out.append(("ss-f16-n128-128B-wg4", "f16", 128, False, "128B", 16, 1024, 0, 4, 0))
    return out


def blind_probes():
    """The blind set: classes the first set did not measure, whose
    counts validate/sm90/sm90a/wgmma_blind_predictions.txt states (rule 8)
    before they are measured."""
    out = []
    for t, n in (("f16", 24), ("bf16", 40), ("f16", 56), ("bf16", 96), ("f16", 152), ("bf16", 200), ("f16", 248)):
        out.append((f"ss-{t}-n{n}-none", t, n, False, "none", 128, 256, 0, 1, 0))
    out.append(("ss-bf16-n128-64B-transB", "bf16", 128, False, "64B", 16, 512, 0, 1, 1))
    out.append(("ss-f16-n96-32B-transB", "f16", 96, False, "32B", 16, 256, 0, 1, 1))
    out.append(("rs-bf16-n128-128B-transB", "bf16", 128, True, "128B", 16, 1024, 0, 1, 1))
    out.append(("ss-tf32-n128-64B", "tf32", 128, False, "64B", 16, 512, 0, 1, 0))
    out.append(("ss-tf32-n32-32B", "tf32", 32, False, "32B", 16, 256, 0, 1, 0))
    out.append(("rs-tf32-n64-128B", "tf32", 64, True, "128B", 16, 1024, 0, 1, 0))
    out.append(("ss-e4m3-n128-64B", "e4m3", 128, False, "64B", 16, 512, 0, 1, 0))
    out.append(("rs-e4m3-n128-none", "e4m3", 128, True, "none", 128, 256, 0, 1, 0))
    out.append(("ss-e5m2-n64-128B", "e5m2", 64, False, "128B", 16, 1024, 0, 1, 0))
    out.append(("ss-e5m2-n256-32B", "e5m2", 256, False, "32B", 16, 256, 0, 1, 0))
    out.append(("ss-f16-n64-none-lbo512-sbo768", "f16", 64, False, "none", 512, 768, 0, 1, 0))
    out.append(("ss-bf16-n64-128B-sbo2048", "bf16", 64, False, "128B", 16, 2048, 0, 1, 0))
    out.append(("ss-f16-n64-64B-start48", "f16", 64, False, "64B", 16, 512, 48, 1, 0))
    out.append(("ss-f16-n128-32B-start16", "f16", 128, False, "32B", 16, 256, 16, 1, 0))
    out.append(("ss-bf16-n64-64B-wg3", "bf16", 64, False, "64B", 16, 512, 0, 3, 0))
    out.append(("rs-f16-n128-none-wg2", "f16", 128, True, "none", 128, 256, 0, 2, 0))
    out.append(("ss-e4m3-n64-none-wg4", "e4m3", 64, False, "none", 128, 256, 0, 4, 0))
    return out


def int8_probes():
    """The integer set (wgmma with s8 and u8 operands, SASS IGMMA), whose counts
    validate/sm90/sm90a/wgmma_int8_predictions.txt states (rule 8) before they are measured."""
    return [
        ("ss-s8-n64-none", "s8", 64, False, "none", 128, 256, 0, 1, 0),
        ("ss-s8-n128-128B", "s8", 128, False, "128B", 16, 1024, 0, 1, 0),
        ("rs-s8-n64-64B", "s8", 64, True, "64B", 16, 512, 0, 1, 0),
        ("ss-u8-n256-32B", "u8", 256, False, "32B", 16, 256, 0, 1, 0),
        ("ss-u8-n8-none", "u8", 8, False, "none", 128, 256, 0, 1, 0),
        ("ss-s8-n64-none-wg2", "s8", 64, False, "none", 128, 256, 0, 2, 0),
        ("ss-u8-n128-none-sbo2048", "u8", 128, False, "none", 128, 2048, 0, 1, 0),
    ]


def timing_probes():
    """Where a bad layout could show when wgmma's counters do not:
    one shape, m64n128k16 f16 with A and B in shared memory, in every
    swizzle mode with its atom's strides, and in layouts that break them
    (strides that put every core matrix in the same banks, overlapping
    atoms, starts off the atom), each timed over back-to-back wgmmas."""
    out = []
    for sw, lbo, sbo in (("none", 128, 256), ("32B", 16, 256), ("64B", 16, 512), ("128B", 16, 1024)):
        out.append((f"t-f16-n128-{sw}", "f16", 128, False, sw, lbo, sbo, 0, 1, 0))
    out.append(("t-f16-n128-none-lbo2048-sbo4096", "f16", 128, False, "none", 2048, 4096, 0, 1, 0))
    out.append(("t-f16-n128-none-lbo4096-sbo128", "f16", 128, False, "none", 4096, 128, 0, 1, 0))
    out.append(("t-f16-n128-128B-sbo128", "f16", 128, False, "128B", 16, 128, 0, 1, 0))
    out.append(("t-f16-n128-128B-start64", "f16", 128, False, "128B", 16, 1024, 64, 1, 0))
    out.append(("t-f16-n128-64B-sbo2048", "f16", 128, False, "64B", 16, 2048, 0, 1, 0))
    out.append(("t-f16-n128-none-wg4", "f16", 128, False, "none", 128, 256, 0, 4, 0))
    out.append(("t-f16-n128-none-lbo4096-sbo128-wg4", "f16", 128, False, "none", 4096, 128, 0, 4, 0))
    return out


TIMING_REPS = 256


def kernel(p, timed=False):
    name, t, n, regs, sw, lbo, sbo, a_off, wgs, trans_b = p
    shape, k, eb, trans_ok, fill = TYPES[t]
    a_bytes = 64 * k * eb
    b_bytes = n * k * eb
    # room: every core matrix or swizzle atom the descriptor can reach (rows / 8 groups SBO apart, K
    # chunks LBO apart), plus the start offset and one atom
    def region(rows):
        return (rows // 8) * max(sbo, 128) + (k * eb // 16 + 1) * max(lbo, 16) + a_off + 1024
    a_region = (region(64) + 1023) // 1024 * 1024
    b_region = (region(n) + 1023) // 1024 * 1024
    per_wg = a_region + b_region
    acc = n // 2
    ident = "wg_" + name.replace("-", "_")
    dregs = ", ".join(f"%{i}" for i in range(acc))
    integer = t in INTEGER
    outs = ", ".join(f'"+{"r" if integer else "f"}"(d[{i}])' for i in range(acc))
    base = acc
    if regs:
        a_op = "{" + ", ".join(f"%{base + i}" for i in range(4)) + "}"
        ins = [f'"r"(ar[{i}])' for i in range(4)]
        b_op = f"%{base + 4}"
        ins.append('"l"(db)')
        scale = f"%{base + 5}"
        ins.append('"r"(scale_d)')
        tail = "" if integer else f", 1, 1, {trans_b}" if trans_ok else ", 1, 1"
    else:
        a_op = f"%{base}"
        b_op = f"%{base + 1}"
        ins = ['"l"(da)', '"l"(db)', '"r"(scale_d)']
        scale = f"%{base + 2}"
        tail = "" if integer else f", 1, 1, 0, {trans_b}" if trans_ok else ", 1, 1"
    asm = (f'asm volatile("{{\\n.reg .pred p;\\nsetp.ne.b32 p, {scale}, 0;\\n'
           f'wgmma.mma_async.sync.aligned.m64n{n}{shape} {{{dregs}}}, {a_op}, {b_op}, p{tail};\\n}}\\n"'
           f' : {outs} : {", ".join(ins)});')
    single = f"""  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  {asm}
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");"""
    # timed: {TIMING_REPS} wgmmas each waited for (latency), then {TIMING_REPS} back to back (throughput)
    timed_body = f"""  const long long t0 = clock64();
  for (int r = 0; r < {TIMING_REPS}; ++r) {{
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    {asm}
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  }}
  const long long t1 = clock64();
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  for (int r = 0; r < {TIMING_REPS}; ++r) {{
    {asm}
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  }}
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  const long long t2 = clock64();
  if (threadIdx.x % 128 == 0 && cycles != nullptr) {{
    cycles[2 * (threadIdx.x / 128)] = t1 - t0;
    cycles[2 * (threadIdx.x / 128) + 1] = t2 - t1;
  }}"""
    return f"""
// {name}: A {'registers' if regs else f'{a_bytes} B in shared memory'}, B {b_bytes} B, swizzle {sw},
// leading byte offset {lbo}, stride byte offset {sbo}, A and B {a_off} bytes past their atoms, {wgs} warpgroup(s)
__global__ void __launch_bounds__({128 * wgs}) {ident}(float* out, int scale_d{", long long* cycles" if timed else ""}) {{
  extern __shared__ __align__(1024) unsigned char raw[];
  // the swizzle atoms need 1024-byte alignment in the shared window: align the base explicitly
  unsigned char* smem = raw + ((1024 - static_cast<std::uint32_t>(__cvta_generic_to_shared(raw)) % 1024) % 1024);
  for (int i = threadIdx.x; i < {per_wg * wgs} / 4; i += blockDim.x) reinterpret_cast<std::uint32_t*>(smem)[i] = {fill};
  __syncthreads();
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  unsigned char* a = smem + (threadIdx.x / 128) * {per_wg};
  unsigned char* b = a + {a_region};
  const std::uint64_t da = descriptor(a + {a_off}, {lbo}, {sbo}, {SWIZZLE[sw]});
  const std::uint64_t db = descriptor(b + {a_off}, {lbo}, {sbo}, {SWIZZLE[sw]});
  (void)da;
  std::uint32_t ar[4] = {{{fill}, {fill}, {fill}, {fill}}};
  (void)ar;
  {"int" if integer else "float"} d[{acc}];
  for (int i = 0; i < {acc}; ++i) d[i] = {"0" if integer else "0.f"};
{timed_body if timed else single}
  float s = 0.f;
  for (int i = 0; i < {acc}; ++i) s += d[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}}
""", ident, per_wg * wgs + 1024, 128 * wgs, a_bytes if not regs else 0, b_bytes


def main():
    which = sys.argv[2] if sys.argv[1:2] == ["--set"] else ""
    timed = which == "timing"
    ps = {"blind": blind_probes, "timing": timing_probes, "int8": int8_probes}.get(which, probes)()
    body = []
    launches = []
    for p in ps:
        text, ident, smem, threads, a_bytes, b_bytes = kernel(p, timed)
        body.append(text)
        launches.append(f'  run{"_timed" if timed else ""}("{p[0]}", {ident}, {smem}, {threads}, {a_bytes}, {b_bytes});')
    sys.stdout.write(f"""// Generated by validate/sm90/sm90a/make_wgmma_probes.py: do not edit.
#include <cstdint>
#include <cstdio>

#include "../../cuda_check.cuh"

/// A wgmma matrix descriptor (PTX ISA 9.7.15.5.1): start address, leading
/// and stride byte offsets (each >> 4, 14 bits), swizzle mode in bits 62-63
/// (0 none, 1 128B, 2 64B, 3 32B).
__device__ std::uint64_t descriptor(const void* p, std::uint32_t lbo, std::uint32_t sbo, std::uint32_t swizzle) {{
  const auto a = static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
  return (std::uint64_t{{(a & 0x3FFFF) >> 4}}) | (std::uint64_t{{(lbo & 0x3FFFF) >> 4}} << 16) |
         (std::uint64_t{{(sbo & 0x3FFFF) >> 4}} << 32) | (std::uint64_t{{swizzle}} << 62);
}}
{''.join(body)}
template <class Kernel>
void run(const char* name, Kernel k, int smem, int threads, int a_bytes, int b_bytes) {{
  float* out = nullptr;
  CHECK(cudaMalloc(&out, sizeof(float) * threads));
  CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  k<<<1, threads, smem>>>(out, 1);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(out));
  std::printf("%s a_bytes=%d b_bytes=%d warpgroups=%d\\n", name, a_bytes, b_bytes, threads / 128);
}}

template <class Kernel>
void run_timed(const char* name, Kernel k, int smem, int threads, int a_bytes, int b_bytes) {{
  float* out = nullptr;
  long long* cycles = nullptr;
  CHECK(cudaMalloc(&out, sizeof(float) * threads));
  CHECK(cudaMalloc(&cycles, sizeof(long long) * 8));
  CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  long long best[2] = {{0, 0}};
  for (int rep = 0; rep < 5; ++rep) {{  // the best of 5 launches (the first warms the instruction cache)
    k<<<1, threads, smem>>>(out, 1, cycles);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    long long c[2];
    CHECK(cudaMemcpy(c, cycles, sizeof c, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 2; ++i) best[i] = rep == 0 || c[i] < best[i] ? c[i] : best[i];
  }}
  CHECK(cudaFree(out));
  CHECK(cudaFree(cycles));
  std::printf("%s a_bytes=%d b_bytes=%d warpgroups=%d latency_cycles=%.1f throughput_cycles=%.1f\\n", name, a_bytes,
              b_bytes, threads / 128, best[0] / {TIMING_REPS}.0, best[1] / {TIMING_REPS}.0);
}}

int main() {{
{chr(10).join(launches)}
  return 0;
}}
""")


if __name__ == "__main__":
    main()
