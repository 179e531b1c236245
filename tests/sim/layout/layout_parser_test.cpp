// The layout notation, including cute::print's output (underscores, " o "
// compositions, smem_ptr), and the errors that name a column.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/layout/layout_parser.hpp"
#include "tests/scratch.hpp"
#include "tests/skip.hpp"

using namespace bankcheck::layout;

TEST_CASE("parser: cute::print forms") {
  auto l = parse_shared_layout("(_8,_64):(_64,_1)");
  CHECK(!l.swizzle);
  CHECK(l.layout.text() == "(8,64):(64,1)");
  l = parse_shared_layout("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)");
  REQUIRE(l.swizzle);
  CHECK(*l.swizzle == Swizzle{3, 4, 3});
  CHECK(l.unit == SwizzleUnit::element);
  CHECK(l.offset == 0);
  l = parse_shared_layout("Sw<3,4,3> o smem_ptr[16b](unset) o ((_128,_64),_1,_4):((_256,_1),_0,_64)");
  CHECK(l.unit == SwizzleUnit::byte);
  CHECK(l.pointer_bits == 16u);
  CHECK(l.layout.rank() == 3);
  CHECK(l.text() == "Sw<3,4,3> o smem_ptr[16b](unset) o ((128,64),1,4):((256,1),0,64)");
  l = parse_shared_layout("Swizzle<2,3,3> o (8,64):(64,1)");
  CHECK(*l.swizzle == Swizzle{2, 3, 3});
  l = parse_shared_layout("  Sw<3,3,3> o 16 o (8,64):(64,1) ");
  CHECK(l.offset == 16);
  l = parse_shared_layout("((8,2),(4,16)):((64,8),(1,512))");
  CHECK(l.layout.rank() == 2);
  CHECK(l.layout.mode(0).size() == 16);
  l = parse_shared_layout("(8,64)");
  CHECK(l.layout.text() == "(8,64):(1,8)");
  l = parse_shared_layout("(_32,_4):(_-1,_1)");
  CHECK(l.layout.mode(0)(1) == -1);
}

TEST_CASE("parser: cute::print of a tensor, its pointer the base") {
  // What cute::print writes for a tensor over a swizzled shared-memory pointer.
  auto l = parse_shared_layout("Sw<3,4,3>_smem_ptr[16b](0x55bd18220000) o (_8,_64):(_64,_1)");
  REQUIRE(l.swizzle);
  CHECK(*l.swizzle == Swizzle{3, 4, 3});
  CHECK(l.unit == SwizzleUnit::byte);
  CHECK(l.pointer_bits == 16u);
  CHECK(l.pointer_address == std::uint64_t{94270642061312});  // 0x55bd18220000, converted by hand
  CHECK(l.text() == "Sw<3,4,3> o smem_ptr[16b](0x55bd18220000) o (8,64):(64,1)");
  l = parse_shared_layout("smem_ptr[32b](0x7F0A00000400) o (_32,_32):(_32,_1)");
  CHECK(!l.swizzle);
  CHECK(l.unit == SwizzleUnit::byte);
  CHECK(l.pointer_address == std::uint64_t{0x7f0a00000400});
  CHECK(l.text() == "smem_ptr[32b](0x7f0a00000400) o (32,32):(32,1)");
  CHECK(!parse_shared_layout("Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)").pointer_address);
  // Negative strides parse (the base must keep the addresses non-negative: layout_access_test).
  CHECK(parse_shared_layout("(_8,_64):(_-64,_1)").layout.stride().modes[0].value == -64);
  CHECK_THROWS_WITH_AS(parse_shared_layout("Sw<3,4,3>_smem_ptr[16b](0x) o (8,64):(64,1)"),
                       doctest::Contains("column 27: expected hexadecimal digits"), LayoutSyntaxError);
  CHECK_THROWS_WITH_AS(parse_shared_layout("Sw<3,4,3>_smem_ptr[16b](nullptr) o (8,64):(64,1)"),
                       doctest::Contains("expected the pointer (0xHEX, or (nil)) or 'unset'"), LayoutSyntaxError);
  CHECK_THROWS_WITH_AS(parse_shared_layout("Sw<3,4,3>_smem_ptr[16b](0x11112222333344445) o (8,64):(64,1)"),
                       doctest::Contains("more than 64 bits"), LayoutSyntaxError);
}

