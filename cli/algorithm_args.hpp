#pragma once
// Arguments shared by `run`, `trace` and `draw`: ALGO, name=value
// parameters, --warp (the same as w=), the input choice and the seed. CLI11
// splits the tokens; the registry checks names and ranges.
#include <charconv>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/options.hpp"
#include "sim/algorithms/algorithm_registry.hpp"

namespace bankcheck::cli {

/// name=value words into Params; a value must be a decimal 64-bit integer.
/// @throws std::invalid_argument naming the word and the allowed form.
inline Params parse_params(const std::vector<std::string>& words) {
  Params p;
  for (const auto& token : words) {
    const auto eq = token.find('=');
    if (eq == std::string::npos || eq == 0)
      throw std::invalid_argument("parameter '" + token + "' must be name=value (e.g. w=32)");
    const std::string name = token.substr(0, eq);
    if (p.contains(name)) throw std::invalid_argument("parameter " + name + " is given twice");
    p[name] = parse_integer<std::int64_t>(token.substr(eq + 1), "parameter " + name,
                                          std::numeric_limits<std::int64_t>::min(),
                                          std::numeric_limits<std::int64_t>::max());
  }
  return p;
}

struct AlgorithmArgs {
  std::string algorithm;
  std::vector<std::string> params;  ///< name=value tokens
  std::optional<unsigned> warp;     ///< --warp: the same as w=
  std::string input = "random";
  std::uint64_t seed = 1;

  void add_to(CLI::App& cmd) {
    std::string names;
    for (const auto& a : algorithms()) names += (names.empty() ? "" : ", ") + a.name;
    cmd.add_option("algorithm", algorithm, "algorithm: " + names + " (`bankcheck run --list` lists their parameters)")
        ->required();
    cmd.add_option("params", params, "parameters as name=value (e.g. w=32 K=1024); see `bankcheck run --list`")
        ->expected(0, -1);
    add_warp_option(cmd, warp, " of the algorithm: the same as w=N");
    cmd.add_option("--input", input, "random, worst, or a file of whitespace-separated integers")
        ->capture_default_str();
    add_seed_option(cmd, seed);
  }

  /// The name=value parameters with --warp folded in as w.
  Params parsed() const {
    Params p = parse_params(params);
    if (warp) {
      if (p.contains("w") && p["w"] != static_cast<std::int64_t>(*warp))
        throw std::invalid_argument("--warp " + std::to_string(*warp) + " disagrees with w=" + std::to_string(p["w"]));
      p["w"] = *warp;
    }
    return p;
  }

  InputChoice input_choice() const { return InputChoice::parse(input, seed); }
};

/// Text of `bankcheck run --list`: every algorithm with its parameters.
inline std::string algorithm_listing() {
  std::string out;
  for (const auto& a : algorithms()) {
    out += a.name + ": " + a.description + "\n";
    out += "    --input worst: " + (a.worst_case.empty() ? std::string("none (rejected)") : a.worst_case) + "\n";
    for (const auto& p : a.params)
      out += "    " + p.name + " (default " + std::to_string(p.default_value) + "): " + p.help + "\n";
  }
  return out;
}

}  // namespace bankcheck::cli
