#include "sim/report/layout_offer.hpp"

namespace bankcheck::report {

namespace {
std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}
}  // namespace

std::string offer_text(const LayoutOffer& o) {
  return "launch " + std::to_string(o.launch) + " " + o.kernel + ": buffer at " + std::to_string(o.base) + " (" +
         std::to_string(o.bytes) + " bytes): map " + o.map + " (" + o.cute + ") gives " + std::to_string(o.before) +
         " -> " + std::to_string(o.after) + " wavefronts (ideal " + std::to_string(o.ideal) + "), " +
         std::to_string(o.saved()) + " saved; conflicting: " + joined(o.conflicting) +
         " (bankcheck suggest: the fits and every instruction)";
}

nlohmann::json offer_json(const LayoutOffer& o) {
  return {{"launch", o.launch}, {"kernel", o.kernel}, {"base", o.base}, {"bytes", o.bytes}, {"map", o.map},
          {"cute", o.cute}, {"before", o.before}, {"after", o.after}, {"ideal", o.ideal}, {"saved", o.saved()},
          {"evidence", o.evidence}, {"conflicting", o.conflicting}};
}

std::string offer_cell(const LayoutOffer& o) {
  return o.map + ": buffer at " + std::to_string(o.base) + ", " + std::to_string(o.before) + " -> " +
         std::to_string(o.after) + " wavefronts";
}

}  // namespace bankcheck::report
