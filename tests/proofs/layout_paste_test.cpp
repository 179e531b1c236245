// The paste forms, each evaluated here by its own definition over every
// element and compared with the layout's addresses: Triton's swizzled shared
// layout by its formula, the linear layout's bases by XOR of bases.
#include "proofs/layout_paste.hpp"

#include <doctest/doctest.h>

#include <regex>
#include <string>

namespace layout_paste_test {

using namespace bankcheck;
using namespace bankcheck::proofs;

namespace {

TileAccesses tile(std::uint64_t rows, std::uint64_t cols, const char* type) {
  TileAccesses t;
  t.rows = rows, t.cols = cols, t.element = layout::parse_element_type(type);
  return t;
}

LayoutCandidate swizzled(const TileAccesses& t, layout::Swizzle sw) {
  LayoutCandidate c;
  c.family = LayoutCandidate::Family::cute_swizzle;
  c.layout.layout = plain_layout(t.rows, t.cols, true);
  c.layout.swizzle = sw;
  return c;
}

/// Element offset of (r, c) on the candidate.
std::uint64_t offset(const LayoutCandidate& c, const TileAccesses& t, std::uint64_t r, std::uint64_t col) {
  const auto& l = c.layout.layout;
  const std::uint64_t a = c.layout.byte_address(l.mode(0)(r) + l.mode(1)(col), t.element.bytes, 0);
  return c.map.apply(a) / t.element.bytes;
}

/// Triton's formula for order [1, 0].
void check_triton(const LayoutCandidate& c, const TileAccesses& t, const std::string& text) {
  std::smatch m;
  REQUIRE(std::regex_search(text, m, std::regex(R"(vec=(\d+), per_phase=(\d+), max_phase=(\d+), order=\[1, 0\])")));
  const std::uint64_t vec = std::stoull(m[1]), per = std::stoull(m[2]), max = std::stoull(m[3]);
  for (std::uint64_t r = 0; r < t.rows; ++r)
    for (std::uint64_t col = 0; col < t.cols; ++col) {
      const std::uint64_t phase = (r / per) % max;
      CHECK(offset(c, t, r, col) == r * t.cols + ((col / vec) ^ phase) * vec + col % vec);
    }
}

}  // namespace

TEST_CASE("paste: CuTe swizzles as Triton's SwizzledSharedLayout, checked by its formula") {
  const TileAccesses t = tile(64, 64, "fp16");
  LayoutCandidate c = swizzled(t, {3, 3, 3});
  LayoutPaste p = paste_of(c, t);
  CHECK(p.triton == "SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0])");
  CHECK(p.cute == "composition(Swizzle<3,3,3>{}, make_layout(make_shape(Int<64>{}, Int<64>{}), "
                  "make_stride(Int<64>{}, Int<1>{})))");
  check_triton(c, t, p.triton);
  c = swizzled(t, {2, 3, 4});  // phase from row bits 1-2: per_phase 2
  p = paste_of(c, t);
  CHECK(p.triton == "SwizzledSharedLayout(vec=8, per_phase=2, max_phase=4, order=[1, 0])");
  check_triton(c, t, p.triton);
  // The same swizzle on bytes is Sw<3,3,3> on fp16 elements: the same paste.
  c = swizzled(t, {3, 4, 3});
  c.layout.unit = layout::SwizzleUnit::byte;
  CHECK(paste_of(c, t).triton == "SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0])");
}

TEST_CASE("paste: an XOR map that is no CuTe swizzle gives linear-layout bases, checked by XOR of bases") {
  const TileAccesses t = tile(32, 32, "f32");
  LayoutCandidate c;
  c.family = LayoutCandidate::Family::xor_map;
  c.layout.layout = plain_layout(32, 32, true);
  c.map = XorAddressMap{{XorTerm{2, (1u << 7) | (1u << 9)}, XorTerm{3, 1u << 8}}};
  const LayoutPaste p = paste_of(c, t);
  CHECK(p.cute.rfind("none:", 0) == 0);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> bases;
  const std::regex base(R"(\[(\d+), (\d+)\])");
  for (auto it = std::sregex_iterator(p.triton.begin(), p.triton.end(), base); it != std::sregex_iterator(); ++it)
    bases.emplace_back(std::stoull((*it)[1]), std::stoull((*it)[2]));
  REQUIRE(bases.size() == 10);  // 1024 elements
  for (std::uint64_t r = 0; r < 32; ++r)
    for (std::uint64_t col = 0; col < 32; ++col) {
      const std::uint64_t o = offset(c, t, r, col);
      std::uint64_t rr = 0, cc = 0;
      for (unsigned k = 0; k < 10; ++k)
        if ((o >> k) & 1) rr ^= bases[k].first, cc ^= bases[k].second;
      CHECK(rr == r);
      CHECK(cc == col);
    }
  CHECK(p.cpp.find("std::popcount") != std::string::npos);
}

TEST_CASE("paste: padding is no SwizzledSharedLayout") {
  const TileAccesses t = tile(32, 32, "f32");
  LayoutCandidate c;
  c.family = LayoutCandidate::Family::padded;
  c.layout.layout = plain_layout(32, 32, true, 1);
  const LayoutPaste p = paste_of(c, t);
  CHECK(p.triton.rfind("none:", 0) == 0);
  CHECK(p.cute == "make_layout(make_shape(Int<32>{}, Int<32>{}), make_stride(Int<33>{}, Int<1>{}))");
  CHECK(p.cpp == "(row * 33 + col) * 4");
}

}  // namespace layout_paste_test
