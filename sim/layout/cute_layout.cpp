#include "sim/layout/cute_layout.hpp"

#include <stdexcept>

namespace bankcheck::layout {
namespace {

constexpr std::uint64_t kMaxSize = std::uint64_t{1} << 40;

std::int64_t evaluate(const IntTuple& shape, const IntTuple& stride, std::uint64_t& index) {
  if (shape.is_leaf()) {
    const auto extent = static_cast<std::uint64_t>(shape.value);
    const std::uint64_t coordinate = index % extent;
    index /= extent;
    return static_cast<std::int64_t>(coordinate) * stride.value;
  }
  std::int64_t offset = 0;
  for (std::size_t i = 0; i < shape.modes.size(); ++i) offset += evaluate(shape.modes[i], stride.modes[i], index);
  return offset;
}

IntTuple left_strides(const IntTuple& shape, std::int64_t& next) {
  if (shape.is_leaf()) {
    IntTuple s{next, {}};
    next *= shape.value;
    return s;
  }
  IntTuple out;
  for (const IntTuple& m : shape.modes) out.modes.push_back(left_strides(m, next));
  return out;
}

void check_shape(const IntTuple& shape) {
  if (shape.is_leaf()) {
    if (shape.value < 1) throw std::invalid_argument("shape " + std::to_string(shape.value) + ": extents must be >= 1");
    return;
  }
  for (const IntTuple& m : shape.modes) check_shape(m);
}

}  // namespace

std::uint64_t shape_size(const IntTuple& shape) {
  if (shape.is_leaf()) return static_cast<std::uint64_t>(shape.value);
  std::uint64_t n = 1;
  for (const IntTuple& m : shape.modes) {
    n *= shape_size(m);
    if (n > kMaxSize) throw std::overflow_error("layout of more than 2^40 elements");
  }
  return n;
}

bool congruent(const IntTuple& a, const IntTuple& b) {
  if (a.is_leaf() || b.is_leaf()) return a.is_leaf() && b.is_leaf();
  if (a.modes.size() != b.modes.size()) return false;
  for (std::size_t i = 0; i < a.modes.size(); ++i)
    if (!congruent(a.modes[i], b.modes[i])) return false;
  return true;
}

IntTuple compact_left_strides(const IntTuple& shape) {
  std::int64_t next = 1;
  return left_strides(shape, next);
}

std::string tuple_text(const IntTuple& t) {
  if (t.is_leaf()) return std::to_string(t.value);
  std::string s = "(";
  for (std::size_t i = 0; i < t.modes.size(); ++i) s += (i ? "," : "") + tuple_text(t.modes[i]);
  return s + ")";
}

CuteLayout::CuteLayout(IntTuple shape, IntTuple stride) : shape_(std::move(shape)), stride_(std::move(stride)) {
  if (!congruent(shape_, stride_))
    throw std::invalid_argument("shape " + tuple_text(shape_) + " and stride " + tuple_text(stride_) +
                                " do not have the same nesting");
  check_shape(shape_);
  (void)shape_size(shape_);
}

CuteLayout CuteLayout::mode(std::size_t i) const {
  if (shape_.is_leaf()) return *this;
  return CuteLayout(shape_.modes.at(i), stride_.modes.at(i));
}

std::int64_t CuteLayout::operator()(std::uint64_t index) const {
  if (index >= size())
    throw std::out_of_range("coordinate " + std::to_string(index) + " outside a layout of size " +
                            std::to_string(size()));
  return evaluate(shape_, stride_, index);
}

std::string CuteLayout::text() const { return tuple_text(shape_) + ":" + tuple_text(stride_); }

}  // namespace bankcheck::layout
