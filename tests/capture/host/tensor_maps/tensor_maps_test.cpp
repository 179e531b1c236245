// Tests of capture/host/tensor_maps/tensor_maps.hpp: tensor_maps.csv and
// launch_tensor_maps.csv round trips, the search for encoded maps in a
// launch's parameter bytes, and the text compare and the status line give.
// Expected values come from the rows and buffers built here.
#include "capture/host/tensor_maps/tensor_maps.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/scratch.hpp"

using namespace bankcheck::capture;
namespace fs = std::filesystem;

namespace {

/// A 2-D tiled map as tma_probes.cu encodes one: rows of `row_bytes` of 16-bit elements, 64 rows.
TensorMapRow tiled(std::uint64_t id, std::uint32_t row_bytes, std::uint32_t swizzle) {
  TensorMapRow r;
  r.id = id;
  r.kind = "tiled";
  r.object = 0x7ffd1000 + 128 * id;
  r.data_type = 1;  // CU_TENSOR_MAP_DATA_TYPE_UINT16
  r.rank = 2;
  r.global_address = 0x7f2000000000 + 0x10000 * id;
  r.global_dims = {row_bytes / 2, 64};
  r.global_strides = {row_bytes};
  r.box_dims = {row_bytes / 2, 64};
  r.element_strides = {1, 1};
  r.swizzle = swizzle;
  return r;
}

/// 128 bytes that differ from map to map: byte i of map `seed` is (37 * seed + i) mod 256.
EncodedTensorMap encoded(std::uint64_t id, unsigned seed) {
  EncodedTensorMap m{id, {}};
  for (std::size_t i = 0; i < kTensorMapBytes; ++i) m.bytes[i] = std::byte((37 * seed + i) & 0xFF);
  return m;
}

void put(std::vector<std::byte>& buffer, std::size_t at, const EncodedTensorMap& m) {
  std::copy(m.bytes.begin(), m.bytes.end(), buffer.begin() + static_cast<std::ptrdiff_t>(at));
}

fs::path write_file(const std::string& name, const std::string& text) {
  const fs::path p = fs::path(bankcheck::test::scratch(name));
  std::ofstream(p) << text;
  return p;
}

}  // namespace

TEST_CASE("a tiled map's row is the call's arguments, in the documented columns") {
  const TensorMapRow r = tiled(0, 128, 3);
  CHECK(tensor_map_table_header() ==
        "id,kind,object,data_type,rank,global_address,global_dims,global_strides,box_dims,element_strides,interleave,"
        "swizzle,l2_promotion,oob_fill,lower_corner,upper_corner,channels_per_pixel,pixels_per_column,wide_mode\n");
  CHECK(tensor_map_row_line(r) == "0,tiled,0x7ffd1000,uint16,2,0x7f2000000000,64 64,128,64 64,1 1,none,128B,none,none,,,,,\n");
}

TEST_CASE("tensor_maps.csv round trips every kind, enum names and numbers the names do not cover") {
  std::vector<TensorMapRow> rows = {tiled(0, 128, 0), tiled(1, 32, 1), tiled(2, 64, 2), tiled(3, 128, 3)};
  TensorMapRow atom = tiled(4, 128, 6);  // CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B
  atom.data_type = 9;                    // bfloat16
  atom.l2_promotion = 2;                 // 128B
  atom.oob_fill = 1;
  rows.push_back(atom);
  TensorMapRow im2col;
  im2col.id = 5;
  im2col.kind = "im2col";
  im2col.object = 0x1000;
  im2col.data_type = 6;  // float16
  im2col.rank = 4;
  im2col.global_address = 0x2000;
  im2col.global_dims = {64, 16, 16, 8};
  im2col.global_strides = {128, 2048, 32768};
  im2col.element_strides = {1, 1, 1, 1};
  im2col.interleave = 0;
  im2col.swizzle = 3;
  im2col.lower_corner = {-1, -1};
  im2col.upper_corner = {1, 1};
  im2col.channels_per_pixel = 64;
  im2col.pixels_per_column = 128;
  rows.push_back(im2col);
  TensorMapRow wide = im2col;
  wide.id = 6;
  wide.kind = "im2col_wide";
  wide.lower_corner = {-2};
  wide.upper_corner = {2};
  wide.wide_mode = 1;
  rows.push_back(wide);
  TensorMapRow odd = tiled(7, 64, 9);  // a swizzle number after CUDA 13.0's enum
  odd.data_type = 40;
  rows.push_back(odd);

  std::string text = tensor_map_table_header();
  for (const TensorMapRow& r : rows) text += tensor_map_row_line(r);
  const fs::path p = write_file("tensor_maps.csv", text);
  CHECK(read_tensor_map_table(p.string()) == rows);
  CHECK(tensor_map_row_line(odd).find(",swizzle 9,") != std::string::npos);
  CHECK(tensor_map_row_line(wide).find(",-2,2,64,128,w128\n") != std::string::npos);
}

TEST_CASE("a malformed tensor map table is refused, naming the file and line") {
  const std::string header = tensor_map_table_header();
  auto refused = [&](const std::string& name, const std::string& text, const std::string& says) {
    const fs::path p = write_file(name, text);
    CAPTURE(text);
    try {
      read_tensor_map_table(p.string());
      FAIL("accepted");
    } catch (const std::invalid_argument& e) {
      CHECK(std::string(e.what()).find(says) != std::string::npos);
    }
  };
  refused("other-header.csv", "id,kind\n", ":1: not a tensor map table");
  refused("bad-swizzle.csv", header + "0,tiled,0x10,uint16,2,0x20,64 64,128,64 64,1 1,none,96B,none,none,,,,,\n",
          ":2: unknown swizzle '96B'");
  refused("bad-rank.csv", header + "0,tiled,0x10,uint16,3,0x20,64 64,128,64 64,1 1,none,128B,none,none,,,,,\n",
          ":2: rank 3 does not match");
  refused("bad-kind.csv", header + "0,tma,0x10,uint16,2,0x20,64 64,128,64 64,1 1,none,128B,none,none,,,,,\n",
          ":2: unknown kind 'tma'");
  refused("bad-list.csv", header + "0,tiled,0x10,uint16,2,0x20,64  64,128,64 64,1 1,none,128B,none,none,,,,,\n",
          ":2: bad list");
  refused("empty.csv", "", "empty");
}

