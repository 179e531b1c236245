#include "capture/host/tensor_maps/tensor_maps.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string_view>

#include "capture/host/csv.hpp"
#include "capture/host/launch/launch_filter.hpp"

namespace bankcheck::capture {

namespace {

// The enums' names, indexed by their numbers in cuda.h (CUDA 13.0).
constexpr const char* kTypes[] = {"uint8",   "uint16",   "uint32",      "int32",    "uint64",
                                  "int64",   "float16",  "float32",     "float64",  "bfloat16",
                                  "float32_ftz", "tfloat32", "tfloat32_ftz", "16u4_align8b", "16u4_align16b",
                                  "16u6_align16b"};
constexpr unsigned kTypeBytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4, 0, 0, 0};
constexpr const char* kSwizzles[] = {"none", "32B", "64B", "128B", "128B_atom_32B", "128B_atom_32B_flip_8B",
                                     "128B_atom_64B"};
constexpr const char* kInterleaves[] = {"none", "16B", "32B"};
constexpr const char* kPromotions[] = {"none", "64B", "128B", "256B"};
constexpr const char* kFills[] = {"none", "nan_request_zero_fma"};
constexpr const char* kWideModes[] = {"w", "w128"};
constexpr const char* kKinds[] = {"tiled", "im2col", "im2col_wide"};

template <std::size_t N>
std::string enum_name(const char* const (&names)[N], std::uint32_t v, const char* what) {
  return v < N ? names[v] : std::string(what) + " " + std::to_string(v);
}

/// The number of a name written by enum_name (a known name or "WHAT N").
template <std::size_t N>
std::uint32_t enum_value(const char* const (&names)[N], const std::string& text, const char* what) {
  for (std::size_t i = 0; i < N; ++i)
    if (text == names[i]) return static_cast<std::uint32_t>(i);
  const std::string prefix = std::string(what) + " ";
  if (text.rfind(prefix, 0) == 0) {
    const std::uint64_t v = parse_count(text.substr(prefix.size()), what);
    if (v >= N && v <= 0xFFFFFFFFu) return static_cast<std::uint32_t>(v);
  }
  throw std::invalid_argument("unknown " + std::string(what) + " '" + text + "'");
}

std::string hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::uint64_t parse_hex(const std::string& text, const char* what) {
  if (text.size() < 3 || text.size() > 18 || text.rfind("0x", 0) != 0 ||
      text.find_first_not_of("0123456789abcdef", 2) != std::string::npos)
    throw std::invalid_argument(std::string("bad ") + what + " '" + text + "' (expected 0x and lower-case hex digits)");
  return std::stoull(text.substr(2), nullptr, 16);
}

template <typename T>
std::string list_text(const std::vector<T>& v) {
  std::string out;
  for (const T& x : v) out += (out.empty() ? "" : " ") + std::to_string(x);
  return out;
}

std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::size_t from = 0;
  while (from < text.size()) {
    const std::size_t space = text.find(' ', from);
    const std::size_t end = space == std::string::npos ? text.size() : space;
    if (end == from) throw std::invalid_argument("bad list '" + text + "' (numbers separated by single spaces)");
    out.push_back(text.substr(from, end - from));
    from = end + 1;
    if (space != std::string::npos && from == text.size())
      throw std::invalid_argument("bad list '" + text + "' (numbers separated by single spaces)");
  }
  return out;
}

std::vector<std::uint64_t> parse_u64s(const std::string& text, const char* what) {
  std::vector<std::uint64_t> out;
  for (const std::string& w : words(text)) out.push_back(parse_count(w, what));
  return out;
}

std::vector<std::uint32_t> parse_u32s(const std::string& text, const char* what) {
  std::vector<std::uint32_t> out;
  for (std::uint64_t v : parse_u64s(text, what)) {
    if (v > 0xFFFFFFFFu) throw std::invalid_argument(std::string(what) + " " + std::to_string(v) + " out of range");
    out.push_back(static_cast<std::uint32_t>(v));
  }
  return out;
}

std::vector<std::int64_t> parse_i64s(const std::string& text, const char* what) {
  std::vector<std::int64_t> out;
  for (const std::string& w : words(text)) {
    const bool negative = !w.empty() && w[0] == '-';
    const std::uint64_t v = parse_count(negative ? w.substr(1) : w, what);
    if (v > 0x7FFFFFFFFFFFFFFFull) throw std::invalid_argument(std::string(what) + " '" + w + "' out of range");
    out.push_back(negative ? -static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v));
  }
  return out;
}

