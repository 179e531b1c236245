#include "sim/layout/element_type.hpp"

#include <array>
#include <stdexcept>
#include <utility>

namespace bankcheck::layout {

ElementType parse_element_type(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, unsigned>, 31> kNames = {{
      {"int8", 1},  {"uint8", 1}, {"s8", 1},    {"u8", 1},     {"fp8", 1},    {"e4m3", 1},  {"e5m2", 1},
      {"b8", 1},    {"fp16", 2},  {"f16", 2},   {"half", 2},   {"bf16", 2},   {"b16", 2},   {"int16", 2},
      {"tf32", 4},  {"f32", 4},   {"fp32", 4},  {"float", 4},  {"int32", 4},  {"b32", 4},   {"f64", 8},
      {"fp64", 8},  {"double", 8}, {"int64", 8}, {"b64", 8},   {"b128", 16},  {"1", 1},     {"2", 2},
      {"4", 4},     {"8", 8},     {"16", 16},
  }};
  for (const auto& [n, bytes] : kNames)
    if (n == name) return {std::string(name), bytes};
  throw std::invalid_argument("element type '" + std::string(name) + "': expected one of " +
                              std::string(kElementTypeNames));
}

ElementType element_type_of_bits(unsigned bits) {
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64 && bits != 128)
    throw std::invalid_argument("element of " + std::to_string(bits) + " bits: expected 8, 16, 32, 64 or 128");
  return {"b" + std::to_string(bits), bits / 8};
}

}  // namespace bankcheck::layout
