#pragma once
// A full, deduplicated capture's table of distinct records on the device
// (capture/host/ring/record_table.hpp): allocated with the ring, its buckets
// cleared when a launch begins, its entries read back when the launch ends
// and written to the trace, each as one record with its count.
#include <sanitizer.h>

#include <cstdint>
#include <string>
#include <vector>

#include "capture/host/ring/record_table.hpp"
#include "capture/injection/active_launch.hpp"
#include "capture/injection/capture.hpp"
#include "capture/injection/launch_callbacks.hpp"

namespace {

using namespace bankcheck;
using namespace bankcheck::capture;

/// Whether launches get a table: full captures that merge identical records.
std::uint64_t Capture::table_bytes() const {
  if (options_.summary_slots != 0 || !options_.dedup) return 0;
  return sizeof(RecordEntry) * std::uint64_t{kTableRecords} + sizeof(std::uint32_t) * std::uint64_t{table_buckets(kTableRecords)};
}

bool Capture::allocate_table(Ring& ring) {
  if (table_bytes() == 0) return true;
  void* entries = nullptr;
  void* buckets = nullptr;
  if (!check(sanitizerAlloc(ring.context, &entries, sizeof(RecordEntry) * kTableRecords), "sanitizerAlloc",
             "record table") ||
      !check(sanitizerAlloc(ring.context, &buckets, sizeof(std::uint32_t) * std::uint64_t{table_buckets(kTableRecords)}), "sanitizerAlloc",
             "record table buckets"))
    return false;
  ring.table = static_cast<RecordEntry*>(entries);
  ring.buckets = static_cast<std::uint32_t*>(buckets);
  ring.table_capacity = kTableRecords;
  return true;
}

bool Capture::begin_table(const Ring& ring, CaptureDescriptor& d, Sanitizer_StreamHandle stream) {
  if (ring.table_capacity == 0 || options_.summary_slots != 0) return true;
  d.table_entries = ring.table;
  d.table_buckets = ring.buckets;
  d.table_capacity = ring.table_capacity;
  return check(sanitizerMemset(ring.buckets, 0, sizeof(std::uint32_t) * std::uint64_t{table_buckets(ring.table_capacity)}, stream),
               "sanitizerMemset", "record table buckets");
}

void Capture::end_table(ActiveLaunch& a, const CaptureDescriptor& d, std::vector<std::string>& problems) {
  if (d.table_capacity == 0) return;
  const std::uint32_t used = std::min(d.table_used, d.table_capacity);
  std::vector<RecordEntry> entries(used);
  if (used > 0 && !check(sanitizerMemcpyDeviceToHost(entries.data(), a.ring->table, sizeof(RecordEntry) * used,
                                                     a.stream),
                         "sanitizerMemcpyDeviceToHost", "record table")) {
    problems.push_back("the device's record table could not be read: " + std::to_string(d.table_executions) +
                       " executions missing");
    return;
  }
  const TableIntake intake = take_entries(entries.data(), entries.size(),
                                          [&](const CaptureSlot* slots, std::size_t n, std::uint64_t count) {
                                            a.slots->take_repeated(slots, n, count);
                                          });
  if (intake.broken > 0)
    problems.push_back(std::to_string(intake.broken) + " entries of the device's record table are not intact");
  if (intake.executions != d.table_executions)
    problems.push_back("the device's record table holds " + std::to_string(intake.executions) +
                       " executions, the device counted " + std::to_string(d.table_executions));
}

}  // namespace
