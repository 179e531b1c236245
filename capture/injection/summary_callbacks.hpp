#pragma once
// `capture --summary` in the capture library: the device table is cleared
// when a launch begins and read back when it ends, its rows appended to
// OUT/summary.csv (capture/host/summary/instruction_summary.hpp). Nothing is drained
// while the kernel runs: the patches cost each request on the device.
#include <sanitizer.h>

#include <cstdint>
#include <string>
#include <vector>

#include "capture/host/summary/instruction_summary.hpp"
#include "capture/injection/active_launch.hpp"
#include "capture/injection/capture.hpp"
#include "capture/injection/launch_callbacks.hpp"

namespace {

using namespace bankcheck;
using namespace bankcheck::capture;

bool Capture::begin_summary(ActiveLaunch& a, CaptureDescriptor& d, Sanitizer_StreamHandle stream) {
  Ring& ring = *a.ring;
  d.summary_slots = ring.summary;
  d.summary_capacity = static_cast<std::uint32_t>(options_.summary_slots);
  d.summary_shards = kSummaryShards;
  d.summary_stage = options_.summary_stage;
  return check(sanitizerMemset(ring.summary, 0, sizeof(SummarySlot) * ring.summary_slots, stream), "sanitizerMemset",
               "summary table");
}

void Capture::end_summary(ActiveLaunch& a, const CaptureDescriptor& d, Sanitizer_StreamHandle stream,
                          std::vector<std::string>& problems) {
  a.row.untraced = untraced_text(d);
  std::vector<SummarySlot> table(a.ring->summary_slots);
  if (!check(sanitizerMemcpyDeviceToHost(table.data(), a.ring->summary, sizeof(SummarySlot) * table.size(), stream),
             "sanitizerMemcpyDeviceToHost", "summary table")) {
    problems.push_back("the summary table could not be read");
    return;
  }
  const auto rows = collect_summary(table.data(), table.size(), a.row.id, functions_);
  std::uint64_t executions = 0;
  for (const auto& row : rows) {
    executions += row.executions;
    summary_ << summary_row_line(row);
  }
  summary_.flush();
  if (!summary_) problems.push_back("summary.csv could not be written");
  // The device's own count of requests: those summarized and those that found no slot.
  a.row.records_written = executions;
  a.row.device_records = executions + d.summary_overflow + d.summary_kind_mismatch;
  if (d.summary_overflow > 0)
    problems.push_back(std::to_string(d.summary_overflow) + " warp requests found the summary table full (" +
                       std::to_string(options_.summary_slots) + " slots per shard; raise --summary-slots)");
  if (d.summary_kind_mismatch > 0)
    problems.push_back(std::to_string(d.summary_kind_mismatch) +
                       " warp requests came from an instruction already seen with another op or width");
}

}  // namespace
