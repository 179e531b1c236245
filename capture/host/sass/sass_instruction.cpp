#include "capture/host/sass/sass_instruction.hpp"

#include <algorithm>
#include <array>
#include <charconv>

#include "capture/host/sass/sass_form.hpp"

namespace bankcheck::capture::sass {

namespace {

std::string_view strip(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == ';')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::optional<std::size_t> register_index(std::string_view t) {
  if (const auto dot = t.find(".reuse"); dot != std::string_view::npos && dot + 6 == t.size()) t = t.substr(0, dot);
  if (t == "RZ" || t == "URZ") return kZero;
  std::size_t base = 0;
  if (t.rfind("UR", 0) == 0) {
    base = 256;
    t.remove_prefix(2);
  } else if (t.rfind("R", 0) == 0) {
    t.remove_prefix(1);
  } else {
    return std::nullopt;
  }
  unsigned n = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
  if (ec != std::errc() || end != t.data() + t.size() || t.empty()) return std::nullopt;
  if ((base == 0 && n > 255) || (base == 256 && n > 63)) return std::nullopt;
  return base + n;
}

std::optional<std::size_t> leading_register(std::string_view t) {
  std::size_t digits = t.rfind("UR", 0) == 0 ? 2 : t.rfind("R", 0) == 0 ? 1 : 0;
  if (digits == 0) return std::nullopt;
  if (t.substr(digits, 1) == "Z") return kZero;
  while (digits < t.size() && t[digits] >= '0' && t[digits] <= '9') ++digits;
  return register_index(t.substr(0, digits));
}

bool is_predicate(std::string_view t) {
  if (!t.empty() && t.front() == '!') t.remove_prefix(1);
  if (t.rfind("U", 0) == 0) t.remove_prefix(1);
  return t == "PT" || (t.size() == 2 && t[0] == 'P' && t[1] >= '0' && t[1] <= '7');
}

std::optional<std::size_t> predicate_index(std::string_view t) {
  if (!t.empty() && t.front() == '!') t.remove_prefix(1);
  std::size_t base = kFirstPredicate;
  if (t.rfind("U", 0) == 0) {
    base += 7;
    t.remove_prefix(1);
  }
  if (t.size() != 2 || t[0] != 'P' || t[1] < '0' || t[1] > '6') return std::nullopt;
  return base + static_cast<std::size_t>(t[1] - '0');
}

std::optional<std::uint32_t> immediate(std::string_view t) {
  bool negative = false;
  if (!t.empty() && t.front() == '-') {
    negative = true;
    t.remove_prefix(1);
  }
  if (t.rfind("0x", 0) != 0) return std::nullopt;
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(t.data() + 2, t.data() + t.size(), v, 16);
  if (ec != std::errc() || end != t.data() + t.size() || v > 0xFFFFFFFFu) return std::nullopt;
  return static_cast<std::uint32_t>(negative ? 0u - v : v);
}

Instruction parse_instruction(std::string_view text) {
  Instruction ins;
  text = strip(text);
  if (!text.empty() && text.front() == '@') ins.guard = text.substr(0, text.find_first_of(" \t"));
  ins.guarded = !ins.guard.empty() && ins.guard != "@PT";
  ins.mnemonic = sass_mnemonic(text);
  ins.opcode = ins.mnemonic.substr(0, ins.mnemonic.find('.'));
  const std::size_t space = static_cast<std::size_t>(ins.mnemonic.data() - text.data()) + ins.mnemonic.size();
  if (space >= text.size()) return ins;
  std::string_view rest = text.substr(space);
  int depth = 0;
  std::size_t from = 0;
  for (std::size_t i = 0; i <= rest.size(); ++i) {
    const char c = i < rest.size() ? rest[i] : ',';
    if (c == '[' || c == '{' || c == '(') ++depth;
    if (c == ']' || c == '}' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      ins.operands.push_back(strip(rest.substr(from, i - from)));
      from = i + 1;
    }
  }
  return ins;
}

std::size_t write_width(const Instruction& ins) {
  static constexpr std::array<std::string_view, 17> whole = {
      "HMMA", "IMMA", "DMMA", "BMMA", "HGMMA", "QGMMA", "IGMMA", "BGMMA", "LDSM", "LDTM",
      "TEX",  "TLD",  "TLD4", "TMML", "TXD",   "TXQ",   "SULD"};
  if (std::find(whole.begin(), whole.end(), ins.opcode) != whole.end()) return kRegisters;
  static constexpr std::array<std::string_view, 5> doubles = {"DADD", "DFMA", "DMUL", "DMNMX", "DSETP"};
  std::size_t width = std::find(doubles.begin(), doubles.end(), ins.opcode) != doubles.end() ? 2 : 1;
  if (ins.opcode == "CS2R" && ins.mnemonic.find(".32") == std::string_view::npos) width = 2;
  std::string_view mods = ins.mnemonic.substr(ins.opcode.size());
  while (!mods.empty()) {
    mods.remove_prefix(1);  // the '.'
    const std::string_view mod = mods.substr(0, mods.find('.'));
    mods.remove_prefix(mod.size());
    if (mod.find("256") != std::string_view::npos) width = std::max<std::size_t>(width, 8);
    else if (mod.find("128") != std::string_view::npos) width = std::max<std::size_t>(width, 4);
    else if (mod.find("64") != std::string_view::npos || mod == "WIDE") width = std::max<std::size_t>(width, 2);
  }
  return width;
}

}  // namespace bankcheck::capture::sass
