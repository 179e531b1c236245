// Tests of capture/host/sass/hgmma_descriptors.hpp on Nsight Compute listings
// measured on the H100 (validate/results/h100-2026-11-27b/hopper-listings.tar.xz,
// unpacked by the capture.hopper_listings.unpack fixture): the wgmma probes
// and the TMA + wgmma GEMM, whose descriptors the generating programs fix
// (tests/data/hopper/descriptor_truth.csv, written by
// validate/sm90/sm90a/descriptor_truth.py from their parameters), and the
// library kernels (cuBLAS, cuDNN, Triton), whose descriptors no program
// here states: there the test asks that they are recovered at all.
#include "capture/host/sass/hgmma_descriptors.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "capture/host/ncu/ncu_table.hpp"

using namespace bankcheck::capture;
namespace fs = std::filesystem;

namespace {

const fs::path kListings = fs::path(BANKCHECK_BINARY_DIR) / "hopper-listings";

NcuSourceTable read_listing(const std::string& file) {
  std::ifstream in(kListings / file);
  REQUIRE_MESSAGE(in, "cannot read " << (kListings / file) << " (ctest's capture.hopper_listings.unpack unpacks it)");
  std::stringstream text;
  text << in.rdbuf();
  return parse_ncu_source(text.str(), file);
}

std::vector<HgmmaDescriptors> recovered(const NcuLaunch& launch) {
  std::vector<SassLine> lines;
  for (const NcuInstruction& i : launch.instructions) lines.push_back({launch.kernel, i.offset, i.sass, {}});
  const SassConstants values(lines, launch.first_pc);
  INFO(launch.kernel << ": " << values.unusable());
  REQUIRE(values.unusable().empty());
  return recover_hgmma_descriptors(lines, values);
}

struct Truth {
  bool a_shared = false;
  std::string swizzle;
  unsigned stride = 0;
};

std::map<std::string, Truth> read_truth() {
  std::ifstream in(fs::path(BANKCHECK_SOURCE_DIR) / "tests/data/hopper/descriptor_truth.csv");
  REQUIRE(in);
  std::map<std::string, Truth> truth;
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::stringstream row(line);
    std::string kernel, a, swizzle, stride;
    std::getline(row, kernel, ',');
    std::getline(row, a, ',');
    std::getline(row, swizzle, ',');
    std::getline(row, stride, ',');
    truth[kernel] = {a == "1", swizzle, static_cast<unsigned>(std::stoul(stride))};
  }
  return truth;
}

void check_operand(const std::optional<RecoveredDescriptor>& d, const Truth& t, const char* operand) {
  INFO("operand " << operand);
  REQUIRE(d.has_value());
  REQUIRE(d->recovered());
  CHECK(std::string(bankcheck::layout::swizzle_mode_name(*d->swizzle())) == t.swizzle);
  CHECK(d->stride() == t.stride);
  CHECK(d->base_offset() == 0u);
}

}  // namespace

TEST_CASE("the probes' and the GEMM's descriptors are recovered as their programs built them") {
  const std::map<std::string, Truth> truth = read_truth();
  std::map<std::string, int> seen;
  std::size_t instructions = 0;
  for (const char* file : {"wgmma-probes.sass.csv", "wgmma-blind.sass.csv", "wgmma-int8.sass.csv", "gemm.sass.csv"}) {
    for (const NcuLaunch& launch : read_listing(file).launches) {
      const auto t = truth.find(launch.kernel);
      INFO(file << ": " << launch.kernel);
      REQUIRE(t != truth.end());
      ++seen[launch.kernel];
      for (const HgmmaDescriptors& h : recovered(launch)) {
        INFO(h.sass);
        CHECK(h.a.has_value() == t->second.a_shared);
        if (t->second.a_shared) check_operand(h.a, t->second, "A");
        check_operand(h.b, t->second, "B");
        ++instructions;
      }
    }
  }
  CHECK(seen.size() == truth.size());  // every probe and variant was listed
  CHECK(instructions >= 300);
  MESSAGE(instructions << " wgmma instructions of " << seen.size() << " kernels");
}

TEST_CASE("the cuBLAS, cuDNN and Triton kernels' descriptors are recovered") {
  // cuBLAS sets each high half once (UMOV UR17, 0x40000040) and steps the low half; cuDNN ORs an
  // address field into it; Triton adds constants to the 64-bit descriptor (UIADD3.64 UR12, UR6, -UR12).
  std::size_t instructions = 0;
  for (const char* file : {"lib.mm_f16_1024.sass.csv", "lib.mm_bf16_2048.sass.csv", "lib.sdpa_cudnn.sass.csv",
                           "lib.conv_f16.sass.csv", "lib.triton_attn_s2.sass.csv", "lib.triton_mm_big.sass.csv",
                           "lib.triton_mm_s3.sass.csv"}) {
    for (const NcuLaunch& launch : read_listing(file).launches) {
      INFO(file << ": " << launch.kernel);
      for (const HgmmaDescriptors& h : recovered(launch)) {
        INFO(h.sass << ": " << describe_descriptors(h));
        if (h.a) CHECK(h.a->recovered());
        CHECK(h.b.recovered());
        ++instructions;
      }
    }
  }
  CHECK(instructions >= 60);
  MESSAGE(instructions << " library wgmma instructions");
}

TEST_CASE("the description names each operand's swizzle and stride, or the register that is not known") {
  HgmmaDescriptors h;
  h.a = RecoveredDescriptor{"UR13", {}, KnownBits::constant(0x40000040u)};
  h.b = RecoveredDescriptor{"UR15", {}, {0x3FFFFFFF, 0x40}};  // the swizzle bits unknown
  CHECK(describe_descriptors(h) == "A swizzle 128B, stride 1024 B; B descriptor not recovered (UR15's swizzle and "
                                   "stride bits differ between paths or are computed)");
  HgmmaDescriptors rs;
  rs.b = RecoveredDescriptor{"UR7", KnownBits::constant(0x00080040u), KnownBits::constant(0x00000010u)};
  CHECK(describe_descriptors(rs) == "B swizzle none, stride 256 B, leading 128 B");
  HgmmaDescriptors cudnn;  // ((address >> 7) & 7) << 17 | 0x40000040: the base offset unknown
  cudnn.b = RecoveredDescriptor{"UR23", {}, {~(7u << 17), 0x40000040}};
  CHECK(describe_descriptors(cudnn) == "B swizzle 128B, stride 1024 B, base offset from the address");
}
