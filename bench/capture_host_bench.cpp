// The host's side of a full-trace capture (`bankcheck capture` without
// --summary), without a GPU: how fast one drain thread turns ring slots
// into a binary trace file. Slots made like the patches make them (4-byte
// loads and stores of 32 lanes, each block's warps, a few hundred pcs in one
// function) are (1) converted and written to a file (RecordConverter and
// BinaryTraceWriter, what the drain thread runs per slot), and (2) drained
// from a ring that a producer thread fills in ticket order with the
// protocol of capture/host/ring/ring_layout.hpp (RingDrain, converter, writer).
// Printed: medians of --runs runs, slots/s and trace bytes/s, and the ratio
// of (2) to (1). docs/scaling.md uses the figures: they bound what a full
// capture can write per second whatever the GPU does. (3) and (4) take the
// slots through the deduplication table (capture/host/ring/slot_dedup.hpp) first:
// (3) the same slots, which hardly repeat (the table's cost alone), (4) slots
// whose offsets depend on the pc and the warp only, as most kernels' do, so
// that every block repeats them; (4) is also timed without the table.
#include <atomic>
#include <chrono>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

#include "bench/bench_stats.hpp"
#include "capture/host/ring/function_map.hpp"
#include "capture/host/ring/record_converter.hpp"
#include "capture/host/ring/ring_drain.hpp"
#include "capture/host/ring/slot_dedup.hpp"
#include "sim/trace/trace_binary.hpp"
#include "sim/trace/trace_file.hpp"

using namespace bankcheck;
using bench::median;
using bench::wall_seconds;
using namespace bankcheck::capture;

