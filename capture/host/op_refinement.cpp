#include "capture/host/op_refinement.hpp"

#include <algorithm>
#include <string>

#include "sim/trace/trace_file.hpp"

namespace bankcheck::capture {
namespace {

/// The mnemonic of a SASS line: its first word after an optional predicate.
std::string_view mnemonic(std::string_view sass) {
  auto skip_space = [&] {
    while (!sass.empty() && (sass.front() == ' ' || sass.front() == '\t')) sass.remove_prefix(1);
  };
  skip_space();
  if (!sass.empty() && sass.front() == '@') {
    sass.remove_prefix(std::min(sass.find(' '), sass.size()));
    skip_space();
  }
  return sass.substr(0, sass.find_first_of(" \t"));
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

/// Whether an operand after the mnemonic is a predicate (P0-P6, PT, with or
/// without '!'): the source-size / ignore-src form of LDGSTS
/// ("LDGSTS.E.BYPASS.128 [R5], desc[UR4][R2.64], P0"). The guard in front
/// ("@P0 LDGSTS...") is not an operand.
bool has_predicate_operand(std::string_view sass) {
  const std::string_view m = mnemonic(sass);
  std::string_view rest = sass.substr(static_cast<std::size_t>(m.data() - sass.data()) + m.size());
  while (!rest.empty()) {
    const std::size_t start = rest.find_first_not_of(" \t,");
    if (start == std::string_view::npos) break;
    rest.remove_prefix(start);
    std::string_view operand = rest.substr(0, rest.find_first_of(" \t,"));
    rest.remove_prefix(operand.size());
    if (!operand.empty() && operand.front() == '!') operand.remove_prefix(1);
    if (operand.size() == 2 && operand[0] == 'P' && ((operand[1] >= '0' && operand[1] <= '6') || operand[1] == 'T'))
      return true;
  }
  return false;
}

}  // namespace

Op refine_op(Op reported, std::string_view sass) {
  const std::string_view m = mnemonic(sass);
  if (reported == Op::atom) {
    if (starts_with(m, "ATOMS.CAS") || starts_with(m, "ATOMS.CAST")) return Op::atom_cas;
    if (starts_with(m, "ATOMS.POPC.INC")) return Op::atom_popc;
  }
  if (reported == Op::cpasync && starts_with(m, "LDGSTS") && m.find(".BYPASS") != std::string_view::npos)
    return has_predicate_operand(sass) ? Op::cpasync_cg_zfill : Op::cpasync_cg;
  return reported;
}

bool refinable(Op reported) { return reported == Op::atom || reported == Op::cpasync; }

TraceRefinement refine_trace_ops(const std::filesystem::path& path, const SassTable& sass) {
  // First pass: does any record change? Most traces have no such op, and are left alone.
  TraceRefinement result;
  bool global = false;
  {
    auto source = open_trace(path.string());
    TraceRecord r;
    while (source->next(r)) {
      global = global || is_global(r.request.op);
      if (const std::string* text = sass.find(source->sites().name(r.site)))
        result.changed += refine_op(r.request.op, *text) != r.request.op;
      else
        result.unrefined += refinable(r.request.op);
    }
  }
  if (result.changed == 0) return result;
  auto source = open_trace(path.string());
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
      sink->record(site, request);
    }
    if (const auto expected = source->expected()) sink->expect(*expected);
    sink->end();
  }
  std::filesystem::rename(temporary, path);
  return result;
}

}  // namespace bankcheck::capture
