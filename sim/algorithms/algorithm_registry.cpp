#include "sim/algorithms/algorithm_registry.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace bankcheck {

// The built-in algorithms' spec functions, one per line of the list.
#define BANKCHECK_ALGORITHM(specs) std::vector<AlgorithmSpec> specs();
#include "sim/algorithms/registered_algorithms.def"
#undef BANKCHECK_ALGORITHM

// ---------------------------------------------------------------- helpers

InputChoice InputChoice::parse(std::string_view text, std::uint64_t seed) {
  InputChoice in;
  in.seed = seed;
  if (text == "random") in.kind = Kind::random;
  else if (text == "worst") in.kind = Kind::worst;
  else if (text.empty()) throw std::invalid_argument("--input must be random, worst or a file name");
  else {
    in.kind = Kind::file;
    in.path = std::string(text);
  }
  return in;
}

std::string InputChoice::describe() const {
  switch (kind) {
    case Kind::random: return "random (seed " + std::to_string(seed) + ")";
    case Kind::worst: return "worst";
    case Kind::file: return "file " + path;
  }
  return "?";
}

std::int64_t param(const Params& p, std::string_view name) {
  auto it = p.find(name);
  if (it == p.end()) throw std::invalid_argument("missing parameter " + std::string(name));
  return it->second;
}

std::vector<std::int64_t> read_integers(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::invalid_argument("cannot open input file " + path);
  std::vector<std::int64_t> values;
  std::string line;
  for (std::size_t lineno = 1; std::getline(f, line); ++lineno) {
    // Control bytes mean a binary file (raw keys): say so instead of printing them.
    for (std::size_t col = 0; col < line.size(); ++col) {
      const auto byte = static_cast<unsigned char>(line[col]);
      if ((byte < 0x20 && byte != '\t' && byte != '\r' && byte != '\v' && byte != '\f') || byte == 0x7f) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", byte);
        throw std::invalid_argument(path + ":" + std::to_string(lineno) + ": binary data (byte " + hex + " at column " +
                                    std::to_string(col + 1) +
                                    "); expected whitespace-separated decimal integers (what `bankcheck adversary` "
                                    "writes unless asked for --format bin)");
      }
    }
    if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream in(line);
    std::string word;
    while (in >> word) {
      std::size_t used = 0;
      std::int64_t v = 0;
      try {
        v = std::stoll(word, &used, 10);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != word.size()) {
        std::string shown;  // bytes outside printable ASCII as \xNN
        for (const char c : word.substr(0, 40)) {
          const auto byte = static_cast<unsigned char>(c);
          char hex[8];
          std::snprintf(hex, sizeof hex, "\\x%02x", byte);
          shown += byte >= 0x20 && byte < 0x7f ? std::string(1, c) : std::string(hex);
        }
        throw std::invalid_argument(path + ":" + std::to_string(lineno) + ": '" + shown + "' is not a 64-bit integer");
      }
      values.push_back(v);
    }
  }
  return values;
}

std::vector<std::int64_t> input_integers(const InputChoice& input) {
  return input.values ? *input.values : read_integers(input.path);
}

namespace {

// ---------------------------------------------------------------- replay listener

class CostListener final : public InstructionListener {
 public:
  CostListener(const BankModel& model, TraceSink* also) : model_(model), also_(also) {}

  void instruction(const InstructionInfo& info, const WarpRequest& request) override {
    if (info.site >= sites.size()) sites.resize(info.site + 1);
    auto& site = sites[info.site];
    if (site.site.empty()) {
      site.site = std::string(info.name);
      order.push_back(info.site);
    }
    if (is_global(request.op)) {  // sectors, not banks (model/global_access.hpp)
      const GlobalCost g = global_cost(replay_global_geometry(static_cast<unsigned>(request.addr.size())), request);
      global.add(request.op == Op::gld, info.active, g);
      site.global.add(request.op == Op::gld, info.active, g);
      ++index;
      if (also_) also_->record(info.name, request);
      return;
    }
    const RequestCost c = model_.cost(request);
    total.add(info.active, c);
    site.cost.add(info.active, c);
    if (c.degree >= 2 && c.degree > site.worst.cost.degree) {  // rare: copy only on a new maximum
      site.worst = WorstInstruction{true, index, {}, site.site, request.op, request.width,
                                    std::vector<std::uint64_t>(request.addr.begin(), request.addr.end()),
                                    std::vector<std::uint64_t>(request.source.begin(), request.source.end()), c};
      site.worst_location = "block " + std::to_string(info.block) + " warp " + std::to_string(info.warp_index) +
                            " phase " + std::to_string(info.phase) + " round " + std::to_string(info.k);
    }
    ++index;
    // rounds[phase][site][k]: flat vectors, no lookup by key per instruction
    if (info.phase >= rounds.size()) rounds.resize(info.phase + 1);
    auto& by_site = rounds[info.phase];
    if (info.site >= by_site.size()) by_site.resize(info.site + 1);
    auto& by_k = by_site[info.site];
    if (info.k >= by_k.size()) by_k.resize(info.k + 1);
    by_k[info.k].add(info.active, c);
    if (also_) also_->record(info.name, request);
  }

  CostTotals total;
  GlobalTotals global;
  std::vector<SiteCost> sites;  // by site id
  std::vector<unsigned> order;  // site ids in first-issue order
  std::vector<std::vector<std::vector<CostTotals>>> rounds;  // [phase][site][k]
  std::uint64_t index = 0;      // instructions so far

