#pragma once
// `bankcheck layout --wgmma-desc`: the bank picture of one wgmma operand as
// its shared-memory matrix descriptor lays it out (sim/layout/wgmma_descriptor.hpp),
// printed and, with --svg, drawn as a bank grid (sim/draw/bank_grid.hpp).
#include <ostream>
#include <string>

namespace bankcheck::cli {

struct WgmmaPictureOptions {
  std::string descriptor;  ///< 0xHEX or decimal
  std::string shape;       ///< m64nNkK
  std::string type;        ///< fp16, bf16, tf32, fp8, ...
  std::string operand = "a";
  bool mn_major = false;
  std::string svg;
};

/// Prints the decoded descriptor, every core matrix's rows with their
/// addresses and bank groups, each core matrix's bank degree and what the
/// H100 measured for wgmma (docs/bank-model.md, rule 8); draws it to
/// options.svg when given.
/// @throws std::invalid_argument on a descriptor, shape or type that does not fit.
void print_wgmma_picture(const WgmmaPictureOptions& options, std::ostream& out);

}  // namespace bankcheck::cli
