#include "sim/layout/layout_access.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/layout/layout_parser.hpp"

namespace bankcheck::layout {
namespace {

std::string coord_text(std::uint64_t row, std::uint64_t col) {
  return "(" + std::to_string(row) + "," + std::to_string(col) + ")";
}

/// The tile's geometry and the byte address of any element.
class Tile {
 public:
  Tile(const SharedLayout& layout, unsigned element_bytes, std::uint64_t base)
      : layout_(layout), bytes_(element_bytes), base_(base) {
    const std::size_t rank = layout.layout.rank();
    if (rank != 2 && rank != 3)
      throw std::invalid_argument("layout " + layout.layout.text() + " has rank " + std::to_string(rank) +
                                  ": expected rank 2 (rows, columns) or 3 (rows, columns, tiles)");
    // The modes once: CuteLayout::mode copies, and every address needs them.
    modes_.push_back(layout.layout.mode(0));
    modes_.push_back(layout.layout.mode(1));
    if (rank == 3) modes_.push_back(layout.layout.mode(2));
    rows_ = modes_[0].size();
    cols_ = modes_[1].size();
    tiles_ = rank == 3 ? modes_[2].size() : 1;
  }
  std::uint64_t rows() const { return rows_; }
  std::uint64_t cols() const { return cols_; }
  std::uint64_t tiles() const { return tiles_; }
  std::uint64_t extent(unsigned mode) const { return mode == 0 ? rows_ : cols_; }

  std::uint64_t address(std::uint64_t tile, std::uint64_t row, std::uint64_t col) const {
    std::int64_t offset = modes_[0](row) + modes_[1](col);
    if (modes_.size() == 3) offset += modes_[2](tile);
    return layout_.byte_address(offset, bytes_, base_);
  }

  /// Why the `count` elements from (row, col) along `along` are not one
  /// aligned run of count x element bytes, or "".
  std::string vector_problem(std::uint64_t tile, std::uint64_t row, std::uint64_t col, unsigned along,
                             unsigned count) const {
    const std::uint64_t first = address(tile, row, col);
    const std::uint64_t width = std::uint64_t{count} * bytes_;
    std::string addresses;
    bool contiguous = true;
    for (unsigned j = 0; j < count; ++j) {
      const std::uint64_t r = row + (along == 0 ? j : 0), c = col + (along == 1 ? j : 0);
      const std::uint64_t a = address(tile, r, c);
      if (j < 4) addresses += (j ? ", " : "") + std::to_string(a);
      contiguous = contiguous && a == first + std::uint64_t{j} * bytes_;
    }
    if (count > 4) addresses += ", ...";
    const std::uint64_t r_last = row + (along == 0 ? count - 1 : 0), c_last = col + (along == 1 ? count - 1 : 0);
    const std::string which = "elements " + coord_text(row, col) + ".." + coord_text(r_last, c_last) +
                              (tiles_ > 1 ? " of tile " + std::to_string(tile) : "");
    if (!contiguous) return which + " lie at bytes " + addresses + ", not " + std::to_string(width) + " contiguous bytes";
    if (first % width != 0)
      return which + " start at byte " + std::to_string(first) + ", not a multiple of " + std::to_string(width);
    return "";
  }

