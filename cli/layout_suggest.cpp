#include "cli/layout_suggest.hpp"

#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "proofs/layout_suggestion.hpp"
#include "sim/layout/layout_parser.hpp"
#include "sim/report/result_output.hpp"
#include "sim/report/results.hpp"

namespace bankcheck::cli {
namespace {

using Json = nlohmann::ordered_json;

std::uint64_t tile_extent(const std::string& tile, std::size_t from, std::size_t to) {
  const std::string s = tile.substr(from, to - from);
  if (s.empty() || s.size() > 6 || s.find_first_not_of("0123456789") != std::string::npos || std::stoull(s) == 0)
    throw std::invalid_argument("--tile: expected ROWSxCOLS, each 1..999999 (e.g. 64x64), got '" + tile + "'");
  return std::stoull(s);
}

proofs::SuggestSpec spec_of(const SuggestOptions& o) {
  proofs::SuggestSpec spec;
  if (o.layout.empty() == o.tile.empty()) throw std::invalid_argument("--suggest takes the layout in use or --tile RxC, one of them");
  if (!o.layout.empty()) spec.given = layout::parse_shared_layout(o.layout);
  if (!o.tile.empty()) {
    const std::size_t x = o.tile.find('x');
    if (x == std::string::npos) throw std::invalid_argument("--tile: expected ROWSxCOLS (e.g. 64x64), got '" + o.tile + "'");
    spec.rows = tile_extent(o.tile, 0, x);
    spec.cols = tile_extent(o.tile, x + 1, o.tile.size());
  }
  if (!o.element.empty()) spec.element = layout::parse_element_type(o.element);
  else if (spec.given && spec.given->pointer_bits) spec.element = layout::element_type_of_bits(*spec.given->pointer_bits);
  else throw std::invalid_argument("--suggest needs --type (" + std::string(layout::kElementTypeNames) + ")");
  if (spec.given && spec.given->pointer_bits && *spec.given->pointer_bits != spec.element.bytes * 8)
    throw std::invalid_argument("--type " + spec.element.name + " (" + std::to_string(spec.element.bytes * 8) +
                                " bits) contradicts the layout's smem_ptr[" + std::to_string(*spec.given->pointer_bits) +
                                "b]: give a type of " + std::to_string(*spec.given->pointer_bits) +
                                " bits, or leave --type out to take the layout's");
  spec.base = o.base;
  if (spec.given && spec.given->pointer_address && o.base != 0 && o.base != *spec.given->pointer_address)
    throw std::invalid_argument("--base contradicts the layout's printed pointer (give one or the other)");
  if (o.accesses.empty()) throw std::invalid_argument("--suggest needs --access (one per access of the tile)");
  for (const std::string& a : o.accesses) spec.accesses.push_back(proofs::parse_suggest_access(a));
  return spec;
}

std::string cell(const std::optional<layout::LayoutCheck>& k) {
  if (!k) return "-";
  if (k->not_modelled != 0) return "not modelled";
  return std::to_string(k->wavefronts);
}

void print_text(const proofs::LayoutSuggestion& s, const BankModel& model, std::ostream& os) {
  const auto& t = s.tile;
  os << "suggest " << t.rows << " x " << t.cols << " " << t.element.name << " (" << t.rows * t.cols * t.element.bytes
     << " bytes), " << s.rows.size() << " access" << (s.rows.size() == 1 ? "" : "es") << ", model " << model.name() << "\n";
  const auto& q = s.searched;
  os << "searched " << q.candidates << " layouts: plain " << q.plain << ", padded " << q.padded
     << ", CuTe swizzles on elements and bytes " << q.swizzles << ", TMA/wgmma atoms " << q.atoms
     << ", XOR maps from the phase spaces " << q.xor_maps << " (" << q.xor_evaluations << " descent steps); "
     << q.feasible << " serve every access" << (q.notes.empty() ? "" : "; " + q.notes.substr(0, q.notes.size() - 2))
     << "\n\n";
  if (s.before) os << "before  " << s.before->text() << "\n";
  os << "after   " << s.best.text() << "\n\n";
  os << std::left << std::setw(28) << "access" << std::right << std::setw(8) << "weight" << std::setw(9) << "before"
     << std::setw(9) << "after" << std::setw(9) << "ideal" << std::setw(13) << "lower bound" << "\n";
  for (const auto& r : s.rows) {
    os << std::left << std::setw(28) << r.access << std::right << std::setw(8) << r.weight;
    if (!r.costed) {
      os << "   " << r.note << "\n";
      continue;
    }
    os << std::setw(9) << cell(r.before) << std::setw(9) << cell(r.after) << std::setw(9) << r.after->ideal
       << std::setw(13) << r.bound.wavefronts << "\n";
  }
  os << std::left << std::setw(36) << "total (weighted)" << std::right << std::setw(9)
     << (s.total_before ? std::to_string(*s.total_before) : std::string("-")) << std::setw(9) << s.total << std::setw(9)
     << "" << std::setw(13) << (s.lower_bound ? std::to_string(*s.lower_bound) : std::string("unknown")) << "\n";
  os << "shared memory: " << s.footprint << " bytes" << (s.before ? " (before " + std::to_string(s.footprint_before) + ")" : "")
     << "\n\nverdict: " << s.verdict << "\n";
  for (const auto& r : s.rows)
    if (r.costed) os << "bound " << r.access << ": " << r.bound.argument << "\n";
  os << "\ncertificate:\n";
  for (const auto& l : s.certificate) os << "  " << l << "\n";
  for (const auto& r : s.rows)
    if (r.costed) os << "  " << r.access << ": " << r.symbolic << "\n";
  os << "\npaste:\n  CuTe:   " << s.paste.cute << "\n  Triton: " << s.paste.triton << "\n  C++:    byte offset of (row, col) = "
     << s.paste.cpp << "\n";
}

Json check_json(const std::optional<layout::LayoutCheck>& k) {
  if (!k) return nullptr;
  const bool m = k->not_modelled == 0;
  return Json{{"instructions", k->instructions}, {"wavefronts", m ? Json(k->wavefronts) : Json(nullptr)},
              {"ideal", m ? Json(k->ideal) : Json(nullptr)}, {"conflicts", m ? Json(k->conflicts) : Json(nullptr)},
              {"worst_degree", m ? Json(k->worst_degree) : Json(nullptr)}, {"modelled", m}};
}

Json to_json(const proofs::LayoutSuggestion& s, const BankModel& model) {
  Json j;
  j["schema_version"] = report::kSchemaVersion;
  j["command"] = "layout --suggest";
  j["model"] = model.name();
  j["inputs"] = Json::array({Json{{"kind", "tile"}, {"rows", s.tile.rows}, {"cols", s.tile.cols},
                                  {"element", s.tile.element.name}, {"base", s.tile.base},
                                  {"layout", s.before ? Json(s.before->text()) : Json(nullptr)}}});
  j["accesses"] = Json::array();
  for (const auto& r : s.rows)
    j["accesses"].push_back({{"access", r.access}, {"weight", r.weight}, {"costed", r.costed},
                             {"note", r.note.empty() ? Json(nullptr) : Json(r.note)}, {"before", check_json(r.before)},
                             {"after", check_json(r.after)},
                             {"lower_bound", r.costed ? Json(r.bound.wavefronts) : Json(nullptr)},
                             {"bound_argument", r.costed ? Json(r.bound.argument) : Json(nullptr)},
                             {"symbolic", r.costed ? Json(r.symbolic) : Json(nullptr)}});
  j["suggestion"] = {{"layout", s.best.text()}, {"family", proofs::LayoutCandidate::family_name(s.best.family)},
                     {"wavefronts", s.total}, {"shared_bytes", s.footprint}, {"optimal", s.optimal},
                     {"verdict", s.verdict}, {"cute", s.paste.cute}, {"triton", s.paste.triton}, {"cpp", s.paste.cpp}};
  j["before"] = s.before ? Json{{"wavefronts", s.total_before ? Json(*s.total_before) : Json(nullptr)},
                                {"shared_bytes", s.footprint_before}}
                         : Json(nullptr);
  j["lower_bound"] = s.lower_bound ? Json(*s.lower_bound) : Json(nullptr);
  const auto& q = s.searched;
  j["searched"] = {{"candidates", q.candidates}, {"feasible", q.feasible},   {"plain", q.plain},
                   {"padded", q.padded},         {"swizzles", q.swizzles},   {"atoms", q.atoms},
                   {"xor_maps", q.xor_maps},     {"xor_evaluations", q.xor_evaluations}, {"notes", q.notes}};
  j["certificate"] = s.certificate;
  return j;
}

void print_csv(const proofs::LayoutSuggestion& s, std::ostream& os) {
  os << "access,weight,costed,before_wavefronts,after_wavefronts,after_ideal,lower_bound,suggestion,optimal\n";
  for (const auto& r : s.rows) {
    os << '"' << r.access << "\"," << r.weight << "," << (r.costed ? "true" : "false") << ",";
    if (r.costed)
      os << (r.before && r.before->not_modelled == 0 ? std::to_string(r.before->wavefronts) : "") << ","
         << (r.after->not_modelled == 0 ? std::to_string(r.after->wavefronts) : "") << "," << r.after->ideal << ","
         << r.bound.wavefronts;
    else os << ",,,";
    os << ",\"" << s.best.text() << "\"," << (s.optimal ? "true" : "false") << "\n";
  }
}

}  // namespace

void run_layout_suggest(const SuggestOptions& o) {
  o.model.check();
  const proofs::SuggestSpec spec = spec_of(o);
  const BankModel model = o.model.make(layout::kLayoutWarp);
  const proofs::LayoutSuggestion s = proofs::suggest_layout(spec, model);
  report::ResultOutput out(o.output.file);
  const report::Format f = o.output.format();
  if (f == report::Format::json) out.stream() << std::setw(2) << to_json(s, model) << "\n";
  else if (f == report::Format::csv) print_csv(s, out.stream());
  else print_text(s, model, out.stream());
  out.commit();
}

}  // namespace bankcheck::cli
