#include "sim/layout/wgmma_descriptor.hpp"

#include <algorithm>
#include <charconv>
#include <set>
#include <stdexcept>

namespace bankcheck::layout {
namespace {

constexpr std::uint64_t kFieldMask = 0x3FFF;           // 14 bits
constexpr std::uint64_t kAddressWindow = 0x40000;      // (x & 0x3FFFF) >> 4: 18-bit byte addresses, 256 KiB
constexpr std::uint64_t kFieldBits = (kFieldMask << 0) | (kFieldMask << 16) | (kFieldMask << 32) |
                                     (std::uint64_t{7} << 49) | (std::uint64_t{3} << 62);

std::string hex(std::uint64_t v) {
  char buf[20];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, 16);
  return "0x" + std::string(buf, r.ptr);
}

/// The swizzle of a mode on a byte address: the log2(row bytes / 16) bits
/// from bit 7 up XORed into bits 4.. (Sw<B,4,3> on bytes; none: B = 0).
std::uint64_t swizzle_address(WgmmaSwizzle s, std::uint64_t a) {
  const unsigned units = swizzle_row_bytes(s) / 16;  // 1, 2, 4, 8
  const std::uint64_t mask = units - 1;
  return a ^ (((a >> 7) & mask) << 4);
}

void check_encodable(const char* what, std::uint64_t bytes) {
  if (bytes % 16 != 0 || bytes >= kAddressWindow)
    throw std::invalid_argument(std::string(what) + " " + std::to_string(bytes) +
                                " cannot be encoded: the descriptor holds multiples of 16 below 256 KiB");
}

std::string span(unsigned first, unsigned count) {
  return std::to_string(first) + "-" + std::to_string(first + count - 1);
}

}  // namespace

std::string_view swizzle_mode_name(WgmmaSwizzle s) {
  switch (s) {
    case WgmmaSwizzle::none: return "none";
    case WgmmaSwizzle::b128: return "128B";
    case WgmmaSwizzle::b64: return "64B";
    case WgmmaSwizzle::b32: return "32B";
  }
  return "?";
}

unsigned swizzle_row_bytes(WgmmaSwizzle s) {
  switch (s) {
    case WgmmaSwizzle::none: return 16;
    case WgmmaSwizzle::b128: return 128;
    case WgmmaSwizzle::b64: return 64;
    case WgmmaSwizzle::b32: return 32;
  }
  return 16;
}

WgmmaDescriptor decode_wgmma_descriptor(std::uint64_t bits) {
  WgmmaDescriptor d;
  d.start = static_cast<std::uint32_t>((bits & kFieldMask) << 4);
  d.leading = static_cast<std::uint32_t>(((bits >> 16) & kFieldMask) << 4);
  d.stride = static_cast<std::uint32_t>(((bits >> 32) & kFieldMask) << 4);
  d.base_offset = static_cast<unsigned>((bits >> 49) & 7);
  d.swizzle = static_cast<WgmmaSwizzle>((bits >> 62) & 3);
  d.other_bits = bits & ~kFieldBits;
  return d;
}

std::uint64_t encode_wgmma_descriptor(const WgmmaDescriptor& d) {
  check_encodable("start address", d.start);
  check_encodable("leading byte offset", d.leading);
  check_encodable("stride byte offset", d.stride);
  if (d.base_offset > 7) throw std::invalid_argument("base offset " + std::to_string(d.base_offset) + " exceeds 7");
  if (d.other_bits & kFieldBits)
    throw std::invalid_argument("other bits " + hex(d.other_bits) + " overlap the descriptor's fields");
  return (std::uint64_t{d.start} >> 4) | (std::uint64_t{d.leading} >> 4 << 16) |
         (std::uint64_t{d.stride} >> 4 << 32) | (std::uint64_t{d.base_offset} << 49) |
         (std::uint64_t{static_cast<std::uint8_t>(d.swizzle)} << 62) | d.other_bits;
}

