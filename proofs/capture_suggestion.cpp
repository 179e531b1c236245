#include "proofs/capture_suggestion.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <stdexcept>
#include <tuple>

#include "proofs/affine_address_fit.hpp"
#include "proofs/number_theory.hpp"
#include "proofs/record_lane_fit.hpp"
#include "proofs/xor_map_search.hpp"

namespace bankcheck::proofs {
namespace capture_fit {

/// One execution of an instruction: who ran it (the fit's variables but the lane) and its request.
struct Execution {
  FitVariables who;
  const std::vector<std::uint64_t>* request = nullptr;  ///< addresses, then sources: a key of `requests`
};

/// One instruction of the launch while its records are read.
struct Instruction {
  SuggestedInstruction out;
  AffineAddressFit fit;  ///< of the byte offsets from its buffer's base, once the buffers are known
  RecordLaneFit lane_fit;  ///< the same per distinct record, in the lane bits alone (a deduplicated trace)
  bool per_record = false; ///< which of the two: the trace merged identical records, so lane_fit
  std::string unfit;     ///< a reason the full fit cannot hold beyond a contradiction
  std::map<std::array<std::uint32_t, 4>, std::uint32_t> iterations;  ///< per (block, warp): executions so far
  std::map<std::vector<std::uint64_t>, std::uint64_t> requests;      ///< distinct (addresses, sources): count
  std::vector<Execution> executions;
};

std::uint64_t checked_add(std::uint64_t a, std::uint64_t b) {
  if (__builtin_add_overflow(a, b, &a)) throw std::overflow_error("a wavefront count past 2^64");
  return a;
}

std::uint64_t checked_mul(std::uint64_t a, std::uint64_t b) {
  if (__builtin_mul_overflow(a, b, &a)) throw std::overflow_error("a wavefront count past 2^64");
  return a;
}

/// blockIdx packed x | y << 16 | z << 24 (the fit's 29 block bits), or false.
bool pack_block(const std::array<std::uint32_t, 3>& b, std::uint32_t& out) {
  if (b[0] >= (1u << 16) || b[1] >= (1u << 8) || b[2] >= (1u << 5)) return false;
  out = b[0] | b[1] << 16 | b[2] << 24;
  return true;
}

void add_record(Instruction& in, const TraceRecord& r) {
  const WarpRequest& q = r.request;
  in.out.executions = checked_add(in.out.executions, r.repeat);
  std::array<std::uint32_t, 4> who{};
  FitVariables x;
  if (r.location) {
    who = {r.location->block[0], r.location->block[1], r.location->block[2], r.location->warp};
    x.warp = r.location->warp;
    if (!pack_block(r.location->block, x.block) && in.unfit.empty())
      in.unfit = "no affine fit: a block index past the fit's bits (x < 2^16, y < 2^8, z < 2^5)";
  }
  x.iteration = in.iterations[who]++;
  if (!x.representable() && in.unfit.empty())
    in.unfit = "no affine fit: more executions per warp than the fit's 2^24, or a warp past 32 in its block";
  for (const std::uint64_t a : q.addr) {
    if (a == kInactive) continue;
    in.out.lo = std::min(in.out.lo, a);
    in.out.hi = std::max(in.out.hi, checked_add(a, q.width));
  }
  std::vector<std::uint64_t> key(q.addr.begin(), q.addr.end());
  key.insert(key.end(), q.source.begin(), q.source.end());
  const auto it = in.requests.try_emplace(std::move(key), 0).first;
  it->second = checked_add(it->second, r.repeat);  // a merged record stands for its count of executions
  in.executions.push_back({x, &it->first});
}

/// Fit the offsets from `base` of every active lane of every distinct record, in the lane bits.
void fit_records(Instruction& in, std::uint64_t base) {
  std::vector<std::uint64_t> offsets(32);
  for (const auto& [key, count] : in.requests) {
    for (std::size_t l = 0; l < 32; ++l) offsets[l] = key[l] == kInactive ? kInactive : key[l] - base;
    if (!in.lane_fit.add(offsets, kInactive, count)) return;
  }
}

/// Fit the offsets from `base` of every active lane of every execution (per distinct record when deduplicated).
void fit_offsets(Instruction& in, std::uint64_t base) {
  if (in.per_record) return fit_records(in, base);
  if (!in.unfit.empty()) return;
  for (const Execution& e : in.executions) {
    FitVariables x = e.who;
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
      const std::uint64_t a = (*e.request)[lane];
      if (a == kInactive) continue;
      x.lane = lane;
      if (!in.fit.add(x, a - base)) return;
    }
  }
}

std::vector<Instruction> read_instructions(TraceSource& trace, LaunchSuggestion& out) {
  if (trace.warp() != 32)
    throw std::invalid_argument("suggest: a trace of " + std::to_string(trace.warp()) +
                                "-lane warps; the fit takes 32 lanes (5 lane bits)");
  std::vector<Instruction> ins;
  std::map<std::tuple<std::uint32_t, Op, unsigned>, std::size_t> index;
  trace.keep_repeats();  // a merged record once, with its count: costed once, weighed by the count
  TraceRecord r;
  while (trace.next(r)) {
    if (is_global(r.request.op)) {
      out.skipped = checked_add(out.skipped, r.repeat);
      continue;
    }
    // A merged record keeps one execution's location: the launch's fits are then per distinct record.
    out.deduplicated = out.deduplicated || r.merged;
    out.records = checked_add(out.records, r.repeat);
    out.distinct = checked_add(out.distinct, 1);
    const auto [it, fresh] = index.try_emplace({r.site, r.request.op, r.request.width}, ins.size());
    if (fresh) {
      ins.emplace_back();
      ins.back().out.site = trace.sites().name(r.site);
      ins.back().out.op = r.request.op;
      ins.back().out.width = r.request.width;
      ins.back().out.lo = ~std::uint64_t{0};
    }
    add_record(ins[it->second], r);
  }
  for (Instruction& in : ins) in.per_record = out.deduplicated;
  return ins;
}

bool fitted(const Instruction& in) {
  return in.per_record ? in.lane_fit.fits() : in.unfit.empty() && in.fit.fits();
}

/// Lane bit k's column (the address delta of flipping it), where the fit determines it.
std::optional<std::uint64_t> lane_column(const Instruction& in, unsigned k) {
  return in.per_record ? in.lane_fit.column(k) : in.fit.column(1 + k);  // the full fit's packed bit 0 is the constant
}

std::string fit_text(const Instruction& in) {
  if (in.per_record) return in.lane_fit.text();
  if (!in.unfit.empty()) return in.unfit;
  if (!in.fit.fits()) {
    const auto& [x, a] = *in.fit.contradiction();
    return "no affine fit: lane " + std::to_string(x.lane) + " of warp " + std::to_string(x.warp) + ", execution " +
           std::to_string(x.iteration) + " touches offset " + std::to_string(a) +
           ", which no GF(2)-affine map of the earlier records gives";
  }
  return in.fit.text();
}

/// What an instruction's records cost with addresses mapped by `m` on offsets from `base`.
struct MappedCost {
  std::uint64_t wavefronts = 0, ideal = 0;
  std::uint64_t not_modelled = 0;  ///< records the model has no rule for (a 12-byte load not 16-byte aligned)
};

MappedCost cost_mapped(const Instruction& in, const XorAddressMap& m, std::uint64_t base, const BankModel& model) {
  MappedCost total;
  std::vector<std::uint64_t> addr(32);
  for (const auto& [key, count] : in.requests) {
    for (std::size_t l = 0; l < 32; ++l) addr[l] = key[l] == kInactive ? kInactive : base + m.apply(key[l] - base);
    WarpRequest q{in.out.op, in.out.width, addr, std::span<const std::uint64_t>(key).subspan(32)};
    const RequestCost c = model.cost(q);
    if (!c.modelled) total.not_modelled = checked_add(total.not_modelled, count);
    total.wavefronts = checked_add(total.wavefronts, checked_mul(c.wavefronts, count));
    total.ideal = checked_add(total.ideal, checked_mul(c.ideal, count));
  }
  return total;
}

/// Whether the model costs every record of the instruction (wgmma's share is its descriptors' swizzle mode).
bool modelled(const Instruction& in, const BankModel& model) {
  return in.out.op != Op::wgmma && model.models(in.out.op, in.out.width) &&
         cost_mapped(in, XorAddressMap{}, in.out.lo, model).not_modelled == 0;
}

std::uint64_t buffer_cost(const std::vector<const Instruction*>& ins, const XorAddressMap& m, std::uint64_t base,
                          const BankModel& model) {
  std::uint64_t total = 0;
  for (const Instruction* in : ins) {
    const MappedCost c = cost_mapped(*in, m, base, model);
    if (c.not_modelled != 0) return ~std::uint64_t{0};  // a map under which the model cannot cost a record: never chosen
    total = checked_add(total, c.wavefronts);
  }
  return total;
}

/// The frame of the maps that permute the buffer and keep its widest vector whole; false with why.
bool frame_of(const BufferSuggestion& b, const std::vector<const Instruction*>& ins, const BankModel& model,
              XorFrame& f) {
  const BankGeometry& g = model.geometry();
  if (g.bank_bytes == 0 || !nt::is_power_of_two(g.banks) || !nt::is_power_of_two(g.bank_bytes)) return false;
  f.cell_shift = nt::log2_floor(g.bank_bytes);
  f.top = f.cell_shift + nt::log2_floor(g.banks);
  f.v = f.cell_shift;
  for (const Instruction* in : ins) {
    const unsigned w = std::bit_ceil(in->out.width);
    f.v = std::max(f.v, nt::log2_floor(w));
  }
  f.n = std::min(30u, static_cast<unsigned>(std::countr_zero(b.bytes)));
  return f.v < f.top && f.n > f.top;
}

std::vector<PhaseColumns> phases_of(std::vector<const Instruction*> ins) {
  // Most executed first, then by name: an order that does not depend on the order of the trace's records
  // (a deduplicated trace writes them in the order the device's table took them).
  std::sort(ins.begin(), ins.end(), [](const Instruction* a, const Instruction* b) {
    return std::tie(b->out.executions, a->out.site, a->out.op, a->out.width) <
           std::tie(a->out.executions, b->out.site, b->out.op, b->out.width);
  });
  std::vector<PhaseColumns> phases;
  for (const Instruction* in : ins) {
    const bool matrix = in->out.op == Op::ldsm || in->out.op == Op::stsm;
    PhaseColumns p;
    for (unsigned k = 0; k < phase_lane_bits(matrix, std::bit_ceil(in->out.width)); ++k)
      if (const auto col = lane_column(*in, k)) p.push_back(*col);
    phases.push_back(std::move(p));
  }
  return phases;
}

/// Candidates simplest first: CuTe swizzles on bytes, then the constructed and the descended XOR maps.
std::vector<XorAddressMap> candidates(const std::vector<const Instruction*>& ins, const XorFrame& f,
                                      const std::function<std::uint64_t(const XorAddressMap&)>& cost,
                                      std::uint64_t& evaluations) {
  std::vector<XorAddressMap> out;
  for (const layout::Swizzle& sw : swizzles_within(f.n))
    if (sw.shift > 0 && static_cast<unsigned>(sw.base) >= f.v) out.push_back(xor_map_of(sw));
  std::vector<std::uint64_t> c = construct_xor_vectors(phases_of(ins), f);
  out.push_back(xor_map_of_vectors(c, f));
  descend_xor_vectors(cost, f, c, evaluations);
  out.push_back(xor_map_of_vectors(c, f));
  return out;
}

void search(BufferSuggestion& b, const std::vector<const Instruction*>& ins, const BankModel& model) {
  const auto cost = [&](const XorAddressMap& m) { return buffer_cost(ins, m, b.base, model); };
  b.before = cost(XorAddressMap{});
  b.after = b.before;
  XorFrame f;
  if (!frame_of(b, ins, model, f)) {
    b.notes = "no map searched: the buffer's size (" + std::to_string(b.bytes) +
              " bytes) has no power-of-two factor above the banks' bytes, or no bank bit lies above every vector";
  } else {
    for (XorAddressMap& m : candidates(ins, f, cost, b.evaluations)) {
      ++b.candidates;
      const std::uint64_t k = cost(m);
      if (k < b.after) b.after = k, b.map = std::move(m);
    }
    b.notes = "searched byte offsets' bits " + std::to_string(f.v) + ".." + std::to_string(f.top - 1) + " from bits " +
              std::to_string(f.top) + ".." + std::to_string(f.n - 1) + "; padding is not searched (it needs the tile's shape)";
  }
  for (const Instruction* in : ins) b.ideal = checked_add(b.ideal, cost_mapped(*in, b.map, b.base, model).ideal);
  if (b.map.is_identity()) b.verdict = b.after == b.ideal ? "keep: already conflict-free" : "keep: no map found with fewer wavefronts";
  else if (b.after == b.ideal) b.verdict = "conflict-free: the map meets every request's ideal";
  else b.verdict = "best found: " + std::to_string(b.after - b.ideal) + " wavefronts above the ideal remain";
}

void finish(BufferSuggestion& b, const std::vector<const Instruction*>& ins, const BankModel& model) {
  for (const Instruction* in : ins) {
    if (!fitted(*in)) b.why_not = "no affine fit: no suggestion (" + in->out.site + ")";
    else if (!modelled(*in, model))
      b.why_not = "not modelled: " + std::string(op_name(in->out.op)) + " " + std::to_string(in->out.width) + " (" +
                  in->out.site + ")";
    if (!b.why_not.empty()) break;
  }
  b.suggested = b.why_not.empty();
  if (b.suggested) search(b, ins, model);
  for (const Instruction* in : ins) {
    SuggestedInstruction s = in->out;
    s.fits = fitted(*in);
    s.fit = fit_text(*in);
    s.evidence = in->per_record ? FitEvidence::lanes_per_record : FitEvidence::every_execution;
    s.modelled = modelled(*in, model);
    if (s.modelled) {
      const MappedCost before = cost_mapped(*in, XorAddressMap{}, b.base, model);
      s.before = before.wavefronts;
      s.ideal = before.ideal;
      s.after = b.suggested ? cost_mapped(*in, b.map, b.base, model).wavefronts : before.wavefronts;
    }
    b.instructions.push_back(std::move(s));
  }
}

}  // namespace capture_fit