 private:
  const BankModel& model_;
  TraceSink* also_;
};

void check_registrable(const AlgorithmSpec& spec, const std::deque<AlgorithmSpec>& known) {
  if (spec.name.empty()) throw std::invalid_argument("an algorithm needs a name");
  for (const auto& a : known)
    if (a.name == spec.name) throw std::invalid_argument("algorithm '" + spec.name + "' is registered already");
  if (std::none_of(spec.params.begin(), spec.params.end(), [](const ParamSpec& p) { return p.name == "w"; }))
    throw std::invalid_argument("algorithm '" + spec.name + "' needs a parameter w (warp size = banks)");
  if (!spec.validate || !spec.drive)
    throw std::invalid_argument("algorithm '" + spec.name + "' needs both validate and drive");
}

std::deque<AlgorithmSpec>& registry() {
  static std::deque<AlgorithmSpec> all = [] {
    std::deque<AlgorithmSpec> built_in;
    auto add = [&](std::vector<AlgorithmSpec> specs) {
      for (auto& spec : specs) {
        check_registrable(spec, built_in);
        built_in.push_back(std::move(spec));
      }
    };
#define BANKCHECK_ALGORITHM(specs) add(specs());
#include "sim/algorithms/registered_algorithms.def"
#undef BANKCHECK_ALGORITHM
    return built_in;
  }();
  return all;
}

}  // namespace

// ---------------------------------------------------------------- registry

const std::deque<AlgorithmSpec>& algorithms() { return registry(); }

void register_algorithm(AlgorithmSpec spec) {
  check_registrable(spec, registry());
  registry().push_back(std::move(spec));
}

const AlgorithmSpec& find_algorithm(std::string_view name) {
  for (const auto& a : algorithms())
    if (a.name == name) return a;
  std::string known;
  for (const auto& a : algorithms()) known += (known.empty() ? "" : ", ") + a.name;
  throw std::invalid_argument("unknown algorithm '" + std::string(name) + "' (known: " + known + ")");
}

void require_worst_case(const AlgorithmSpec& spec, const InputChoice& input) {
  if (input.kind == InputChoice::Kind::worst && spec.worst_case.empty())
    throw std::invalid_argument(spec.name + " has no published or searched worst-case input; use --input random or a "
                                "file (or `bankcheck adversary " + spec.name + " --search`)");
}

Params resolve_params(const AlgorithmSpec& spec, const Params& given) {
  Params p;
  for (const auto& ps : spec.params) p[ps.name] = ps.default_value;
  for (const auto& [name, value] : given) {
    if (!p.contains(name)) {
      std::string allowed;
      for (const auto& ps : spec.params) allowed += (allowed.empty() ? "" : ", ") + ps.name;
      throw std::invalid_argument(spec.name + " has no parameter '" + name + "' (parameters: " + allowed + ")");
    }
    p[name] = value;
  }
  spec.validate(p);
  return p;
}

AlgorithmReport run_algorithm(std::string_view name, const Params& params, const InputChoice& input,
                              const BankModel& model, TraceSink* also) {
  const AlgorithmSpec& spec = find_algorithm(name);
  AlgorithmReport report;
  report.algorithm = spec.name;
  report.params = resolve_params(spec, params);
  report.input = input.describe();
  require_worst_case(spec, input);
  if (input.kind == InputChoice::Kind::worst) report.worst_case = spec.worst_case;
  report.model = model.name();
  const auto w = param(report.params, "w");
  if (static_cast<std::int64_t>(model.geometry().warp) != w)
    throw std::invalid_argument("model " + model.name() + " has warp " + std::to_string(model.geometry().warp) +
                                " but the algorithm runs with w = " + std::to_string(w) +
                                " (use a model with the same warp size)");
  CostListener listener(model, also);
  if (also) also->begin(static_cast<unsigned>(w));
  report.outcome = spec.drive(report.params, input, listener);
  if (also) also->end();
  report.total = listener.total;
  report.global = listener.global;
  for (unsigned id : listener.order) report.sites.push_back(listener.sites[id]);
  for (std::size_t phase = 0; phase < listener.rounds.size(); ++phase)
    for (std::size_t site = 0; site < listener.rounds[phase].size(); ++site) {
      const auto& ks = listener.rounds[phase][site];
      for (std::size_t k = 0; k < ks.size(); ++k)
        if (ks[k].instructions > 0)
          report.rounds.push_back({static_cast<unsigned>(phase), k, listener.sites[site].site, ks[k]});
    }
  if (report.outcome.prediction) {
    const Prediction& pr = *report.outcome.prediction;
    CostTotals covered;
    for (const auto& s : report.sites) {
      if (!pr.sites.empty() && std::find(pr.sites.begin(), pr.sites.end(), s.site) == pr.sites.end()) continue;
      covered += s.cost;
    }
    report.replayed_for_prediction = pr.quantity == "conflicts" ? covered.conflicts() : covered.wavefronts;
  }
  return report;
}


AlgorithmOutcome trace_algorithm(std::string_view name, const Params& params, const InputChoice& input,
                                 TraceSink& sink) {
  const AlgorithmSpec& spec = find_algorithm(name);
  const Params p = resolve_params(spec, params);
  require_worst_case(spec, input);
  SinkListener listener(sink);
  sink.begin(static_cast<unsigned>(param(p, "w")));
  AlgorithmOutcome outcome = spec.drive(p, input, listener);
  sink.end();
  return outcome;
}

}  // namespace bankcheck
