// Speed and memory of the CUB worst-case permutation generator
// (sim/inputs/merge_sort_adversary.hpp): u = 256, E = 17, w = 32, n = 2^26 * 17
// 4-byte keys by default, on one core. Requirement: generating the
// permutation runs at >= 2e8 keys/s and uses at most 1.2 x the output's size.
//   bench.adversary [log2(n/17), default 26] [output file, default $TMPDIR/bankcheck-adversary-bench.bin]
// Prints, in this order (peak RSS is read after each, so the file path's peak
// is not hidden by the in-memory runs that follow):
//   1. the generator alone: tiles into one reused buffer, no I/O;
//   2. the library's file path (write_permutation_file: generate + write(2)
//      in 1 MiB chunks, then fsync + rename), end to end and without the fsync;
//   3. the path `bankcheck adversary cub-merge-sort n=N --format bin` uses
//      (proofs/adversary/constructions.hpp write_permutation: the same chunks
//      through KeyFileWriter, with progress callbacks), end to end;
//   4. generate(span) into a fresh anonymous mapping (first touch) and again
//      into the same, now mapped, memory.
// The plan searches each small in-block pass for 3000 target sequences, as
// the command does by default (deterministic; not counted in the speeds).
#include <sys/mman.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <utility>
#include <optional>
#include <functional>
#include <span>

#include "bench/bench_stats.hpp"
#include "proofs/adversary/constructions.hpp"
#include "sim/inputs/merge_sort_adversary.hpp"

namespace {

using namespace bankcheck::inputs;
using bankcheck::bench::wall_seconds;

double peak_rss_bytes() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) * 1024.0;
}

/// 1. The generator alone; returns a checksum of the first keys.
std::uint64_t time_generator(const MergeSortAdversary& adv, double n) {
  std::uint64_t check = 0;
  const double s = wall_seconds([&] {
    adv.generate_tiles<std::int32_t>(
        [&](std::uint64_t, std::span<const std::int32_t> keys) { check += static_cast<std::uint64_t>(keys[0]); });
  });
  std::cout << "generator alone (reused tile buffer): " << s << " s, " << n / s << " keys/s\n";
  return check;
}

/// 2. The file path.
void time_file_path(const MergeSortAdversary& adv, const std::filesystem::path& file, double n, double out_bytes) {
  const PermutationFileWrite w = write_permutation_file(adv, file, 4);
  const double total = w.write_seconds + w.commit_seconds;
  std::cout << "file " << file.string() << ": generate + write " << w.write_seconds << " s, " << n / w.write_seconds
            << " keys/s; + fsync/rename " << w.commit_seconds << " s: " << n / total << " keys/s end to end\n";
  std::cout << "peak RSS after the file path: " << peak_rss_bytes() / 1e6 << " MB = " << peak_rss_bytes() / out_bytes
            << " x output\n";
}

/// 3. The command's path.
void time_command_path(const MergeSortAdversary& adv, const std::filesystem::path& file, double n) {
  std::uint64_t reports = 0;
  const double s = wall_seconds([&] {
    bankcheck::proofs::write_permutation(adv, file.string(), bankcheck::proofs::KeyFormat::binary, 4,
                                         [&](std::uint64_t, std::uint64_t) { ++reports; });
  });
  std::cout << "command path (KeyFileWriter, " << reports << " progress calls): " << s << " s, " << n / s
            << " keys/s end to end (fsync + rename included)\n";
}

/// 4. In memory: first touch, then warm. Adds a sample of the keys to `check`; false when the memory is refused.
bool time_in_memory(const MergeSortAdversary& adv, std::uint64_t keys, double n, std::uint64_t& check) {
  const std::size_t bytes = keys * sizeof(std::int32_t);
  void* mem = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) {
    std::cerr << "cannot map " << bytes << " bytes\n";
    return false;
  }
  const std::span<std::int32_t> out(static_cast<std::int32_t*>(mem), keys);
  double s = wall_seconds([&] { adv.generate(out); });
  std::cout << "generate(span), fresh anonymous memory (page faults counted): " << s << " s, " << n / s
            << " keys/s\n";
  s = wall_seconds([&] { adv.generate(out); });
  std::cout << "generate(span), already mapped memory: " << s << " s, " << n / s << " keys/s\n";
  for (std::uint64_t i = 0; i < keys; i += 4097) check += static_cast<std::uint64_t>(out[i]);
  munmap(mem, bytes);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const unsigned log2n = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 26;
  const std::filesystem::path file =
      argc > 2 ? std::filesystem::path(argv[2])
               : std::filesystem::temp_directory_path() / "bankcheck-adversary-bench.bin";
  if (log2n > 27) {
    std::cerr << "log2(n/17) must be at most 27 (n <= 2^31 for 4-byte keys)\n";
    return 2;
  }
  const MergeSortShape shape{256, 17, 32, (std::uint64_t{1} << log2n) * 17};
  const double n = static_cast<double>(shape.keys);
  const double out_bytes = n * sizeof(std::int32_t);
  std::cout << "n = " << shape.keys << " keys (2^" << log2n << " * 17), u = 256, E = 17, 4-byte keys, output "
            << out_bytes / 1e6 << " MB\n";
  std::optional<MergeSortAdversary> adv;
  const double plan = wall_seconds([&] { adv.emplace(shape, SearchBudget{1e300, 1, 3000}); });
  std::cout << "plan (searches of the in-block passes, not counted below): " << plan << " s\n";
  std::uint64_t check = time_generator(*adv, n);
  std::error_code ignored;
  for (const auto& [what, step] : {std::pair<const char*, std::function<void()>>{
                                       "file path", [&] { time_file_path(*adv, file, n, out_bytes); }},
                                   {"command path", [&] { time_command_path(*adv, file, n); }}}) {
    try {
      step();
    } catch (const std::exception& e) {
      std::cerr << what << ": " << e.what() << "\n";
      return 2;
    }
    std::filesystem::remove(file, ignored);
  }
  if (!time_in_memory(*adv, shape.keys, n, check)) return 2;
  std::cout << "peak RSS after the in-memory runs: " << peak_rss_bytes() / 1e6 << " MB = "
            << peak_rss_bytes() / out_bytes << " x output\n(checksum " << check << ")\n";
}
