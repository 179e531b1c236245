#pragma once
// `bankcheck layout --suggest`: parse the tile and its accesses, call
// proofs::suggest_layout, print the suggestion (text, --json, --csv).
#include <cstdint>
#include <string>
#include <vector>

#include "cli/options.hpp"

namespace bankcheck::cli {

struct SuggestOptions {
  std::string layout;                ///< the layout in use, or "" with --tile
  std::string tile;                  ///< "64x64"
  std::string element;
  std::vector<std::string> accesses;
  std::uint64_t base = 0;
  ModelOptions model;
  OutputOptions output;
};

void run_layout_suggest(const SuggestOptions& o);

}  // namespace bankcheck::cli
