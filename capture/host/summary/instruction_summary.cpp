#include "capture/host/summary/instruction_summary.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <map>
#include <stdexcept>

#include "capture/host/csv.hpp"
#include "capture/host/sass/op_refinement.hpp"
#include "model/cost_invariants.hpp"

namespace bankcheck::capture {
namespace {

CostColumn column_of(const SummaryCosts& c) {
  return CostColumn{c.unmodelled, c.unmodelled_lanes, c.wavefronts, c.ideal, static_cast<std::uint32_t>(c.degree)};
}

void add_column(CostColumn& into, const CostColumn& c) {
  into.unmodelled += c.unmodelled;
  into.unmodelled_lanes += c.unmodelled_lanes;
  into.wavefronts += c.wavefronts;
  into.ideal += c.ideal;
  into.degree = std::max(into.degree, c.degree);
}

std::optional<WorstRecord> worst_of(const SummaryWorst& s, Op op) {
  if (s.key == 0) return std::nullopt;
  WorstRecord w;
  for (unsigned k = 0; k < 3; ++k) w.block[k] = s.block[k];
  w.warp = s.warp;
  w.mask = s.mask;
  w.wavefronts = s.wavefronts;
  w.excess = static_cast<std::uint32_t>(s.key - 1);
  for (unsigned l = 0; l < 32; ++l) w.addr[l] = s.addr[l];
  if (has_source(op)) {
    w.source.emplace();
    for (unsigned l = 0; l < 32; ++l) (*w.source)[l] = s.source[l];
  }
  return w;
}

/// The worse of the kept record and a shard's (the first of equals stays).
void keep_worse(std::optional<WorstRecord>& kept, const SummaryWorst& shard, Op op) {
  if (shard.key != 0 && (!kept || shard.key - 1 > kept->excess)) kept = worst_of(shard, op);
}

template <class Number>
std::string join_numbers(const Number* v, std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += (i ? " " : "") + std::to_string(v[i]);
  return s;
}

std::uint64_t number(const std::string& field, const std::string& what) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), v);
  if (ec != std::errc() || end != field.data() + field.size() || field.empty())
    throw std::invalid_argument(what + " is not a number: '" + field + "'");
  return v;
}

template <std::size_t N, class Number = std::uint32_t>
std::array<Number, N> numbers(const std::string& field, const std::string& what) {
  std::array<Number, N> out{};
  std::size_t at = 0;
  for (std::size_t i = 0; i < N; ++i) {
    const std::size_t end = std::min(field.find(' ', at), field.size());
    out[i] = static_cast<Number>(number(field.substr(at, end - at), what));
    at = end + 1;
  }
  if (at != field.size() + 1) throw std::invalid_argument(what + " must have " + std::to_string(N) + " numbers");
  return out;
}

Op op_of(const std::string& name) {
  for (unsigned k = 0; k < kOpCount; ++k)
    if (op_name(static_cast<Op>(k)) == name) return static_cast<Op>(k);
  throw std::invalid_argument("unknown op '" + name + "'");
}

std::vector<std::string> column_fields(const std::optional<CostColumn>& c) {
  if (!c) return {"", "", "", "", ""};
  return {std::to_string(c->unmodelled), std::to_string(c->unmodelled_lanes), std::to_string(c->wavefronts),
          std::to_string(c->ideal), std::to_string(c->degree)};
}

std::optional<CostColumn> parse_column(const std::vector<std::string>& f, std::size_t at) {
  if (f[at].empty()) return std::nullopt;
  return CostColumn{number(f[at], "unmodelled"), number(f[at + 1], "unmodelled_lanes"), number(f[at + 2], "wavefronts"),
                    number(f[at + 3], "ideal"), static_cast<std::uint32_t>(number(f[at + 4], "worst_degree"))};
}

