#include "capture/host/sass/hgmma_descriptors.hpp"

#include "capture/host/sass/sass_form.hpp"
#include "capture/host/sass/sass_instruction.hpp"

namespace bankcheck::capture {

std::optional<layout::WgmmaSwizzle> RecoveredDescriptor::swizzle() const {
  if (!high.knows(30, 2)) return std::nullopt;
  return static_cast<layout::WgmmaSwizzle>(high.field(30, 2));
}

std::optional<std::uint32_t> RecoveredDescriptor::stride() const {
  if (!high.knows(0, 14)) return std::nullopt;
  return high.field(0, 14) << 4;
}

std::optional<unsigned> RecoveredDescriptor::base_offset() const {
  if (!high.knows(17, 3)) return std::nullopt;
  return high.field(17, 3);
}

std::optional<std::uint32_t> RecoveredDescriptor::leading() const {
  if (!low.knows(16, 14)) return std::nullopt;
  return low.field(16, 14) << 4;
}

namespace {

RecoveredDescriptor recover(std::uint64_t offset, unsigned first, const SassConstants& values) {
  RecoveredDescriptor d;
  d.high_register = "UR" + std::to_string(first + 1);
  d.high = values.bits_before(offset, d.high_register);
  d.low = values.bits_before(offset, "UR" + std::to_string(first));
  return d;
}

std::string describe(const char* name, const RecoveredDescriptor& d) {
  if (!d.recovered())
    return std::string(name) + " descriptor not recovered (" + d.high_register +
           "'s swizzle and stride bits differ between paths or are computed)";
  std::string text = std::string(name) + " swizzle " + std::string(layout::swizzle_mode_name(*d.swizzle())) +
                     ", stride " + std::to_string(*d.stride()) + " B";
  if (const auto lbo = d.leading()) text += ", leading " + std::to_string(*lbo) + " B";
  if (const auto base = d.base_offset()) {
    if (*base != 0) text += ", base offset " + std::to_string(*base);
  } else {
    text += ", base offset from the address";
  }
  return text;
}

}  // namespace

std::vector<HgmmaDescriptors> recover_hgmma_descriptors(const std::vector<SassLine>& lines, const SassConstants& values) {
  std::vector<HgmmaDescriptors> out;
  for (const SassLine& l : lines) {
    if (!is_untraced(l.text, "wgmma")) continue;
    const sass::Instruction ins = sass::parse_instruction(l.text);
    // gdesc[URn] is the second operand (A and B in shared memory) or the third (A from registers).
    for (std::size_t i = 1; i < ins.operands.size() && i <= 2; ++i) {
      const std::string_view op = ins.operands[i];
      if (op.rfind("gdesc[", 0) != 0) continue;
      const auto first = sass::register_index(op.substr(6, op.find(']') - 6));
      if (!first || *first < 256 || *first == sass::kZero) break;  // not a uniform register
      HgmmaDescriptors h;
      h.offset = l.offset;
      h.sass = l.text;
      const auto ur = static_cast<unsigned>(*first - 256);
      if (i == 1) h.a = recover(l.offset, ur, values);
      h.b = recover(l.offset, ur + 2, values);
      out.push_back(std::move(h));
      break;
    }
  }
  return out;
}

std::string describe_descriptors(const HgmmaDescriptors& d) {
  std::string text;
  if (d.a) text = describe("A", *d.a) + "; ";
  return text + describe("B", d.b);
}

}  // namespace bankcheck::capture
