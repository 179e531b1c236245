#pragma once
// Arguments shared by `run` and `trace`: ALGO, name=value parameters, the
// input choice and the seed. CLI11 parses the tokens; the registry checks
// names and ranges.
#include <charconv>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "sim/algorithms/algorithm_registry.hpp"

namespace bankcheck::cli {

struct AlgorithmArgs {
  std::string algorithm;
  std::vector<std::string> params;  ///< name=value tokens
  std::string input = "random";
  std::uint64_t seed = 1;

  void add_to(CLI::App& cmd) {
    std::string names;
    for (const auto& a : algorithms()) names += (names.empty() ? "" : ", ") + a.name;
    cmd.add_option("algorithm", algorithm, "algorithm: " + names)->required();
    cmd.add_option("params", params, "parameters as name=value (e.g. w=32 K=1024); see --list")->expected(0, -1);
    cmd.add_option("--input", input, "random, worst, or a file of whitespace-separated integers")
        ->capture_default_str();
    cmd.add_option("--seed", seed, "seed of the random input")->capture_default_str();
  }

  Params parsed() const {
    Params p;
    for (const auto& token : params) {
      const auto eq = token.find('=');
      if (eq == std::string::npos || eq == 0)
        throw std::invalid_argument("parameter '" + token + "' must be name=value");
      const std::string name = token.substr(0, eq), text = token.substr(eq + 1);
      std::int64_t value = 0;
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (ec != std::errc() || end != text.data() + text.size() || text.empty())
        throw std::invalid_argument("parameter " + name + ": '" + text + "' is not a 64-bit integer");
      p[name] = value;
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
