#include "sim/layout/layout_parser.hpp"

#include <cctype>
#include <limits>
#include <optional>

namespace bankcheck::layout {
namespace {

std::string message(std::string_view input, std::size_t column, const std::string& what) {
  return "layout, column " + std::to_string(column) + ": " + what + "\n  " + std::string(input) + "\n  " +
         std::string(column > 0 ? column - 1 : 0, ' ') + "^";
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  SharedLayout parse() {
    SharedLayout out;
    skip();
    if (starts_with("Swizzle") || starts_with("Sw")) {
      out.swizzle = swizzle();
      // cute::print of a tensor: the swizzle is the pointer's, "Sw<3,4,3>_smem_ptr[16b](0x..) o L".
      if (starts_with("_smem_")) ++pos_;
      else expect_o("after the swizzle (or '_smem_ptr', as cute::print writes a tensor)");
    }
    unmodelled_pointer();
    if (starts_with("smem_ptr")) {
      pointer(out);
      out.layout = layout();
    } else if (out.swizzle) {
      composed_offset_and_layout(out);
    } else {
      out.layout = layout();
    }
    skip();
    if (pos_ < text_.size()) fail(pos_, std::string("expected the end of the layout, found '") + text_[pos_] + "'");
    return out;
  }

 private:
  /// After "Sw<B,M,S> o ": an integer offset and ' o ', then the layout; or the layout alone.
  void composed_offset_and_layout(SharedLayout& out) {
    const std::size_t at = pos_;
    IntTuple first = tuple("the offset or the layout's shape");
    skip();
    if (peek() != 'o') {
      out.layout = finish_layout(std::move(first), at);
      return;
    }
    if (!first.is_leaf()) fail(at, "expected an integer offset before ' o ', found a tuple");
    out.offset = first.value;
    expect_o("after the offset");
    out.layout = layout();
  }

  [[noreturn]] void fail(std::size_t at, const std::string& what) const {
    throw LayoutSyntaxError(text_, at + 1, what);
  }
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  std::string found() const { return pos_ < text_.size() ? "'" + std::string(1, text_[pos_]) + "'" : "the end"; }
  bool starts_with(std::string_view word) const { return text_.substr(pos_).substr(0, word.size()) == word; }
  void skip() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  void expect(char c, const std::string& context) {
    skip();
    if (peek() != c) fail(pos_, "expected '" + std::string(1, c) + "' " + context + ", found " + found());
    ++pos_;
  }
  void expect_o(const std::string& context) {
    skip();
    if (peek() != 'o') fail(pos_, "expected ' o ' (composition) " + context + ", found " + found());
    ++pos_;
    skip();
  }

  std::int64_t integer(const std::string& what) {
    skip();
    const std::size_t at = pos_;
    if (peek() == '_') ++pos_;
    bool negative = false;
    if (peek() == '-') {
      negative = true;
      ++pos_;
    }
    if (!std::isdigit(static_cast<unsigned char>(peek())))
      fail(pos_, "expected " + what + " (an integer, '_' allowed before it as cute::print writes), found " + found());
    std::int64_t v = 0;
    while (std::isdigit(static_cast<unsigned char>(peek()))) {
      if (v > (std::numeric_limits<std::int64_t>::max() - 9) / 10) fail(at, what + " is too large");
      v = v * 10 + (text_[pos_++] - '0');
    }
    return negative ? -v : v;
  }

  Swizzle swizzle() {
    const std::size_t at = pos_;
    pos_ += starts_with("Swizzle") ? 7 : 2;
    expect('<', "after Swizzle/Sw");
    const auto b = integer("B (the swizzle's bits)");
    expect(',', "after B");
    const auto m = integer("M (the swizzle's base)");
    expect(',', "after M");
    const auto s = integer("S (the swizzle's shift)");
    expect('>', "after S");
    const auto fits = [](std::int64_t v) { return v >= -64 && v <= 64; };
    const std::string why = fits(b) && fits(m) && fits(s)
                                ? swizzle_problem(static_cast<int>(b), static_cast<int>(m), static_cast<int>(s))
                                : "B, M and S must lie in -64..64";
    if (!why.empty()) fail(at, "Swizzle<" + std::to_string(b) + "," + std::to_string(m) + "," + std::to_string(s) + ">: " + why);
    return Swizzle{static_cast<int>(b), static_cast<int>(m), static_cast<int>(s)};
  }

  /// smem_ptr[Nb](VALUE) o: the element size, and VALUE (0xHEX, or "unset") as the base address.
  void pointer(SharedLayout& out) {
    out.unit = SwizzleUnit::byte;
    out.pointer_bits = pointer_bits(out.pointer_address);
    expect_o("after smem_ptr[...](...)");
  }

  /// What cute::print writes for pointers whose elements the checker does not model, refused by name.
  void unmodelled_pointer() const {
    if (starts_with("smem_subptr"))
      fail(pos_, "smem_subptr: a pointer to sub-byte elements (CuTe's subbyte_iterator: int4b_t, float_e2m1_t, ...) "
                 "is not modelled; elements of 8, 16, 32, 64 or 128 bits are");
    if (starts_with("smem_sparse"))
      fail(pos_, "smem_sparse<S>_ptr: a structured-sparse operand's pointer is not modelled");
  }

  unsigned pointer_bits(std::optional<std::uint64_t>& address) {
    pos_ += 8;
    expect('[', "after smem_ptr");
    const std::size_t at = pos_;
    const auto bits = integer("the element size in bits");
    if (peek() != 'b') fail(pos_, "expected 'b' after the element bits (smem_ptr[16b]), found " + found());
    ++pos_;
    if (bits > 0 && bits < 8)  // CuTe prints sizeof_bits: 4 for int4b_t and float_e2m1_t, 6 for float_e3m2_t
      fail(at, "smem_ptr[" + std::to_string(bits) + "b]: sub-byte elements are not modelled; the element size must "
               "be 8, 16, 32, 64 or 128 bits");
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64 && bits != 128)
      fail(at, "smem_ptr[" + std::to_string(bits) + "b]: the element size must be 8, 16, 32, 64 or 128 bits");
    expect(']', "after the element bits");
    expect('(', "after smem_ptr[...] (cute::print writes '(unset)' or the pointer, '(0x7f0a00000400)')");
    skip();
    if (starts_with("unset")) {
      pos_ += 5;
    } else if (starts_with("(nil)")) {  // printf's %p of a null pointer (glibc): the tensor's base is 0
      pos_ += 5;
      address = 0;
    } else if (starts_with("0x") || starts_with("0X")) {
      const std::size_t value_at = pos_;
      pos_ += 2;
      std::uint64_t v = 0;
      unsigned digits = 0;
      while (std::isxdigit(static_cast<unsigned char>(peek()))) {
        if (++digits > 16) fail(value_at, "the pointer has more than 64 bits");
        const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(text_[pos_++])));
        v = v * 16 + static_cast<std::uint64_t>(c <= '9' ? c - '0' : c - 'a' + 10);
      }
      if (digits == 0) fail(pos_, "expected hexadecimal digits after 0x, found " + found());
      address = v;
    } else {
      fail(pos_, "expected the pointer (0xHEX, or (nil)) or 'unset' in smem_ptr[...](...), found " + found());
    }
    expect(')', "closing smem_ptr's pointer");
    return static_cast<unsigned>(bits);
  }

  IntTuple tuple(const std::string& what) {
    skip();
    if (peek() != '(') return IntTuple{integer(what), {}};
    ++pos_;
    IntTuple t;
    t.modes.push_back(tuple("a mode"));
    for (;;) {
      skip();
      if (peek() == ')') {
        ++pos_;
        return t;
      }
      if (peek() != ',') fail(pos_, "expected ',' or ')' after a mode, found " + found());
      ++pos_;
      t.modes.push_back(tuple("a mode"));
    }
  }

  CuteLayout finish_layout(IntTuple shape, std::size_t at) {
    skip();
    if (peek() != ':') return make(std::move(shape), std::nullopt, at);
    ++pos_;
    const std::size_t stride_at = pos_;
    IntTuple stride = tuple("a stride");
    if (!congruent(shape, stride))
      fail(stride_at, "the stride " + tuple_text(stride) + " does not have the nesting of the shape " +
                          tuple_text(shape));
    return make(std::move(shape), std::move(stride), at);
  }

  CuteLayout make(IntTuple shape, std::optional<IntTuple> stride, std::size_t at) {
    if (!positive(shape)) fail(at, "the shape " + tuple_text(shape) + " has an extent below 1");
    IntTuple s = stride ? std::move(*stride) : compact_left_strides(shape);
    try {
      return CuteLayout(std::move(shape), std::move(s));
    } catch (const std::exception& e) {
      fail(at, e.what());
    }
  }

  static bool positive(const IntTuple& t) {
    if (t.is_leaf()) return t.value >= 1;
    for (const IntTuple& m : t.modes)
      if (!positive(m)) return false;
    return true;
  }

  CuteLayout layout() {
    skip();
    const std::size_t at = pos_;
    return finish_layout(tuple("the layout's shape"), at);
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

LayoutSyntaxError::LayoutSyntaxError(std::string_view input, std::size_t column, const std::string& what)
    : std::invalid_argument(message(input, column, what)), column_(column) {}

SharedLayout parse_shared_layout(std::string_view text) { return Parser(text).parse(); }

}  // namespace bankcheck::layout