std::uint64_t parse_wgmma_descriptor(std::string_view text) {
  const bool is_hex = text.starts_with("0x") || text.starts_with("0X");
  const std::string_view digits = is_hex ? text.substr(2) : text;
  std::uint64_t v = 0;
  const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), v, is_hex ? 16 : 10);
  if (digits.empty() || r.ec != std::errc{} || r.ptr != digits.data() + digits.size())
    throw std::invalid_argument("--wgmma-desc: expected a 64-bit descriptor, 0xHEX or decimal (got '" +
                                std::string(text) + "')");
  return v;
}

WgmmaOperand parse_wgmma_operand(std::string_view shape, std::string_view type, bool operand_b, bool mn_major) {
  WgmmaOperand op;
  op.type = std::string(type);
  op.operand_b = operand_b;
  op.mn_major = mn_major;
  static const std::set<std::string_view> b16{"fp16", "f16", "half", "bf16"}, b8{"fp8", "e4m3", "e5m2", "int8", "s8", "u8"};
  if (b16.contains(type)) op.element_bytes = 2;
  else if (type == "tf32") op.element_bytes = 4;
  else if (b8.contains(type)) op.element_bytes = 1;
  else
    throw std::invalid_argument("--type: wgmma's shared operands are fp16, f16, half, bf16 (16-bit), tf32 (32-bit), "
                                "fp8, e4m3, e5m2, int8, s8, u8 (8-bit) (got '" + std::string(type) + "')");
  // "m64nNkK": wgmma's M is always 64 (PTX ISA 9.7.15.5, "Matrix shape").
  unsigned m = 0;
  const auto number = [&](std::size_t& i, unsigned& out) {
    const auto r = std::from_chars(shape.data() + i, shape.data() + shape.size(), out);
    if (r.ec != std::errc{} || r.ptr == shape.data() + i) return false;
    i = static_cast<std::size_t>(r.ptr - shape.data());
    return true;
  };
  std::size_t i = 0;
  const bool ok = shape.size() > 1 && shape[i++] == 'm' && number(i, m) && i < shape.size() && shape[i++] == 'n' &&
                  number(i, op.n) && i < shape.size() && shape[i++] == 'k' && number(i, op.k) && i == shape.size();
  if (!ok) throw std::invalid_argument("--wgmma-shape: expected m64nNkK, e.g. m64n128k16 (got '" + std::string(shape) + "')");
  if (m != 64) throw std::invalid_argument("--wgmma-shape: wgmma's M is 64 (got " + std::to_string(m) + ")");
  if (op.n < 8 || op.n > 256 || op.n % 8 != 0)
    throw std::invalid_argument("--wgmma-shape: N must be a multiple of 8 from 8 to 256 (got " + std::to_string(op.n) + ")");
  // A dense wgmma reads 32 bytes of K per row: k16 for 16-bit types, k8 for tf32, k32 for 8-bit.
  const unsigned want_k = 32 / op.element_bytes;
  if (op.k != want_k)
    throw std::invalid_argument("--wgmma-shape: K is " + std::to_string(want_k) + " for " + op.type + " (got " +
                                std::to_string(op.k) + ")");
  // imm-trans-a/-b are valid only for .f16/.bf16 (PTX ISA 9.7.15.5.2, wgmma.mma_async): the others are K-major.
  if (mn_major && op.element_bytes != 2)
    throw std::invalid_argument("--mn-major: only 16-bit types (fp16, bf16) have a transposed (MN-major) layout; " +
                                op.type + " operands are K-major");
  return op;
}

std::string WgmmaCoreMatrix::label(bool operand_b) const {
  return std::string(operand_b ? "n" : "m") + span(mn0, mn_count) + ".k" + span(k0, k_count);
}

