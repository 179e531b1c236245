#!/usr/bin/env python3
"""A CUDA kernel that implements what `bankcheck layout --suggest --from --to`
chose for a conversion (docs/layout.md, "Choosing the instructions"): the
suggested linear shared layout and, on each side, the chosen instruction
(st/ld vectors, stmatrix/ldmatrix, .trans) with the register bases it names,
as inline PTX. One tile per block per iteration: the tile is loaded from
global memory into the --from registers, stored to shared memory, read back
into the --to registers and written to global memory transposed (element
(row, col) to out[col][row]), so the output must equal the input transposed
bit for bit.

  gen_kernel.py OUT.cu CASE=SUGGESTION.json [CASE=SUGGESTION.json ...]
  gen_kernel.py OUT.cu DIR      (every DIR/CASE.json whose layout is linear)

CASE names the kernel; the tile, the element type and both register layouts
are read from the suggestion's own `inputs` (what bankcheck was asked).
Everything the kernel does is computed here from the JSON and the
register bases, independently of bankcheck's C++: the layout's inverse, the
lanes' addresses, the packing of registers into 32-bit words.
"""
import json
import os
import sys

if not __package__:
    sys.path[0] = os.path.abspath(__file__).rsplit(os.sep + "validate" + os.sep, 1)[0]
from validate.suggest.triton_pairs import linear  # noqa: E402

ELEMENT_BYTES = {"f32": 4, "fp32": 4, "fp16": 2, "int8": 1}


def parse_registers(text):
    """'register=[[r,c],...] lane=[...] warp=[...]' -> the bases dict linear.py uses."""
    out = {"register": [], "lane": [], "warp": []}
    for part in text.split():
        key, value = part.split("=", 1)
        out[key] = [list(b) for b in json.loads(value)]
    return out


def parse_offset_bases(text):
    assert text.startswith("offset="), text
    return [list(b) for b in json.loads(text[len("offset="):])]


class Shared:
    """A linear shared layout: offset bit i holds coordinate bases[i]; offset(row, col) by the inverse."""

    def __init__(self, bases, rows, cols):
        self.cb = cols.bit_length() - 1
        n = self.cb + rows.bit_length() - 1
        assert len(bases) == n
        vecs = [(r << self.cb) | c for r, c in bases]
        # Gauss-Jordan over GF(2): coordinate unit vector j -> its offset
        m = [[vecs[i], 1 << i] for i in range(n)]
        self.image = [0] * n
        for j in range(n):
            p = next(i for i in range(j, n) if m[i][0] >> j & 1)
            m[j], m[p] = m[p], m[j]
            for i in range(n):
                if i != j and m[i][0] >> j & 1:
                    m[i][0] ^= m[j][0]
                    m[i][1] ^= m[j][1]
        for j in range(n):
            assert m[j][0] == 1 << j
            self.image[j] = m[j][1]

    def offset(self, row, col):
        v, out = (row << self.cb) | col, 0
        for j, im in enumerate(self.image):
            if v >> j & 1:
                out ^= im
        return out


def spread(value, where):
    r = 0
    for i, b in enumerate(where):
        if value >> i & 1:
            r |= 1 << b
    return r


def xor_expr(var, consts, bits):
    """C expression: XOR of consts[k] for each set bit bits[k] of var."""
    terms = [f"((({var}) >> {b}) & 1 ? {c}u : 0u)" for b, c in zip(bits, consts) if c]
    return " ^ ".join(terms) if terms else "0u"


class Side:
    def __init__(self, bases, shared, rows, cols, transposed_out):
        self.b, self.sh, self.rows, self.cols = bases, shared, rows, cols
        self.nreg = 1 << len(bases["register"])
        self.t = transposed_out

    def soff(self, r):
        return self.sh.offset(*linear.at(self.b, r, 0, 0))

    def gidx(self, row, col):
        return col * self.rows + row if self.t else row * self.cols + col

    def lane_soff(self, lane_var, bits=range(5), shift=0):
        consts = [self.sh.offset(*self.b["lane"][b]) for b in bits]
        return xor_expr(lane_var, consts, [b - shift for b in bits])

    def part(self, f):
        """lane and warp parts of f(row, col) (linear): C expression over lane, warp."""
        lc = [f(*self.b["lane"][i]) for i in range(5)]
        wc = [f(*w) for w in self.b["warp"]]
        return f"({xor_expr('lane', lc, range(5))}) ^ ({xor_expr('warp', wc, range(len(wc)))})"


