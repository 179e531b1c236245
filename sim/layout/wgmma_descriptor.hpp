#pragma once
// The shared-memory matrix descriptor of wgmma.mma_async (PTX ISA 9.7.15.5.1.2.2,
// "Matrix Descriptor Format"), and the addresses an operand it describes
// occupies (9.7.15.5.1.2, "Shared Memory Matrix Layout").
//
// The 64-bit descriptor: bits 0-13 the start address, 16-29 the leading
// dimension byte offset (LBO), 32-45 the stride dimension byte offset (SBO),
// each matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4; bits 49-51 the
// matrix base offset (valid for every swizzle mode but none); bits 62-63
// the swizzle mode, 0 none, 1 128B, 2 64B, 3 32B. The other bits are not
// fields of the wgmma descriptor.
//
// An operand is made of core matrices of 8 rows x 16 bytes. Which way the
// rows run and how LBO and SBO step between core matrices depends on the
// swizzle mode and the major-ness (the transpose bit, imm-trans-a/-b). In
// 16-byte units, with W the swizzle's row in units (none 1, 32B 2, 64B 4,
// 128B 8), the canonical layouts are CUTLASS's (cute/atom/mma_traits_sm90_gmma.hpp,
// make_gmma_desc, which builds descriptors from them):
//   K-major,  none:     ((8,m),2):((1,SBO),LBO)      rows 16 B apart, K's two 16-byte halves LBO apart
//   K-major,  swizzled: ((8,m),2):((W,SBO),1)        rows W x 16 B apart, LBO not used
//   MN-major, none:     ((1,m),(8,2)):((-,SBO),(1,LBO))  8 MN elements per 16-byte row, K rows 16 B apart
//   MN-major, swizzled: ((W,m),(8,2)):((1,LBO),(W,SBO))  W x 16 B of MN per swizzle row, K rows W x 16 B apart
// and the swizzle then XORs bits 7.. of the byte address into bits 4..
// (CuTe's Sw<3,4,3>, Sw<2,4,3>, Sw<1,4,3> on bytes: what TMA writes).
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bankcheck::layout {

enum class WgmmaSwizzle : std::uint8_t { none = 0, b128 = 1, b64 = 2, b32 = 3 };  ///< the bits 62-63 values

/// "none", "128B", "64B", "32B".
std::string_view swizzle_mode_name(WgmmaSwizzle s);
/// Bytes of one swizzle row: 16 (none), 32, 64, 128.
unsigned swizzle_row_bytes(WgmmaSwizzle s);

struct WgmmaDescriptor {
  std::uint32_t start = 0;     ///< byte address, a multiple of 16 below 256 KiB
  std::uint32_t leading = 0;   ///< LBO in bytes, a multiple of 16 below 256 KiB
  std::uint32_t stride = 0;    ///< SBO in bytes, a multiple of 16 below 256 KiB
  unsigned base_offset = 0;    ///< 0..7
  WgmmaSwizzle swizzle = WgmmaSwizzle::none;
  std::uint64_t other_bits = 0;  ///< bits set outside the fields (14-15, 30-31, 46-48, 52-61)
  bool operator==(const WgmmaDescriptor&) const = default;
};

WgmmaDescriptor decode_wgmma_descriptor(std::uint64_t bits);
/// @throws std::invalid_argument when a field does not fit (an address or
///         offset not a multiple of 16 or past 256 KiB, a base offset past 7).
std::uint64_t encode_wgmma_descriptor(const WgmmaDescriptor& d);
/// "0x4000004000010040", or decimal, as the user typed it. @throws std::invalid_argument.
std::uint64_t parse_wgmma_descriptor(std::string_view text);

/// The operand's instruction: m64nNkK with its element size.
struct WgmmaOperand {
  unsigned n = 0;                ///< N, 8..256, a multiple of 8
  unsigned k = 0;                ///< K: 32 bytes of elements
  unsigned element_bytes = 0;    ///< 1 (fp8, int8), 2 (fp16, bf16), 4 (tf32)
  std::string type;              ///< as given
  bool operand_b = false;        ///< A (64 x K) or B (N x K)
  bool mn_major = false;         ///< the transpose bit: M- or N-major (16-bit types only)
  unsigned mn() const { return operand_b ? n : 64; }
  unsigned bytes() const { return mn() * k * element_bytes; }
};

/// Parses "m64n128k16" with the type (fp16, bf16, tf32, fp8, e4m3, e5m2, int8, s8, u8).
/// @throws std::invalid_argument naming what does not fit (M not 64, N not a
///         multiple of 8 in 8..256, K not the type's, MN-major with a type that has no transpose).
WgmmaOperand parse_wgmma_operand(std::string_view shape, std::string_view type, bool operand_b, bool mn_major);

/// One 8 x 16-byte core matrix: rows mn0..mn0+7 or k0..k0+7, with the byte address of each row.
struct WgmmaCoreMatrix {
  unsigned mn0 = 0, mn_count = 0;  ///< MN elements it covers
  unsigned k0 = 0, k_count = 0;    ///< K elements it covers
  std::array<std::uint64_t, 8> rows{};  ///< byte address of each 16-byte row, swizzle applied
  unsigned degree = 0;  ///< the most distinct rows in one bank group of 16 bytes (1: 8 groups, 8: one)
  /// "m0-7.k0-7" (A) or "n8-15.k0-7" (B).
  std::string label(bool operand_b) const;
};

struct WgmmaOperandLayout {
  WgmmaDescriptor descriptor;
  WgmmaOperand operand;
  std::vector<WgmmaCoreMatrix> cores;  ///< MN blocks outer, K blocks inner
  std::vector<std::string> warnings;   ///< what the PTX ISA leaves open, each a sentence
  std::string formula;                 ///< the layout in words: how a row's address is formed
};

/// The address of every row of every core matrix the instruction reads for
/// this operand.
/// @throws std::invalid_argument on a descriptor that cannot describe the
///         operand: LBO or SBO 0 where the layout steps by it, a row past the
///         256 KiB the 18-bit addresses reach, or a base offset with a
///         swizzle (not modelled: the PTX ISA gives its value, not the
///         addresses the hardware then reads).
WgmmaOperandLayout wgmma_operand_layout(const WgmmaDescriptor& d, const WgmmaOperand& op);

/// The 16-byte bank group (4 banks of 4 bytes) of a byte address: (address / 16) mod 8.
inline unsigned bank_group(std::uint64_t address) { return static_cast<unsigned>((address >> 4) & 7); }

}  // namespace bankcheck::layout