LaunchSuggestion suggest_from_trace(TraceSource& trace, const BankModel& model) {
  using namespace capture_fit;
  LaunchSuggestion out;
  std::vector<Instruction> ins = read_instructions(trace, out);
  std::vector<Instruction*> order;
  for (Instruction& in : ins)
    if (in.out.lo != ~std::uint64_t{0}) order.push_back(&in);  // records with no active lane touch no buffer
  std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->out.lo < b->out.lo; });
  for (std::size_t i = 0; i < order.size();) {
    BufferSuggestion b;
    b.base = order[i]->out.lo;
    std::uint64_t hi = order[i]->out.hi;
    std::vector<const Instruction*> group;
    const std::size_t first = i;
    for (; i < order.size() && order[i]->out.lo < hi; ++i) group.push_back(order[i]), hi = std::max(hi, order[i]->out.hi);
    b.bytes = hi - b.base;
    for (std::size_t k = first; k < i; ++k) fit_offsets(*order[k], b.base);
    finish(b, group, model);
    out.buffers.push_back(std::move(b));
  }
  return out;
}

std::vector<report::LayoutOffer> layout_offers(const LaunchSuggestion& s) {
  std::vector<report::LayoutOffer> out;
  for (const BufferSuggestion& b : s.buffers) {
    if (!b.suggested || b.after >= b.before) continue;
    report::LayoutOffer o;
    o.base = b.base, o.bytes = b.bytes, o.before = b.before, o.after = b.after, o.ideal = b.ideal;
    o.map = b.map.cpp("b");
    o.cute = cute_form(b.map);
    o.evidence = evidence_name(s.deduplicated ? FitEvidence::lanes_per_record : FitEvidence::every_execution);
    for (const SuggestedInstruction& i : b.instructions)
      if (i.modelled && i.before > i.ideal) o.conflicting.push_back(i.site);
    if (!o.conflicting.empty()) out.push_back(std::move(o));
  }
  return out;
}

const char* evidence_name(FitEvidence e) {
  return e == FitEvidence::lanes_per_record ? "lane bits of each distinct record"
                                            : "lane, warp, iteration and block bits of every execution";
}

std::string cute_form(const XorAddressMap& map) {
  if (map.is_identity()) return "none: the identity";
  if (const auto sw = map.as_swizzle())
    return "Swizzle<" + std::to_string(sw->bits) + "," + std::to_string(sw->base) + "," + std::to_string(sw->shift) +
           "> on byte offsets";
  return "none: not a CuTe swizzle (" + map.text() + ")";
}

}  // namespace bankcheck::proofs