TEST_CASE("parser: what cute::print writes for each element width: smem_ptr[8b] to [128b], unset, a pointer, null") {
  // CuTe prints a shared pointer as "smem_" then the raw pointer, "ptr[" sizeof_bits "b](" %p ")", and
  // the flag of a layout atom as "smem_ptr[Bb](unset)" (cute/pointer.hpp, pointer_base.hpp,
  // pointer_flagged.hpp); a swizzled tensor's pointer as "Sw<B,M,S>_" then the pointer
  // (pointer_swizzle.hpp). sizeof_bits: 8 for int8_t, uint8_t, float_e4m3_t, float_e5m2_t; 16 for half_t,
  // bfloat16_t; 32 for float, tfloat32_t, int32_t; 64 for double, int64_t, complex<float>; 128 for
  // uint128_t, complex<double>. glibc's %p writes a null pointer "(nil)".
  struct Form {
    std::string prefix, suffix;
    std::optional<std::uint64_t> address;
    bool swizzled;
  };
  const std::vector<Form> forms = {{"Sw<3,4,3> o smem_ptr[", "](unset) o ", std::nullopt, true},
                                   {"Sw<3,4,3>_smem_ptr[", "](0x7f0a00000400) o ", 0x7f0a00000400, true},
                                   {"smem_ptr[", "](0x7F0A00000400) o ", 0x7f0a00000400, false},
                                   {"smem_ptr[", "]((nil)) o ", 0, false},
                                   {"Sw<2,4,3>_smem_ptr[", "]((nil)) o ", 0, true},
                                   {"smem_ptr[", "](unset) o ", std::nullopt, false}};
  for (const unsigned bits : {8u, 16u, 32u, 64u, 128u})
    for (const Form& f : forms) {
      const std::string text = f.prefix + std::to_string(bits) + "b" + f.suffix + "(_8,_64):(_64,_1)";
      CAPTURE(text);
      const SharedLayout l = parse_shared_layout(text);
      CHECK(l.pointer_bits == bits);
      CHECK(l.pointer_address == f.address);
      CHECK(l.unit == SwizzleUnit::byte);
      CHECK(l.swizzle.has_value() == f.swizzled);
      CHECK(l.layout.text() == "(8,64):(64,1)");
    }
  // Sub-byte elements (int4b_t and float_e2m1_t print 4, float_e3m2_t 6), their iterator
  // ("smem_subptr[4b](0x...)", array_subbyte.hpp) and sparse pointers are refused by name.
  struct Refused {
    const char* text;
    const char* says;
  };
  for (const Refused& r : {Refused{"smem_ptr[4b](unset) o (8,64):(64,1)", "sub-byte elements are not modelled"},
                           Refused{"Sw<3,4,3> o smem_ptr[6b](unset) o (8,64):(64,1)", "sub-byte elements"},
                           Refused{"Sw<3,4,3>_smem_subptr[4b](0x7f0a00000400.0) o (8,64):(64,1)", "smem_subptr"},
                           Refused{"smem_subptr[4b](0x7f0a00000400.1) o (8,64):(64,1)", "sub-byte elements"},
                           Refused{"Sw<3,4,3> o smem_sparse<2>_ptr[16b](unset) o (8,64):(64,1)", "structured-sparse"},
                           Refused{"smem_ptr[256b](unset) o (8,64):(64,1)", "8, 16, 32, 64 or 128 bits"},
                           Refused{"smem_ptr[16b](nil) o (8,64):(64,1)", "expected the pointer"}}) {
    CAPTURE(r.text);
    CHECK_THROWS_WITH_AS(parse_shared_layout(r.text), doctest::Contains(r.says), LayoutSyntaxError);
  }
}

