#pragma once
// `bankcheck layout --suggest --from REGS --to REGS`: a tile moved through
// shared memory between two register layouts; parse them, call
// proofs::suggest_conversion, print (text, --json, --csv).
#include <string>

#include "cli/options.hpp"

namespace bankcheck::cli {

struct ConversionOptions {
  std::string tile;     ///< "64x64"
  std::string element;
  std::string from, to; ///< register layouts (sim/layout/register_layout.hpp)
  ModelOptions model;
  OutputOptions output;
};

void run_conversion_suggest(const ConversionOptions& o);

}  // namespace bankcheck::cli
