#pragma once
// Identical warp records of one launch merged into one record with a count,
// before they are converted and written (docs/capture.md, "Deduplicated
// traces"). Most kernels' shared-memory offsets do not depend on blockIdx:
// every block repeats the same records, and replay costs a record the same
// wherever it ran, so a record written once with its count of executions
// gives the same totals, per instruction and per launch, as all of them.
//
// Two records are identical when everything the converter reads from them
// but the location is: the pc (the site), op, width, mask, the offsets of
// the active lanes, for wgmma whether the warp carries its group's operands
// (RecordConverter::write_wgmma), and the continuation slots' words of the
// active lanes (a copy's sources, a global access's high halves). A merged
// record keeps the first execution's block and warp.
//
// Memory is bounded: at most `capacity` distinct records are held; when the
// table is full, or at flush(), each is handed to the converter with its
// count, in the order of its first execution, and the table starts empty.
// A record whose continuation slots do not follow it as the ring protocol
// says goes to the converter as it came, which counts what is wrong with it.
#include <cstdint>
#include <vector>

#include "capture/host/ring/record_converter.hpp"
#include "capture/host/ring/ring_layout.hpp"

namespace bankcheck::capture {

/// Distinct records a launch's table holds before it is written out (2^16:
/// 11 MiB of slots, the size of the default ring).
inline constexpr std::uint32_t kDedupRecords = std::uint32_t{1} << 16;

class SlotDedup {
 public:
  /// @pre capacity >= 1. Records go to `converter`.
  explicit SlotDedup(RecordConverter& converter, std::uint32_t capacity = kDedupRecords);

  /// A slot taken from the ring, in ticket order (a record, or a continuation slot of the record before it).
  void add(const CaptureSlot& slot);
  /// Hand every record held to the converter (with its count) and empty the
  /// table; a record still waiting for its continuation slots goes as it is.
  void flush();

  /// Executions merged into an earlier identical record (not written as records of their own).
  std::uint64_t merged() const { return merged_; }
  /// Records handed to the converter (a merged one once).
  std::uint64_t distinct() const { return distinct_; }

 private:
  struct Entry {
    std::uint64_t hash = 0;
    std::uint64_t count = 0;
    std::uint32_t first = 0;  ///< its first slot in slots_
    std::uint32_t size = 0;   ///< slots: the record and its continuation slots
  };
  void insert();                        ///< the complete group_ into the table
  void write_out();                     ///< the table's records to the converter; the table empty
  void pass_group();                    ///< group_ to the converter as it came (irregular)
  std::uint64_t hash_group() const;
  bool same(const Entry& e) const;      ///< whether group_ is identical to e's record
  void grow_buckets();

  RecordConverter& converter_;
  std::uint32_t capacity_;
  std::vector<CaptureSlot> slots_;      // the entries' slots, first execution's
  std::vector<Entry> entries_;          // in order of first execution
  std::vector<std::uint32_t> buckets_;  // open addressing: entry + 1, 0 empty
  CaptureSlot group_[3] = {};           // the record being assembled, with its continuation slots
  unsigned group_size_ = 0, group_need_ = 0;
  std::uint64_t merged_ = 0, distinct_ = 0;
};

}  // namespace bankcheck::capture
