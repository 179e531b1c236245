#include "sim/trace/trace_binary_version.hpp"

namespace bankcheck {

namespace {
/// Record kinds by number, as docs/trace-format.md names them.
constexpr const char* kKindNames[] = {"", "site", "instr", "end", "location", "expect", "source", "index", "repeat"};
static_assert(std::size(kKindNames) == std::size(kRecordKindSince));
}  // namespace

std::string version_kinds_text(unsigned version) {
  std::string text = version == 1 ? " (version 1: " : " (";
  for (std::uint64_t k = 1; version_has_kind(version, k); ++k)
    text += (k > 1 ? ", " : "") + std::to_string(k) + " = " + kKindNames[k];
  return text + ")";
}

std::string version_ops_text(unsigned version) {
  return version == 1 ? " (version 1: 0 = ld, 1 = st)" : " (0 = ld, 1 = st, 2 = atom, 3 = ldsm, 4 = stsm, 5 = cpasync, ...)";
}

std::string version_widths_text(unsigned version, Op op) {
  return version == 1 ? "1, 2, 4, 8, 16" : std::string(allowed_widths_text(op));
}

}  // namespace bankcheck
