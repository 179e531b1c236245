#include "capture/host/sass/sass_constants.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <deque>
#include <utility>

#include "capture/host/sass/sass_instruction.hpp"

namespace bankcheck::capture {

namespace {

using namespace sass;

bool is_control(std::string_view opcode) {
  static constexpr std::array<std::string_view, 8> ops = {"BRA", "BRX", "JMP", "JMX", "CALL", "RET", "EXIT", "KILL"};
  return std::find(ops.begin(), ops.end(), opcode) != ops.end();
}

/// Whether control never falls through to the next line: no guard, and no predicate operand either
/// (`BRA !P0, 0x...` and `BRA.U UP1, 0x...` branch on their operand).
bool ends_flow(const Instruction& ins) {
  if (ins.guarded) return false;
  for (const std::string_view op : ins.operands)
    if (is_predicate(op) && op != "PT") return false;
  return ins.mnemonic == "BRA" || ins.mnemonic == "JMP" || ins.opcode == "EXIT" || ins.opcode == "RET" ||
         ins.opcode == "KILL";
}

/// The absolute target a branch names ("0x7f63e77ac540"), if any.
std::optional<std::uint64_t> target(const Instruction& ins) {
  if (ins.opcode != "BRA" && ins.opcode != "JMP") return std::nullopt;
  for (const std::string_view op : ins.operands)
    if (op.rfind("0x", 0) == 0) {
      std::uint64_t v = 0;
      const auto [end, ec] = std::from_chars(op.data() + 2, op.data() + op.size(), v, 16);
      if (ec == std::errc() && end == op.data() + op.size()) return v;
    }
  return std::nullopt;
}

/// What is known of every slot (sass_instruction.hpp): registers, the zero register, predicates
/// (bit 0 of a predicate's KnownBits).
using Registers = std::vector<KnownBits>;

/// Whether the operand is negated ("-UR12"), the sign taken off it.
bool take_minus(std::string_view& operand) {
  if (operand.empty() || operand.front() != '-') return false;
  operand.remove_prefix(1);
  return true;
}

KnownBits read(const Registers& r, std::string_view operand) {
  const bool negative = take_minus(operand);
  KnownBits v;
  if (const auto i = register_index(operand)) v = r[*i];
  else if (const auto imm = immediate(operand)) v = KnownBits::constant(*imm);
  return negative ? negate(v) : v;
}

/// A register pair's value ("UR6" is UR6 low, UR7 high; "-UR12" negated over 64 bits; RZ/URZ 0; an immediate).
KnownBits64 read_pair(const Registers& r, std::string_view operand) {
  const bool negative = take_minus(operand);
  KnownBits64 v;
  if (const auto i = register_index(operand)) {
    const std::size_t last = *i >= 256 ? kRegisters - 1 : 255;  // no pair starts at UR63 or R255
    if (*i == kZero) v = {KnownBits::constant(0), KnownBits::constant(0)};
    else if (*i < last) v = {r[*i], r[*i + 1]};
  } else if (const auto imm = immediate(operand)) {
    // a 32-bit immediate below 2^31 is the same zero- or sign-extended; above, the high half is not known here
    v = {KnownBits::constant(*imm), *imm < 0x80000000u ? KnownBits::constant(0) : KnownBits{}};
  }
  return negative ? negate64(v) : v;
}

/// A predicate operand as a carry: PT true, !PT false, P0-P6/UP0-UP6 as known, '!' inverting.
KnownCarry read_carry(const Registers& r, std::string_view operand) {
  const bool inverted = !operand.empty() && operand.front() == '!';
  KnownCarry c{true, true};  // PT, UPT
  if (const auto i = predicate_index(operand)) c = {r[*i].knows(0, 1), r[*i].field(0, 1) == 1};
  if (inverted) c.value = !c.value;
  return c;
}

KnownBits carry_bits(KnownCarry c) { return c.known ? KnownBits::constant(c.value ? 1 : 0) : KnownBits{}; }

std::optional<unsigned> shift_amount(std::string_view operand) {
  const auto imm = immediate(operand);
  if (!imm || *imm > 31) return std::nullopt;
  return *imm;
}

/// What an instruction writes: the destination register (and the next, for 64-bit results), and the
/// predicates it sets that are evaluated (an add's carries); every other predicate operand is
/// clobbered by transfer().
struct Written {
  KnownBits low, high;
  std::vector<std::pair<std::size_t, KnownBits>> predicates;
};

/// IADD3 and UIADD3, with carries: `UIADD3 UR8, UP0, UR12, 0x2, URZ` sets UP0 to the carry out;
/// `UIADD3.X UR9, UR5, 0x40000040, URZ, UP0, !UPT` adds the carries in (the 64-bit adds compilers write).
Written add3(const Instruction& ins, const Registers& r) {
  const auto& ops = ins.operands;
  const bool extended = ins.mnemonic.size() > ins.opcode.size() && ins.mnemonic.substr(ins.opcode.size()) == ".X";
  if (ins.mnemonic != ins.opcode && !extended) return {};
  std::size_t i = 1;
  std::vector<std::string_view> outs;
  while (i < ops.size() && is_predicate(ops[i]) && outs.size() < 2) outs.push_back(ops[i++]);
  if (i + 3 > ops.size()) return {};
  const std::size_t sources = i;
  i += 3;
  KnownCarry in1{}, in2{};
  if (extended) {
    if (i + 2 != ops.size() || !is_predicate(ops[i]) || !is_predicate(ops[i + 1])) return {};
    in1 = read_carry(r, ops[i]);
    in2 = read_carry(r, ops[i + 1]);
  } else if (i != ops.size()) {
    return {};
  }
  const auto [partial, c1] = add(read(r, ops[sources]), read(r, ops[sources + 1]), in1);
  const auto [sum, c2] = add(partial, read(r, ops[sources + 2]), in2);
  Written w{sum, {}, {}};
  // the carry out of a three-input add is 0..2: its low bit goes to the first predicate, the high to the second
  const KnownBits total = add(carry_bits(c1), carry_bits(c2)).first;
  for (std::size_t k = 0; k < outs.size(); ++k)
    if (const auto slot = predicate_index(outs[k]))
      w.predicates.push_back({*slot, total.knows(static_cast<unsigned>(k), 1)
                                         ? KnownBits::constant(total.field(static_cast<unsigned>(k), 1))
                                         : KnownBits{}});
  return w;
}

Written evaluate(const Instruction& ins, const Registers& r) {
  const auto& ops = ins.operands;
  const std::string_view m = ins.mnemonic;
  auto one = [](KnownBits v) { return Written{v, {}, {}}; };
  if ((m == "MOV" || m == "MOV32I" || m == "UMOV" || m == "R2UR") &&
      (ops.size() == 2 || (m == "MOV" && ops.size() == 3 && ops[2] == "0xf")))
    return one(read(r, ops[1]));
  if ((m == "IMAD.MOV.U32" || m == "IMAD.MOV") && ops.size() == 4 && ops[1] == "RZ" && ops[2] == "RZ")
    return one(read(r, ops[3]));
  if (ins.opcode == "IADD3" || ins.opcode == "UIADD3") {
    if (m == "UIADD3.64" && ops.size() == 4) {
      const KnownBits64 v = add64(add64(read_pair(r, ops[1]), read_pair(r, ops[2])), read_pair(r, ops[3]));
      return {v.low, v.high, {}};
    }
    return add3(ins, r);
  }
  if ((m == "LOP3.LUT" || m == "ULOP3.LUT") && ops.size() == 6 && is_predicate(ops[5]))
    if (const auto lut = immediate(ops[4]); lut && *lut < 256)
      return one(lop3(read(r, ops[1]), read(r, ops[2]), read(r, ops[3]), static_cast<std::uint8_t>(*lut)));
  // Funnel shifts of the pair {ops[3]:ops[1]} by an immediate: .HI keeps the high word, else the low.
  if ((m == "SHF.R.U32.HI" || m == "USHF.R.U32.HI") && ops.size() == 4)
    if (const auto n = shift_amount(ops[2])) return one(shift_right(read(r, ops[3]), *n));
  if ((m == "SHF.L.U32" || m == "USHF.L.U32") && ops.size() == 4)
    if (const auto n = shift_amount(ops[2])) return one(shift_left(read(r, ops[1]), *n));
  if ((m == "SHF.R.U64" || m == "USHF.R.U64") && ops.size() == 4)
    if (const auto n = shift_amount(ops[2]))
      return one(*n == 0 ? read(r, ops[1])
                         : lop3(shift_right(read(r, ops[1]), *n), shift_left(read(r, ops[3]), 32 - *n),
                                KnownBits::constant(0), 0xfc));
  if ((m == "LEA" || m == "ULEA") && ops.size() == 4)
    if (const auto n = shift_amount(ops[3])) return one(add(shift_left(read(r, ops[1]), *n), read(r, ops[2])).first);
  if ((m == "SGXT.U32" || m == "USGXT.U32") && ops.size() == 3)
    if (const auto n = immediate(ops[2]); n && *n >= 1 && *n <= 32) return one(low_bits(read(r, ops[1]), *n));
  if ((m == "SEL" || m == "USEL") && ops.size() == 4)  // either source, by a predicate not followed here
    return one(meet(read(r, ops[1]), read(r, ops[2])));
  return {};
}

void transfer(const Instruction& ins, Registers& r) {
  if (ins.opcode == "CALL") {  // the callee may write anything
    std::fill(r.begin(), r.end(), KnownBits{});
    r[kZero] = KnownBits::constant(0);
    return;
  }
  auto store = [&](std::size_t slot, KnownBits value) { r[slot] = ins.guarded ? meet(r[slot], value) : value; };
  std::size_t dest_at = 0;
  if (!ins.operands.empty() && is_predicate(ins.operands[0])) dest_at = 1;
  // The destination's slot; kZero also where there is none (a store's first operand is an address).
  const std::size_t dest =
      dest_at < ins.operands.size() ? leading_register(ins.operands[dest_at]).value_or(kZero) : kZero;
  const bool evaluated = dest != kZero && dest_at == 0;
  const Written w = evaluated ? evaluate(ins, r) : Written{};
  // Every predicate operand may be written (ISETP's, an add's carries, PLOP3's): unknown unless evaluated;
  // an operand PR (R2P) stands for all of them.
  for (const std::string_view op : ins.operands) {
    if (op == "PR" || op == "UPR") {
      for (std::size_t p = kFirstPredicate; p < kSlots; ++p) store(p, KnownBits{});
      continue;
    }
    const auto slot = predicate_index(op);
    if (!slot) continue;
    KnownBits value;
    for (const auto& [s, v] : w.predicates)
      if (s == *slot) value = v;
    store(*slot, value);
  }
  if (dest == kZero) return;
  const std::size_t width = write_width(ins);
  const bool pair = ins.mnemonic == "UIADD3.64";
  // A uniform register's file ends at UR63, a vector register's at R255.
  const std::size_t end = std::min(dest + width, dest >= 256 ? kRegisters : std::size_t{256});
  for (std::size_t i = dest; i < end; ++i)
    store(i, width > 1 && !pair ? KnownBits{} : i == dest ? w.low : i == dest + 1 ? w.high : KnownBits{});
}

}  // namespace

namespace {

/// Basic-block leaders and each branch's target line, or why the listing cannot be followed.
struct Branches {
  std::vector<bool> leader;
  std::vector<std::optional<std::size_t>> jump;
  std::string unusable;
};

Branches find_branches(const std::vector<SassLine>& lines, const std::vector<Instruction>& parsed,
                       std::uint64_t entry_pc) {
  const std::size_t n = lines.size();
  auto line_at = [&](std::uint64_t absolute) -> std::optional<std::size_t> {
    if (absolute < entry_pc) return std::nullopt;
    const std::uint64_t offset = absolute - entry_pc;
    const auto it = std::lower_bound(lines.begin(), lines.end(), offset,
                                     [](const SassLine& l, std::uint64_t o) { return l.offset < o; });
    if (it == lines.end() || it->offset != offset) return std::nullopt;
    return static_cast<std::size_t>(it - lines.begin());
  };
  Branches b{std::vector<bool>(n, false), std::vector<std::optional<std::size_t>>(n), ""};
  b.leader[0] = true;
  for (std::size_t i = 0; i < n; ++i) {
    const Instruction& ins = parsed[i];
    if (ins.opcode == "BRX" || ins.opcode == "JMX") return {{}, {}, "an indirect branch: '" + lines[i].text + "'"};
    if ((ins.opcode == "BRA" || ins.opcode == "JMP") && !target(ins))
      return {{}, {}, "a branch whose target is not an address: '" + lines[i].text + "'"};
    if (const auto t = target(ins)) {
      b.jump[i] = line_at(*t);
      if (!b.jump[i]) return {{}, {}, "a branch out of the listing: '" + lines[i].text + "'"};
      b.leader[*b.jump[i]] = true;
    }
    if (is_control(ins.opcode) && i + 1 < n) b.leader[i + 1] = true;
  }
  return b;
}

/// The registers at a block's start, met into its successor's state: whether the successor's state changed.
bool meet_into(std::vector<KnownBits>& state, bool& reached, const Registers& r) {
  if (!reached) {
    state = r;
    reached = true;
    return true;
  }
  bool changed = false;
  for (std::size_t k = 0; k < kSlots; ++k) {
    const KnownBits m = meet(state[k], r[k]);
    if (m != state[k]) {
      state[k] = m;
      changed = true;
    }
  }
  return changed;
}

}  // namespace

SassConstants::SassConstants(std::vector<SassLine> lines, std::uint64_t entry_pc) : lines_(std::move(lines)) {
  const std::size_t n = lines_.size();
  if (n == 0) return;
  std::vector<Instruction> parsed;
  parsed.reserve(n);
  for (const SassLine& l : lines_) parsed.push_back(parse_instruction(l.text));
  const Branches branches = find_branches(lines_, parsed, entry_pc);
  if (!branches.unusable.empty()) {
    unusable_ = branches.unusable;
    return;
  }
  block_of_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (branches.leader[i]) block_start_.push_back(i);
    block_of_[i] = block_start_.size() - 1;
  }
  const std::size_t blocks = block_start_.size();
  std::vector<std::vector<std::size_t>> successors(blocks);
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::size_t last = (b + 1 < blocks ? block_start_[b + 1] : n) - 1;
    if (branches.jump[last]) successors[b].push_back(block_of_[*branches.jump[last]]);
    if (!ends_flow(parsed[last]) && b + 1 < blocks) successors[b].push_back(b + 1);
  }
  // Nothing is known at the entry; a block no path has reached yet holds no state.
  in_.assign(blocks, Registers(kSlots));
  for (auto& state : in_) state[kZero] = KnownBits::constant(0);
  reached_.assign(blocks, false);
  reached_[0] = true;
  std::deque<std::size_t> work{0};
  std::vector<bool> queued(blocks, false);
  queued[0] = true;
  while (!work.empty()) {
    const std::size_t b = work.front();
    work.pop_front();
    queued[b] = false;
    Registers r = in_[b];
    const std::size_t end = b + 1 < blocks ? block_start_[b + 1] : n;
    for (std::size_t i = block_start_[b]; i < end; ++i) transfer(parsed[i], r);
    for (const std::size_t s : successors[b]) {
      bool reached = reached_[s];
      const bool changed = meet_into(in_[s], reached, r);
      reached_[s] = reached;
      if (changed && !queued[s]) {
        queued[s] = true;
        work.push_back(s);
      }
    }
  }
}

KnownBits SassConstants::bits_before(std::uint64_t offset, std::string_view reg) const {
  if (!unusable_.empty() || lines_.empty()) return {};
  const auto index = register_index(reg);
  if (!index) return {};
  if (*index == kZero) return KnownBits::constant(0);
  const auto it = std::lower_bound(lines_.begin(), lines_.end(), offset,
                                   [](const SassLine& l, std::uint64_t o) { return l.offset < o; });
  if (it == lines_.end() || it->offset != offset) return {};
  const auto line = static_cast<std::size_t>(it - lines_.begin());
  const std::size_t block = block_of_[line];
  if (!reached_[block]) return {};  // no path reaches it
  Registers r = in_[block];
  for (std::size_t i = block_start_[block]; i < line; ++i) transfer(parse_instruction(lines_[i].text), r);
  return r[*index];
}

std::optional<std::uint32_t> SassConstants::value_before(std::uint64_t offset, std::string_view reg) const {
  const KnownBits k = bits_before(offset, reg);
  if (!k.is_constant()) return std::nullopt;
  return k.value;
}

}  // namespace bankcheck::capture
