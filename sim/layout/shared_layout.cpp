#include "sim/layout/shared_layout.hpp"

#include <stdexcept>

namespace bankcheck::layout {

std::uint64_t SharedLayout::byte_address(std::int64_t element_offset, unsigned element_bytes,
                                         std::uint64_t base) const {
  if (unit == SwizzleUnit::byte) {
    const std::int64_t bytes = element_offset * static_cast<std::int64_t>(element_bytes);
    if (bytes < 0 && static_cast<std::uint64_t>(-bytes) > base)
      throw std::invalid_argument("layout offset " + std::to_string(element_offset) +
                                  " gives a negative byte address");
    const std::uint64_t a = base + static_cast<std::uint64_t>(bytes);
    return swizzle ? swizzle->apply(a) : a;
  }
  const std::int64_t e = offset + element_offset;
  if (e < 0)
    throw std::invalid_argument("layout offset " + std::to_string(e) + " is negative: no shared-memory address");
  const std::uint64_t swizzled = swizzle ? swizzle->apply(static_cast<std::uint64_t>(e)) : static_cast<std::uint64_t>(e);
  return base + swizzled * element_bytes;
}

std::string SharedLayout::text() const {
  if (!swizzle) return layout.text();
  const std::string middle = unit == SwizzleUnit::byte
                                 ? "smem_ptr[" + std::to_string(pointer_bits.value_or(8)) + "b](unset)"
                                 : std::to_string(offset);
  return swizzle->text() + " o " + middle + " o " + layout.text();
}

}  // namespace bankcheck::layout
