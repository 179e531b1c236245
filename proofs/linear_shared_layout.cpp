#include "proofs/linear_shared_layout.hpp"

#include <bit>
#include <stdexcept>

namespace bankcheck::proofs {
namespace {

unsigned bits_of(std::uint64_t extent) { return static_cast<unsigned>(std::countr_zero(extent)); }

std::string basis_text(const layout::TileCoord& c) {
  return "[" + std::to_string(c.row) + "," + std::to_string(c.col) + "]";
}

}  // namespace

std::uint64_t LinearSharedLayout::offset(std::uint64_t row, std::uint64_t col) const {
  const std::uint64_t v = (row << bits_of(cols)) | col;
  std::uint64_t out = 0;
  for (std::size_t j = 0; j < image.size(); ++j)
    if ((v >> j) & 1) out ^= image[j];
  return out;
}

std::string LinearSharedLayout::text() const {
  std::string s = "offset=[";
  for (std::size_t i = 0; i < bases.size(); ++i) s += (i ? "," : "") + basis_text(bases[i]);
  return s + "]";
}

std::string LinearSharedLayout::cpp() const {
  // Offset bit i is the parity of the coordinate bits its inverse row selects: bit i of image[j] for each j.
  const unsigned cb = bits_of(cols);
  std::string s;
  for (std::size_t i = 0; i < bases.size(); ++i) {
    std::string term;
    for (std::size_t j = 0; j < image.size(); ++j)
      if ((image[j] >> i) & 1) {
        const std::string v = j < cb ? "(col >> " + std::to_string(j) + ")" : "(row >> " + std::to_string(j - cb) + ")";
        term += (term.empty() ? "" : " ^ ") + v;
      }
    s += (s.empty() ? "" : " | ") + std::string("(((") + term + ") & 1) << " + std::to_string(i) + ")";
  }
  return s.empty() ? "0" : s;
}

LinearSharedLayout linear_layout_of(std::uint64_t rows, std::uint64_t cols, const std::vector<layout::TileCoord>& bases) {
  if (!std::has_single_bit(rows) || !std::has_single_bit(cols))
    throw std::invalid_argument("a linear shared layout needs extents that are powers of two");
  const unsigned cb = bits_of(cols), n = cb + bits_of(rows);
  if (bases.size() != n)
    throw std::invalid_argument("a linear shared layout of " + std::to_string(rows) + " x " + std::to_string(cols) +
                                " needs " + std::to_string(n) + " bases, got " + std::to_string(bases.size()));
  LinearSharedLayout out;
  out.rows = rows, out.cols = cols, out.bases = bases;
  // Invert: rows of (coordinate vector | offset vector), eliminated to the coordinate unit vectors.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> m;
  for (std::size_t i = 0; i < n; ++i) {
    const auto& b = bases[i];
    if (b.row >= rows || b.col >= cols)
      throw std::invalid_argument("basis " + basis_text(b) + " of offset bit " + std::to_string(i) + " lies outside the tile");
    m.emplace_back((b.row << cb) | b.col, std::uint64_t{1} << i);
  }
  out.image.assign(n, 0);
  for (unsigned j = 0; j < n; ++j) {
    std::size_t p = j;
    while (p < n && !((m[p].first >> j) & 1)) ++p;
    if (p == n)
      throw std::invalid_argument("the bases " + out.text() + " are not independent: no offset bit reaches coordinate bit " +
                                  std::to_string(j));
    std::swap(m[j], m[p]);
    for (std::size_t q = 0; q < n; ++q)
      if (q != j && ((m[q].first >> j) & 1)) m[q].first ^= m[j].first, m[q].second ^= m[j].second;
  }
  for (unsigned j = 0; j < n; ++j) out.image[j] = m[j].second;
  return out;
}

LinearSharedLayout parse_linear_shared_layout(std::string_view text, std::uint64_t rows, std::uint64_t cols) {
  const std::string_view head = "offset=";
  std::string_view s = text;
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  if (s.substr(0, head.size()) != head)
    throw std::invalid_argument("linear shared layout, column 1: expected 'offset=[[r,c],...]'");
  std::vector<layout::TileCoord> bases;
  std::size_t at = 0;
  const std::string body(s.substr(head.size()));
  auto fail = [&](const std::string& what) {
    throw std::invalid_argument("linear shared layout, column " + std::to_string(head.size() + at + 1) + ": " + what);
  };
  auto num = [&]() {
    const std::size_t from = at;
    while (at < body.size() && body[at] >= '0' && body[at] <= '9' && at - from < 9) ++at;
    if (from == at) fail("expected an integer");
    return std::stoull(body.substr(from, at - from));
  };
  auto expect = [&](char c) {
    while (at < body.size() && body[at] == ' ') ++at;
    if (at >= body.size() || body[at] != c) fail(std::string("expected '") + c + "'");
    ++at;
    while (at < body.size() && body[at] == ' ') ++at;
  };
  expect('[');
  while (at < body.size() && body[at] != ']') {
    if (!bases.empty()) expect(',');
    expect('[');
    layout::TileCoord c;
    c.row = num();
    expect(',');
    c.col = num();
    expect(']');
    bases.push_back(c);
  }
  expect(']');
  if (at != body.size()) fail("unexpected text after the bases");
  return linear_layout_of(rows, cols, bases);
}

}  // namespace bankcheck::proofs
