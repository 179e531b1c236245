#include "proofs/record_lane_fit.hpp"

#include <sstream>

#include "proofs/affine_address_fit.hpp"

namespace bankcheck::proofs {

bool RecordLaneFit::add(std::span<const std::uint64_t> offsets, std::uint64_t inactive, std::uint64_t count) {
  if (!fits()) return false;
  ++records_;
  AffineAddressFit fit;
  for (std::uint32_t lane = 0; lane < offsets.size() && lane < (1u << kLaneBits); ++lane) {
    if (offsets[lane] == inactive) continue;
    FitVariables x;
    x.lane = lane;
    if (!fit.add(x, offsets[lane])) {
      why_not_ = "no affine fit: lane " + std::to_string(lane) + " of distinct record " + std::to_string(records_) +
                 " (" + std::to_string(count) + " executions) touches offset " + std::to_string(offsets[lane]) +
                 ", which no GF(2)-affine map of the record's other lanes gives";
      return false;
    }
  }
  for (unsigned k = 0; k < kLaneBits; ++k) {
    const auto col = fit.column(1 + k);  // packed bit 0 is the constant, lane bits follow
    if (!col) continue;
    if (!columns_[k]) columns_[k] = col;
    else if (*columns_[k] != *col) agree_ = false;
  }
  return true;
}

std::string RecordLaneFit::text() const {
  if (!fits()) return why_not_;
  std::ostringstream os;
  os << "lane[";
  bool first = true;
  for (unsigned k = 0; k < kLaneBits; ++k) {
    if (!columns_[k] || *columns_[k] == 0) continue;
    os << (first ? "" : " ") << k << ":0x" << std::hex << *columns_[k] << std::dec;
    first = false;
  }
  os << "] in each of " << records_ << " distinct record" << (records_ == 1 ? "" : "s");
  if (!agree_) os << " (their lane columns differ; the first record's shown)";
  os << ", with a constant of its own (a deduplicated trace keeps no warp or iteration)";
  return os.str();
}

}  // namespace bankcheck::proofs
