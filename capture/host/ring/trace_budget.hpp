#pragma once
// `bankcheck capture --max-bytes`: the bytes of every launch's trace
// together, against the bound, and one launch's way through it. Once the
// traces reached the bound, the records a launch's drain takes are counted
// instead of written, a record with its continuation slots (ring_layout.hpp)
// as one: a record let in before keeps its continuations, so no record
// reaches the trace half-made. The trace then lacks records the device
// wrote, and its expect record (the device's count) marks it incomplete.
// With deduplication (slot_dedup.hpp) the bytes are charged as the table is
// written out, so the traces may pass the bound by the tables of the launches
// in flight (at most kDedupRecords records each).
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "capture/host/ring/record_converter.hpp"
#include "capture/host/ring/ring_layout.hpp"
#include "capture/host/ring/slot_dedup.hpp"
#include "sim/trace/trace_binary.hpp"

namespace bankcheck::capture {

/// The bytes all traces wrote (launches drain on threads of their own, at once).
struct TraceBudget {
  std::uint64_t limit = 0;  ///< 0: no bound
  std::atomic<std::uint64_t> written{0};
  bool exceeded() const { return limit != 0 && written.load(std::memory_order_relaxed) >= limit; }
};

/// One launch's slots on their way to its trace, charged to the budget.
class BudgetedSlots {
 public:
  /// `budget` may be null (no bound). The converter writes to `writer`;
  /// `dedup`, when given, merges identical records on the way to it.
  BudgetedSlots(RecordConverter& converter, const BinaryTraceWriter& writer, TraceBudget* budget,
                SlotDedup* dedup = nullptr)
      : converter_(converter), writer_(writer), budget_(budget), dedup_(dedup) {}

  void take(const CaptureSlot& s) {
    if (!is_continuation(static_cast<SlotOp>(s.op))) {
      dropping_ = budget_ != nullptr && budget_->exceeded();
      dropped_ += dropping_;
    }
    if (dropping_) return;
    if (dedup_ != nullptr) dedup_->add(s);
    else converter_.add(s);
    charge();
  }
  /// A record the device's table merged (record_table.hpp): its `n` slots, as `count` executions. It
  /// bypasses the host's table (its entries are distinct already) and is dropped whole once the budget is spent.
  void take_repeated(const CaptureSlot* record, std::size_t n, std::uint64_t count) {
    if (budget_ != nullptr && budget_->exceeded()) {
      ++dropped_;
      return;
    }
    converter_.add(record[0], count);
    for (std::size_t k = 1; k < n; ++k) converter_.add(record[k]);
    charge();
  }
  /// The records the deduplication table still holds, written (before the converter finishes).
  void flush() {
    if (dedup_ == nullptr) return;
    dedup_->flush();
    charge();
  }
  /// Records (continuation slots not counted) not written because the budget was spent.
  std::uint64_t dropped() const { return dropped_; }

 private:
  void charge() {
    const std::uint64_t now = writer_.bytes();
    if (budget_ != nullptr) budget_->written.fetch_add(now - charged_, std::memory_order_relaxed);
    charged_ = now;
  }
  RecordConverter& converter_;
  const BinaryTraceWriter& writer_;
  TraceBudget* budget_;
  SlotDedup* dedup_;
  std::uint64_t charged_ = 0;  // of the writer's bytes, those added to the budget
  std::uint64_t dropped_ = 0;
  bool dropping_ = false;      // the record being taken is dropped, with its continuation slots
};

}  // namespace bankcheck::capture