namespace {

/// Step 1: the fields the layout does not use: a swizzled base offset is not
/// modelled, an unswizzled one and bits outside the fields are warned of.
void check_unused_fields(const WgmmaDescriptor& d, WgmmaOperandLayout& out) {
  if (d.base_offset != 0 && d.swizzle != WgmmaSwizzle::none)
    throw std::invalid_argument(
        "not modelled: base offset " + std::to_string(d.base_offset) +
        " (bits 49-51): the PTX ISA says what it is for a repeating pattern that does not start on its " +
        std::to_string(8 * swizzle_row_bytes(d.swizzle)) +
        "-byte boundary ((pattern start >> 7) & 7), not which addresses the hardware then reads");
  if (d.base_offset != 0)
    out.warnings.push_back("base offset " + std::to_string(d.base_offset) +
                           " is ignored: the PTX ISA makes it valid for every swizzle mode but none");
  if (d.other_bits != 0)
    out.warnings.push_back("bits " + hex(d.other_bits) +
                           " are set outside the PTX ISA's fields (0-13, 16-29, 32-45, 49-51, 62-63); ignored");
}

/// Step 2: the formula of the layout and which offsets it steps by (a zero
/// one puts core matrices on the same bytes); a swizzled start past its
/// pattern's first row is warned of.
void describe_offsets(const WgmmaDescriptor& d, const WgmmaOperand& op, WgmmaOperandLayout& out) {
  const bool swizzled = d.swizzle != WgmmaSwizzle::none;
  const std::uint64_t w = swizzle_row_bytes(d.swizzle) / 16;  // 16-byte units per swizzle row
  const unsigned mn_blocks = op.mn() / 8;  // K-major: groups of 8 rows; MN-major: 16-byte chunks of 8 elements
  const std::string name = std::string(swizzle_mode_name(d.swizzle)) + " swizzle";
  bool uses_lbo = false, uses_sbo = false;
  std::string lbo_role, sbo_role;
  if (!op.mn_major) {
    uses_sbo = mn_blocks > 1;
    sbo_role = "the 8-row groups along " + std::string(op.operand_b ? "N" : "M");
    uses_lbo = !swizzled;
    lbo_role = "K's two 16-byte halves";
    out.formula = swizzled ? "K-major, " + name + ": row r of core matrix (g, h) at start + g x SBO + r x " +
                                 std::to_string(16 * w) + " + h x 16 (LBO not used: the PTX ISA's \"not used\" for K-major swizzled layouts)"
                           : "K-major, no swizzle: row r of core matrix (g, h) at start + g x SBO + r x 16 + h x LBO";
  } else {
    uses_lbo = swizzled ? mn_blocks > w : true;
    uses_sbo = swizzled ? true : mn_blocks > 1;
    lbo_role = swizzled ? "groups of " + std::to_string(w) + " 16-byte chunks along MN" : "the two 8-row groups of K";
    sbo_role = swizzled ? "the two 8-row groups of K" : "16-byte chunks along MN";
    out.formula = swizzled ? "MN-major, " + name + ": row r (k) of core matrix (j = q x " + std::to_string(w) +
                                 " + i, h) at start + q x LBO + i x 16 + h x SBO + r x " + std::to_string(16 * w)
                           : "MN-major, no swizzle: row r (k) of core matrix (j, h) at start + j x SBO + h x LBO + r x 16";
  }
  if (swizzled)
    out.formula += ", then bits 4.. ^= bits 7.. (" + std::to_string(w == 8 ? 3 : w == 4 ? 2 : 1) +
                   " bits: CuTe's Sw<" + std::to_string(w == 8 ? 3 : w == 4 ? 2 : 1) + ",4,3> on byte addresses)";
  if (uses_lbo && d.leading == 0)
    throw std::invalid_argument("leading byte offset 0: the layout steps by LBO between " + lbo_role +
                                ", which would all lie on the same bytes");
  if (uses_sbo && d.stride == 0)
    throw std::invalid_argument("stride byte offset 0: the layout steps by SBO between " + sbo_role +
                                ", which would all lie on the same bytes");
  const std::uint64_t pattern = 8 * 16 * w, into = d.start % pattern;
  if (swizzled && into >= 16 * w)
    out.warnings.push_back(
        "start address " + hex(d.start) + " is " + std::to_string(into) + " bytes into its " +
        std::to_string(pattern) + "-byte repeating pattern, past the pattern's first row: if the pattern starts "
        "there, the PTX ISA asks for base offset (start >> 7) & 7 = " + std::to_string((d.start >> 7) & 7) +
        " and this descriptor has 0; the picture XORs the absolute address bits, as for a pattern aligned to " +
        std::to_string(pattern) + " bytes");
}

/// Step 3: the core matrices' rows, before the swizzle: K-major core matrix
/// (g, h) holds rows mn 8g..8g+7 and K bytes 16h..16h+15; MN-major core
/// matrix (j, h) holds K rows 8h..8h+7 and MN elements 8j..8j+7 (16-bit
/// types only). Returns one past the last byte they reach.
std::uint64_t core_matrices(const WgmmaDescriptor& d, const WgmmaOperand& op, WgmmaOperandLayout& out) {
  const bool swizzled = d.swizzle != WgmmaSwizzle::none;
  const std::uint64_t w = swizzle_row_bytes(d.swizzle) / 16;
  const unsigned t = 16 / op.element_bytes;  // elements per 16-byte row
  const unsigned mn_blocks = op.mn() / 8;
  const unsigned k_blocks = 2;  // K-major: 32 bytes of K = two 16-byte halves; MN-major (16-bit): K 16 = two 8-row groups
  std::uint64_t reach = 0;
  for (unsigned g = 0; g < mn_blocks; ++g)
    for (unsigned h = 0; h < k_blocks; ++h) {
      WgmmaCoreMatrix cm;
      if (!op.mn_major) {
        cm.mn0 = 8 * g, cm.mn_count = 8, cm.k0 = h * t, cm.k_count = t;
      } else {
        cm.mn0 = 8 * g, cm.mn_count = 8, cm.k0 = 8 * h, cm.k_count = 8;
      }
      for (unsigned r = 0; r < 8; ++r) {
        std::uint64_t a = d.start;
        if (!op.mn_major) {
          a += g * std::uint64_t{d.stride} + (swizzled ? r * 16 * w + h * 16 : r * 16 + h * std::uint64_t{d.leading});
        } else if (swizzled) {
          a += (g / w) * std::uint64_t{d.leading} + (g % w) * 16 + h * std::uint64_t{d.stride} + r * 16 * w;
        } else {
          a += g * std::uint64_t{d.stride} + h * std::uint64_t{d.leading} + r * 16;
        }
        reach = std::max(reach, a + 16);
        cm.rows[r] = swizzle_address(d.swizzle, a);
      }
      std::array<std::set<std::uint64_t>, 8> by_group;
      for (auto a : cm.rows) by_group[bank_group(a)].insert(a);
      for (const auto& s : by_group) cm.degree = std::max(cm.degree, static_cast<unsigned>(s.size()));
      out.cores.push_back(cm);
    }
  return reach;
}

}  // namespace

WgmmaOperandLayout wgmma_operand_layout(const WgmmaDescriptor& d, const WgmmaOperand& op) {
  WgmmaOperandLayout out{d, op, {}, {}, {}};
  check_unused_fields(d, out);
  describe_offsets(d, op, out);
  const std::uint64_t reach = core_matrices(d, op, out);
  if (reach > kAddressWindow)
    throw std::invalid_argument("the operand reaches byte " + std::to_string(reach - 1) +
                                ", past the 256 KiB the descriptor's 18-bit addresses reach");
  // The H100 has 228 KiB of shared memory per SM, 227 KiB of it for one block (CUDA C++
  // Programming Guide, compute capability 9.0).
  if (reach > 227 * 1024)
    out.warnings.push_back("the operand reaches byte " + std::to_string(reach - 1) +
                           ", past the 227 KiB of shared memory an H100 block can have");
  return out;
}

}  // namespace bankcheck::layout