/// The seven fields of a worst record from `at`; none when they are empty.
std::optional<WorstRecord> parse_worst(const std::vector<std::string>& f, std::size_t at) {
  if (f[at].empty()) return std::nullopt;
  WorstRecord w;
  w.block = numbers<3>(f[at], "worst_block");
  w.warp = static_cast<std::uint32_t>(number(f[at + 1], "worst_warp"));
  w.mask = static_cast<std::uint32_t>(number(f[at + 2], "worst_mask"));
  w.wavefronts = static_cast<std::uint32_t>(number(f[at + 3], "worst_wavefronts"));
  w.excess = static_cast<std::uint32_t>(number(f[at + 4], "worst_excess"));
  w.addr = numbers<32>(f[at + 5], "worst_addr");
  if (!f[at + 6].empty()) w.source = numbers<32, std::uint64_t>(f[at + 6], "worst_source");
  return w;
}

constexpr std::size_t kSummaryColumns = 30;

}  // namespace

std::vector<InstructionSummary> collect_summary(const SummarySlot* slots, std::uint64_t count, std::uint64_t launch,
                                                FunctionMap& functions) {
  std::map<std::uint64_t, InstructionSummary> by_pc;
  for (std::uint64_t i = 0; i < count; ++i) {
    const SummarySlot& s = slots[i];
    if (s.key == 0) continue;
    const std::uint64_t pc = s.key - 1;
    auto [it, fresh] = by_pc.try_emplace(pc);
    InstructionSummary& row = it->second;
    const auto op = static_cast<Op>((s.kind - 1) >> 8);
    const auto width = static_cast<unsigned>((s.kind - 1) & 0xFF);
    if (fresh) {
      row.launch = launch;
      row.site = functions.site(pc);
      row.op = op;
      row.width = width;
      if (alternative_op(op, width) != op) row.alt = CostColumn{};
    }
    row.executions += s.executions;
    row.lanes += s.lanes;
    add_column(row.costs, column_of(s.costs));
    if (row.alt) add_column(*row.alt, column_of(s.alt));
    keep_worse(row.worst, s.worst, row.op);
    if (row.alt) keep_worse(row.alt_worst, s.alt_worst, row.op);
  }
  std::vector<InstructionSummary> rows;
  for (auto& [pc, row] : by_pc) rows.push_back(std::move(row));
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.site < b.site; });
  return rows;
}

void refine_summary(InstructionSummary& row, const SassTable& sass) {
  const std::string* text = sass.find(row.site);
  const Op refined = text != nullptr ? refine_op(row.op, *text) : row.op;
  if (refined == Op::atom_cas) {  // a read and a write pass of every atom pass: twice the cost
    row.costs.wavefronts *= 2;
    row.costs.ideal *= 2;
  } else if (refined == Op::atom_cast && row.alt && refined != row.op) {
    // Rule 4: two wavefronts per store phase with an active lane (the phases
    // are the ideal of the atom.popc column the device kept), whatever the
    // addresses. A 4-byte execution with a bank conflict (that column above
    // its ideal) is not modelled, and the totals cannot tell which one: then
    // none is; nor are widths other than 4 and 8.
    const CostColumn store = *row.alt;
    if ((row.width != 4 && row.width != 8) || (row.width == 4 && store.wavefronts != store.ideal)) {
      row.costs = CostColumn{row.executions, row.lanes, 0, 0, 0};
      row.worst.reset();
    } else {
      row.costs = CostColumn{store.unmodelled, store.unmodelled_lanes, 2 * store.ideal, 2 * store.ideal,
                             store.ideal > 0 ? 1u : 0u};
      row.worst = row.alt_worst;
    }
  } else if (refined == Op::cpasync_cg_zfill || refined == Op::cpasync_cg_notp0 || refined == Op::cpasync_unmeasured ||
             refined == Op::unmeasured) {
    // Rule 6c costs the destinations as a 16-byte store, a column the device
    // does not keep for a copy; the device's 6b column does not tell the
    // zero-filling lanes an operand !P0 leaves unmodelled; an unmeasured
    // form (a copy's or a generic access's) has no rule: every execution not modelled.
    row.costs = CostColumn{row.executions, row.lanes, 0, 0, 0};
    row.worst.reset();
  } else if (refined != row.op && row.alt && refined == alternative_op(row.op, row.width)) {
    row.costs = *row.alt;
    row.worst = row.alt_worst;  // the alternative column's own worst execution
  } else if (refined != row.op) {
    return;  // a refinement the device did not prepare for: keep the reported kind
  }
  row.alt.reset();
  row.alt_worst.reset();
  if (refined != row.op && row.worst) {  // the worst record, costed as what it is
    const sm90::WarpCost c = sm90::warp_cost(refined, row.width, row.worst->addr.data(), row.worst->mask,
                                             Counter::instruction, row.worst->source ? row.worst->source->data() : nullptr);
    row.worst->wavefronts = c.wavefronts;
    row.worst->excess = static_cast<std::uint32_t>(conflicts_of(c.wavefronts, c.ideal));
  }
  row.op = refined;
}