std::uint32_t parse_u32(const std::string& text, const char* what) {
  if (text.empty()) return 0;
  const std::uint64_t v = parse_count(text, what);
  if (v > 0xFFFFFFFFu) throw std::invalid_argument(std::string(what) + " " + std::to_string(v) + " out of range");
  return static_cast<std::uint32_t>(v);
}

constexpr const char* kTensorMapColumns[] = {"id",          "kind",         "object",          "data_type",        "rank",
                                    "global_address", "global_dims", "global_strides", "box_dims",         "element_strides",
                                    "interleave",  "swizzle",      "l2_promotion",    "oob_fill",         "lower_corner",
                                    "upper_corner", "channels_per_pixel", "pixels_per_column", "wide_mode"};
constexpr std::size_t kTensorMapColumnCount = sizeof kTensorMapColumns / sizeof kTensorMapColumns[0];

constexpr const char* kLaunchColumns[] = {"launch", "offset", "tensor_map"};
constexpr std::size_t kLaunchColumnCount = sizeof kLaunchColumns / sizeof kLaunchColumns[0];

/// The lines of a CSV file after its header, which must be `header`; calls `row(fields, line number)`.
template <typename Row>
void read_table(const std::string& path, const std::string& header, std::size_t columns, const char* what, Row row) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot open");
  std::string line;
  std::size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (number == 1) {
      if (line + "\n" != header) throw std::invalid_argument(path + ":1: not " + what + " (header '" + line + "')");
      continue;
    }
    if (line.empty()) continue;
    try {
      const auto f = parse_csv_line(line);
      if (f.size() != columns)
        throw std::invalid_argument("expected " + std::to_string(columns) + " fields, got " + std::to_string(f.size()));
      row(f);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(path + ":" + std::to_string(number) + ": " + e.what());
    }
  }
  if (number == 0) throw std::invalid_argument(path + ": empty (no header)");
}

}  // namespace

std::string tensor_map_type_name(std::uint32_t t) { return enum_name(kTypes, t, "type"); }
unsigned tensor_map_element_bytes(std::uint32_t t) { return t < std::size(kTypeBytes) ? kTypeBytes[t] : 0; }
std::string tensor_map_swizzle_name(std::uint32_t s) { return enum_name(kSwizzles, s, "swizzle"); }
std::string tensor_map_interleave_name(std::uint32_t i) { return enum_name(kInterleaves, i, "interleave"); }
std::string tensor_map_l2_promotion_name(std::uint32_t p) { return enum_name(kPromotions, p, "promotion"); }
std::string tensor_map_oob_fill_name(std::uint32_t f) { return enum_name(kFills, f, "fill"); }

std::string describe_tensor_map(const TensorMapRow& r) {
  std::string text = "tensor map " + std::to_string(r.id) + ": ";
  if (r.kind == "tiled") {
    std::string box;
    for (std::uint32_t d : r.box_dims) box += (box.empty() ? "" : "x") + std::to_string(d);
    text += "box " + box + " " + tensor_map_type_name(r.data_type);
    // The box's innermost extent in bytes: the span a swizzle acts on (interleaved maps swizzle other units).
    const unsigned bytes = tensor_map_element_bytes(r.data_type);
    if (!r.box_dims.empty() && bytes > 0 && r.interleave == 0)
      text += " (" + std::to_string(std::uint64_t{r.box_dims[0]} * bytes) + "-byte rows)";
  } else {
    text += r.kind + " " + std::to_string(r.channels_per_pixel) + " channels x " + std::to_string(r.pixels_per_column) +
            " pixels " + tensor_map_type_name(r.data_type);
  }
  if (r.interleave != 0) text += ", interleave " + tensor_map_interleave_name(r.interleave);
  return text + ", swizzle " + tensor_map_swizzle_name(r.swizzle);
}

std::string tensor_map_table_header() {
  return csv_line(std::vector<std::string>(std::begin(kTensorMapColumns), std::end(kTensorMapColumns)));
}

std::string tensor_map_row_line(const TensorMapRow& r) {
  const bool im2col = r.kind != "tiled";
  return csv_line({std::to_string(r.id), r.kind, hex(r.object), tensor_map_type_name(r.data_type), std::to_string(r.rank),
                   hex(r.global_address), list_text(r.global_dims), list_text(r.global_strides), list_text(r.box_dims),
                   list_text(r.element_strides), tensor_map_interleave_name(r.interleave),
                   tensor_map_swizzle_name(r.swizzle), tensor_map_l2_promotion_name(r.l2_promotion),
                   tensor_map_oob_fill_name(r.oob_fill), list_text(r.lower_corner), list_text(r.upper_corner),
                   im2col ? std::to_string(r.channels_per_pixel) : "", im2col ? std::to_string(r.pixels_per_column) : "",
                   r.kind == "im2col_wide" ? enum_name(kWideModes, r.wide_mode, "mode") : ""});
}