 private:
  const SharedLayout& layout_;
  unsigned bytes_;
  std::uint64_t base_;
  std::vector<CuteLayout> modes_;
  std::uint64_t rows_ = 0, cols_ = 0, tiles_ = 1;
};

/// One lane's work: the first element of its vector.
struct LaneWork {
  std::uint64_t row = 0, col = 0;
};

/// Every instruction of one tile as lists of lane work (empty optional: idle lane).
using Instructions = std::vector<std::vector<std::optional<LaneWork>>>;

Instructions vector_instructions(const Tile& tile, unsigned along, unsigned per_lane, const std::string& what) {
  const std::uint64_t line_extent = tile.extent(along), lines = tile.extent(1 - along);
  if (line_extent % per_lane != 0)
    throw std::invalid_argument(what + ": mode " + std::to_string(along) + " has " + std::to_string(line_extent) +
                                " elements, not a multiple of the " + std::to_string(per_lane) + " a lane moves");
  const std::uint64_t per_line = line_extent / per_lane, vectors = lines * per_line;
  Instructions out;
  for (std::uint64_t first = 0; first < vectors; first += kLayoutWarp) {
    std::vector<std::optional<LaneWork>> lanes(kLayoutWarp);
    for (unsigned l = 0; l < kLayoutWarp && first + l < vectors; ++l) {
      const std::uint64_t k = first + l, line = k / per_line, pos = k % per_line * per_lane;
      lanes[l] = along == 1 ? LaneWork{line, pos} : LaneWork{pos, line};
    }
    out.push_back(std::move(lanes));
  }
  return out;
}

Instructions matrix_instructions(const Tile& tile, unsigned along, unsigned per_row, unsigned matrices,
                                 const std::string& what) {
  const std::uint64_t line_extent = tile.extent(along), lines = tile.extent(1 - along);
  if (line_extent % per_row != 0 || lines % 8 != 0)
    throw std::invalid_argument(what + ": takes 8x8 matrices of 8 lines x " + std::to_string(per_row) +
                                " elements (mode " + std::to_string(1 - along) + " x mode " + std::to_string(along) +
                                "); the tile has " + std::to_string(lines) + " x " + std::to_string(line_extent));
  const std::uint64_t per_line = line_extent / per_row, count = lines / 8 * per_line;
  if (count % matrices != 0)
    throw std::invalid_argument(what + ": the tile has " + std::to_string(count) + " matrices of 8 rows x 16 bytes, "
                                "not a multiple of the " + std::to_string(matrices) + " one instruction takes");
  Instructions out;
  for (std::uint64_t first = 0; first < count; first += matrices) {
    std::vector<std::optional<LaneWork>> lanes(kLayoutWarp);
    for (unsigned j = 0; j < matrices; ++j)
      for (unsigned r = 0; r < 8; ++r) {
        const std::uint64_t m = first + j, line = m / per_line * 8 + r, pos = m % per_line * per_row;
        lanes[8 * j + r] = along == 1 ? LaneWork{line, pos} : LaneWork{pos, line};
      }
    out.push_back(std::move(lanes));
  }
  return out;
}

Instructions tile_instructions(const Tile& tile, const AccessKind& access, unsigned along, unsigned element_bytes) {
  const std::string what = access.name();
  if (access.bytes < element_bytes || access.bytes % element_bytes != 0)
    throw std::invalid_argument(what + " moves " + std::to_string(access.bytes) + " bytes per lane: not a whole number of " +
                                std::to_string(element_bytes) + "-byte elements");
  const unsigned per_lane = access.bytes / element_bytes;
  return access.is_matrix() ? matrix_instructions(tile, along, per_lane, access.matrices, what)
                            : vector_instructions(tile, along, per_lane, what);
}

/// The first lane vector that breaks contiguity under `along`, or "".
std::string along_problem(const Tile& tile, const Instructions& per_tile, unsigned along, unsigned per_lane) {
  for (std::uint64_t t = 0; t < tile.tiles(); ++t)
    for (const auto& lanes : per_tile)
      for (unsigned l = 0; l < kLayoutWarp; ++l)
        if (lanes[l]) {
          const std::string why = tile.vector_problem(t, lanes[l]->row, lanes[l]->col, along, per_lane);
          if (!why.empty()) return why;
        }
  return "";
}

/// The lowest offset a layout reaches: each leaf with a negative stride at its last index.
std::int64_t lowest_offset(const IntTuple& shape, const IntTuple& stride) {
  if (shape.is_leaf()) return stride.value < 0 ? stride.value * (shape.value - 1) : 0;
  std::int64_t low = 0;
  for (std::size_t i = 0; i < shape.modes.size(); ++i) low += lowest_offset(shape.modes[i], stride.modes[i]);
  return low;
}

/// Negative strides (CuTe allows them) need a base that keeps every address non-negative.
void check_negative_reach(const SharedLayout& layout, unsigned element_bytes, std::uint64_t base) {
  const std::int64_t low = layout.offset + lowest_offset(layout.layout.shape(), layout.layout.stride());
  if (low >= 0) return;
  const std::uint64_t below = static_cast<std::uint64_t>(-low) * element_bytes;
  if (layout.swizzle && layout.unit == SwizzleUnit::element)
    throw std::invalid_argument("layout " + layout.text() + " reaches element offset " + std::to_string(low) +
                                ": a swizzle of a negative element offset is not modelled");
  if (below > base)
    throw std::invalid_argument("layout " + layout.text() + " reaches offset " + std::to_string(low) + ", " +
                                std::to_string(below) + " bytes below its start: give --base of at least " +
                                std::to_string(below) + " (the tile's address)");
}

std::string range_text(std::uint64_t lo, std::uint64_t hi) {
  return lo == hi ? std::to_string(lo) : std::to_string(lo) + "-" + std::to_string(hi);
}

}  // namespace

LayoutAccess plan_layout_access(const LayoutAccessSpec& spec) {
  const SharedLayout layout = parse_shared_layout(spec.layout);
  const AccessKind access = parse_access_kind(spec.access);
  ElementType element;
  if (spec.element.empty()) {
    if (!layout.pointer_bits)
      throw std::invalid_argument("no element type: give one (" + std::string(kElementTypeNames) +
                                  "), or a layout with smem_ptr[Nb]");
    element = element_type_of_bits(*layout.pointer_bits);
  } else {
    element = parse_element_type(spec.element);
    if (layout.pointer_bits && *layout.pointer_bits != element.bytes * 8)
      throw std::invalid_argument("element type " + element.name + " (" + std::to_string(element.bytes * 8) +
                                  " bits) contradicts the layout's smem_ptr[" + std::to_string(*layout.pointer_bits) +
                                  "b]: give a type of " + std::to_string(*layout.pointer_bits) +
                                  " bits, or none to take the layout's");
  }
  return plan_layout_access(layout, element, access, spec.along, spec.base);
}

namespace {

/// The vector mode: as given, else the columns, else the rows; the first whose
/// lanes each hold their bytes contiguously and aligned. Sets out.along and
/// returns the lanes of one tile's instructions.
Instructions choose_along(const Tile& tile, LayoutAccess& out, std::optional<unsigned> along_mode, unsigned per_lane) {
  const std::vector<unsigned> candidates = along_mode ? std::vector<unsigned>{*along_mode} : std::vector<unsigned>{1, 0};
  std::string problems;
  for (unsigned along : candidates) {
    std::string why;
    Instructions per_tile;
    try {
      per_tile = tile_instructions(tile, out.access, along, out.element.bytes);
      why = along_problem(tile, per_tile, along, per_lane);
    } catch (const std::invalid_argument& e) {
      if (along_mode || candidates.size() == 1) throw;
      why = e.what();
    }
    if (why.empty()) {
      out.along = along;
      return per_tile;
    }
    problems += "\n  along mode " + std::to_string(along) + ": " + why;
  }
  throw std::invalid_argument(out.access.name() + " on " + out.layout.text() + " (" + out.element.name + "): no mode holds the " +
                              std::to_string(out.access.bytes) + " bytes of a lane contiguously and aligned" + problems);
}

/// Instruction `lanes` of tile t: each lane's address (and a copy's source),
/// its element, and a site naming the rows and columns it covers.
LayoutInstruction tile_instruction(const Tile& tile, const LayoutAccess& out, std::uint64_t t,
                                   const std::vector<std::optional<LaneWork>>& lanes, std::uint64_t vector_index,
                                   unsigned per_lane) {
  const std::uint64_t tile_bytes = std::uint64_t{out.rows} * out.cols * out.element.bytes;
  LayoutInstruction ins;
  ins.tile = t;
  ins.op = out.access.op();
  ins.width = out.access.bytes;
  ins.addr.assign(kLayoutWarp, kInactive);
  ins.lanes.assign(kLayoutWarp, LaneElement{});
  if (out.access.is_copy()) ins.source.assign(kLayoutWarp, kInactive);
  std::uint64_t r_lo = ~std::uint64_t{0}, r_hi = 0, c_lo = ~std::uint64_t{0}, c_hi = 0;
  for (unsigned l = 0; l < kLayoutWarp; ++l) {
    if (!lanes[l]) continue;
    const LaneWork w = *lanes[l];
    ins.addr[l] = tile.address(t, w.row, w.col);
    ins.lanes[l] = LaneElement{t, w.row, w.col};
    if (out.access.is_copy()) ins.source[l] = t * tile_bytes + (vector_index + l) * out.access.bytes;
    const std::uint64_t r_end = w.row + (out.along == 0 ? per_lane - 1 : 0);
    const std::uint64_t c_end = w.col + (out.along == 1 ? per_lane - 1 : 0);
    r_lo = std::min(r_lo, w.row), r_hi = std::max(r_hi, r_end);
    c_lo = std::min(c_lo, w.col), c_hi = std::max(c_hi, c_end);
  }
  ins.site = (out.tiles > 1 ? "t" + std::to_string(t) + "." : std::string()) + "r" + range_text(r_lo, r_hi) + ".c" +
             range_text(c_lo, c_hi);
  return ins;
}

}  // namespace

LayoutAccess plan_layout_access(const SharedLayout& layout, const ElementType& element, const AccessKind& access,
                                std::optional<unsigned> along_mode, std::uint64_t base) {
  LayoutAccess out;
  out.layout = layout;
  out.element = element;
  out.access = access;
  if (layout.pointer_address) {
    // The printed pointer is where the tile is; a different --base contradicts it.
    if (base != 0 && base != *layout.pointer_address)
      throw std::invalid_argument("base " + std::to_string(base) + " contradicts the layout's printed pointer " +
                                  std::to_string(*layout.pointer_address) + " (give one or the other)");
    base = *layout.pointer_address;
  }
  out.base = base;
  check_negative_reach(out.layout, out.element.bytes, base);
  const Tile tile(out.layout, out.element.bytes, base);
  out.rows = tile.rows();
  out.cols = tile.cols();
  out.tiles = tile.tiles();
  const unsigned per_lane = out.access.bytes / std::max(1u, out.element.bytes);
  const Instructions per_tile = choose_along(tile, out, along_mode, per_lane);
  for (std::uint64_t t = 0; t < out.tiles; ++t) {
    std::uint64_t vector_index = 0;
    for (const auto& lanes : per_tile) {
      out.instructions.push_back(tile_instruction(tile, out, t, lanes, vector_index, per_lane));
      vector_index += kLayoutWarp;
    }
  }
  return out;
}

}  // namespace bankcheck::layout