TEST_CASE("parser: malformed input names the column and what was expected") {
  struct Bad {
    const char* text;
    std::size_t column;
    const char* says;
  };
  for (const Bad& b : {Bad{"(8,64]:(64,1)", 6, "expected ',' or ')'"}, Bad{"(8,64):(64)", 8, "nesting"},
                       Bad{"Sw<3,4> o (8,64)", 7, "expected ','"}, Bad{"Sw<3,3,2> o (8,64)", 1, "|S| >= B"},
                       Bad{"Sw<3,3,3> (8,64)", 11, "expected ' o '"}, Bad{"(8,x)", 4, "expected a mode"},
                       Bad{"(8,64):(64,1) junk", 15, "expected the end"}, Bad{"", 1, "the layout's shape"},
                       Bad{"Sw<3,3,3> o smem_ptr[12b](unset) o (8,8)", 22, "8, 16, 32, 64 or 128"},
                       Bad{"Sw<3,3,3> o (1,2) o (8,8)", 13, "integer offset"}, Bad{"(0,4)", 1, "below 1"}}) {
    const std::string text = b.text;
    CAPTURE(text);
    try {
      (void)parse_shared_layout(b.text);
      FAIL("accepted");
    } catch (const LayoutSyntaxError& e) {
      CHECK(e.column() == b.column);
      CHECK(std::string(e.what()).find(b.says) != std::string::npos);
      CHECK(std::string(e.what()).find("column " + std::to_string(b.column)) != std::string::npos);
    }
  }
}

namespace {

// Checks every line of a cute_truth file (validate/layout/cute_truth.cu): the
// printed form parses, has CuTe's size, and each index's offset is CuTe's.
// The offset goes through SharedLayout::byte_address with 1-byte elements
// and a base far from 0, so that negative strides stay representable; a
// tensor's form ("Sw<..>_smem_ptr[16b](0x..) o L") gives byte addresses.
int check_against_cute(const std::string& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in, "cannot read " << path);
  constexpr std::uint64_t kBase = std::uint64_t{1} << 40;
  int layouts = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const auto tab = line.find('\t');
    REQUIRE(tab != std::string::npos);
    const std::string form = line.substr(0, tab);
    CAPTURE(form);
    std::istringstream offsets(line.substr(tab + 1));
    std::vector<std::int64_t> cute;
    for (std::int64_t v; offsets >> v;) cute.push_back(v);
    const SharedLayout l = parse_shared_layout(form);
    REQUIRE(l.layout.size() == cute.size());
    // A tensor's form: CuTe gives byte addresses from its printed pointer.
    const bool tensor = l.unit == SwizzleUnit::byte;
    REQUIRE((!tensor || (l.pointer_address && l.pointer_bits)));
    const unsigned bytes = tensor ? *l.pointer_bits / 8 : 1;
    const std::uint64_t base = tensor ? *l.pointer_address : kBase, minus = tensor ? 0 : kBase;
    int wrong = 0;
    for (std::uint64_t i = 0; i < cute.size(); ++i) {
      const auto got = static_cast<std::int64_t>(l.byte_address(l.layout(i), bytes, base) - minus);
      if (got != cute[i] && ++wrong <= 3) CHECK_MESSAGE(got == cute[i], "index " << i);
    }
    CHECK(wrong == 0);
    ++layouts;
  }
  return layouts;
}

}  // namespace

TEST_CASE("parser: random layouts as the real CuTe prints and evaluates them") {
  // tests/data/layouts/cute_truth.txt: cute_truth.cu built against the
  // nvidia-cutlass 4.2.0.0 wheel's headers, seed 20261129, 300 layouts.
  const int checked = check_against_cute(std::string(BANKCHECK_SOURCE_DIR) + "/tests/data/layouts/cute_truth.txt");
  CHECK(checked == 300);
}

TEST_CASE("parser: a fresh seed, regenerated with CuTe's headers") {
  const std::string root = BANKCHECK_SOURCE_DIR;
  const std::string include = root + "/.deps/cutlass/include";
  if (!std::filesystem::exists(include + "/cute/layout.hpp")) {
    bankcheck::test::skip("no CuTe headers (scripts/setup.sh unpacks them into .deps/cutlass)");
    return;
  }
  if (std::system("command -v nvcc >/dev/null 2>&1") != 0) {
    bankcheck::test::skip("no nvcc to build cute_truth.cu");
    return;
  }
  const std::string exe = bankcheck::test::scratch("cute_truth"), out = bankcheck::test::scratch("cute_truth.txt");
  const std::string build = "nvcc -std=c++20 -x cu -I'" + include + "' '" + root +
                            "/validate/layout/cute_truth.cu' -o '" + exe + "'";
  REQUIRE(std::system(build.c_str()) == 0);
  REQUIRE(std::system(("'" + exe + "' 7 200 > '" + out + "'").c_str()) == 0);
  CHECK(check_against_cute(out) == 200);
}
