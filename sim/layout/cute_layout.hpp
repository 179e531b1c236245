#pragma once
// CuTe's layout algebra, the part a shared-memory tile needs: a layout is a
// shape and a stride of the same nested structure ("(8,64):(64,1)",
// "((8,2),(4,16)):((64,8),(1,512))"), and maps a coordinate to an offset,
// the inner product of the coordinate with the stride. A mode is indexed by
// one integer, split over its sub-modes colexicographically (the first
// sub-mode varies fastest), as cute::crd2idx / idx2crd do. Without strides,
// CuTe makes them compact column-major (LayoutLeft): "(8,64)" is
// "(8,64):(1,8)".
#include <cstdint>
#include <string>
#include <vector>

namespace bankcheck::layout {

/// An integer or a tuple of IntTuples (CuTe's IntTuple).
struct IntTuple {
  std::int64_t value = 0;        ///< the integer, when modes is empty
  std::vector<IntTuple> modes;   ///< the tuple's elements; empty for an integer
  bool is_leaf() const { return modes.empty(); }
  bool operator==(const IntTuple&) const = default;
};

/// The product of every integer of a shape. @throws std::overflow_error past 2^40.
std::uint64_t shape_size(const IntTuple& shape);
/// Whether a and b have the same nesting (CuTe's congruent).
bool congruent(const IntTuple& a, const IntTuple& b);
/// Compact column-major strides of `shape`, the first mode's first integer 1 (CuTe's LayoutLeft).
IntTuple compact_left_strides(const IntTuple& shape);
/// "(8,(4,2))": the tuple as CuTe prints it, without the underscores of static integers.
std::string tuple_text(const IntTuple& t);

class CuteLayout {
 public:
  /// @throws std::invalid_argument when shape and stride are not congruent or a shape integer is below 1.
  CuteLayout(IntTuple shape, IntTuple stride);

  const IntTuple& shape() const { return shape_; }
  const IntTuple& stride() const { return stride_; }
  /// Top-level modes: 1 for an integer shape, else the tuple's length.
  std::size_t rank() const { return shape_.is_leaf() ? 1 : shape_.modes.size(); }
  std::uint64_t size() const { return shape_size(shape_); }
  /// The i-th top-level mode as a layout (a rank-1 layout is its own mode 0). @pre i < rank()
  CuteLayout mode(std::size_t i) const;
  /// The offset of the 1-D coordinate `index` (colexicographic). @pre index < size()
  std::int64_t operator()(std::uint64_t index) const;
  /// "(8,64):(64,1)".
  std::string text() const;

 private:
  IntTuple shape_;
  IntTuple stride_;
};

}  // namespace bankcheck::layout
