#pragma once
// The fit a deduplicated trace allows (docs/capture.md, "Suggesting a layout
// from a capture"): identical warp records are merged into one with a count,
// and the merged record keeps one execution's location, so which warp and
// which loop iteration ran each execution is lost. What remains of each
// distinct record is every active lane's offset. Each record is fitted on its
// own as a GF(2)-affine function of the lane bits (proofs/affine_address_fit.hpp
// with the lane as the only variable): offset = c_r ^ (XOR of the lane
// columns of the lane's bits set), the constant c_r the record's own. A lane
// whose offset no affine map of the record's other lanes gives is "no affine
// fit" (data-dependent lanes), never a guess. An instruction that fits over
// lane, warp, iteration and block bits fits here too (fixing the other
// variables leaves an affine map of the lane), so this fit refuses nothing
// the full one accepts; it is weaker evidence (each record alone), which the
// output says.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace bankcheck::proofs {

class RecordLaneFit {
 public:
  static constexpr unsigned kLaneBits = 5;
  /// Fit one distinct record: `offsets` one per lane (`inactive` for a lane that took no part), and
  /// how many executions it stands for. False (and the fit is lost for good) when a lane contradicts the others.
  bool add(std::span<const std::uint64_t> offsets, std::uint64_t inactive, std::uint64_t count);
  bool fits() const { return why_not_.empty(); }
  /// "no affine fit: lane L of distinct record R (N executions) touches offset A, ..." when not.
  const std::string& why_not() const { return why_not_; }
  /// Lane bit k's column (offset delta), from the first record that determines it.
  std::optional<std::uint64_t> column(unsigned k) const { return k < kLaneBits ? columns_[k] : std::nullopt; }
  /// Whether every record that determines a lane column gives the same one.
  bool columns_agree() const { return agree_; }
  std::uint64_t records() const { return records_; }
  /// "lane[0:0x80 1:0x100 ...] in each of N distinct records" (and whether their columns differ), or why_not().
  std::string text() const;

 private:
  std::array<std::optional<std::uint64_t>, kLaneBits> columns_{};
  bool agree_ = true;
  std::uint64_t records_ = 0;
  std::string why_not_;
};

}  // namespace bankcheck::proofs
