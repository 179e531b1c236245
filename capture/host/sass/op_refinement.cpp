#include "capture/host/sass/op_refinement.hpp"

#include <algorithm>
#include <string>

#include "capture/host/sass/sass_form.hpp"
#include "sim/trace/trace_file.hpp"

namespace bankcheck::capture {
namespace {

/// The LDGSTS forms whose cost was measured (docs/bank-model.md, rule 6:
/// the cpasrc, cgsrc, cgline, cgwarm, cgforms and casrcsize probe sets, and
/// caltc, cgltc and zfill for the L2::128B hint): `.ca` of 4, 8 and 16
/// bytes and `.cg` of 16 bytes, with and without the hint (.LTC128B), each
/// with and without a predicate operand, negated or not (cpasync3); and
/// the `.ca` copies with any source size (.ZFILL, cpasync3: every .ca
/// .ZFILL probe of the three campaigns the model costs equals the `.ca`
/// rule, a lane that reads part of its bytes counted as reading). Any other
/// modifier (another L2 hint, .BYPASS with .ZFILL, .ZFILL with the hint,
/// another width) is a form no rule was measured on.
bool is_measured_copy_form(std::string_view m) {
  for (std::string_view form : {"LDGSTS.E", "LDGSTS.E.64", "LDGSTS.E.128", "LDGSTS.E.BYPASS.128", "LDGSTS.E.LTC128B",
                                "LDGSTS.E.LTC128B.64", "LDGSTS.E.LTC128B.128", "LDGSTS.E.BYPASS.LTC128B.128",
                                "LDGSTS.E.ZFILL", "LDGSTS.E.64.ZFILL", "LDGSTS.E.128.ZFILL"})
    if (m == form) return true;
  return false;
}

/// The generic forms (a load, store or atomic through a generic pointer that
/// lands in shared memory: LD/ST, not LDS/STS) whose cost was measured
/// (docs/bank-model.md, "Generic loads and stores": validate/sm90/generic_on_gpu.sh
/// and the paired-load campaign's gen/genw launches, H200, 2026-11-29): weak
/// loads of 1, 2, 4 and 8 bytes, their relaxed (.STRONG.GPU) twins and the
/// volatile 8-byte load cost as LDS, weak and relaxed stores of every width as
/// STS. The 16-byte loads (rule 3 missed 41 of 144 per instruction, 34 of 110
/// relaxed), the volatile forms of other widths and every generic atomic were
/// not measured or have no rule.
bool is_measured_generic_form(std::string_view m) {
  constexpr std::string_view kRelaxed = ".STRONG.GPU";
  if (m.ends_with(kRelaxed) && !m.starts_with("LD.E.128")) m.remove_suffix(kRelaxed.size());
  for (std::string_view form : {"LD.E", "LD.E.U8", "LD.E.U16", "LD.E.64", "LD.E.64.STRONG.SYS", "ST.E", "ST.E.U8",
                                "ST.E.U16", "ST.E.64", "ST.E.128"})
    if (m == form) return true;
  return false;
}

}  // namespace

Op refine_op(Op reported, std::string_view sass) {
  const std::string_view m = sass_mnemonic(sass);
  if ((reported == Op::load || reported == Op::store || reported == Op::atom) && is_generic_access(m))
    return is_measured_generic_form(m) ? reported : Op::unmeasured;
  if (reported == Op::atom) {
    if (m.starts_with("ATOMS.CAST")) return Op::atom_cast;
    if (m.starts_with("ATOMS.CAS")) return Op::atom_cas;
    if (m.starts_with("ATOMS.POPC.INC")) return Op::atom_popc;
  }
  if (reported == Op::cpasync && m.starts_with("LDGSTS")) {
    if (!is_measured_copy_form(m)) return Op::cpasync_unmeasured;
    if (m.find(".BYPASS") != std::string_view::npos) {
      // The predicate operand decides (docs/bank-model.md, rule 6c; one
      // pattern copied through all 14 operands, cpasync3's sweeps): P0 costs
      // as a 16-byte store; P1 to P6, !P1 to !P6 (and no operand, or PT) as
      // rule 6b, each measuring what the others do; !P0 as rule 6b while
      // every lane reads, its zero-filling lanes unlike any rule.
      const std::string_view p = predicate_operand(sass);
      if (p == "P0") return Op::cpasync_cg_zfill;
      if (p == "!P0") return Op::cpasync_cg_notp0;
      return p == "!PT" ? Op::cpasync_unmeasured : Op::cpasync_cg;  // !PT: never probed
    }
  }
  return reported;
}

bool refinable(Op reported) { return reported == Op::atom || reported == Op::cpasync; }

TraceRefinement refine_trace_ops(const std::filesystem::path& path, const SassTable& sass) {
  // First pass: does any record change? Most traces have no such op, and are left alone.
  TraceRefinement result;
  bool global = false;
  {
    auto source = open_trace(path.string());
    source->keep_repeats();  // a deduplicated trace's repeated record counts its executions
    TraceRecord r;
    while (source->next(r)) {
      global = global || is_global(r.request.op);
      if (const std::string* text = sass.find(source->sites().name(r.site)))
        result.changed += refine_op(r.request.op, *text) != r.request.op ? r.repeat : 0;
      else
        result.unrefined += refinable(r.request.op) ? r.repeat : 0;
    }
  }
  if (result.changed == 0) return result;
  auto source = open_trace(path.string());
  source->keep_repeats();  // rewritten as it is: a repeated record stays one
  const std::filesystem::path temporary = path.string() + ".refined";
  {
    // Shared-memory offsets fit 4-byte addresses (docs/trace-format.md); global ones need 8.
    auto sink = create_trace(temporary.string(), TraceFormat::binary, global ? 8 : 4);
    sink->begin(source->warp());
    TraceRecord r;
    const TraceLocation* last = nullptr;
    TraceLocation where;
    while (source->next(r)) {
      if (r.location && (!last || !(*r.location == where))) {
        where = *r.location;
        last = &where;
        sink->location(where);
      }
      WarpRequest request = r.request;
      const std::string& site = source->sites().name(r.site);
      if (const std::string* text = sass.find(site)) request.op = refine_op(request.op, *text);
      sink->record_repeated(site, request, r.repeat);
    }
    if (const auto expected = source->expected()) sink->expect(*expected);
    sink->end();
  }
  std::filesystem::rename(temporary, path);
  return result;
}

}  // namespace bankcheck::capture
