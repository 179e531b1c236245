#include "sim/layout/register_layout.hpp"

#include <bit>
#include <stdexcept>

namespace bankcheck::layout {
namespace {

class RegisterLayoutReader {
 public:
  explicit RegisterLayoutReader(std::string_view text) : s_(text) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument("register layout, column " + std::to_string(at_ + 1) + ": " + what + "; expected " +
                                std::string(kRegisterLayoutForm));
  }
  void skip_separators() {
    while (at_ < s_.size() && (s_[at_] == ' ' || s_[at_] == '\t' || s_[at_] == '\n' || s_[at_] == ';' ||
                               s_[at_] == ',' || s_[at_] == '-' || s_[at_] == '\r'))
      ++at_;
  }
  void skip_spaces() {
    while (at_ < s_.size() && (s_[at_] == ' ' || s_[at_] == '\t' || s_[at_] == '\n' || s_[at_] == '\r')) ++at_;
  }
  bool done() {
    skip_separators();
    return at_ >= s_.size();
  }
  std::string name() {
    const std::size_t from = at_;
    while (at_ < s_.size() && s_[at_] >= 'a' && s_[at_] <= 'z') ++at_;
    if (from == at_) fail("expected a part name (register, lane, warp)");
    return std::string(s_.substr(from, at_ - from));
  }
  void expect(char c) {
    skip_spaces();
    if (at_ >= s_.size() || s_[at_] != c) fail(std::string("expected '") + c + "'");
    ++at_;
  }
  bool peek(char c) {
    skip_spaces();
    return at_ < s_.size() && s_[at_] == c;
  }
  std::uint64_t number() {
    skip_spaces();
    const std::size_t from = at_;
    while (at_ < s_.size() && s_[at_] >= '0' && s_[at_] <= '9' && at_ - from < 9) ++at_;
    if (from == at_) fail("expected a non-negative integer");
    return std::stoull(std::string(s_.substr(from, at_ - from)));
  }
  std::vector<TileCoord> bases() {
    std::vector<TileCoord> out;
    expect('[');
    while (!peek(']')) {
      if (!out.empty()) expect(',');
      expect('[');
      TileCoord c;
      c.row = number();
      expect(',');
      c.col = number();
      expect(']');
      out.push_back(c);
    }
    expect(']');
    return out;
  }

 private:
  std::string_view s_;
  std::size_t at_ = 0;
};

std::string coord_text(const TileCoord& c) { return "[" + std::to_string(c.row) + "," + std::to_string(c.col) + "]"; }

/// Every basis a single power-of-two step inside the tile or an XOR of such; together a basis of the tile's coordinates.
void check_bijection(const RegisterLayout& r, std::uint64_t rows, std::uint64_t cols) {
  if (!std::has_single_bit(rows) || !std::has_single_bit(cols))
    throw std::invalid_argument("register layouts need a tile whose extents are powers of two, got " +
                                std::to_string(rows) + " x " + std::to_string(cols));
  if (r.lane.size() != 5)
    throw std::invalid_argument("register layout '" + r.text + "': lane has " + std::to_string(r.lane.size()) +
                                " bases; a warp of 32 lanes needs 5");
  const unsigned col_bits = static_cast<unsigned>(std::countr_zero(cols));
  const unsigned n = col_bits + static_cast<unsigned>(std::countr_zero(rows));
  std::vector<std::uint64_t> echelon(n + 1, 0);  // GF(2) elimination, pivot = highest bit
  std::size_t count = 0;
  for (const auto* part : {&r.reg, &r.lane, &r.warp})
    for (const TileCoord& c : *part) {
      if (c.row >= rows || c.col >= cols)
        throw std::invalid_argument("register layout '" + r.text + "': basis " + coord_text(c) + " lies outside the " +
                                    std::to_string(rows) + " x " + std::to_string(cols) + " tile");
      std::uint64_t v = (c.row << col_bits) | c.col;
      while (v != 0 && echelon[std::bit_width(v) - 1] != 0) v ^= echelon[std::bit_width(v) - 1];
      if (v == 0)
        throw std::invalid_argument("register layout '" + r.text + "': basis " + coord_text(c) +
                                    " is zero or the XOR of earlier ones, so an element is held twice (a broadcast): "
                                    "not modelled");
      echelon[std::bit_width(v) - 1] = v;
      ++count;
    }
  if (count != n)
    throw std::invalid_argument("register layout '" + r.text + "': " + std::to_string(count) + " bases cover " +
                                std::to_string(std::uint64_t{1} << count) + " elements, the tile has " +
                                std::to_string(rows * cols));
}

}  // namespace

TileCoord RegisterLayout::at(std::uint64_t r, std::uint64_t l, std::uint64_t w) const {
  TileCoord c;
  auto add = [&c](const std::vector<TileCoord>& bases, std::uint64_t bits) {
    for (std::size_t i = 0; i < bases.size(); ++i)
      if ((bits >> i) & 1) c.row ^= bases[i].row, c.col ^= bases[i].col;
  };
  add(reg, r);
  add(lane, l);
  add(warp, w);
  return c;
}

RegisterLayout parse_register_layout(std::string_view text, std::uint64_t rows, std::uint64_t cols) {
  RegisterLayout out;
  out.text = std::string(text);
  RegisterLayoutReader in(text);
  bool seen[3] = {false, false, false};
  while (!in.done()) {
    const std::string part = in.name();
    in.expect('=');
    std::vector<TileCoord> b = in.bases();
    int slot = part == "register" || part == "reg" ? 0 : part == "lane" ? 1 : part == "warp" ? 2 : part == "block" ? 3 : -1;
    if (slot < 0) in.fail("unknown part '" + part + "'");
    if (slot == 3) {
      if (!b.empty()) in.fail("block bases (several CTAs) are not modelled; give block=[] or leave it out");
      continue;
    }
    if (seen[slot]) in.fail("'" + part + "' given twice");
    seen[slot] = true;
    (slot == 0 ? out.reg : slot == 1 ? out.lane : out.warp) = std::move(b);
  }
  if (!seen[1]) throw std::invalid_argument("register layout '" + out.text + "': no lane bases; expected " +
                                            std::string(kRegisterLayoutForm));
  check_bijection(out, rows, cols);
  return out;
}

}  // namespace bankcheck::layout
