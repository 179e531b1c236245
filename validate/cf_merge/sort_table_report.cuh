#pragma once
// validate/cf_merge/sort_table.cu's report: the options, the medians measured,
// the labels, the environment header and the markdown tables.
#include <cub/version.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "kernels/cf_sort_bench_common.cuh"

namespace {

struct TableOptions {
  bool quick = false, profile = false, sweep = false, ends = false;
  std::string csv, keys = "all", pairs = "all";
  int reps = 7;
  std::vector<std::uint64_t> sizes;  ///< --sweep --sizes: these sizes instead of the sweep's
};

/// The input column of CUB's worst case.
constexpr const char* kWorstInput = "CUB worst";

/// Medians (ms) of one (keys, pairs, n, input): CUB merge sort, CF, CUB radix sort; -1 where not measured.
struct Cell {
  double ms[3] = {-1, -1, -1};
};
std::map<std::tuple<int, bool, std::uint64_t, std::string>, Cell> results;

std::string keys_label(std::size_t key_bytes, bool pairs) {
  return std::string(key_bytes == 8 ? "u64" : "u32") + (pairs ? " pairs" : "");
}

std::string thousands(std::uint64_t x) {
  std::string s = std::to_string(x);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

bool is_prime(std::uint64_t n) {
  if (n < 2) return false;
  for (std::uint64_t d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

/// "2^24", "2^24 + 12,345", "3·2^23 - 5", "4352·2^12" (CUB's 4-byte tile), "1,000,003 (prime)".
std::string size_label(std::uint64_t n) {
  if (is_prime(n)) return thousands(n) + " (prime)";
  for (std::uint64_t m : {1ull, 3ull, 4352ull})
    for (int k = 0; k < 40; ++k) {
      const std::uint64_t base = m << k;
      const std::uint64_t d = n > base ? n - base : base - n;
      if (d > (base >> 6) || d > 99999) continue;
      std::string s = (m == 1 ? "" : std::to_string(m) + "·") + "2^" + std::to_string(k);
      return d == 0 ? s : s + (n > base ? " + " : " - ") + thousands(d);
    }
  return thousands(n);
}

/// The first line a shell command prints ("" if none).
std::string shell_line(const char* command) {
  std::string out;
  if (FILE* p = popen(command, "r")) {
    char buf[256];
    if (std::fgets(buf, sizeof buf, p)) out = buf;
    pclose(p);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

void print_environment(const std::string& command) {
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  int driver_api = 0, runtime = 0;
  CHECK_CUDA(cudaDriverGetVersion(&driver_api));
  CHECK_CUDA(cudaRuntimeGetVersion(&runtime));
  std::string driver = shell_line("nvidia-smi --query-gpu=driver_version --format=csv,noheader -i 0 2>/dev/null");
  if (driver.empty()) driver = "(nvidia-smi not found)";
  char date[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  std::printf("# CF-Merge (kernels/cf_merge_sort.cuh) against CUB\n\n");
  std::printf("- GPU: %s, %d SMs\n- driver: %s (CUDA driver API %d.%d)\n- CUDA runtime %d.%d, CUB %d.%d.%d\n",
              prop.name, prop.multiProcessorCount, driver.c_str(), driver_api / 1000, driver_api % 1000 / 10,
              runtime / 1000, runtime % 1000 / 10, CUB_MAJOR_VERSION, CUB_MINOR_VERSION, CUB_SUBMINOR_VERSION);
  std::printf("- date: %s\n- command: `%s`\n", date, command.c_str());
  std::printf("- tiles (u x E): CF u32 %d x %d, u32 pairs %d x %d, u64 %d x %d, u64 pairs %d x %d; CUB merge sort "
              "u32 %d x %d, u64 %d x %d\n",
              CfDefault<std::uint32_t, false>::kThreads, CfDefault<std::uint32_t, false>::kItems,
              CfDefault<std::uint32_t, true>::kThreads, CfDefault<std::uint32_t, true>::kItems,
              CfDefault<std::uint64_t, false>::kThreads, CfDefault<std::uint64_t, false>::kItems,
              CfDefault<std::uint64_t, true>::kThreads, CfDefault<std::uint64_t, true>::kItems,
              CubTiling<std::uint32_t>::kThreads, CubTiling<std::uint32_t>::kItems, CubTiling<std::uint64_t>::kThreads,
              CubTiling<std::uint64_t>::kItems);
  std::fflush(stdout);
}

const std::vector<std::pair<int, bool>>& configs() {
  static const std::vector<std::pair<int, bool>> c = {{4, false}, {4, true}, {8, false}, {8, true}};
  return c;
}
const std::vector<std::string>& input_columns() {
  static const std::vector<std::string> c = {"random", "sorted", "reversed", "16 distinct", "organ pipe", kWorstInput};
  return c;
}
const Cell* find(int kb, bool pairs, std::uint64_t n, const std::string& input) {
  const auto it = results.find({kb, pairs, n, input});
  return it == results.end() ? nullptr : &it->second;
}
std::vector<std::uint64_t> sizes_of(int kb, bool pairs) {
  std::vector<std::uint64_t> ns;
  for (const auto& [k, cell] : results)
    if (std::get<0>(k) == kb && std::get<1>(k) == pairs) ns.push_back(std::get<2>(k));
  ns.erase(std::unique(ns.begin(), ns.end()), ns.end());  // the map is ordered by n within a configuration
  return ns;
}

/// Time of sort `other` (0: CUB merge sort, 2: CUB radix sort) over CF's, per (keys, n) and input.
void print_ratio_table(const char* title, int other) {
  std::printf("\n## %s\n\n(time of the CUB sort / time of CF; above 1: CF is faster. Median of the rounds.)\n\n",
              title);
  std::printf("| keys | n |");
  for (const auto& c : input_columns()) std::printf(" %s |", c.c_str());
  std::printf(" CF ms, random |\n|---|---|");
  for (std::size_t i = 0; i <= input_columns().size(); ++i) std::printf("---:|");
  std::printf("\n");
  for (const auto& [kb, pairs] : configs())
    for (std::uint64_t n : sizes_of(kb, pairs)) {
      std::printf("| %s | %s |", keys_label(static_cast<std::size_t>(kb), pairs).c_str(), size_label(n).c_str());
      for (const auto& c : input_columns()) {
        const Cell* cell = find(kb, pairs, n, c);
        if (cell) std::printf(" %.2f |", cell->ms[other] / cell->ms[1]);
        else std::printf(" |");
      }
      const Cell* r = find(kb, pairs, n, "random");
      if (r) std::printf(" %.3f |\n", r->ms[1]);
      else std::printf(" |\n");
    }
}

void print_tables() {
  print_ratio_table("CUB merge sort time / CF time", 0);
  print_ratio_table("CUB radix sort time / CF time", 2);
  std::printf("\n## CUB's worst input (n = CUB's tile x 2^k)\n\n"
              "| keys | n | CUB merge worst/random | CF worst/random | CUB merge / CF, worst "
              "| CUB merge / CF, random |\n"
              "|---|---|---:|---:|---:|---:|\n");
  for (const auto& [kb, pairs] : configs())
    for (std::uint64_t n : sizes_of(kb, pairs)) {
      const Cell *w = find(kb, pairs, n, kWorstInput), *r = find(kb, pairs, n, "random");
      if (!w || !r) continue;
      std::printf("| %s | %s | %.3f | %.3f | %.3f | %.3f |\n", keys_label(static_cast<std::size_t>(kb), pairs).c_str(),
                  size_label(n).c_str(), w->ms[0] / r->ms[0], w->ms[1] / r->ms[1], w->ms[0] / w->ms[1],
                  r->ms[0] / r->ms[1]);
    }
  std::printf("\n## CUB merge sort time / CF time over every size and input\n\n"
              "| keys | cases | min | median | max | min at |\n|---|---:|---:|---:|---:|---|\n");
  for (const auto& [kb, pairs] : configs()) {
    std::vector<std::pair<double, std::string>> v;
    for (const auto& [k, cell] : results)
      if (std::get<0>(k) == kb && std::get<1>(k) == pairs)
        v.push_back({cell.ms[0] / cell.ms[1], size_label(std::get<2>(k)) + ", " + std::get<3>(k)});
    if (v.empty()) continue;
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    const double median = v.size() % 2 ? v[m].first : 0.5 * (v[m - 1].first + v[m].first);
    std::printf("| %s | %zu | %.3f | %.3f | %.3f | %s |\n", keys_label(static_cast<std::size_t>(kb), pairs).c_str(),
                v.size(), v.front().first, median, v.back().first, v.front().second.c_str());
  }
}

}  // namespace
