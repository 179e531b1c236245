#pragma once
// What is known of each register's bits at an instruction of a SASS
// listing, on every path from the function's entry: a forward data-flow
// fixpoint over the function's basic blocks on KnownBits (known_bits.hpp),
// meeting paths bit by bit.
//
// What it is for: wgmma reads its operands through matrix descriptors held
// in uniform registers (`HGMMA ... gdesc[UR12]`), and the sanitizer reports
// the operands' addresses, never the descriptor. The descriptor's high half
// (stride byte offset, swizzle mode) is nearly always a constant, or a
// constant OR'd with an address field, that the compiler moves into a
// register (`UMOV UR13, 0x40000040`; `MOV R3, ...` then `R2UR UR13, R3`):
// recovered here, it says how wgmma reads the tile.
//
// Sound, not clever: a bit is known only where every definition that can
// reach the instruction is one of the forms evaluated here (MOV, MOV32I,
// IMAD.MOV, UMOV, R2UR; IADD3, UIADD3 and UIADD3.64; LOP3.LUT; SHF and USHF
// by an immediate in their .R.U32.HI, .L.U32 and .R.U64 forms; LEA and ULEA;
// SGXT.U32 (the low bits); SEL and USEL (either source)) and gives it that
// value; any other instruction that may write the register, a call, or an
// indirect branch makes it unknown, and a predicated write keeps only what
// both outcomes agree on. The writes of an instruction are its first
// register operand (the second where the first is a predicate, as SHFL and
// ELECT write), widened by its modifiers (.64, .WIDE: 2; .128: 4; .256: 8)
// and taken as the whole register file's rest for matrix, texture and
// matrix-load instructions.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "capture/host/sass/known_bits.hpp"
#include "capture/host/sass/sass_table.hpp"

namespace bankcheck::capture {

class SassConstants {
 public:
  /// `lines`: one function's, in address order (their `function` is not read); `entry_pc` is the first line's absolute
  /// address, which branch targets in the text are given in (Nsight
  /// Compute's listing). A target outside the listing, or an indirect
  /// branch, leaves every register unknown.
  SassConstants(std::vector<SassLine> lines, std::uint64_t entry_pc);

  /// The 32-bit value of `reg` ("R3", "UR13", "RZ") when the instruction at
  /// `offset` starts, if every path from the entry gives it the same
  /// constant; std::nullopt otherwise (or for an offset not in the listing).
  std::optional<std::uint32_t> value_before(std::uint64_t offset, std::string_view reg) const;
  /// The bits of `reg` that every path gives one value there (none where the
  /// line is unreachable or not in the listing).
  KnownBits bits_before(std::uint64_t offset, std::string_view reg) const;

  /// Why the whole listing is unknown (an indirect branch, a target outside
  /// it), or empty.
  const std::string& unusable() const { return unusable_; }

 private:
  std::vector<SassLine> lines_;
  std::vector<std::size_t> block_start_;  ///< first line of each basic block
  std::vector<std::size_t> block_of_;     ///< per line
  std::vector<std::vector<KnownBits>> in_;  ///< per block: what is known at its start
  std::vector<bool> reached_;               ///< per block: whether a path from the entry reaches it
  std::string unusable_;
};

}  // namespace bankcheck::capture
