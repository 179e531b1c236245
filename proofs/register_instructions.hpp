#pragma once
// The shared-memory instructions a register layout permits on a shared
// layout, each planned as the warp instructions that move the whole tile and
// costed by the bank model (layout::check_layout: the checker's own cost).
// A lane's registers are renamed freely (an index known at compile time), so
// an instruction exists wherever the addresses allow it:
//  * st.B / ld.B (B = the element .. 16 bytes): 2^k register bases of a lane
//    whose elements lie at consecutive addresses, in some order of the bases,
//    B-aligned, for every lane, warp and value of the other registers;
//  * stmatrix / ldmatrix .xN: the fragment of an 8x8 matrix of 16-byte rows,
//    PTX's: lane 4i+t holds bytes [4t, 4t+4) of row i, so lane bits 0 and 1
//    step 4 and 8 bytes, and the elements of one 4-byte word are register
//    bases (2 for int8, 1 for fp16, none for fp32); lanes 8j..8j+7 give the
//    addresses of matrix j's rows (any 16-byte aligned addresses);
//  * .trans (16-bit elements only): lane 4i+t holds column i of rows 2t and
//    2t+1, so lane bits 2, 3, 4 step 2, 4, 8 bytes along a row and a register
//    basis (any) picks row 2t or 2t+1;
//  the .xN takes N = 4 matrices where the registers leave two more bases
//  (else 2, else 1): which matrices share an instruction moves no wavefront
//  (each matrix is one phase), only the instruction count.
#include <cstdint>
#include <string>
#include <vector>

#include "model/bank_model.hpp"
#include "sim/layout/element_type.hpp"
#include "sim/layout/layout_check.hpp"
#include "sim/layout/register_layout.hpp"

namespace bankcheck::proofs {

/// The byte address of every element of a rows x cols tile (index row x cols + col).
struct TileAddresses {
  std::uint64_t rows = 0, cols = 0;
  std::vector<std::uint64_t> byte;
  std::uint64_t at(const layout::TileCoord& c) const { return byte[c.row * cols + c.col]; }
};

struct InstructionChoice {
  layout::AccessKind kind;
  std::vector<unsigned> inner;   ///< register bases inside a lane's vector or matrix word, lowest address step first
  int trans_pair = -1;           ///< .trans: the register basis that picks row 2t + 1
  std::vector<unsigned> matrix;  ///< .xN: the register bases that pick the matrix (bit 0 first)
  std::vector<unsigned> outer;   ///< the other register bases: one instruction per value, per warp

  /// "st.128 (registers 0,1 in a vector)", "stmatrix.x4 (lanes 4i+t: row i; matrices: registers 2,3)".
  std::string text() const;
};

struct RegisterAccess {
  InstructionChoice choice;
  layout::LayoutCheck check;
};

/// Every instruction the registers permit on `addr`, planned and costed: stores for a writer, loads for a reader.
std::vector<RegisterAccess> register_accesses(const layout::RegisterLayout& regs, bool store, const layout::ElementType& e,
                                              const TileAddresses& addr, const BankModel& model);

/// The instructions of one choice on `addr`. @throws std::invalid_argument where the addresses do not permit it.
layout::LayoutAccess plan_register_access(const layout::RegisterLayout& regs, const InstructionChoice& choice,
                                          const layout::ElementType& e, const TileAddresses& addr);

/// Orders by wavefronts (modelled first), then instructions: the best of register_accesses is the least.
bool better_access(const RegisterAccess& a, const RegisterAccess& b);

}  // namespace bankcheck::proofs
