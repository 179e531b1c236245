// Replay throughput: how fast a large binary trace of 4-byte
// accesses is (0) read as raw bytes, (a) read and parsed by the trace reader
// with its addresses summed, (b) replayed through the sm90 preset, and
// (c) costed by BankModel::cost alone from memory (where replay's time goes),
// and (d) costed per pattern from cache; (e) the parallel replay of one
// trace (its chunks read, or mapped) and (f) `replay DIR` of a folder, each
// against one thread. The SIMD kernels alone: bench.simd.
// (0) to (d) run on one core, each figure the median of --runs runs of the
// thread's CPU time (steadier than wall time on a shared machine); (e) and
// (f) the medians of wall-clock times, alternated with the one-thread run in
// the same loop. Printed in lane-accesses per
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
#include <cstdint>
#include <cstdio>
#include <filesystem>
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
using bench::thread_seconds;
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

/// (0), (a) and (b) on one thread, CPU time: the medians into `f`.
void measure_one_thread(const std::string& path, const BankModel& model, unsigned runs, FileFigures& f) {
  std::vector<double> raw_t, read_t, replay_t;
  std::vector<std::uint64_t> chunk(std::size_t{4} << 17);
  for (unsigned r = 0; r < runs; ++r) {
    // (0) raw: the bytes only, summed as words (the floor set by the page cache and memory).
    raw_t.push_back(thread_seconds([&] {
      InputFile in(path);
      std::uint64_t sum = 0;
      for (std::size_t n; (n = in.read(chunk.data(), chunk.size() * 8) / 8) > 0;)
        for (std::size_t i = 0; i < n; ++i) sum += chunk[i];
      g_sink = sum;
    }));
    // (a) read-only: the trace reader, every address summed (a checksum).
    read_t.push_back(thread_seconds([&] {
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
    replay_t.push_back(thread_seconds([&] {
      auto source = open_trace(path);
      const ReplaySummary s = replay(*source, model);
      g_sink = s.totals.wavefronts;
      f.lanes = s.totals.lane_accesses;
      if (s.totals.instructions != f.records) throw std::logic_error("replay saw a different number of records");
    }));
  }
  f.raw = median(raw_t);
  f.read = median(read_t);
  f.replay = median(replay_t);
}

/// (b) again and (e) the parallel replay, both in wall-clock time, alternated in one run.
void measure_wall_clock(const std::string& path, const BankModel& model, unsigned runs, unsigned threads,
                        FileFigures& f) {
  std::vector<double> replay_wall_t, parallel_t, parallel_mapped_t, parallel_mapped_skim_t;
  for (unsigned r = 0; r < runs; ++r) {
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
}

FileFigures measure(const std::string& path, const BankModel& model, unsigned runs, unsigned threads) {
  FileFigures f;
  f.bytes = std::filesystem::file_size(path);
  measure_one_thread(path, model, runs, f);
  measure_wall_clock(path, model, runs, threads, f);
  return f;
}

struct Options {
  std::string trace;
  std::uint64_t instructions = 2'000'000;
  unsigned runs = 5;
  std::uint64_t model_only = 200'000;
  std::string keep;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
};

void add_options(CLI::App& app, Options& o) {
  app.add_option("trace", o.trace, "Binary trace to use (default: generate one with 8-byte and one with 4-byte addresses)");
  app.add_option("--instructions", o.instructions, "Instructions to generate (default 2000000)")->check(CLI::PositiveNumber);
  app.add_option("--runs", o.runs, "Runs per figure; the median is printed (default 5)")->check(CLI::Range(1u, 101u));
  app.add_option("--keep", o.keep, "Also write the generated trace (4-byte addresses) to this path and keep it, for profiling");
  app.add_option("--model-only", o.model_only, "Instructions kept in memory for the cost-only figure (default 200000)")
      ->check(CLI::PositiveNumber);
  app.add_option("--threads", o.threads, "Workers of the parallel replay (e) (default: every core)")
      ->check(CLI::Range(1u, 1024u));
}

/// The traces to measure: the one given, or two generated (8- and 4-byte addresses) into `generated`.
std::vector<std::string> traces_to_measure(const Options& o, std::vector<std::string>& generated) {
  if (!o.trace.empty()) return {o.trace};
  for (unsigned address_bytes : {8u, 4u}) {
    const std::string path = (std::filesystem::temp_directory_path() /
                              ("bankcheck_replay_bench_a" + std::to_string(address_bytes) + ".bktrace"))
                                 .string();
    const double t = thread_seconds([&] { generate(path, o.instructions, address_bytes); });
    generated.push_back(path);
    std::printf("generated %s: %llu instructions, %.0f MB in %.2f s CPU\n", path.c_str(),
                static_cast<unsigned long long>(o.instructions), std::filesystem::file_size(path) / 1e6, t);
  }
  if (!o.keep.empty()) generate(o.keep, o.instructions, 4);
  return generated;
}

/// (c) BankModel::cost alone over the first records of a trace, held in memory.
struct MemoryFigures {
  TraceBuffer buffer;
  std::uint64_t lanes = 0;
  double cost = 0;  ///< median seconds to cost the buffer once
};

MemoryFigures measure_in_memory(const std::string& path, const BankModel& model, std::uint64_t records,
                                unsigned runs) {
  MemoryFigures m;
  {
    auto source = open_trace(path);
    m.buffer.begin(source->warp());
    TraceRecord rec;
    for (std::uint64_t i = 0; i < records && source->next(rec); ++i)
      m.buffer.record(source->sites().name(rec.site), rec.request);
  }
  for (std::size_t i = 0; i < m.buffer.size(); ++i) m.lanes += active_lanes(m.buffer.at(i).request);
  std::vector<double> cost_t;
  for (unsigned r = 0; r < runs; ++r)
    cost_t.push_back(thread_seconds([&] {
      std::uint64_t w = 0;
      for (std::size_t i = 0; i < m.buffer.size(); ++i) w += model.cost(m.buffer.at(i).request).wavefronts;
      g_sink = w;
    }));
  m.cost = median(cost_t);
  return m;
}

/// One site's requests of (d), kWarp addresses each.
struct SiteRequests {
  std::string site;
  std::vector<Op> op;
  std::vector<unsigned> width;
  std::vector<std::uint64_t> addr;
};

/// (d) BankModel::cost per site: up to 2000 requests of each pattern, small
/// enough to stay in cache, costed 50 times over; one pattern at a time,
/// so branches predict as well as they can (the mix in (c) costs more).
/// Nanoseconds per instruction, by site.
std::vector<std::pair<std::string, double>> measure_by_site(const TraceBuffer& buffer, const BankModel& model,
                                                            unsigned runs) {
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
      t.push_back(thread_seconds([&] {
        std::uint64_t w = 0;
        for (int pass = 0; pass < 50; ++pass)
          for (std::size_t i = 0; i < s.op.size(); ++i)
            w += model.cost(WarpRequest{s.op[i], s.width[i], std::span<const std::uint64_t>(s.addr.data() + i * kWarp, kWarp)})
                     .wavefronts;
        g_sink = w;
      }));
    site_ns.emplace_back(s.site, median(t) / (50.0 * static_cast<double>(s.op.size())) * 1e9);
  }
  return site_ns;
}

void print_file(const FileFigures& f, unsigned threads) {
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

void run(const Options& o, const std::vector<std::string>& traces) {
  const BankModel model = make_preset("sm90");
  std::vector<FileFigures> figures;
  for (const auto& path : traces) figures.push_back(measure(path, model, o.runs, o.threads));
  const FolderFigures folder = measure_folder(traces.back(), model, o.runs, o.threads);
  const MemoryFigures memory = measure_in_memory(traces.front(), model, o.model_only, o.runs);
  const auto site_ns = measure_by_site(memory.buffer, model, o.runs);

  const FileFigures& first = figures.front();
  std::printf("trace: %llu instructions, %llu active lane-accesses, warp %u, 4-byte accesses; SIMD path %s\n",
              static_cast<unsigned long long>(first.records), static_cast<unsigned long long>(first.lanes), kWarp,
              std::string(simd_path_name(best_simd_path())).c_str());
  std::printf("medians of %u runs, CPU time of one thread:\n", o.runs);
  for (const auto& f : figures) print_file(f, o.threads);
  std::printf("(f) replay DIR, %u files (links to the last trace), files shared by the threads, wall clock: one "
              "thread %.3f s, %u threads %.3f s %10.3e lane-accesses/s: speed-up %.2f (%.2f of the threads' count)\n",
              folder.files, folder.one, o.threads, folder.many, static_cast<double>(folder.lanes) / folder.many,
              folder.one / folder.many, folder.one / folder.many / o.threads);
  std::printf("(c) BankModel::cost only        %7.3f s  %10.3e lane-accesses/s  (%zu instructions in memory, %.1f ns each)\n",
              memory.cost, static_cast<double>(memory.lanes) / memory.cost, memory.buffer.size(),
              memory.cost / memory.buffer.size() * 1e9);
  std::printf("(d) BankModel::cost per site, requests in cache, one site at a time (ns per instruction):\n   ");
  for (const auto& [site, ns] : site_ns) std::printf(" %s %.1f", site.c_str(), ns);
  std::printf("\n");
  std::printf("targets: replay >= 1e9 lane-accesses/s (parallel, all cores), ratio replay / read-only >= 0.3 (one "
              "thread), parallel speed-up >= 0.8 x cores\n");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"bench.replay: trace reading vs replay throughput (lane-accesses per second, one core)"};
  Options o;
  add_options(app, o);
  CLI11_PARSE(app, argc, argv);
  std::vector<std::string> generated;
  int status = 0;
  try {
    run(o, traces_to_measure(o, generated));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench.replay: %s\n", e.what());
    status = 2;
  }
  for (const auto& path : generated) std::filesystem::remove(path);
  return status;
}
