// Replay throughput: how fast a large binary trace of 4-byte
// accesses is (0) read as raw bytes, (a) read and parsed by the trace reader
// with its addresses summed, (b) replayed through the sm90 preset, and
// (c) costed by BankModel::cost alone from memory (where replay's time goes),
// and (d) costed per pattern from cache; (e) the parallel replay of one
// trace (its chunks read, or mapped) and (f) `replay DIR` of a folder, each
// against one thread. The SIMD kernels alone: bench.simd.
// (0) to (d) run on one core, each figure the median of --runs runs of the
// thread's CPU time; (e) and (f) the medians of wall-clock times, alternated
// with the one-thread run in the same loop. Printed in lane-accesses per
// second (active lanes).
//
// The generated trace mixes the patterns real kernels issue (site names in
// brackets), drawn per instruction from a fixed-seed generator:
//   40% [row]       stride-1 rows at a random 128-byte-aligned base: conflict-free
//   10% [column]    stride 2, 4, 8 or 32 words (transpose/matrix columns): 2- to 32-way
//   10% [padded]    stride 33 words (padded tile column): conflict-free
//   25% [random]    independent random words in a 48 KiB window (hash tables, histograms)
//    5% [broadcast] every lane reads one word
//   10% [partial]   stride-1 with each lane idle with probability 1/2 (divergent tails)
// 75% loads, 25% stores. The same trace is written twice, with 8-byte and
// with 4-byte addresses (docs/trace-format.md), and each file is measured.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <random>
#include <thread>
#include <string>
#include <vector>

#include "bench/bench_stats.hpp"
#include "model/bank_model.hpp"
#include "model/simd_degree.hpp"
#include "sim/parallel/cluster.hpp"
#include "sim/replay/parallel_replay.hpp"
#include "sim/report/directory_replay.hpp"
#include "sim/replay/replay.hpp"
#include "sim/trace/trace_binary.hpp"
#include "sim/trace/trace_file.hpp"

using namespace bankcheck;
using bench::median;
using bench::wall_seconds;

namespace {

constexpr unsigned kWarp = 32;

void generate(const std::string& path, std::uint64_t instructions, unsigned address_bytes) {
  BinaryTraceWriter writer{OutputFile(path), address_bytes};
  writer.begin(kWarp);
  std::mt19937_64 rng(2026);
  std::vector<std::uint64_t> addr(kWarp);
  const std::uint64_t window = 48 * 1024;
  for (std::uint64_t i = 0; i < instructions; ++i) {
    const unsigned pick = static_cast<unsigned>(rng() % 100);
    const std::uint64_t base = (rng() % (window / 128)) * 128;
    const char* site;
    if (pick < 40) {
      site = "row";
      for (unsigned l = 0; l < kWarp; ++l) addr[l] = base + 4 * l;
    } else if (pick < 50) {
      site = "column";
      const unsigned strides[] = {2, 4, 8, 32};
      const unsigned s = strides[rng() % 4];
      for (unsigned l = 0; l < kWarp; ++l) addr[l] = 4 * std::uint64_t{s} * l;
    } else if (pick < 60) {
      site = "padded";
      for (unsigned l = 0; l < kWarp; ++l) addr[l] = 4 * 33 * l;
    } else if (pick < 85) {
      site = "random";
      for (unsigned l = 0; l < kWarp; ++l) addr[l] = (rng() % (window / 4)) * 4;
    } else if (pick < 90) {
      site = "broadcast";
      for (unsigned l = 0; l < kWarp; ++l) addr[l] = base;
    } else {
      site = "partial";
      const std::uint64_t mask = rng();
      for (unsigned l = 0; l < kWarp; ++l) addr[l] = (mask >> l) & 1 ? base + 4 * l : kInactive;
    }
    const Op op = rng() % 4 == 0 ? Op::store : Op::load;
    writer.record(site, WarpRequest{op, 4, addr});
  }
  writer.end();
}

/// CPU time of this thread (user + system) spent in f: the passes are
/// single-threaded, and CPU time is steadier than wall time on a shared machine.
double seconds(const std::function<void()>& f) {
  auto now = [] {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
  };
  const double t0 = now();
  f();
  return now() - t0;
}

volatile std::uint64_t g_sink;  // keeps the sums alive

/// Medians for one trace file: (0) raw bytes, (a) the reader, (b) replay.
struct FileFigures {
  unsigned address_bytes = 8;
  std::uint64_t bytes = 0, records = 0, lanes = 0;
  double raw = 0, read = 0, replay = 0;
  double replay_wall = 0, parallel_wall = 0;  ///< (b) and (e) in wall-clock seconds
  double parallel_mapped_wall = 0;             ///< (e) with ChunkAccess::map
  double parallel_mapped_skim_wall = 0;        ///< (e) with ChunkAccess::mapped_skim
};

/// (f) `replay DIR` over a folder of links to one trace: one thread against `threads`, wall clock.
struct FolderFigures {
  unsigned files = 8;
  std::uint64_t lanes = 0;
  double one = 0, many = 0;
};

FolderFigures measure_folder(const std::string& trace, const BankModel& model, unsigned runs, unsigned threads) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "bankcheck_replay_bench_folder";
  fs::remove_all(dir);
  fs::create_directories(dir);
  FolderFigures f;
  for (unsigned i = 0; i < f.files; ++i) {
    const fs::path link = dir / ("t" + std::to_string(i) + ".bktrace");
    std::error_code ec;
    fs::create_hard_link(trace, link, ec);
    if (ec) fs::copy_file(trace, link);
  }
  const auto files = report::trace_files(dir.string());
  std::vector<double> one, many;
  for (unsigned r = 0; r < runs; ++r)
    for (unsigned t : {1u, threads}) {
      report::ReplayReportOptions o;
      o.threads = t;
      (t == 1 ? one : many).push_back(wall_seconds([&] {
        f.lanes = report::replay_directory(dir.string(), files, model, o, Cluster::instance())->totals.lane_accesses;
      }));
    }
  fs::remove_all(dir);
  f.one = median(one);
  f.many = median(many);
  return f;
}

