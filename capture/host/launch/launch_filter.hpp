#pragma once
// Which kernel launches a capture records (`bankcheck capture --kernel
// REGEX --kernel-name-base B --launch-skip N --launch-count N --blocks
// LIST`): launches whose name in base B (function, the default, as ncu's
// `-k regex:`; demangled; mangled: capture/host/launch/kernel_name.hpp) matches
// REGEX are counted; the first N are
// skipped, the next COUNT captured; in a captured launch only the listed
// blocks write records. The decision is made on the host at launch begin;
// the block list travels to the device in the descriptor.
#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "capture/host/launch/kernel_name.hpp"
#include "capture/host/ring/ring_layout.hpp"

namespace bankcheck::capture {

struct LaunchFilterSpec {
  std::string kernel_regex;              ///< empty: every kernel (ECMAScript, searched, not anchored)
  std::uint64_t skip = 0;                ///< matching launches to pass over first
  std::optional<std::uint64_t> count;    ///< matching launches to capture after that; unset: all
  std::vector<BlockRange> blocks;        ///< linear block ids; empty: every block
  KernelNameBase name_base = KernelNameBase::function;  ///< which name the regex is searched in
};

/// "0-3,7,10-12": linear block ids (blockIdx.x + blockIdx.y*gridDim.x +
/// blockIdx.z*gridDim.x*gridDim.y) as ranges, at most kMaxBlockRanges.
/// @throws std::invalid_argument naming the bad part and the allowed form.
std::vector<BlockRange> parse_block_list(std::string_view text);

/// A non-negative count from an option or environment value.
/// @throws std::invalid_argument naming `what` and the allowed range 0..2^64-1.
std::uint64_t parse_count(std::string_view text, std::string_view what);

class LaunchFilter {
 public:
  /// @throws std::invalid_argument for a regular expression that does not compile.
  explicit LaunchFilter(LaunchFilterSpec spec);

  /// Decide for the next launch (call once per launch, in launch order).
  bool should_capture(std::string_view mangled, std::string_view demangled);

  const LaunchFilterSpec& spec() const { return spec_; }
  /// Whether a launch of this function could be captured from now on (its
  /// name matches, and COUNT launches were not taken yet), without counting
  /// it: capture patches only the modules that hold such a function.
  bool may_capture(std::string_view mangled, std::string_view demangled) const;

  /// Whether a later launch could still be captured (false once COUNT launches were taken).
  bool exhausted() const { return spec_.count && captured_ >= *spec_.count; }

 private:
  LaunchFilterSpec spec_;
  std::optional<std::regex> regex_;
  std::uint64_t matched_ = 0;
  std::uint64_t captured_ = 0;
};

}  // namespace bankcheck::capture