def check_linear(side, f):
    """f(coordinate of (r, l, w)) == f(r) ^ f(l) ^ f(w) for every register, lane and warp."""
    for w in range(1 << len(side.b["warp"])):
        for l in range(32):
            for r in range(side.nreg):
                whole = f(*linear.at(side.b, r, l, w))
                parts = f(*linear.at(side.b, r, 0, 0)) ^ f(*linear.at(side.b, 0, l, 0)) ^ f(*linear.at(side.b, 0, 0, w))
                assert whole == parts, (r, l, w)


def pack(elems, e, dst_word):
    """C statement: a word from registers, the lowest address in the lowest bits."""
    return f"{dst_word} = " + " | ".join(f"((uint32_t)v[{r}] << {8 * e * k})" for k, r in enumerate(elems)) + ";"


def unpack(word, elems, e):
    mask = (1 << (8 * e)) - 1
    ty = {4: "uint32_t", 2: "uint16_t", 1: "uint8_t"}[e]
    return [f"v[{r}] = ({ty})(({word} >> {8 * e * k}) & {mask}u);" for k, r in enumerate(elems)]


def vector_code(side, ch, e, store):
    v = int(ch["instruction"].split(".")[1]) // 8
    nel, words = v // e, max(1, v // 4)
    inner, outer = ch["inner_registers"], ch["outer_registers"]
    out = []
    for o in range(1 << len(outer)):
        rb = spread(o, outer)
        regs = [rb | spread(t, inner) for t in range(nel)]
        addr = f"sbase + ((({side.soff(rb)}u) ^ lw) * {e}u)"
        if v < 4:  # 1 or 2 bytes: one 16-bit register holds them
            bits = 8 * v
            if store:
                out.append(f'{{ uint32_t w0; {pack(regs, e, "w0")} asm volatile("st.shared.u{bits} [%0], %1;" :: '
                           f'"r"({addr}), "h"((unsigned short)w0) : "memory"); }}')
            else:
                out.append(f'{{ unsigned short h0; asm volatile("ld.shared.u{bits} %0, [%1];" : "=h"(h0) : "r"({addr}) : '
                           f'"memory"); uint32_t w0 = h0; {" ".join(unpack("w0", regs, e))} }}')
            continue
        per = 4 // e
        ws = [f"w{k}" for k in range(words)]
        vec = "" if words == 1 else f".v{words}"
        regs_ptx = ", ".join(f"%{k + (1 if store else 0)}" for k in range(words))
        if store:
            body = " ".join(pack(regs[k * per:(k + 1) * per], e, f"uint32_t {ws[k]}") for k in range(words))
            cons = ", ".join(f'"r"({w})' for w in ws)
            out.append(f'{{ {body} asm volatile("st.shared{vec}.b32 [%0], {{{regs_ptx}}};" :: "r"({addr}), {cons} : "memory"); }}')
        else:
            decl = " ".join(f"uint32_t {w};" for w in ws)
            cons = ", ".join(f'"=r"({w})' for w in ws)
            un = " ".join(s for k in range(words) for s in unpack(ws[k], regs[k * per:(k + 1) * per], e))
            out.append(f'{{ {decl} asm volatile("ld.shared{vec}.b32 {{{regs_ptx}}}, [%{words}];" : {cons} : "r"({addr}) : "memory"); {un} }}')
    return out


