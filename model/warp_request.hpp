#pragma once
// A warp-level shared-memory request: what one warp instruction asks of the
// banks. The model consumes these; it knows nothing of the algorithm that
// issued them.
#include <cstdint>
#include <span>
#include <string_view>

namespace bankcheck {

enum class Op : std::uint8_t { load, store };

/// Byte address of a lane that does not take part in the instruction.
inline constexpr std::uint64_t kInactive = ~std::uint64_t{0};

/// Access widths a shared-memory instruction can have, in bytes.
constexpr bool is_valid_width(unsigned width) {
  return width == 1 || width == 2 || width == 4 || width == 8 || width == 16;
}

constexpr std::string_view op_name(Op op) { return op == Op::load ? "ld" : "st"; }

/// @pre addr.size() is the warp size; every active address is a multiple of width.
struct WarpRequest {
  Op op = Op::load;
  unsigned width = 4;                   ///< bytes per lane: 1, 2, 4, 8 or 16
  std::span<const std::uint64_t> addr;  ///< one byte address per lane, kInactive if idle
};

}  // namespace bankcheck
