#pragma once
// What a wavefront costs in time, where it was measured: the H100's shared
// memory serves one wavefront per cycle per SM (throughput, every SM full of
// warps), and a dependent load waits 23 cycles plus 2 per extra wavefront
// (one warp, clock64 chains). docs/bank-model.md, "Time", and
// validate/results/h100-2026-11-23/probes/latency_fit.txt. Karsin 2015's
// k-way form L_S (1 + (k-1)/2) does not fit the H100 and has no numbers of
// its own, so only the measured preset has a timing.
#include <optional>
#include <string_view>

namespace bankcheck {

struct SharedTiming {
  double cycles_per_wavefront = 1.0;         ///< an SM's shared-memory pipe, busy: throughput cost
  double load_latency = 23.0;                ///< cycles of a conflict-free dependent 4-byte load
  double load_cycles_per_extra = 2.0;        ///< added per extra wavefront of a load
  double store_latency = 28.0;               ///< likewise for a store followed by a dependent load
  double store_cycles_per_extra = 4.0;
  std::string_view source;                   ///< where the numbers come from
};

/// The measured timing of a preset, or nothing where none was measured.
inline std::optional<SharedTiming> shared_timing(std::string_view preset) {
  if (preset == "sm90")
    return SharedTiming{1.0, 23.0, 2.0, 28.0, 4.0,
                        "H100 80GB HBM3, 2026-11-23, validate/latency/shmem_latency.cu (docs/bank-model.md, Time)"};
  return std::nullopt;
}

}  // namespace bankcheck