def matrix_code(side, ch, e, store):
    name = ch["instruction"]  # stmatrix.x4[.trans]
    parts = name.split(".")
    n = int(parts[1][1:])
    trans = "trans" in parts
    inner, matrix, outer, h = ch["inner_registers"], ch["matrix_registers"], ch["outer_registers"], ch["trans_pair"]
    mconst = [side.soff(1 << b) for b in matrix]
    mexpr = xor_expr("(lane >> 3)", mconst, range(len(matrix)))
    if trans:  # row i = 2t + p: p = lane bit 0 picks register h, t = lane bits 1, 2 are lanes 0, 1
        pconst = side.soff(1 << h)
        lconst = [side.sh.offset(*side.b["lane"][k]) for k in (0, 1)]
        row_expr = f"((lane & 1) ? {pconst}u : 0u) ^ {xor_expr('(lane >> 1)', lconst, range(2))}"
    else:  # row i is data lane 4i: lane bits 2, 3, 4 of the fragment
        lconst = [side.sh.offset(*side.b["lane"][k]) for k in (2, 3, 4)]
        row_expr = xor_expr("lane", lconst, range(3))
    out = [f"const uint32_t mrow = ({mexpr}) ^ ({row_expr});"]
    op = ("stmatrix" if store else "ldmatrix") + f".sync.aligned.m8n8.x{n}" + (".trans" if trans else "") + ".shared.b16"
    for o in range(1 << len(outer)):
        rb = spread(o, outer)
        addr = f"sbase + ((({side.soff(rb)}u) ^ mrow ^ lwarp) * {e}u)"
        words = []
        for j in range(n):
            rj = rb | spread(j, matrix)
            words.append([rj, rj | (1 << h)] if trans else [rj | spread(p, inner) for p in range(4 // e)])
        ws = [f"w{j}" for j in range(n)]
        if store:
            body = " ".join(pack(words[j], e, f"uint32_t {ws[j]}") for j in range(n))
            regs_ptx = ", ".join(f"%{j + 1}" for j in range(n))
            cons = ", ".join(f'"r"({w})' for w in ws)
            out.append(f'{{ {body} asm volatile("{op} [%0], {{{regs_ptx}}};" :: "r"({addr}), {cons} : "memory"); }}')
        else:
            decl = " ".join(f"uint32_t {w};" for w in ws)
            regs_ptx = ", ".join(f"%{j}" for j in range(n))
            cons = ", ".join(f'"=r"({w})' for w in ws)
            un = " ".join(s for j in range(n) for s in unpack(ws[j], words[j], e))
            out.append(f'{{ {decl} asm volatile("{op} {{{regs_ptx}}}, [%{n}];" : {cons} : "r"({addr}) : "memory"); {un} }}')
    return out


def kernel(name, sug):
    inp = sug["inputs"][0]
    rows, cols = inp["rows"], inp["cols"]
    e = ELEMENT_BYTES[inp["element"]]
    ty = {4: "uint32_t", 2: "uint16_t", 1: "uint8_t"}[e]
    src = parse_registers(inp["from"])
    dst = parse_registers(inp["to"])
    if not sug["suggestion"]["offset_bases"]:
        raise SystemExit(f"{name}: the suggestion {sug['suggestion']['layout']} is not linear: no kernel generated")
    sh = Shared(parse_offset_bases(sug["suggestion"]["offset_bases"]), rows, cols)
    s, d = Side(src, sh, rows, cols, False), Side(dst, sh, rows, cols, True)
    for side in (s, d):
        check_linear(side, sh.offset)
        check_linear(side, side.gidx)
    warps = 1 << len(src["warp"])
    assert warps == 1 << len(dst["warp"])
    st, ld = sug["store"], sug["load"]
    st_code = (matrix_code if st["instruction"].startswith("stmatrix") else vector_code)(s, st, e, True)
    ld_code = (matrix_code if ld["instruction"].startswith("ldmatrix") else vector_code)(d, ld, e, False)
    g_in = [s.gidx(*linear.at(src, r, 0, 0)) for r in range(s.nreg)]
    g_out = [d.gidx(*linear.at(dst, r, 0, 0)) for r in range(d.nreg)]
    ind = "\n      "
    return f"""
// {name}: {st['choice']} then {ld['choice']} on {sug['suggestion']['layout']}
__global__ void __launch_bounds__({32 * warps}) convert_{name}(const {ty}* __restrict__ in, {ty}* __restrict__ out, int tiles) {{
  __shared__ __align__(1024) {ty} tile[{rows * cols}];
  const uint32_t lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const uint32_t sbase = (uint32_t)__cvta_generic_to_shared(tile);
  const uint32_t gin = {s.part(s.gidx)}, gout = {d.part(d.gidx)};
  static constexpr uint32_t kIn[{s.nreg}] = {{{", ".join(map(str, g_in))}}};
  static constexpr uint32_t kOut[{d.nreg}] = {{{", ".join(map(str, g_out))}}};
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {{
    const {ty}* tin = in + (size_t)t * {rows * cols};
    {ty}* tout = out + (size_t)t * {rows * cols};
    {{
      {ty} v[{s.nreg}];
#pragma unroll
      for (int r = 0; r < {s.nreg}; ++r) v[r] = tin[kIn[r] ^ gin];
      const uint32_t lw = {s.part(sh.offset)}, lwarp = {xor_expr('warp', [sh.offset(*w) for w in src['warp']], range(len(src['warp'])))};
      (void)lw; (void)lwarp;
      {ind.join(st_code)}
    }}
    __syncthreads();
    {{
      {ty} v[{d.nreg}];
      const uint32_t lw = {d.part(sh.offset)}, lwarp = {xor_expr('warp', [sh.offset(*w) for w in dst['warp']], range(len(dst['warp'])))};
      (void)lw; (void)lwarp;
      {ind.join(ld_code)}
#pragma unroll
      for (int r = 0; r < {d.nreg}; ++r) tout[kOut[r] ^ gout] = v[r];
    }}
    __syncthreads();
  }}
}}
""", dict(name=name, rows=rows, cols=cols, e=e, ty=ty, threads=32 * warps)


MAIN = r"""
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#define CK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { \
  std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(err_)); std::exit(1); } } while (0)

template <class T>
int run(const char* name, void (*k)(const T*, T*, int), int rows, int cols, int threads, const std::string& mode) {
  const int tiles = mode == "profile" ? 8 : (128 << 20) / (rows * cols * (int)sizeof(T));
  const size_t n = (size_t)tiles * rows * cols;
  std::vector<T> h(n), back(n);
  std::mt19937_64 g(45);
  for (auto& x : h) x = (T)g();
  T *din, *dout;
  CK(cudaMalloc(&din, n * sizeof(T)));
  CK(cudaMalloc(&dout, n * sizeof(T)));
  CK(cudaMemcpy(din, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  CK(cudaMemset(dout, 0, n * sizeof(T)));
  const int grid = mode == "profile" ? tiles : std::min(tiles, 132 * 8);
  k<<<grid, threads>>>(din, dout, tiles);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(back.data(), dout, n * sizeof(T), cudaMemcpyDeviceToHost));
  size_t wrong = 0;
  for (int t = 0; t < tiles; ++t)
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        if (std::memcmp(&back[(size_t)t * rows * cols + (size_t)c * rows + r], &h[(size_t)t * rows * cols + (size_t)r * cols + c], sizeof(T)))
          ++wrong;
  float med = 0;
  if (mode == "check") {
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    std::vector<float> ms;
    for (int s = 0; s < 21; ++s) {
      CK(cudaEventRecord(a));
      for (int i = 0; i < 10; ++i) k<<<grid, threads>>>(din, dout, tiles);
      CK(cudaEventRecord(b));
      CK(cudaEventSynchronize(b));
      float x = 0;
      CK(cudaEventElapsedTime(&x, a, b));
      ms.push_back(x / 10);
    }
    std::sort(ms.begin(), ms.end());
    med = ms[ms.size() / 2];
  }
  std::printf("%s tiles %d elements %zu wrong %zu median_ms %.4f\n", name, tiles, n, wrong, med);
  CK(cudaFree(din));
  CK(cudaFree(dout));
  return wrong == 0 ? 0 : 1;
}

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "check";
  int rc = 0;
%CALLS%
  return rc;
}
"""


def main():
    out = sys.argv[1]
    parts, calls = ["// Generated by validate/suggest/convert/gen_kernel.py from bankcheck's suggestions: do not edit.",
                    "#include <cstdint>", "#include <cuda_runtime.h>"], []
    args = sys.argv[2:]
    if len(args) == 1 and os.path.isdir(args[0]):
        args = [f"{n[:-5]}={os.path.join(args[0], n)}" for n in sorted(os.listdir(args[0])) if n.endswith(".json")]
    for arg in args:
        name, path = arg.split("=", 1)
        with open(path) as f:
            sug = json.load(f)
        if not sug["suggestion"]["offset_bases"]:
            print(f"{name}: {sug['suggestion']['layout']} is not linear: no kernel", file=sys.stderr)
            continue
        code, info = kernel(name, sug)
        parts.append(code)
        calls.append(f'  rc |= run<{info["ty"]}>("{name}", convert_{name}, {info["rows"]}, {info["cols"]}, {info["threads"]}, mode);')
    with open(out, "w") as f:
        f.write("\n".join(parts) + MAIN.replace("%CALLS%", "\n".join(calls)))


if __name__ == "__main__":
    main()
