// The wgmma matrix descriptor: its fields (PTX ISA 9.7.15.5.1.2.2), the
// descriptors the H100 probes ran (validate/sm90/sm90a/make_wgmma_probes.py),
// and the operand's core-matrix addresses against CuTe's GMMA layouts
// evaluated by the layout checker (an independent route).
#include <doctest/doctest.h>

#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

#include "sim/layout/layout_parser.hpp"
#include "sim/layout/wgmma_descriptor.hpp"

using namespace bankcheck::layout;

namespace {
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string thrown(const WgmmaDescriptor& d, const WgmmaOperand& op) {
  try {
    (void)wgmma_operand_layout(d, op);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

/// The byte address of element (mn, k) of a CuTe layout whose mode 0 is MN (size `mn_size`) and mode 1 K.
std::uint64_t cute_address(const SharedLayout& l, unsigned mn, unsigned k, unsigned mn_size, unsigned bytes,
                           std::uint64_t base) {
  return l.byte_address(l.layout(mn + std::uint64_t{mn_size} * k), bytes, base);
}
}  // namespace

TEST_CASE("wgmma descriptor: each field sits where the PTX ISA's Matrix Descriptor Format puts it") {
  // matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4: one unit of a field is 16 bytes.
  CHECK(decode_wgmma_descriptor(1).start == 16);
  CHECK(decode_wgmma_descriptor(0x3FFF).start == 0x3FFF0);
  CHECK(decode_wgmma_descriptor(std::uint64_t{1} << 16).leading == 16);
  CHECK(decode_wgmma_descriptor(std::uint64_t{1} << 32).stride == 16);
  CHECK(decode_wgmma_descriptor(std::uint64_t{7} << 49).base_offset == 7);
  CHECK(decode_wgmma_descriptor(std::uint64_t{0} << 62).swizzle == WgmmaSwizzle::none);
  CHECK(decode_wgmma_descriptor(std::uint64_t{1} << 62).swizzle == WgmmaSwizzle::b128);
  CHECK(decode_wgmma_descriptor(std::uint64_t{2} << 62).swizzle == WgmmaSwizzle::b64);
  CHECK(decode_wgmma_descriptor(std::uint64_t{3} << 62).swizzle == WgmmaSwizzle::b32);
  // bits outside the fields are kept aside, not folded into one
  const auto d = decode_wgmma_descriptor((std::uint64_t{1} << 14) | (std::uint64_t{1} << 46) | (std::uint64_t{1} << 61));
  CHECK(d.start == 0);
  CHECK(d.stride == 0);
  CHECK(d.base_offset == 0);
  CHECK(d.swizzle == WgmmaSwizzle::none);
  CHECK(d.other_bits == ((std::uint64_t{1} << 14) | (std::uint64_t{1} << 46) | (std::uint64_t{1} << 61)));
  CHECK(swizzle_row_bytes(WgmmaSwizzle::b64) == 64);
  CHECK(swizzle_mode_name(WgmmaSwizzle::b32) == "32B");
}

TEST_CASE("wgmma descriptor: decode and encode are inverse") {
  std::mt19937_64 rng(30);
  for (int i = 0; i < 10000; ++i) {
    const std::uint64_t bits = rng();
    REQUIRE(encode_wgmma_descriptor(decode_wgmma_descriptor(bits)) == bits);
  }
  for (std::uint32_t start : {0u, 16u, 1024u, 0x3FFF0u})
    for (std::uint32_t lbo : {16u, 128u, 4096u})
      for (unsigned sw = 0; sw < 4; ++sw) {
        const WgmmaDescriptor d{start, lbo, 1024, sw == 0 ? 0u : 3u, static_cast<WgmmaSwizzle>(sw), 0};
        REQUIRE(decode_wgmma_descriptor(encode_wgmma_descriptor(d)) == d);
      }
  CHECK_THROWS_AS(encode_wgmma_descriptor({8, 16, 16, 0, WgmmaSwizzle::none, 0}), std::invalid_argument);
  CHECK_THROWS_AS(encode_wgmma_descriptor({0x40000, 16, 16, 0, WgmmaSwizzle::none, 0}), std::invalid_argument);
  CHECK(parse_wgmma_descriptor("0x4000004000010040") == 0x4000004000010040ull);
  CHECK(parse_wgmma_descriptor("4611686293305360448") == 0x4000004000010040ull);
  CHECK_THROWS_AS(parse_wgmma_descriptor("0x"), std::invalid_argument);
  CHECK_THROWS_AS(parse_wgmma_descriptor("0x1g"), std::invalid_argument);
  CHECK_THROWS_AS(parse_wgmma_descriptor("0x10000000000000000"), std::invalid_argument);
}

TEST_CASE("wgmma descriptor: the descriptors the H100 probes built (make_wgmma_probes.py)") {
  // descriptor(p, lbo, sbo, swizzle) of the generator's CUDA source:
  //   (a & 0x3FFFF) >> 4 | ((lbo & 0x3FFFF) >> 4) << 16 | ((sbo & 0x3FFFF) >> 4) << 32 | swizzle << 62,
  // with A at the 1024-aligned buffer + the probe's start offset and B a_region bytes
  // after it (a_region = kernel()'s region(64) rounded up to 1024). Values for a buffer at
  // shared address 0 (any 1024-aligned address has the same banks and swizzle phase).
  struct Probe {
    const char* name;
    std::uint64_t desc_a, desc_b;
    WgmmaDescriptor a, b;
  };
  const Probe probes[] = {
      {"ss-f16-n64-none", 0x1000080000, 0x1000080100, {0, 128, 256, 0, WgmmaSwizzle::none, 0},
       {4096, 128, 256, 0, WgmmaSwizzle::none, 0}},
      {"ss-f16-n64-128B", 0x4000004000010000, 0x4000004000010280, {0, 16, 1024, 0, WgmmaSwizzle::b128, 0},
       {10240, 16, 1024, 0, WgmmaSwizzle::b128, 0}},
      {"ss-f16-n64-128B-start32", 0x4000004000010002, 0x4000004000010282, {32, 16, 1024, 0, WgmmaSwizzle::b128, 0},
       {10272, 16, 1024, 0, WgmmaSwizzle::b128, 0}},
      {"ss-f16-n64-64B-start48", 0x8000002000010003, 0x8000002000010183, {48, 16, 512, 0, WgmmaSwizzle::b64, 0},
       {6192, 16, 512, 0, WgmmaSwizzle::b64, 0}},
  };
  for (const auto& p : probes) {
    CAPTURE(p.name);
    CHECK(decode_wgmma_descriptor(p.desc_a) == p.a);
    CHECK(decode_wgmma_descriptor(p.desc_b) == p.b);
    CHECK(encode_wgmma_descriptor(p.b) == p.desc_b);
    // the generator reserved a_region bytes for A: every row A's descriptor reaches lies in it
    const auto a = wgmma_operand_layout(p.a, parse_wgmma_operand("m64n64k16", "fp16", false, false));
    for (const auto& cm : a.cores)
      for (auto row : cm.rows) REQUIRE(row + 16 <= p.b.start);
    CHECK(a.warnings.empty());  // starts 32 and 48 bytes into the first row of the atom are canonical K steps
  }
}

TEST_CASE("wgmma operand: the byte counts of the blind predictions (wgmma_blind_predictions.txt)") {
  std::ifstream in("validate/sm90/sm90a/wgmma_blind_predictions.txt");
  REQUIRE(in);
  std::string line;
  int rows = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream s(line);
    std::string name;
    unsigned a_bytes = 0, b_bytes = 0, warpgroups = 0, predicted = 0;
    s >> name >> a_bytes >> b_bytes >> warpgroups >> predicted;
    CAPTURE(name);
    // "ss-bf16-n128-64B-transB": A source, type, N, swizzle, transposed B
    const auto dash1 = name.find('-'), dash2 = name.find('-', dash1 + 1), dash3 = name.find('-', dash2 + 1);
    const std::string type = name.substr(dash1 + 1, dash2 - dash1 - 1);
    const unsigned n = static_cast<unsigned>(std::stoul(name.substr(dash2 + 2, dash3 - dash2 - 2)));
    const unsigned k = type == "tf32" ? 8 : (type == "e4m3" || type == "e5m2") ? 32 : 16;
    const std::string shape = "m64n" + std::to_string(n) + "k" + std::to_string(k);
    const bool trans_b = has(name, "transB");
    const auto a = parse_wgmma_operand(shape, type, false, false);
    const auto b = parse_wgmma_operand(shape, type, true, trans_b);
    CHECK((name.starts_with("rs-") ? 0u : a.bytes()) == a_bytes);
    CHECK(b.bytes() == b_bytes);
    CHECK(warpgroups * (a_bytes + b_bytes) / 128 == predicted);  // rule 8, docs/bank-model.md
    ++rows;
  }
  CHECK(rows == 24);
}

TEST_CASE("wgmma operand: 128B K-major fp16 equals CuTe's Sw<3,4,3> o smem_ptr[16b] GMMA atom tiled, at every K step") {
  // tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>, (64,64)): 8 atoms of 8 x 64 down M, 1024 bytes apart.
  const SharedLayout tile = parse_shared_layout("Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_8),_64):((_64,_512),_1)");
  for (std::uint64_t base : {0ull, 2048ull, 0x30000ull})
    for (unsigned kk = 0; kk < 4; ++kk) {  // the k-th wgmma of the tile: its descriptor starts 32 bytes further
      CAPTURE(base);
      CAPTURE(kk);
      const WgmmaDescriptor d{static_cast<std::uint32_t>(base + 32 * kk), 16, 1024, 0, WgmmaSwizzle::b128, 0};
      const auto l = wgmma_operand_layout(d, parse_wgmma_operand("m64n128k16", "fp16", false, false));
      REQUIRE(l.cores.size() == 16);
      for (const auto& cm : l.cores) {
        for (unsigned r = 0; r < 8; ++r)
          REQUIRE(cm.rows[r] == cute_address(tile, cm.mn0 + r, 16 * kk + cm.k0, 64, 2, base));
        CHECK(cm.degree == 1);  // a swizzled row per bank group
      }
      CHECK(l.warnings.empty());
    }
}

TEST_CASE("wgmma operand: the swizzle bits matter (ignoring them puts a 128B core matrix in one bank group)") {
  const auto op = parse_wgmma_operand("m64n64k16", "bf16", true, false);
  const auto swizzled = wgmma_operand_layout({0, 16, 1024, 0, WgmmaSwizzle::b128, 0}, op);
  // row 1 of core matrix (0, 0): 128 + 16 (chunk 0 XOR row 1), not 128
  CHECK(swizzled.cores[0].rows[1] == 144);
  for (const auto& cm : swizzled.cores) CHECK(cm.degree == 1);
  // the same offsets read as 128-byte rows without the XOR: all 8 rows in one bank group
  // (the XOR is its own inverse: bits 7-9 are unchanged by it)
  std::set<unsigned> groups;
  for (const auto row : swizzled.cores[0].rows) groups.insert(bank_group(row ^ (((row >> 7) & 7) << 4)));
  CHECK(groups.size() == 1);
}

TEST_CASE("wgmma operand: in every descriptor a core matrix's 8 rows lie in 8 bank groups (docs/layout.md)") {
  // The row stride inside a core matrix is fixed by the swizzle mode, whatever the start, LBO and SBO.
  for (unsigned sw = 0; sw < 4; ++sw)
    for (bool mn_major : {false, true})
      for (std::uint32_t start = 0; start < 2048; start += 16)
        for (std::uint32_t lbo : {16u, 48u, 1024u})
          for (std::uint32_t sbo : {16u, 80u, 512u}) {
            const auto l = wgmma_operand_layout({start, lbo, sbo, 0, static_cast<WgmmaSwizzle>(sw), 0},
                                                parse_wgmma_operand("m64n256k16", "fp16", true, mn_major));
            for (const auto& cm : l.cores) REQUIRE(cm.degree == 1);
          }
}

TEST_CASE("wgmma operand: MN-major 128B fp16 equals CuTe's Layout_MN_SW128_Atom tiled to 128 x 16") {
  // tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>, (128,16)): atoms of 64 (N) x 8 (K), two down N
  // (512 elements apart: LBO 1024 bytes), two along K (1024 elements: SBO 2048 bytes).
  const SharedLayout tile = parse_shared_layout("Sw<3,4,3> o smem_ptr[16b](unset) o ((_64,_2),(_8,_2)):((_1,_512),(_64,_1024))");
  const auto l = wgmma_operand_layout({4096, 1024, 2048, 0, WgmmaSwizzle::b128, 0},
                                      parse_wgmma_operand("m64n128k16", "fp16", true, true));
  REQUIRE(l.cores.size() == 32);
  for (const auto& cm : l.cores) {
    CAPTURE(cm.label(true));
    for (unsigned r = 0; r < 8; ++r) REQUIRE(cm.rows[r] == cute_address(tile, cm.mn0, cm.k0 + r, 128, 2, 4096));
    CHECK(cm.degree == 1);
  }
}

TEST_CASE("wgmma operand: unswizzled (interleave) layouts, K- and MN-major, against plain CuTe layouts") {
  // K-major tf32 B, n16: ((8,2),(4,2)):((4,SBO),(1,LBO)) in 4-byte elements, LBO 128 B, SBO 256 B.
  SharedLayout k_major = parse_shared_layout("((8,2),(4,2)):((4,64),(1,32))");
  auto l = wgmma_operand_layout({512, 128, 256, 0, WgmmaSwizzle::none, 0}, parse_wgmma_operand("m64n16k8", "tf32", true, false));
  REQUIRE(l.cores.size() == 4);
  for (const auto& cm : l.cores)
    for (unsigned r = 0; r < 8; ++r) REQUIRE(cm.rows[r] == cute_address(k_major, cm.mn0 + r, cm.k0, 16, 4, 512));
  // MN-major fp16 A: ((8,8),(8,2)):((1,SBO),(8,LBO)) in elements, SBO 128 B (64), LBO 1024 B (512).
  SharedLayout mn_major = parse_shared_layout("((8,8),(8,2)):((1,64),(8,512))");
  l = wgmma_operand_layout({0, 1024, 128, 0, WgmmaSwizzle::none, 0}, parse_wgmma_operand("m64n8k16", "fp16", false, true));
  REQUIRE(l.cores.size() == 16);
  for (const auto& cm : l.cores)
    for (unsigned r = 0; r < 8; ++r) REQUIRE(cm.rows[r] == cute_address(mn_major, cm.mn0, cm.k0 + r, 64, 2, 0));
  CHECK(l.cores[1].label(false) == "m0-7.k8-15");
}

TEST_CASE("wgmma operand: bad descriptors and shapes are refused, what the PTX ISA leaves open is a warning") {
  const auto a16 = parse_wgmma_operand("m64n128k16", "fp16", false, false);
  CHECK(has(thrown({0, 0, 256, 0, WgmmaSwizzle::none, 0}, a16), "leading byte offset 0"));
  CHECK(has(thrown({0, 128, 0, 0, WgmmaSwizzle::none, 0}, a16), "stride byte offset 0"));
  CHECK(thrown({0, 0, 1024, 0, WgmmaSwizzle::b128, 0}, a16).empty());  // LBO unused when K-major swizzled
  // one 8-row group (B, n8): SBO is never stepped by
  CHECK(thrown({0, 128, 0, 0, WgmmaSwizzle::none, 0}, parse_wgmma_operand("m64n8k16", "fp16", true, false)).empty());
  CHECK(has(thrown({1024, 16, 1024, 2, WgmmaSwizzle::b128, 0}, a16), "not modelled: base offset 2"));
  CHECK(has(thrown({0x3F000, 16, 1024, 0, WgmmaSwizzle::b128, 0}, a16), "past the 256 KiB"));
  auto w = wgmma_operand_layout({128, 16, 1024, 0, WgmmaSwizzle::b128, 0}, a16).warnings;
  REQUIRE(w.size() == 1);
  CHECK(has(w[0], "128 bytes into its 1024-byte repeating pattern"));
  CHECK(has(w[0], "base offset (start >> 7) & 7 = 1"));
  w = wgmma_operand_layout({0x38800, 128, 256, 1, WgmmaSwizzle::none, 0}, a16).warnings;
  CHECK(w.size() == 2);  // base offset ignored without swizzle; past the H100's 227 KiB
  struct Bad {
    const char *shape, *type;
    bool mn_major;
    const char* says;
  };
  for (const Bad& b : {Bad{"m64n128k16", "tf32", false, "K is 8 for tf32"}, Bad{"m64n8k8", "tf32", true, "only 16-bit types"},
                       Bad{"m128n8k16", "fp16", false, "M is 64"}, Bad{"m64n12k16", "fp16", false, "multiple of 8"},
                       Bad{"m64n8", "fp16", false, "m64nNkK"}, Bad{"m64n8k16", "f64", false, "wgmma's shared operands"}})
    CHECK_THROWS_WITH_AS(parse_wgmma_operand(b.shape, b.type, true, b.mn_major), doctest::Contains(b.says),
                         std::invalid_argument);
  CHECK(parse_wgmma_operand("m64n256k32", "e4m3", true, false).bytes() == 8192);
}
