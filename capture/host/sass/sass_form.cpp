#include "capture/host/sass/sass_form.hpp"

#include <algorithm>
#include <array>

namespace bankcheck::capture {

namespace {

/// The opcode alone: the mnemonic up to its first modifier.
std::string_view opcode(std::string_view mnemonic) { return mnemonic.substr(0, mnemonic.find('.')); }
}  // namespace

std::string_view sass_mnemonic(std::string_view sass) {
  auto skip_space = [&] {
    while (!sass.empty() && (sass.front() == ' ' || sass.front() == '\t')) sass.remove_prefix(1);
  };
  skip_space();
  if (!sass.empty() && sass.front() == '@') {
    sass.remove_prefix(std::min(sass.find_first_of(" \t"), sass.size()));
    skip_space();
  }
  return sass.substr(0, sass.find_first_of(" \t"));
}

std::string_view predicate_operand(std::string_view sass) {
  const std::string_view m = sass_mnemonic(sass);
  if (m.empty()) return {};
  std::string_view rest = sass.substr(static_cast<std::size_t>(m.data() - sass.data()) + m.size());
  while (!rest.empty()) {
    const std::size_t start = rest.find_first_not_of(" \t,");
    if (start == std::string_view::npos) break;
    rest.remove_prefix(start);
    const std::string_view operand = rest.substr(0, rest.find_first_of(" \t,;"));
    rest.remove_prefix(operand.size());
    const std::string_view reg = !operand.empty() && operand.front() == '!' ? operand.substr(1) : operand;
    if (reg.size() == 2 && reg[0] == 'P' && ((reg[1] >= '0' && reg[1] <= '6') || reg[1] == 'T')) return operand;
    if (!rest.empty() && rest.front() == ';') break;
  }
  return {};
}

bool has_predicate_operand(std::string_view sass) { return !predicate_operand(sass).empty(); }

std::optional<std::string_view> untraced_kind(std::string_view mnemonic) {
  const std::string_view op = opcode(mnemonic);
  if (op == "HGMMA" || op == "QGMMA" || op == "IGMMA" || op == "BGMMA") return "wgmma";
  if (op.starts_with("UTMA") || op.starts_with("UBLK")) return "TMA";
  if (op == "STAS" || op == "REDAS") return "st.async";
  if (op == "SYNCS") return "mbarrier";
  return std::nullopt;
}

bool is_untraced(std::string_view sass, std::string_view kind) { return untraced_kind(sass_mnemonic(sass)) == kind; }

bool tma_form_measured(std::string_view mnemonic) {
  constexpr std::array<std::string_view, 15> measured = {
      "UTMALDG.2D",         "UTMALDG.3D",          "UTMALDG.4D",         "UTMALDG.3D.MULTICAST",
      "UTMALDG.5D.MULTICAST", "UTMALDG.5D.IM2COL", "UTMASTG.2D",         "UTMASTG.3D",
      "UTMASTG.4D",         "UTMASTG.5D.IM2COL",   "UTMACMDFLUSH",
      // validate/fidelity/tma_forms.cu on an H200 (2026-11-29): 0 shared wavefronts each
      "UTMACCTL.PF",        "UTMACCTL.IV",         "UTMAPF.L2.2D",       "UTMALDG.4D.MULTICAST"};
  return std::find(measured.begin(), measured.end(), mnemonic) != measured.end();
}

bool is_generic_access(std::string_view mnemonic) {
  const std::string_view op = opcode(mnemonic);
  return op == "LD" || op == "ST" || op == "ATOM" || op == "RED";
}

bool can_access_memory(std::string_view mnemonic) {
  const std::string_view op = opcode(mnemonic);
  constexpr std::array<std::string_view, 4> not_memory = {"LDC", "LDL", "STL", "LEPC"};
  if (std::find(not_memory.begin(), not_memory.end(), op) != not_memory.end()) return false;
  if (untraced_kind(mnemonic)) return true;
  constexpr std::array<std::string_view, 4> prefixes = {"LD", "ST", "ATOM", "RED"};
  return std::any_of(prefixes.begin(), prefixes.end(), [&](std::string_view p) { return op.starts_with(p); });
}

}  // namespace bankcheck::capture