std::vector<TensorMapRow> read_tensor_map_table(const std::string& path) {
  std::vector<TensorMapRow> rows;
  read_table(path, tensor_map_table_header(), kTensorMapColumnCount, "a tensor map table", [&](const std::vector<std::string>& f) {
    TensorMapRow r;
    r.id = parse_count(f[0], "id");
    r.kind = f[1];
    if (std::find(std::begin(kKinds), std::end(kKinds), r.kind) == std::end(kKinds))
      throw std::invalid_argument("unknown kind '" + r.kind + "' (tiled, im2col, im2col_wide)");
    r.object = parse_hex(f[2], "object");
    r.data_type = enum_value(kTypes, f[3], "type");
    r.rank = parse_u32(f[4], "rank");
    r.global_address = parse_hex(f[5], "global_address");
    r.global_dims = parse_u64s(f[6], "global_dims");
    r.global_strides = parse_u64s(f[7], "global_strides");
    r.box_dims = parse_u32s(f[8], "box_dims");
    r.element_strides = parse_u32s(f[9], "element_strides");
    r.interleave = enum_value(kInterleaves, f[10], "interleave");
    r.swizzle = enum_value(kSwizzles, f[11], "swizzle");
    r.l2_promotion = enum_value(kPromotions, f[12], "promotion");
    r.oob_fill = enum_value(kFills, f[13], "fill");
    r.lower_corner = parse_i64s(f[14], "lower_corner");
    r.upper_corner = parse_i64s(f[15], "upper_corner");
    r.channels_per_pixel = parse_u32(f[16], "channels_per_pixel");
    r.pixels_per_column = parse_u32(f[17], "pixels_per_column");
    if (!f[18].empty()) r.wide_mode = enum_value(kWideModes, f[18], "mode");
    if (r.global_dims.size() != r.rank || r.element_strides.size() != r.rank ||
        r.global_strides.size() + 1 != std::max<std::size_t>(r.rank, 1) ||
        (r.kind == "tiled" && r.box_dims.size() != r.rank))
      throw std::invalid_argument("rank " + std::to_string(r.rank) +
                                  " does not match the lists (rank dims, rank - 1 strides, rank element strides" +
                                  (r.kind == "tiled" ? ", rank box dims)" : ")"));
    rows.push_back(std::move(r));
  });
  return rows;
}

std::vector<FoundTensorMap> find_tensor_maps(std::span<const std::byte> params, const std::vector<EncodedTensorMap>& maps) {
  std::vector<FoundTensorMap> found;
  for (std::size_t at = 0; at + kTensorMapBytes <= params.size(); at += kTensorMapSearchStep) {
    const EncodedTensorMap* match = nullptr;
    for (const EncodedTensorMap& m : maps)
      if (std::memcmp(params.data() + at, m.bytes.data(), kTensorMapBytes) == 0 && (match == nullptr || m.id > match->id))
        match = &m;
    if (match != nullptr) found.push_back({at, match->id});
  }
  return found;
}

std::string launch_tensor_map_header() {
  return csv_line(std::vector<std::string>(std::begin(kLaunchColumns), std::end(kLaunchColumns)));
}

std::string launch_tensor_map_line(const LaunchTensorMap& r) {
  return csv_line({std::to_string(r.launch), std::to_string(r.offset), std::to_string(r.tensor_map)});
}

std::vector<LaunchTensorMap> read_launch_tensor_maps(const std::string& path) {
  std::vector<LaunchTensorMap> rows;
  read_table(path, launch_tensor_map_header(), kLaunchColumnCount, "a launch tensor map table",
             [&](const std::vector<std::string>& f) {
               rows.push_back({parse_count(f[0], "launch"), parse_count(f[1], "offset"), parse_count(f[2], "tensor_map")});
             });
  return rows;
}

std::string tensor_map_summary(const std::vector<TensorMapRow>& rows) {
  std::map<std::uint32_t, std::size_t> by_swizzle;
  for (const TensorMapRow& r : rows) ++by_swizzle[r.swizzle];
  std::string text = "tensor maps: " + std::to_string(rows.size()) + " encoded";
  if (rows.empty()) return text;
  text += " (swizzle:";
  bool first = true;
  for (const auto& [swizzle, count] : by_swizzle) {
    text += (first ? " " : ", ") + tensor_map_swizzle_name(swizzle) + " " + std::to_string(count);
    first = false;
  }
  return text + ")";
}

}  // namespace bankcheck::capture
