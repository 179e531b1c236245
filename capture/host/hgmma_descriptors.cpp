#include "capture/host/hgmma_descriptors.hpp"

#include "capture/host/sass_form.hpp"

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

bool is_wgmma(std::string_view mnemonic) {
  const std::string_view op = mnemonic.substr(0, mnemonic.find('.'));
  return op == "HGMMA" || op == "QGMMA" || op == "IGMMA" || op == "BGMMA";
}

/// The operands of the text after its mnemonic, split at top-level commas.
std::vector<std::string> operands(std::string_view sass) {
  const std::string_view mnemonic = sass_mnemonic(sass);
  std::string_view rest = sass.substr(sass.find(mnemonic) + mnemonic.size());
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  for (const char c : rest) {
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
      continue;
    }
    if (c != ' ' && c != '\t') cur += c;
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

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
    if (!is_wgmma(sass_mnemonic(l.text))) continue;
    const std::vector<std::string> ops = operands(l.text);
    // gdesc[URn] is the second operand (A and B in shared memory) or the third (A from registers).
    for (std::size_t i = 1; i < ops.size() && i <= 2; ++i) {
      if (ops[i].rfind("gdesc[UR", 0) != 0) continue;
      const std::string digits = ops[i].substr(8, ops[i].find(']') - 8);
      if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) break;
      const auto first = static_cast<unsigned>(std::stoul(digits));
      HgmmaDescriptors h;
      h.offset = l.offset;
      h.sass = l.text;
      if (i == 1) h.a = recover(l.offset, first, values);
      h.b = recover(l.offset, first + 2, values);
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
