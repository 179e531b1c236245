#pragma once
// Deduplicated traces made by the project's own merging (capture/host/ring/slot_dedup.hpp,
// the host's half of docs/capture.md "Deduplicated traces"), for the tests of
// what reads them: warp records as the ring hands them over (CaptureSlot), and
// the same records written once through the converter alone (every record with
// its location, as `capture --no-dedup`) or through the dedup table first.
// `slots_of_trace` turns a full trace (text or binary, with or without `at`
// locations) back into slots, so a fixture trace gives both forms.
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "capture/host/ring/function_map.hpp"
#include "capture/host/ring/record_converter.hpp"
#include "capture/host/ring/ring_layout.hpp"
#include "capture/host/ring/slot_dedup.hpp"
#include "sim/trace/trace_binary.hpp"
#include "sim/trace/trace_file.hpp"

namespace bankcheck::test {

/// A record slot of pc `pc` run by warp `warp` of block (block, 0, 0); lanes' offsets left 0.
inline capture::CaptureSlot slot_record(std::uint64_t pc, capture::SlotOp op, unsigned width, std::uint32_t mask,
                                        std::uint32_t block, std::uint32_t warp) {
  capture::CaptureSlot s{};
  s.pc = pc;
  s.op = static_cast<std::uint8_t>(op);
  s.width = static_cast<std::uint8_t>(width);
  s.mask = mask;
  s.block[0] = block;
  s.warp = warp;
  return s;
}

/// Slots and the functions their pcs lie in.
struct CapturedSlots {
  std::vector<capture::CaptureSlot> slots;
  std::vector<std::pair<std::string, std::uint64_t>> functions;  ///< name, first pc (each 1 MiB of code)
};

/// The shared-memory records of a full trace as slots, in order: a function's sites at `base + offset`, each
/// record with its location (block x and warp; none: block 0, warp 0) and a cp.async's sources in its two
/// continuation slots. `blocks` > 1 repeats the whole trace that many times as blocks 0, 1, ... (the launch
/// of more blocks of a kernel whose offsets do not depend on the block).
/// @throws std::invalid_argument on a record the slots cannot carry (wgmma, global, refined copies).
inline CapturedSlots slots_of_trace(const std::string& path, std::uint32_t blocks = 1) {
  CapturedSlots out;
  std::map<std::string, std::uint64_t> base;
  for (std::uint32_t b = 0; b < blocks; ++b) {
    auto trace = open_trace(path);
    TraceRecord r;
    while (trace->next(r)) {
      const auto site = capture::parse_site_name(trace->sites().name(r.site));
      const WarpRequest& q = r.request;
      if (!site || q.op == Op::wgmma || is_global(q.op) || (!q.source.empty() && q.op != Op::cpasync))
        throw std::invalid_argument("slots_of_trace: " + trace->sites().name(r.site) + " cannot be a ring slot");
      const auto [f, fresh] = base.try_emplace(site->function, std::uint64_t{0x100000} * (base.size() + 1));
      if (fresh) out.functions.emplace_back(site->function, f->second);
      std::uint32_t mask = 0;
      for (unsigned l = 0; l < 32; ++l) mask |= q.addr[l] != kInactive ? 1u << l : 0u;
      const std::uint32_t warp = r.location ? r.location->warp : 0;
      const std::uint32_t block = (r.location ? r.location->block[0] : 0) + b;
      capture::CaptureSlot s = slot_record(f->second + site->offset, static_cast<capture::SlotOp>(q.op), q.width,
                                           mask, block, warp);
      capture::CaptureSlot low = s, high = s;
      low.op = static_cast<std::uint8_t>(capture::SlotOp::source_low);
      high.op = static_cast<std::uint8_t>(capture::SlotOp::source_high);
      for (unsigned l = 0; l < 32; ++l) {
        if (q.addr[l] == kInactive) continue;
        s.addr[l] = static_cast<std::uint32_t>(q.addr[l]);
        if (q.source.empty()) continue;
        const std::uint64_t src = q.source[l] == kZeroFill ? 0 : q.source[l];
        low.addr[l] = static_cast<std::uint32_t>(src), high.addr[l] = static_cast<std::uint32_t>(src >> 32);
      }
      out.slots.push_back(s);
      if (q.op == Op::cpasync) out.slots.insert(out.slots.end(), {low, high});
    }
  }
  return out;
}

/// What writing slots gave: executions written, and records merged into earlier ones by the table.
struct WrittenSlots {
  std::uint64_t written = 0, merged = 0, rejected = 0;
};

/// Write `slots` as a binary trace at `path` the way capture does: through the dedup table of `capacity`
/// distinct records (`dedup`), or each record as it came (`capture --no-dedup`).
inline WrittenSlots write_slots(const std::string& path, const CapturedSlots& in, bool dedup,
                                std::uint32_t capacity = capture::kDedupRecords) {
  capture::FunctionMap functions;
  for (const auto& [name, pc] : in.functions) functions.add(name, pc, 0x100000);
  BinaryTraceWriter writer(OutputFile(path), 4);
  capture::RecordConverter converter(writer, functions, 0);
  capture::SlotDedup table(converter, capacity);
  std::uint64_t records = 0;
  for (const capture::CaptureSlot& s : in.slots) {
    records += !capture::is_continuation(static_cast<capture::SlotOp>(s.op));
    if (dedup) table.add(s);
    else converter.add(s);
  }
  table.flush();
  converter.finish(records);  // the device's count: the reader refuses the trace unless the counts add up to it
  return {converter.written(), table.merged(), converter.rejected_total()};
}

}  // namespace bankcheck::test
