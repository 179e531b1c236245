#pragma once
// Captured warp records (CaptureSlot) to trace records: the site is
// `FUNCTION+0xOFFSET` of the record's pc, the location is (launch, block,
// warp), the request carries the op, the width and one shared-memory
// offset per lane of the record's mask. A record the trace format cannot
// hold (an op or width it does not know, a misaligned offset) is not
// written and not forgotten either: it is counted by reason, and since the
// trace's expect record carries the device's count, the trace then reads
// as incomplete. A cp.async record arrives with its sources in the two
// slots that follow it, a global load or store (`capture --global`) with
// the high halves of its addresses in the next slot (ring_layout.hpp,
// continuation slots): together they make one instruction.
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "capture/host/ring/function_map.hpp"
#include "capture/host/ring/ring_layout.hpp"
#include "sim/trace/trace.hpp"

namespace bankcheck::capture {

class RecordConverter {
 public:
  /// Calls sink.begin(32). @pre the sink is fresh.
  RecordConverter(TraceSink& sink, FunctionMap& functions, std::uint64_t launch);

  /// Convert and write one record (or count why it cannot be written), as
  /// `count` identical executions (capture/host/ring/slot_dedup.hpp merges them;
  /// the location written is this slot's). A continuation slot completes the
  /// record before it, and its count is that record's.
  void add(const CaptureSlot& slot, std::uint64_t count = 1);

  /// Write the expect record (when the device count is known: instruction
  /// records, source slots not included) and end the trace.
  void finish(std::optional<std::uint64_t> device_records);

  /// Executions written (a record of count n: n).
  std::uint64_t written() const { return written_; }
  /// Records not written, per reason ("width 32 of ld", ...).
  const std::map<std::string, std::uint64_t>& rejected() const { return rejected_; }
  std::uint64_t rejected_total() const;

 private:
  TraceSink& sink_;
  FunctionMap& functions_;
  std::uint64_t launch_;
  /// `source`: a copy's sources, else empty; `high`: the high halves of a global access's addresses, else empty.
  void write(const CaptureSlot& slot, std::span<const std::uint64_t> source, std::span<const std::uint64_t> high);
  /// A wgmma record (SlotOp::wgmma) as the trace's Op::wgmma request.
  void write_wgmma(const CaptureSlot& slot);
  /// The record written, `count_` times.
  void emit(std::uint64_t pc, const WarpRequest& request);
  void drop_pending(const char* why);
  /// Counts `count_` executions not written, for `why`.
  void reject(const std::string& why);

  std::vector<std::uint64_t> addr_;
  std::vector<std::uint64_t> source_;
  std::vector<std::uint64_t> high_;
  std::optional<CaptureSlot> pending_;  // a record waiting for its continuation slots
  std::uint64_t count_ = 1;             // the executions of the record being converted (pending_'s while it waits)
  unsigned seen_ = 0;                   // of them
  std::uint64_t written_ = 0;
  std::map<std::string, std::uint64_t> rejected_;
};

}  // namespace bankcheck::capture
