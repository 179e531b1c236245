#pragma once
// What `bankcheck compare` prints of a comparison (capture/host/ncu/compare.hpp):
// the JSON document, the CSV table and the text table with its verdict
// counts, launches not compared and notes. The command parses, compares and
// writes one of these; the formats themselves live here. Beside the
// verdicts, the layouts `suggest` offers for the launches' conflicting
// buffers (CompareResult::offers, sim/report/layout_offer.hpp): a line each in
// the text, `suggestions` in the JSON, the CSV's last column `suggestion` on
// each conflicting instruction's row.
#include <ostream>
#include <string>

#include "capture/host/ncu/compare.hpp"

namespace bankcheck::capture {

/// What the JSON document says of the inputs beside the result.
struct CompareInputs {
  std::string ncu;                        ///< the ncu report's path
  std::string model;                      ///< the preset's name
  bool ncu_blocks_printed_twice = false;  ///< ncu printed every block twice and the copies were dropped
};

void write_compare_json(std::ostream& out, const CompareResult& result, const CompareInputs& inputs);
void write_compare_csv(std::ostream& out, const CompareResult& result);
void write_compare_text(std::ostream& out, const CompareResult& result, const std::string& model);

}  // namespace bankcheck::capture
