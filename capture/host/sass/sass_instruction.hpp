#pragma once
// One SASS instruction's text, taken apart: its guard ("@P0", "@!UPT"),
// mnemonic and opcode, operands split at top-level commas, and the
// registers and predicates its operands name, numbered as SassConstants
// keeps them (R0-R255, then UR0-UR63, then the zero register, then P0-P6
// and UP0-UP6). Which register an instruction writes, and how many, is
// here too: its first register operand (the second where the first is a
// predicate, as SHFL and ELECT write), widened by its modifiers (.64, .WIDE:
// 2; .128: 4; .256: 8), and the rest of the register file for matrix,
// texture and matrix-load instructions, whose destinations are ranges.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace bankcheck::capture::sass {

inline constexpr std::size_t kRegisters = 256 + 64;          ///< R0-R255, then UR0-UR63
inline constexpr std::size_t kZero = kRegisters;             ///< RZ and URZ: reads give 0, writes go nowhere
inline constexpr std::size_t kFirstPredicate = kZero + 1;    ///< P0-P6, then UP0-UP6
inline constexpr std::size_t kSlots = kFirstPredicate + 14;

struct Instruction {
  std::string_view guard;  ///< "@!P0", "@PT"; empty where the text has none
  bool guarded = false;    ///< "@P0 ...": may not execute ("@PT" always does)
  std::string_view mnemonic, opcode;  ///< "UIADD3.64", "UIADD3"
  std::vector<std::string_view> operands;
};

/// The parts of `text`, which must outlive the result (they are views into it).
Instruction parse_instruction(std::string_view text);

/// A register operand's slot (kZero for RZ, URZ), or nullopt for anything else ("R3.reuse" is R3).
std::optional<std::size_t> register_index(std::string_view operand);
/// The register an operand starts with, suffixes ignored ("R3.H1" is R3): where it is written, a
/// suffix must never hide the write.
std::optional<std::size_t> leading_register(std::string_view operand);
/// P0-P6, PT, UP0-UP6, UPT, each maybe negated ('!').
bool is_predicate(std::string_view operand);
/// A predicate operand's slot ('!' ignored); nullopt for PT and UPT, which hold true.
std::optional<std::size_t> predicate_index(std::string_view operand);
/// "0x40000040", "-0x8".
std::optional<std::uint32_t> immediate(std::string_view operand);
/// How many consecutive registers the destination spans.
std::size_t write_width(const Instruction& ins);

}  // namespace bankcheck::capture::sass