FileFigures measure(const std::string& path, const BankModel& model, unsigned runs, unsigned threads) {
  FileFigures f;
  std::vector<double> replay_wall_t, parallel_t, parallel_mapped_t, parallel_mapped_skim_t;
  f.bytes = std::filesystem::file_size(path);
  std::vector<double> raw_t, read_t, replay_t;
  std::vector<std::uint64_t> chunk(std::size_t{4} << 17);
  for (unsigned r = 0; r < runs; ++r) {
    // (0) raw: the bytes only, summed as words (the floor set by the page cache and memory).
    raw_t.push_back(seconds([&] {
      InputFile in(path);
      std::uint64_t sum = 0;
      for (std::size_t n; (n = in.read(chunk.data(), chunk.size() * 8) / 8) > 0;)
        for (std::size_t i = 0; i < n; ++i) sum += chunk[i];
      g_sink = sum;
    }));
    // (a) read-only: the trace reader, every address summed (a checksum).
    read_t.push_back(seconds([&] {
      auto source = open_trace(path);
      TraceRecord rec;
      std::uint64_t sum = 0, n = 0;
      while (source->next(rec)) {
        for (std::uint64_t a : rec.request.addr) sum += a;
        ++n;
      }
      g_sink = sum;
      f.records = n;
      if (auto* binary = dynamic_cast<BinaryTraceReader*>(source.get())) f.address_bytes = binary->address_bytes();
    }));
    // (b) full replay through sm90.
    replay_t.push_back(seconds([&] {
      auto source = open_trace(path);
      const ReplaySummary s = replay(*source, model);
      g_sink = s.totals.wavefronts;
      f.lanes = s.totals.lane_accesses;
      if (s.totals.instructions != f.records) throw std::logic_error("replay saw a different number of records");
    }));
    // (b) again and (e) the parallel replay, both in wall-clock time, alternated in one run.
    replay_wall_t.push_back(wall_seconds([&] {
      auto source = open_trace(path);
      g_sink = replay(*source, model).totals.wavefronts;
    }));
    parallel_t.push_back(wall_seconds([&] {
      auto source = open_trace(path);
      const ReplaySummary s = replay_parallel(*source, model, threads);
      g_sink = s.totals.wavefronts;
      if (s.totals.instructions != f.records) throw std::logic_error("parallel replay saw a different number of records");
    }));
    parallel_mapped_t.push_back(wall_seconds([&] {
      auto source = open_trace(path);
      g_sink = replay_parallel(*source, model, threads, {}, ChunkAccess::map).totals.wavefronts;
    }));
    parallel_mapped_skim_t.push_back(wall_seconds([&] {
      auto source = open_trace(path);
      g_sink = replay_parallel(*source, model, threads, {}, ChunkAccess::mapped_skim).totals.wavefronts;
    }));
  }
  f.parallel_mapped_wall = median(parallel_mapped_t);
  f.parallel_mapped_skim_wall = median(parallel_mapped_skim_t);
  f.replay_wall = median(replay_wall_t);
  f.parallel_wall = median(parallel_t);
  f.raw = median(raw_t);
  f.read = median(read_t);
  f.replay = median(replay_t);
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"bench.replay: trace reading vs replay throughput (lane-accesses per second, one core)"};
  std::string trace;
  std::uint64_t instructions = 2'000'000;
  unsigned runs = 5;
  std::uint64_t model_only = 200'000;
  app.add_option("trace", trace, "Binary trace to use (default: generate one with 8-byte and one with 4-byte addresses)");
  app.add_option("--instructions", instructions, "Instructions to generate (default 2000000)")->check(CLI::PositiveNumber);
  app.add_option("--runs", runs, "Runs per figure; the median is printed (default 5)")->check(CLI::Range(1u, 101u));
  std::string keep;
  app.add_option("--keep", keep, "Also write the generated trace (4-byte addresses) to this path and keep it, for profiling");
  app.add_option("--model-only", model_only, "Instructions kept in memory for the cost-only figure (default 200000)")
      ->check(CLI::PositiveNumber);
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  app.add_option("--threads", threads, "Workers of the parallel replay (e) (default: every core)")
      ->check(CLI::Range(1u, 1024u));
  CLI11_PARSE(app, argc, argv);

  std::vector<std::string> traces, generated;
  if (trace.empty()) {
    for (unsigned address_bytes : {8u, 4u}) {
      const std::string path = (std::filesystem::temp_directory_path() /
                                ("bankcheck_replay_bench_a" + std::to_string(address_bytes) + ".bktrace"))
                                   .string();
      const double t = seconds([&] { generate(path, instructions, address_bytes); });
      generated.push_back(path);
      std::printf("generated %s: %llu instructions, %.0f MB in %.2f s CPU\n", path.c_str(),
                  static_cast<unsigned long long>(instructions), std::filesystem::file_size(path) / 1e6, t);
    }
    traces = generated;
    if (!keep.empty()) generate(keep, instructions, 4);
  } else {
    traces = {trace};
  }
  auto cleanup = [&] {
    for (const auto& path : generated) std::filesystem::remove(path);
  };

  try {
    const BankModel model = make_preset("sm90");
    std::vector<FileFigures> figures;
    for (const auto& path : traces) figures.push_back(measure(path, model, runs, threads));
    const FolderFigures folder = measure_folder(traces.back(), model, runs, threads);
    // (c) BankModel::cost alone over the first --model-only records, held in memory.
    TraceBuffer buffer;
    {
      auto source = open_trace(traces.front());
      buffer.begin(source->warp());
      TraceRecord rec;
      for (std::uint64_t i = 0; i < model_only && source->next(rec); ++i)
        buffer.record(source->sites().name(rec.site), rec.request);
    }
    std::uint64_t buffer_lanes = 0;
    for (std::size_t i = 0; i < buffer.size(); ++i) buffer_lanes += active_lanes(buffer.at(i).request);
    std::vector<double> cost_t;
    for (unsigned r = 0; r < runs; ++r)
      cost_t.push_back(seconds([&] {
        std::uint64_t w = 0;
        for (std::size_t i = 0; i < buffer.size(); ++i) w += model.cost(buffer.at(i).request).wavefronts;
        g_sink = w;
      }));
    const double cost = median(cost_t);

    // (d) BankModel::cost per site: up to 2000 requests of each pattern, small
    // enough to stay in cache, costed 50 times over; one pattern at a time,
    // so branches predict as well as they can (the mix in (c) costs more).
    struct SiteRequests {
      std::string site;
      std::vector<Op> op;
      std::vector<unsigned> width;
      std::vector<std::uint64_t> addr;  // kWarp per request
    };
    std::vector<SiteRequests> by_site;
    for (std::size_t i = 0; i < buffer.size(); ++i) {
      const auto& rec = buffer.at(i);
      const std::string name(buffer.sites().name(rec.site));
      auto it = std::find_if(by_site.begin(), by_site.end(), [&](const SiteRequests& s) { return s.site == name; });
      if (it == by_site.end()) it = by_site.insert(by_site.end(), SiteRequests{name, {}, {}, {}});
      if (it->op.size() == 2000) continue;
      it->op.push_back(rec.request.op);
      it->width.push_back(rec.request.width);
      it->addr.insert(it->addr.end(), rec.request.addr.begin(), rec.request.addr.end());
    }
    std::vector<std::pair<std::string, double>> site_ns;
    for (const auto& s : by_site) {
      std::vector<double> t;
      for (unsigned r = 0; r < runs; ++r)
        t.push_back(seconds([&] {
          std::uint64_t w = 0;
          for (int pass = 0; pass < 50; ++pass)
            for (std::size_t i = 0; i < s.op.size(); ++i)
              w += model.cost(WarpRequest{s.op[i], s.width[i], std::span<const std::uint64_t>(s.addr.data() + i * kWarp, kWarp)})
                       .wavefronts;
          g_sink = w;
        }));
      site_ns.emplace_back(s.site, median(t) / (50.0 * static_cast<double>(s.op.size())) * 1e9);
    }

    const FileFigures& first = figures.front();
    std::printf("trace: %llu instructions, %llu active lane-accesses, warp %u, 4-byte accesses; SIMD path %s\n",
                static_cast<unsigned long long>(first.records), static_cast<unsigned long long>(first.lanes), kWarp,
                std::string(simd_path_name(best_simd_path())).c_str());
    std::printf("medians of %u runs, CPU time of one thread:\n", runs);
    for (const auto& f : figures) {
      const double lanes = static_cast<double>(f.lanes);
      std::printf("%u-byte addresses (%.0f MB):\n", f.address_bytes, f.bytes / 1e6);
      std::printf("  (0) raw read, words summed    %7.3f s  %10.3e lane-accesses/s  %7.2f GB/s\n", f.raw, lanes / f.raw,
                  f.bytes / f.raw / 1e9);
      std::printf("  (a) trace reader, addr summed %7.3f s  %10.3e lane-accesses/s\n", f.read, lanes / f.read);
      std::printf("  (b) replay, sm90              %7.3f s  %10.3e lane-accesses/s\n", f.replay, lanes / f.replay);
      std::printf("  ratio replay / read-only: %.3f; per instruction: read %.1f ns, replay %.1f ns\n", f.read / f.replay,
                  f.read / f.records * 1e9, f.replay / f.records * 1e9);
      std::printf("  (e) parallel replay, %u workers, wall clock %7.3f s  %10.3e lane-accesses/s; one thread, wall "
                  "clock %.3f s: speed-up %.2f (%.2f of the workers' count; %u cores)\n",
                  threads, f.parallel_wall, lanes / f.parallel_wall, f.replay_wall, f.replay_wall / f.parallel_wall,
                  f.replay_wall / f.parallel_wall / threads, std::thread::hardware_concurrency());
      std::printf("      the same, chunks mapped instead of read: wall clock %7.3f s  %10.3e lane-accesses/s: speed-up "
                  "%.2f; read / mapped time %.2f\n",
                  f.parallel_mapped_wall, lanes / f.parallel_mapped_wall, f.replay_wall / f.parallel_mapped_wall,
                  f.parallel_wall / f.parallel_mapped_wall);
      std::printf("      the same, the skim mapped and the chunks read: wall clock %7.3f s  %10.3e lane-accesses/s: "
                  "speed-up %.2f; read / this time %.2f\n",
                  f.parallel_mapped_skim_wall, lanes / f.parallel_mapped_skim_wall,
                  f.replay_wall / f.parallel_mapped_skim_wall, f.parallel_wall / f.parallel_mapped_skim_wall);
    }
    std::printf("(f) replay DIR, %u files (links to the last trace), files shared by the threads, wall clock: one "
                "thread %.3f s, %u threads %.3f s %10.3e lane-accesses/s: speed-up %.2f (%.2f of the threads' count)\n",
                folder.files, folder.one, threads, folder.many, static_cast<double>(folder.lanes) / folder.many,
                folder.one / folder.many, folder.one / folder.many / threads);
    std::printf("(c) BankModel::cost only        %7.3f s  %10.3e lane-accesses/s  (%zu instructions in memory, %.1f ns each)\n",
                cost, static_cast<double>(buffer_lanes) / cost, buffer.size(), cost / buffer.size() * 1e9);
    std::printf("(d) BankModel::cost per site, requests in cache, one site at a time (ns per instruction):\n   ");
    for (const auto& [site, ns] : site_ns) std::printf(" %s %.1f", site.c_str(), ns);
    std::printf("\n");

    std::printf("targets: replay >= 1e9 lane-accesses/s (parallel, all cores), ratio replay / read-only >= 0.3 (one "
                "thread), parallel speed-up >= 0.8 x cores\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench.replay: %s\n", e.what());
    cleanup();
    return 2;
  }
  cleanup();
  return 0;
}