namespace {

constexpr std::uint64_t kFunctionPc = 0x7f0000000000ull;

/// `repeating`: each slot's offsets a function of its pc and warp (every block repeats them).
std::vector<CaptureSlot> make_slots(std::uint64_t n, bool repeating = false) {
  std::vector<CaptureSlot> slots(n);
  std::mt19937_64 rng(7);
  for (std::uint64_t i = 0; i < n; ++i) {
    CaptureSlot& s = slots[i];
    s.ticket = i + 1;
    s.pc = kFunctionPc + 16 * (rng() % 300);
    s.block[0] = static_cast<std::uint32_t>(i / 4096);
    s.block[1] = s.block[2] = 0;
    s.warp = static_cast<std::uint32_t>(i / 64 % 8);
    s.mask = 0xFFFFFFFFu;
    s.op = static_cast<std::uint8_t>(i % 3 == 0 ? SlotOp::store : SlotOp::load);
    s.width = 4;
    s.flags = 0;
    std::uint32_t base = static_cast<std::uint32_t>(rng() % 1024) * 4;
    std::uint32_t stride = i % 4 == 0 ? 4 * static_cast<std::uint32_t>(rng() % 33) : 4;
    if (repeating) {
      base = static_cast<std::uint32_t>((s.pc * 2654435761u + s.warp * 40503u) % 1024) * 4;
      stride = (s.pc / 16) % 4 == 0 ? 4 * static_cast<std::uint32_t>((s.pc / 64) % 33) : 4;
      s.op = static_cast<std::uint8_t>((s.pc / 16) % 3 == 0 ? SlotOp::store : SlotOp::load);
    }
    for (unsigned l = 0; l < kCaptureWarp; ++l) s.addr[l] = (base + stride * l) % 49152;
  }
  return slots;
}

/// (1) convert and write every slot, as the drain thread's handler does.
/// (3), (4): with `dedup`, through the deduplication table first. Returns the trace's bytes.
std::uint64_t convert_all(const std::vector<CaptureSlot>& slots, const std::string& path, bool dedup = false) {
  FunctionMap functions;
  functions.add("kernel", kFunctionPc, 1 << 16);
  BinaryTraceWriter writer(OutputFile(path), 4);
  RecordConverter converter(writer, functions, 0);
  SlotDedup table(converter);
  for (const CaptureSlot& s : slots)
    if (dedup) table.add(s);
    else converter.add(s);
  table.flush();
  converter.finish(slots.size());
  return writer.bytes();
}

/// (2) the same through a ring of `capacity` slots filled by a producer thread.
void drain_all(const std::vector<CaptureSlot>& slots, std::uint64_t capacity, const std::string& path) {
  std::vector<CaptureSlot> ring(capacity);
  for (CaptureSlot& s : ring) s.ticket = 0;
  RingControl control{};
  FunctionMap functions;
  functions.add("kernel", kFunctionPc, 1 << 16);
  BinaryTraceWriter writer(OutputFile(path), 4);
  RecordConverter converter(writer, functions, 0);
  RingDrain drain(RingView{ring.data(), capacity, &control});
  std::jthread producer([&] {
    std::atomic_ref<std::uint64_t> consumed(control.consumed);
    for (std::uint64_t t = 0; t < slots.size(); ++t) {
      while (t - consumed.load(std::memory_order_acquire) >= capacity) std::this_thread::yield();
      CaptureSlot& dst = ring[t % capacity];
      std::memcpy(reinterpret_cast<char*>(&dst) + 8, reinterpret_cast<const char*>(&slots[t]) + 8, sizeof(CaptureSlot) - 8);
      std::atomic_ref<std::uint64_t>(dst.ticket).store(t + 1, std::memory_order_release);
    }
  });
  const SlotHandler handle = [&](const CaptureSlot& s) { converter.add(s); };
  if (!drain.drain_until(slots.size(), std::chrono::milliseconds(5000), handle))
    throw std::runtime_error("the drain stopped before every slot arrived");
  converter.finish(slots.size());
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"bench.capture_host: slots to trace on the host, one drain thread (no GPU)"};
  std::uint64_t records = 2'000'000, capacity = 1 << 16;
  unsigned runs = 5;
  app.add_option("--records", records, "Warp records (default 2000000)")->check(CLI::Range(1ull, 1ull << 32));
  app.add_option("--ring", capacity, "Ring slots, a power of two (default 65536)")
      ->check([](const std::string& v) { return is_valid_ring_capacity(std::stoull(v)) ? "" : "a power of two"; });
  app.add_option("--runs", runs, "Runs per figure; the median is printed (default 5)")->check(CLI::Range(1u, 101u));
  CLI11_PARSE(app, argc, argv);
  try {
    const std::vector<CaptureSlot> slots = make_slots(records), repeating = make_slots(records, true);
    const std::string path = (std::filesystem::temp_directory_path() / "bankcheck_capture_host_bench.bktrace").string();
    std::vector<double> convert_t, drain_t, dedup_t, repeat_t, repeat_dedup_t;
    std::uint64_t dedup_bytes = 0, repeat_bytes = 0, repeat_dedup_bytes = 0;
    for (unsigned r = 0; r < runs; ++r) {
      dedup_t.push_back(wall_seconds([&] { dedup_bytes = convert_all(slots, path, true); }));
      repeat_t.push_back(wall_seconds([&] { repeat_bytes = convert_all(repeating, path); }));
      repeat_dedup_t.push_back(wall_seconds([&] { repeat_dedup_bytes = convert_all(repeating, path, true); }));
      convert_t.push_back(wall_seconds([&] { convert_all(slots, path); }));
      drain_t.push_back(wall_seconds([&] { drain_all(slots, capacity, path); }));
    }
    const double bytes = static_cast<double>(std::filesystem::file_size(path));
    std::filesystem::remove(path);
    const double convert = median(convert_t), drained = median(drain_t);
    std::printf("%llu warp records of 32 lanes, 4-byte addresses: trace %.0f MB (%.1f bytes per record), ring of "
                "%llu slots (%zu bytes each)\n",
                static_cast<unsigned long long>(records), bytes / 1e6, bytes / records,
                static_cast<unsigned long long>(capacity), sizeof(CaptureSlot));
    std::printf("medians of %u runs, wall clock:\n", runs);
    std::printf("  (1) convert + write            %7.3f s  %10.3e records/s  %6.2f GB/s of trace\n", convert,
                records / convert, bytes / convert / 1e9);
    std::printf("  (2) ring drain + convert + write %5.3f s  %10.3e records/s  %6.2f GB/s of trace  (%.2f of (1))\n",
                drained, records / drained, bytes / drained / 1e9, convert / drained);
    const double dedup = median(dedup_t), repeat = median(repeat_t), repeat_dedup = median(repeat_dedup_t);
    std::printf("  (3) dedup + convert + write    %7.3f s  %10.3e records/s  trace %.0f MB\n", dedup, records / dedup,
                dedup_bytes / 1e6);
    std::printf("  (4) repeating offsets: convert + write %.3f s (%.0f MB); dedup + convert + write %.3f s  %10.3e "
                "records/s (%.0f MB, %.1fx smaller)\n",
                repeat, repeat_bytes / 1e6, repeat_dedup, records / repeat_dedup, repeat_dedup_bytes / 1e6,
                static_cast<double>(repeat_bytes) / static_cast<double>(repeat_dedup_bytes));
    std::printf("target: full traces written at >= 1 GB/s\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench.capture_host: %s\n", e.what());
    return 2;
  }
  return 0;
}
