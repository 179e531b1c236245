#include "sim/layout/swizzle.hpp"

#include <algorithm>
#include <cstdlib>

namespace bankcheck::layout {

std::uint64_t Swizzle::yyy_mask() const {
  return ((std::uint64_t{1} << bits) - 1) << (base + std::max(0, shift));
}

std::uint64_t Swizzle::zzz_mask() const {
  return ((std::uint64_t{1} << bits) - 1) << (base - std::min(0, shift));
}

std::uint64_t Swizzle::apply(std::uint64_t offset) const {
  const std::uint64_t y = offset & yyy_mask();
  return offset ^ (shift >= 0 ? y >> shift : y << -shift);
}

std::string Swizzle::text() const {
  return "Sw<" + std::to_string(bits) + "," + std::to_string(base) + "," + std::to_string(shift) + ">";
}

std::string swizzle_problem(int bits, int base, int shift) {
  if (bits < 0 || bits > 16) return "B = " + std::to_string(bits) + " is outside 0..16";
  if (base < 0 || base > 32) return "M = " + std::to_string(base) + " is outside 0..32";
  if (shift < -32 || shift > 32) return "S = " + std::to_string(shift) + " is outside -32..32";
  if (std::abs(shift) < bits)
    return "B = " + std::to_string(bits) + " exceeds |S| = " + std::to_string(std::abs(shift)) +
           " (CuTe requires |S| >= B: the XORed fields would overlap)";
  return "";
}

}  // namespace bankcheck::layout
