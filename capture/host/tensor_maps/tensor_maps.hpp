#pragma once
// The tensor maps of a capture (docs/capture.md): OUT/tensor_maps.csv, one row per
// successful cuTensorMapEncodeTiled / Im2col / Im2colWide call the program
// made, as the injection library saw its arguments; and
// OUT/launch_tensor_maps.csv, which maps each launch was given, found by
// searching the launch's parameter bytes for the 128 bytes an encode call
// wrote. TMA copies reach none of the sanitizer's instruction callbacks, so
// these tables are what a capture knows of them; `compare` names a launch's
// maps on its `not traced (TMA)` rows. Plain C++ (no CUDA types): the
// injection converts the driver's enums to their numbers.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace bankcheck::capture {

/// The bytes of a CUtensorMap (cuda.h: 16 x 64-bit words, 64-byte aligned).
inline constexpr std::size_t kTensorMapBytes = 128;
/// Where a map is looked for in a launch's parameter bytes: at every 8 bytes.
/// A CUtensorMap is alignas(64) in the kernel's parameter space, but
/// cuFuncGetParamInfo numbers that space from another base (H100, driver
/// 580.159: tma_kernel(CUtensorMap, CUtensorMap, unsigned*) at offsets 112,
/// 240, 368; validate/results/h100-2026-11-27/tensormaps), so the 64-byte
/// grid is not known here; the map is made of 64-bit words, and 128 equal
/// bytes by chance are out of reach.
inline constexpr std::size_t kTensorMapSearchStep = 8;
using TensorMapBytes = std::array<std::byte, kTensorMapBytes>;

/// One encode call. Arrays have `rank` entries (global_strides rank - 1: the
/// first dimension's stride is the element size); an im2col map has no box
/// (box_dims empty) but a pixel box and channels/pixels; Im2colWide's corners
/// are one number each (the width dimension).
struct TensorMapRow {
  std::uint64_t id = 0;         ///< 0-based, in encode order over the process
  std::string kind;             ///< "tiled", "im2col", "im2col_wide"
  std::uint64_t object = 0;     ///< the CUtensorMap's host address the call wrote
  std::uint32_t data_type = 0;  ///< CUtensorMapDataType
  std::uint32_t rank = 0;
  std::uint64_t global_address = 0;
  std::vector<std::uint64_t> global_dims, global_strides;
  std::vector<std::uint32_t> box_dims, element_strides;
  std::uint32_t interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0;  ///< the enums' numbers
  std::vector<std::int64_t> lower_corner, upper_corner;  ///< im2col: per spatial dimension; wide: one each
  std::uint32_t channels_per_pixel = 0, pixels_per_column = 0;
  std::uint32_t wide_mode = 0;  ///< im2col_wide: CUtensorMapIm2ColWideMode

  bool operator==(const TensorMapRow&) const = default;
};

/// "uint16", "float16", "bfloat16", ...; "type N" for a number this table does not know.
std::string tensor_map_type_name(std::uint32_t data_type);
/// Bytes per element, 0 for the packed sub-byte types and unknown numbers.
unsigned tensor_map_element_bytes(std::uint32_t data_type);
/// "none", "32B", "64B", "128B", "128B_atom_32B", "128B_atom_32B_flip_8B", "128B_atom_64B"; "swizzle N" else.
std::string tensor_map_swizzle_name(std::uint32_t swizzle);
std::string tensor_map_interleave_name(std::uint32_t interleave);     ///< "none", "16B", "32B"
std::string tensor_map_l2_promotion_name(std::uint32_t promotion);   ///< "none", "64B", "128B", "256B"
std::string tensor_map_oob_fill_name(std::uint32_t fill);            ///< "none", "nan_request_zero_fma"

/// "tensor map 2: box 64x64 uint16 (128-byte rows), swizzle 128B": what a compare row says of a map.
std::string describe_tensor_map(const TensorMapRow& row);

/// The header line of tensor_maps.csv (its version: a reader refuses any other header).
std::string tensor_map_table_header();
std::string tensor_map_row_line(const TensorMapRow& row);
/// @throws std::invalid_argument naming the file and line for a malformed row or another header.
std::vector<TensorMapRow> read_tensor_map_table(const std::string& path);

/// A map the program encoded: its id and the 128 bytes the call wrote.
struct EncodedTensorMap {
  std::uint64_t id = 0;
  TensorMapBytes bytes{};
};

/// A map found in a launch's parameters.
struct FoundTensorMap {
  std::uint64_t offset = 0;  ///< in the parameter buffer
  std::uint64_t id = 0;
  bool operator==(const FoundTensorMap&) const = default;
};

/// The maps whose 128 bytes appear in `params` at an offset that is a
/// multiple of kTensorMapSearchStep (a __grid_constant__ map, or one inside
/// a parameter struct). In offset order; where
/// two encoded maps have the same bytes, the latest encoded (highest id) is
/// named, as the program most likely passed the map it made last.
std::vector<FoundTensorMap> find_tensor_maps(std::span<const std::byte> params,
                                             const std::vector<EncodedTensorMap>& maps);

/// A row of launch_tensor_maps.csv: launch `launch` was given map `tensor_map` at parameter byte `offset`.
struct LaunchTensorMap {
  std::uint64_t launch = 0;
  std::uint64_t offset = 0;
  std::uint64_t tensor_map = 0;
  bool operator==(const LaunchTensorMap&) const = default;
};
std::string launch_tensor_map_header();
std::string launch_tensor_map_line(const LaunchTensorMap& row);
/// @throws std::invalid_argument naming the file and line for a malformed row or another header.
std::vector<LaunchTensorMap> read_launch_tensor_maps(const std::string& path);

/// "tensor maps: 14 encoded (swizzle: none 2, 32B 4, 64B 4, 128B 4)", the capture's status line.
std::string tensor_map_summary(const std::vector<TensorMapRow>& rows);

}  // namespace bankcheck::capture
