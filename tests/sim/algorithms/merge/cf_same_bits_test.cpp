// cf_same_bits against a byte-by-byte comparison written out here, over
// keys that compare equal but differ in bits (-0.0 and 0.0, a struct whose
// comparator reads one field), sizes of 1, 2, 4, 8, 12 and 16 bytes, and
// every single-bit difference of an 8-byte key.
#include "sim/algorithms/merge/cf_same_bits.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>

using namespace bankcheck;

namespace cf_same_bits_test {

struct Three {
  std::uint32_t key, a, b;  // 12 bytes, no padding
};
struct Sixteen {
  std::uint64_t key, tag;
};

template <class T>
bool bytes_equal(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

TEST_CASE("cf_same_bits: equal and unequal objects of every size") {
  CHECK(cf_same_bits<std::uint8_t>(7, 7));
  CHECK_FALSE(cf_same_bits<std::uint8_t>(7, 6));
  CHECK(cf_same_bits<std::uint16_t>(0x1234, 0x1234));
  CHECK_FALSE(cf_same_bits<std::uint16_t>(0x1234, 0x1235));
  CHECK(cf_same_bits(1.5f, 1.5f));
  CHECK(cf_same_bits(Three{1, 2, 3}, Three{1, 2, 3}));
  CHECK_FALSE(cf_same_bits(Three{1, 2, 3}, Three{1, 2, 4}));
  CHECK(cf_same_bits(Sixteen{1, 2}, Sixteen{1, 2}));
  CHECK_FALSE(cf_same_bits(Sixteen{1, 2}, Sixteen{1, 3}));
}

TEST_CASE("cf_same_bits: equivalent under a comparator is not the same bits") {
  // -0.0 == 0.0 and neither is less than the other, yet a copy of one is not the other
  CHECK_FALSE(cf_same_bits(-0.0, 0.0));
  CHECK(bytes_equal(-0.0, -0.0));
  const Three a{5, 1, 1}, b{5, 1, 2};  // equal keys, ordered by .key alone
  CHECK_FALSE(cf_same_bits(a, b));
}

TEST_CASE("cf_same_bits: every one-bit difference of an 8-byte key") {
  const std::uint64_t base = 0x0123456789abcdefull;
  for (int bit = 0; bit < 64; ++bit) {
    const std::uint64_t other = base ^ (std::uint64_t{1} << bit);
    CAPTURE(bit);
    CHECK(cf_same_bits(other, other));
    CHECK(cf_same_bits(base, other) == bytes_equal(base, other));
    CHECK_FALSE(cf_same_bits(base, other));
  }
}

}  // namespace cf_same_bits_test
