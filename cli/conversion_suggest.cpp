#include "cli/conversion_suggest.hpp"

#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "proofs/conversion_suggestion.hpp"
#include "sim/report/result_output.hpp"
#include "sim/report/results.hpp"

namespace bankcheck::cli {
namespace {

using Json = nlohmann::ordered_json;

std::uint64_t conversion_extent(const std::string& tile, std::size_t from, std::size_t to) {
  const std::string s = tile.substr(from, to - from);
  if (s.empty() || s.size() > 6 || s.find_first_not_of("0123456789") != std::string::npos || std::stoull(s) == 0)
    throw std::invalid_argument("--tile: expected ROWSxCOLS, each 1..999999 (e.g. 64x64), got '" + tile + "'");
  return std::stoull(s);
}

proofs::ConversionSpec conversion_spec(const ConversionOptions& o) {
  proofs::ConversionSpec s;
  const std::size_t x = o.tile.find('x');
  if (o.tile.empty() || x == std::string::npos)
    throw std::invalid_argument("--from/--to need --tile ROWSxCOLS (e.g. 64x64), got '" + o.tile + "'");
  s.rows = conversion_extent(o.tile, 0, x);
  s.cols = conversion_extent(o.tile, x + 1, o.tile.size());
  if (o.element.empty()) throw std::invalid_argument("--from/--to need --type (" + std::string(layout::kElementTypeNames) + ")");
  s.element = layout::parse_element_type(o.element);
  try {
    s.from = layout::parse_register_layout(o.from, s.rows, s.cols);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--from: ") + e.what());
  }
  try {
    s.to = layout::parse_register_layout(o.to, s.rows, s.cols);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--to: ") + e.what());
  }
  return s;
}

std::string side_cell(const std::optional<proofs::RegisterAccess>& a) {
  return a ? std::to_string(a->check.wavefronts) + " (" + a->choice.kind.name() + ")" : "-";
}

void print_conversion(const proofs::ConversionSuggestion& s, const proofs::ConversionSpec& spec, const BankModel& model,
                      std::ostream& os) {
  os << "suggest " << spec.rows << " x " << spec.cols << " " << spec.element.name << " ("
     << spec.rows * spec.cols * spec.element.bytes << " bytes), written from --from, read into --to; instructions "
     << "chosen from the registers; model " << model.name() << "\n";
  os << "searched " << s.candidates << " layouts: plain, padded and CuTe swizzles " << s.cute_candidates
     << ", linear layouts from the registers " << s.linear_candidates << "; " << s.feasible
     << " permit an instruction on both sides\n\n";
  os << "before  " << proofs::plain_layout(spec.rows, spec.cols, true).text() << " (row-major, its best instructions)\n";
  os << "after   " << s.best.text() << "\n\n";
  os << std::left << std::setw(7) << "side" << std::setw(60) << "instructions (chosen)" << std::right << std::setw(20)
     << "before" << std::setw(8) << "after" << std::setw(8) << "ideal" << std::setw(8) << "bound" << "\n";
  for (const auto* side : {&s.store, &s.load}) {
    os << std::left << std::setw(7) << (side == &s.store ? "store" : "load") << std::setw(60)
       << side->chosen.choice.text() << std::right << std::setw(20) << side_cell(side->before) << std::setw(8)
       << side->chosen.check.wavefronts << std::setw(8) << side->chosen.check.ideal << std::setw(8) << side->bound
       << "\n";
  }
  os << std::left << std::setw(67) << "total" << std::right << std::setw(20) << s.total_before << std::setw(8) << s.total
     << std::setw(8) << "" << std::setw(8) << (s.lower_bound ? std::to_string(*s.lower_bound) : "unknown") << "\n";
  os << "instructions per tile: " << s.store.chosen.check.instructions << " stores, " << s.load.chosen.check.instructions
     << " loads\nshared memory: " << s.footprint << " bytes\n\nverdict: " << s.verdict << "\nbound: " << s.bound_argument
     << "\n\npermitted on the suggested layout:\n";
  for (const auto& p : s.store.permitted) os << "  store " << p << "\n";
  for (const auto& p : s.load.permitted) os << "  load  " << p << "\n";
  os << "\ncertificate:\n";
  for (const auto& l : s.certificate) os << "  " << l << "\n";
  os << "\npaste:\n  CuTe:   " << s.paste_cute << "\n  Triton: " << s.paste_triton
     << "\n  C++:    byte offset of (row, col) = " << s.paste_cpp << "\n";
}

Json side_json(const proofs::ConversionSide& side) {
  const auto& c = side.chosen;
  Json j{{"instruction", c.choice.kind.name()}, {"choice", c.choice.text()}, {"inner_registers", c.choice.inner},
         {"trans_pair", c.choice.trans_pair < 0 ? Json(nullptr) : Json(c.choice.trans_pair)},
         {"matrix_registers", c.choice.matrix}, {"outer_registers", c.choice.outer},
         {"instructions", c.check.instructions}, {"wavefronts", c.check.wavefronts}, {"ideal", c.check.ideal},
         {"lower_bound", side.bound}, {"permitted", side.permitted}};
  j["before"] = side.before ? Json{{"instruction", side.before->choice.text()}, {"wavefronts", side.before->check.wavefronts}}
                            : Json(nullptr);
  return j;
}

Json conversion_json(const proofs::ConversionSuggestion& s, const proofs::ConversionSpec& spec, const BankModel& model) {
  Json j;
  j["schema_version"] = report::kSchemaVersion;
  j["command"] = "layout --suggest --from --to";
  j["model"] = model.name();
  j["inputs"] = Json::array({Json{{"kind", "tile"}, {"rows", spec.rows}, {"cols", spec.cols},
                                  {"element", spec.element.name}, {"from", spec.from.text}, {"to", spec.to.text}}});
  j["store"] = side_json(s.store);
  j["load"] = side_json(s.load);
  j["suggestion"] = {{"layout", s.best.text()},
                     {"family", s.best.linear ? "linear" : proofs::LayoutCandidate::family_name(s.best.cute->family)},
                     {"offset_bases", s.linear_form ? Json(s.linear_form->text()) : Json(nullptr)},
                     {"wavefronts", s.total}, {"instructions", s.instructions}, {"shared_bytes", s.footprint},
                     {"optimal", s.optimal}, {"verdict", s.verdict}, {"cute", s.paste_cute},
                     {"triton", s.paste_triton}, {"cpp", s.paste_cpp}};
  j["before"] = {{"layout", proofs::plain_layout(spec.rows, spec.cols, true).text()}, {"wavefronts", s.total_before}};
  j["lower_bound"] = s.lower_bound ? Json(*s.lower_bound) : Json(nullptr);
  j["bound_argument"] = s.bound_argument;
  j["searched"] = {{"candidates", s.candidates}, {"feasible", s.feasible}, {"cute", s.cute_candidates},
                   {"linear", s.linear_candidates}};
  j["certificate"] = s.certificate;
  return j;
}

}  // namespace

void run_conversion_suggest(const ConversionOptions& o) {
  o.model.check();
  const proofs::ConversionSpec spec = conversion_spec(o);
  const BankModel model = o.model.make(layout::kLayoutWarp);
  const proofs::ConversionSuggestion s = proofs::suggest_conversion(spec, model);
  report::ResultOutput out(o.output.file);
  const report::Format f = o.output.format();
  if (f == report::Format::json) out.stream() << std::setw(2) << conversion_json(s, spec, model) << "\n";
  else if (f == report::Format::csv) {
    out.stream() << "side,instruction,wavefronts,instructions,ideal,lower_bound,layout,optimal\n";
    for (const auto* side : {&s.store, &s.load})
      out.stream() << (side == &s.store ? "store" : "load") << ",\"" << side->chosen.choice.text() << "\","
                   << side->chosen.check.wavefronts << "," << side->chosen.check.instructions << ","
                   << side->chosen.check.ideal << "," << side->bound << ",\"" << s.best.text() << "\","
                   << (s.optimal ? "true" : "false") << "\n";
  } else print_conversion(s, spec, model, out.stream());
  out.commit();
}

}  // namespace bankcheck::cli