std::string summary_table_header() {
  return "launch,site,op,width,executions,lanes,unmodelled,unmodelled_lanes,wavefronts,ideal,worst_degree,"
         "alt_unmodelled,alt_unmodelled_lanes,alt_wavefronts,alt_ideal,alt_worst_degree,worst_block,worst_warp,"
         "worst_mask,worst_wavefronts,worst_excess,worst_addr,worst_source,alt_worst_block,alt_worst_warp,"
         "alt_worst_mask,alt_worst_wavefronts,alt_worst_excess,alt_worst_addr,alt_worst_source\n";
}

std::string summary_row_line(const InstructionSummary& r) {
  std::vector<std::string> f = {std::to_string(r.launch), r.site, std::string(op_name(r.op)), std::to_string(r.width),
                                std::to_string(r.executions), std::to_string(r.lanes)};
  for (auto& x : column_fields(r.costs)) f.push_back(x);
  for (auto& x : column_fields(r.alt)) f.push_back(x);
  for (const auto* w : {&r.worst, &r.alt_worst}) {
    if (*w) {
      f.push_back(join_numbers((*w)->block.data(), 3));
      f.push_back(std::to_string((*w)->warp));
      f.push_back(std::to_string((*w)->mask));
      f.push_back(std::to_string((*w)->wavefronts));
      f.push_back(std::to_string((*w)->excess));
      f.push_back(join_numbers((*w)->addr.data(), 32));
      f.push_back((*w)->source ? join_numbers((*w)->source->data(), 32) : "");
    } else {
      f.insert(f.end(), {"", "", "", "", "", "", ""});
    }
  }
  return csv_line(f);
}

std::vector<InstructionSummary> read_summary_table(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("cannot read " + path);
  std::vector<InstructionSummary> rows;
  std::string line;
  std::uint64_t number_of_line = 0;
  while (std::getline(in, line)) {
    ++number_of_line;
    if (number_of_line == 1 || line.empty()) continue;
    try {
      const auto f = parse_csv_line(line);
      if (f.size() != kSummaryColumns)
        throw std::invalid_argument(std::to_string(f.size()) + " fields, expected " + std::to_string(kSummaryColumns));
      InstructionSummary r;
      r.launch = number(f[0], "launch");
      r.site = f[1];
      r.op = op_of(f[2]);
      r.width = static_cast<unsigned>(number(f[3], "width"));
      r.executions = number(f[4], "executions");
      r.lanes = number(f[5], "lanes");
      r.costs = *parse_column(f, 6);
      r.alt = parse_column(f, 11);
      r.worst = parse_worst(f, 16);
      r.alt_worst = parse_worst(f, 23);
      rows.push_back(std::move(r));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(path + ":" + std::to_string(number_of_line) + ": " + e.what());
    }
  }
  return rows;
}

}  // namespace bankcheck::capture
