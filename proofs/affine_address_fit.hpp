#pragma once
// A GF(2)-affine fit of one instruction's shared-memory addresses: address
// = c ^ (XOR of the columns of the variable bits set), the variables being
// the bits of the lane, the warp within its block, the execution of the
// instruction by that warp (the loop iteration) and the block. Each sample
// (a lane of a record) is one equation over GF(2) for all address bits at
// once; the fit keeps an echelon basis of the samples' (variables, address)
// pairs, and a sample whose variables reduce to zero while its address does
// not contradicts every affine map: the instruction has "no affine fit"
// (data-dependent addresses: histograms, merge paths). Offsets with carries
// (a padded stride, lane x 132) are not GF(2)-affine either: no fit, never a
// guess. The fit is exact on the samples; bits the samples never vary alone
// stay undetermined, and need not be known to cost the records.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bankcheck::proofs {

/// The variables of one sample, and where their bits sit in the packed vector.
struct FitVariables {
  std::uint32_t lane = 0, warp = 0, iteration = 0, block = 0;
  static constexpr unsigned kLaneBits = 5, kWarpBits = 5, kIterationBits = 24, kBlockBits = 29;
  /// Whether every value fits its field.
  bool representable() const;
  /// bit 0: the constant 1; then lane, warp, iteration, block bits.
  std::uint64_t packed() const;
};

class AffineAddressFit {
 public:
  /// Add one sample; false (and the fit is lost for good) when it contradicts the samples before it.
  bool add(const FitVariables& x, std::uint64_t address);
  bool fits() const { return !contradiction_; }
  /// The first contradicting sample, for the message.
  const std::optional<std::pair<FitVariables, std::uint64_t>>& contradiction() const { return first_bad_; }
  /// The address of the variables `x`, when the samples determine it (x in their span).
  std::optional<std::uint64_t> predict(const FitVariables& x) const;
  /// The column of one variable bit (its address delta) when determined: `packed_bit` 1..63.
  std::optional<std::uint64_t> column(unsigned packed_bit) const;
  /// "0x400 ^ lane.0:0x80 lane.1:0x100 ... ^ warp.0:0x4 ..." (undetermined bits omitted, zero columns omitted).
  std::string text() const;
  std::uint64_t samples() const { return samples_; }

 private:
  std::optional<std::uint64_t> reduce(std::uint64_t vars, std::uint64_t address) const;  ///< residual address when vars reduce to 0
  std::array<std::uint64_t, 64> vars_{};   ///< basis rows by leading bit; 0 = none
  std::array<std::uint64_t, 64> addr_{};
  bool contradiction_ = false;
  std::optional<std::pair<FitVariables, std::uint64_t>> first_bad_;
  std::uint64_t samples_ = 0;
};

/// "lane.3", "warp.0", "iteration.5", "block.2" for packed bit 1..63.
std::string fit_variable_name(unsigned packed_bit);

}  // namespace bankcheck::proofs