TEST_CASE("encoded maps are found in a parameter buffer at 8-byte offsets, byte for byte") {
  const EncodedTensorMap a = encoded(0, 1), b = encoded(1, 2);
  const std::vector<EncodedTensorMap> maps = {a, b};

  SUBCASE("one map after a pointer parameter, at offset 64") {
    std::vector<std::byte> params(192, std::byte{0});
    params[0] = std::byte{0x40};  // a pointer's low byte: not a map
    put(params, 64, a);
    CHECK(find_tensor_maps(params, maps) == std::vector<FoundTensorMap>{{64, 0}});
  }
  SUBCASE("two maps, in offset order, whichever was encoded first") {
    std::vector<std::byte> params(320, std::byte{0});
    put(params, 0, b);
    put(params, 128, a);
    CHECK(find_tensor_maps(params, maps) == std::vector<FoundTensorMap>{{0, 1}, {128, 0}});
  }
  SUBCASE("a block one byte different is no map") {
    for (std::size_t flip : {std::size_t{0}, std::size_t{63}, std::size_t{127}}) {
      CAPTURE(flip);
      std::vector<std::byte> params(256, std::byte{0});
      put(params, 64, a);
      params[64 + flip] ^= std::byte{0x01};
      CHECK(find_tensor_maps(params, maps).empty());
    }
  }
  SUBCASE("cuFuncGetParamInfo's numbering puts maps off the 64-byte grid (112 and 240 on the H100): found") {
    for (std::size_t at : {std::size_t{8}, std::size_t{32}, std::size_t{72}, std::size_t{112}}) {
      CAPTURE(at);
      std::vector<std::byte> params(256, std::byte{0});
      put(params, at, a);
      CHECK(find_tensor_maps(params, maps) == std::vector<FoundTensorMap>{{at, 0}});
    }
  }
  SUBCASE("a map off the 8-byte grid of its 64-bit words is not one the compiler placed") {
    for (std::size_t at : {std::size_t{4}, std::size_t{60}, std::size_t{117}}) {
      CAPTURE(at);
      std::vector<std::byte> params(256, std::byte{0});
      put(params, at, a);
      CHECK(find_tensor_maps(params, maps).empty());
    }
  }
  SUBCASE("a map that ends the buffer is found; a buffer shorter than a map holds none") {
    std::vector<std::byte> params(192, std::byte{0});
    put(params, 64, b);
    CHECK(find_tensor_maps(params, maps) == std::vector<FoundTensorMap>{{64, 1}});
    const std::vector<std::byte> short_params(params.begin() + 64, params.begin() + 64 + 127);
    CHECK(find_tensor_maps(short_params, maps).empty());
  }
  SUBCASE("two encode calls that made the same bytes: the later one is named") {
    const EncodedTensorMap again{5, a.bytes};
    std::vector<std::byte> params(128);
    put(params, 0, a);
    CHECK(find_tensor_maps(params, {a, again, b}) == std::vector<FoundTensorMap>{{0, 5}});
  }
  SUBCASE("no encoded maps, nothing found") {
    std::vector<std::byte> params(128);
    put(params, 0, a);
    CHECK(find_tensor_maps(params, {}).empty());
  }
}

TEST_CASE("launch_tensor_maps.csv round trips") {
  const std::vector<LaunchTensorMap> rows = {{0, 0, 0}, {0, 128, 1}, {7, 64, 12}};
  std::string text = launch_tensor_map_header();
  CHECK(text == "launch,offset,tensor_map\n");
  for (const LaunchTensorMap& r : rows) text += launch_tensor_map_line(r);
  CHECK(text == "launch,offset,tensor_map\n0,0,0\n0,128,1\n7,64,12\n");
  CHECK(read_launch_tensor_maps(write_file("launch_tensor_maps.csv", text).string()) == rows);
  CHECK_THROWS_WITH_AS(read_launch_tensor_maps(write_file("launch_bad.csv", "launch,offset,tensor_map\n1,x,2\n").string()),
                       doctest::Contains(":2:"), std::invalid_argument);
}

TEST_CASE("a map is described by its box, element type, row bytes and swizzle; the status line counts swizzles") {
  CHECK(describe_tensor_map(tiled(2, 128, 3)) == "tensor map 2: box 64x64 uint16 (128-byte rows), swizzle 128B");
  CHECK(describe_tensor_map(tiled(0, 32, 1)) == "tensor map 0: box 16x64 uint16 (32-byte rows), swizzle 32B");
  TensorMapRow interleaved = tiled(3, 64, 1);
  interleaved.interleave = 2;
  CHECK(describe_tensor_map(interleaved) == "tensor map 3: box 32x64 uint16, interleave 32B, swizzle 32B");
  CHECK(tensor_map_summary({}) == "tensor maps: 0 encoded");
  CHECK(tensor_map_summary({tiled(0, 128, 0), tiled(1, 32, 1), tiled(2, 32, 1), tiled(3, 128, 3)}) ==
        "tensor maps: 4 encoded (swizzle: none 1, 32B 2, 128B 1)");
}
