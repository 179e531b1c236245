#include "sim/layout/shared_layout.hpp"

#include <sstream>
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
  if (e < 0 && !swizzle) {
    // A negative stride (CuTe allows them): the base must keep the address non-negative.
    const std::uint64_t below = static_cast<std::uint64_t>(-e) * element_bytes;
    if (below > base)
      throw std::invalid_argument("layout offset " + std::to_string(e) + " lies " + std::to_string(below) +
                                  " bytes below the base " + std::to_string(base) +
                                  ": a negative address (give --base of at least " + std::to_string(below) + ")");
    return base - below;
  }
  if (e < 0)
    throw std::invalid_argument("layout offset " + std::to_string(e) +
                                " is negative: a swizzle of a negative element offset is not modelled");
  const std::uint64_t swizzled = swizzle ? swizzle->apply(static_cast<std::uint64_t>(e)) : static_cast<std::uint64_t>(e);
  return base + swizzled * element_bytes;
}

std::string SharedLayout::text() const {
  std::string pointer;
  if (unit == SwizzleUnit::byte) {
    std::ostringstream value;
    if (pointer_address) value << "0x" << std::hex << *pointer_address;
    else value << "unset";
    pointer = "smem_ptr[" + std::to_string(pointer_bits.value_or(8)) + "b](" + value.str() + ")";
  }
  if (!swizzle) return pointer.empty() ? layout.text() : pointer + " o " + layout.text();
  return swizzle->text() + " o " + (pointer.empty() ? std::to_string(offset) : pointer) + " o " + layout.text();
}

}  // namespace bankcheck::layout
