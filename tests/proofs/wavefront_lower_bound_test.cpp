// The lower bound: the ideal, and the counting argument where vectors pin
// each word's bank residue; sound against every plain and padded layout.
#include "proofs/wavefront_lower_bound.hpp"

#include <doctest/doctest.h>

namespace wavefront_lower_bound_test {

using namespace bankcheck;
using namespace bankcheck::proofs;

namespace {
layout::LayoutCheck check(const std::string& l, const std::string& access, const std::string& type = "f32") {
  layout::LayoutAccessSpec s;
  s.layout = l, s.element = type, s.access = access;
  return layout::check_layout(s, make_preset("sm90", 32));
}
}  // namespace

TEST_CASE("lower bound: column reads of 4-byte words, unpinned and pinned by 16-byte vectors") {
  const BankGeometry g = make_preset("sm90", 32).geometry();
  // A column of a 32x32 fp32 tile read by ld.32: 32 instructions, ideal 1 each.
  const auto k = check("(32,32):(32,1)", "ld.32", "f32");
  AccessLowerBound unpinned = access_lower_bound(k, 4, g);
  CHECK(unpinned.wavefronts == k.ideal);
  CHECK(unpinned.counting_wins == 0);
  // With 16-byte vectors along the rows, the 32 words of one column share one residue mod 4: 8 banks, 4 each.
  layout::LayoutAccessSpec col;
  col.layout = "(32,32):(32,1)", col.element = "f32", col.access = "ld.32", col.along = 0;
  const auto c = layout::check_layout(col, make_preset("sm90", 32));
  const AccessLowerBound pinned = access_lower_bound(c, 16, g);
  CHECK(pinned.wavefronts == 32 * 4);
  CHECK(pinned.counting_wins == 32);
  // Sound: padding by one word (which breaks 16-byte alignment, so it is outside the pinned space) reaches 32,
  // below the pinned bound but not below the unpinned one; 4 words of padding (16-byte aligned) costs 128.
  for (const char* l : {"(32,32):(36,1)", "(32,32):(40,1)"}) {
    col.layout = l;
    CHECK(layout::check_layout(col, make_preset("sm90", 32)).wavefronts >= pinned.wavefronts);
  }
  col.layout = "(32,32):(33,1)";
  CHECK(layout::check_layout(col, make_preset("sm90", 32)).wavefronts == 32);
}

}  // namespace wavefront_lower_bound_test
