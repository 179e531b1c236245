#pragma once
// The matrix descriptors of a function's wgmma instructions (SASS HGMMA,
// QGMMA, IGMMA, BGMMA), as far as its code fixes them. The sanitizer
// reports each operand's shared address and size but not the descriptor
// (sanitizer_patching.h, SanitizerCallbackWarpgroupMMAAsync); the SASS
// names the uniform registers that hold it: `gdesc[URn]` is four registers,
// A's descriptor in URn (low half) and URn+1 (high half), B's in URn+2 and
// URn+3; where A comes from registers (`HGMMA ... R24, R56, gdesc[UR4]`)
// only B's are read (validate/sm90/sm90a wgmma probes: `R2UR UR6`/`UR7` build
// B's descriptor, UR4/UR5 hold something else).
//
// The high half (stride byte offset, base offset, swizzle mode: PTX ISA,
// "Matrix Descriptor Format", bits 32-63) is a constant in every kernel
// seen (`UMOV UR13, 0x40000040`: 128B swizzle, 1024-byte stride) and is
// recovered by SassConstants, bit by bit: cuDNN ORs the base offset, taken
// from the tile's address, into a constant (then the swizzle and the stride
// are known and the base offset is not). The low half (start address,
// leading byte offset) moves with the tile: the start address comes from
// the capture instead, the leading byte offset is given where its bits are
// known.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "capture/host/sass/sass_constants.hpp"
#include "sim/layout/wgmma_descriptor.hpp"

namespace bankcheck::capture {

struct RecoveredDescriptor {
  std::string high_register;  ///< "UR13"
  KnownBits low, high;        ///< bits 0-31 and 32-63, as far as every path fixes them
  /// Each field where all its bits are known (PTX ISA, "Matrix Descriptor Format").
  std::optional<layout::WgmmaSwizzle> swizzle() const;  ///< bits 62-63
  std::optional<std::uint32_t> stride() const;          ///< bits 32-45, in bytes
  std::optional<unsigned> base_offset() const;          ///< bits 49-51
  std::optional<std::uint32_t> leading() const;         ///< bits 16-29, in bytes
  /// The swizzle mode and the stride are known: how wgmma steps through the tile.
  bool recovered() const { return swizzle() && stride(); }
};

struct HgmmaDescriptors {
  std::uint64_t offset = 0;
  std::string sass;
  std::optional<RecoveredDescriptor> a;  ///< empty where A comes from registers
  RecoveredDescriptor b;
};

/// Every wgmma instruction of the listing with its recovered descriptors.
std::vector<HgmmaDescriptors> recover_hgmma_descriptors(const std::vector<SassLine>& lines, const SassConstants& values);

/// "A swizzle 128B, stride 1024 B; B swizzle 128B, stride 1024 B, base offset from the address",
/// "B swizzle none, stride 256 B, leading 128 B" or, where the swizzle or the stride is not known,
/// "B descriptor not recovered (UR7's swizzle and stride bits differ between paths or are computed)".
std::string describe_descriptors(const HgmmaDescriptors& d);

}  // namespace bankcheck::capture
