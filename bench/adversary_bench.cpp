// Speed and memory of the CUB worst-case permutation generator
// (proofs/merge_sort_adversary.hpp): u = 256, E = 17, w = 32, n = 2^26 * 17
// 4-byte keys by default. Prints keys/s on one core and the peak resident set
// (getrusage ru_maxrss) against the output's size. Requirement: >= 2e8 keys/s,
// peak <= 1.2 x output.
//   bench.adversary [log2(n/17), default 26]
#include <sys/mman.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <span>

#include "proofs/merge_sort_adversary.hpp"

int main(int argc, char** argv) {
  using namespace bankcheck::proofs;
  const unsigned log2n = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 26;
  const MergeSortShape shape{256, 17, 32, (std::uint64_t{1} << log2n) * 17};
  const auto t_plan = std::chrono::steady_clock::now();
  const MergeSortAdversary adv(shape, SearchBudget{0.2, 1, ~std::uint64_t{0}});
  // The output buffer, untouched until the generator writes it: the first
  // (cold) run pays the kernel's page faults for the whole output, the second
  // (warm) run writes the same, already mapped, buffer again.
  const std::size_t bytes = shape.keys * sizeof(std::int32_t);
  void* mem = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) {
    std::cerr << "cannot map " << bytes << " bytes\n";
    return 2;
  }
  std::int32_t* out = static_cast<std::int32_t*>(mem);
  const auto t0 = std::chrono::steady_clock::now();
  adv.generate(std::span<std::int32_t>(out, shape.keys));
  const auto t1 = std::chrono::steady_clock::now();
  adv.generate(std::span<std::int32_t>(out, shape.keys));
  const auto t2 = std::chrono::steady_clock::now();
  munmap(mem, bytes);
  // Third way: map the output with MAP_POPULATE (sequential zero-fill by the
  // kernel), counted in the time, then generate.
  const auto t3 = std::chrono::steady_clock::now();
  mem = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (mem == MAP_FAILED) {
    std::cerr << "cannot map " << bytes << " bytes\n";
    return 2;
  }
  out = static_cast<std::int32_t*>(mem);
  adv.generate(std::span<std::int32_t>(out, shape.keys));
  const auto t4 = std::chrono::steady_clock::now();
  const double populated = std::chrono::duration<double>(t4 - t3).count();
  const double secs = std::chrono::duration<double>(t1 - t0).count();
  const double warm = std::chrono::duration<double>(t2 - t1).count();
  std::uint64_t check = 0;
  for (std::uint64_t i = 0; i < shape.keys; i += 4097) check += static_cast<std::uint64_t>(out[i]);
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  const double out_bytes = static_cast<double>(shape.keys) * sizeof(std::int32_t);
  const double peak = static_cast<double>(ru.ru_maxrss) * 1024.0;
  std::cout << "n = " << shape.keys << " keys (2^" << log2n << " * 17), u = 256, E = 17, 4-byte keys\n"
            << "plan (incl. searches of the in-block passes): "
            << std::chrono::duration<double>(t0 - t_plan).count() << " s\n"
            << "generate, cold (first touch of the output): " << secs << " s, "
            << static_cast<double>(shape.keys) / secs << " keys/s\n"
            << "generate, warm (output already mapped): " << warm << " s, " << static_cast<double>(shape.keys) / warm
            << " keys/s\n"
            << "map with MAP_POPULATE + generate: " << populated << " s, "
            << static_cast<double>(shape.keys) / populated << " keys/s\n"
            << "peak RSS: " << peak / 1e6 << " MB, output " << out_bytes / 1e6 << " MB, ratio " << peak / out_bytes
            << "\n(checksum " << check << ")\n";
}
