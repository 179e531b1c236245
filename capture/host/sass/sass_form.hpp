#pragma once
// What an instruction's SASS text says about it, for the capture and for
// `compare`: its mnemonic (opcode and modifiers, "LDGSTS.E.BYPASS.LTC128B.128"),
// whether a predicate is one of its operands (the source-size / ignore-src
// form of LDGSTS), whether it can touch shared or global memory at all (a
// captured record never belongs to an IMAD or a BRA: a pairing that puts
// one there pairs two different functions), and which shared-memory
// readers and writers the capture cannot trace per lane (wgmma operands,
// TMA and bulk copies, asynchronous stores, mbarriers).
#include <optional>
#include <string_view>

namespace bankcheck::capture {

/// The first word after an optional guard predicate ("@P0", "@!PT").
std::string_view sass_mnemonic(std::string_view sass);

/// The predicate operand among the instruction's operands, as written ("P0",
/// "!P3", "PT"), or empty: an LDGSTS's source-size / ignore-src operand, whose
/// register decides its cost (docs/bank-model.md, rule 6c). The guard in
/// front ("@P0 LDGSTS...") is not an operand.
std::string_view predicate_operand(std::string_view sass);
/// Whether an operand after the mnemonic is a predicate (P0-P6, PT, with or
/// without '!').
bool has_predicate_operand(std::string_view sass);

/// Whether an instruction of this mnemonic can access shared or global
/// memory: loads, stores, atomics and reductions (LDS, LDG, LD, ST*,
/// ATOM*, RED*), matrix loads and stores, LDGSTS, wgmma, TMA and bulk
/// copies, mbarrier operations; not constant, local or uniform-constant
/// loads (LDC, LDL, STL, ULDC) nor arithmetic and control flow.
bool can_access_memory(std::string_view mnemonic);

/// Whether the mnemonic is an access through a generic address (LD, ST, ATOM,
/// RED: the sanitizer reports the lanes that land in shared memory as shared
/// loads, stores and atomics), not through the shared window (LDS, STS, ATOMS).
bool is_generic_access(std::string_view mnemonic);

/// The kind of shared-memory access the capture records no lanes of, or
/// none: "wgmma" (HGMMA, QGMMA, IGMMA, BGMMA reading operands through a
/// matrix descriptor), "TMA" (UTMALDG, UTMASTG, UTMAREDG, UTMAPF, UBLKCP,
/// UBLKRED, UBLKPF), "st.async" (STAS, REDAS: distributed shared memory),
/// "mbarrier" (SYNCS).
std::optional<std::string_view> untraced_kind(std::string_view mnemonic);
/// Whether the instruction (its whole text, guard and all) is of that untraced kind ("wgmma", "TMA", ...).
bool is_untraced(std::string_view sass, std::string_view kind);

/// Whether this TMA form (the mnemonic, modifiers and all) was measured on
/// the H100 with no shared wavefronts in Nsight Compute's per-instruction
/// counters: UTMALDG .2D/.3D/.4D, .3D.MULTICAST, .5D.MULTICAST, .5D.IM2COL;
/// UTMASTG .2D/.3D/.4D, .5D.IM2COL; UTMACMDFLUSH (docs/bank-model.md, rule 8:
/// validate/sm90/sm90a/tma_probes.cu and the cuBLAS, cuDNN and hand-written sm90
/// kernels, every row 0); UTMACCTL.PF, UTMACCTL.IV, UTMAPF.L2.2D and
/// UTMALDG.4D.MULTICAST (validate/fidelity/tma_forms.cu, H200, every row 0). `compare` gives those rows `yes` where ncu counts 0
/// (and `no` where it counts any); other TMA forms are not modelled.
bool tma_form_measured(std::string_view mnemonic);

}  // namespace bankcheck::capture
