#pragma once
// The element type of a shared-memory layout: its name and size in bytes.
// CuTe layouts count elements; the banks see bytes, so every address the
// layout checker produces is (element offset) x (element bytes).
#include <string>
#include <string_view>

namespace bankcheck::layout {

struct ElementType {
  std::string name;    ///< as given, or the canonical name of a size ("b16")
  unsigned bytes = 0;  ///< 1, 2, 4, 8 or 16
};

/// The names parse_element_type accepts, for messages and --help.
inline constexpr std::string_view kElementTypeNames =
    "int8, uint8, s8, u8, fp8, e4m3, e5m2, b8 (1 byte); fp16, f16, half, bf16, b16, int16 (2); "
    "tf32, f32, fp32, float, int32, b32 (4); f64, fp64, double, int64, b64 (8); b128 (16); "
    "or a size in bytes: 1, 2, 4, 8, 16";

/// The element type called `name`.
/// @throws std::invalid_argument naming the accepted names.
ElementType parse_element_type(std::string_view name);

/// The element type of `bits` bits (CuTe's smem_ptr[16b]): "b16".
/// @throws std::invalid_argument unless bits is 8, 16, 32, 64 or 128.
ElementType element_type_of_bits(unsigned bits);

}  // namespace bankcheck::layout
