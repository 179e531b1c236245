#pragma once
// Host half of the capture build (kernels/block_kernel.cuh): the record a
// capturing kernel writes per lane access, its grouping into warp
// instructions keyed (block, phase, warp, site, occurrence) exactly as
// sim/algorithms/block_recorder.hpp defines them, and the comparison with the CPU
// recorder. No CUDA here, so the CPU test (tests/kernels/capture_trace_test.cpp)
// checks this grouping without a GPU.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "kernels/algorithm_factory.hpp"
#include "model/warp_request.hpp"
#include "sim/algorithms/block_recorder.hpp"

namespace bankcheck::kernels {

/// One captured lane access, as the device writes it: 24 bytes, no implicit
/// padding (the static_asserts below pin the layout the host reads back).
///   bytes  0-3   block
///          4-7   thread
///          8-11  seq       the thread's access number within its phase
///         12-15  addr      byte offset within the block's shared memory
///         16-17  site      the algorithm's site id; 16 bits like AccessTag's, since a
///                          BlockAlgorithm has at most 65535 sites
///         18-19  phase     16 bits; capture() refuses an algorithm with more phases
///         20     width     bytes of the access: 1, 2, 4, 8 or 16
///         21     op        0 load, 1 store (Op)
///         22-23  reserved  zero
struct CaptureRecord {
  std::uint32_t block;
  std::uint32_t thread;
  std::uint32_t seq;
  std::uint32_t addr;
  std::uint16_t site;
  std::uint16_t phase;
  std::uint8_t width;
  std::uint8_t op;
  std::uint16_t reserved;
};
static_assert(sizeof(CaptureRecord) == 24);
static_assert(offsetof(CaptureRecord, site) == 16 && offsetof(CaptureRecord, phase) == 18);
static_assert(offsetof(CaptureRecord, width) == 20 && offsetof(CaptureRecord, op) == 21);

// ---------------------------------------------------------------------------
// Instructions, keyed as sim/algorithms/block_recorder.hpp defines them.

/// (block, phase, warp, site, occurrence k)
struct InstructionKey {
  std::uint64_t block;
  unsigned phase, warp, site;
  std::uint64_t k;
  auto tie() const { return std::tie(block, phase, warp, site, k); }
  bool operator<(const InstructionKey& o) const { return tie() < o.tie(); }
  bool operator==(const InstructionKey& o) const { return tie() == o.tie(); }
};

/// One warp instruction: op, width, one address per lane (kInactive if idle).
struct InstructionBody {
  Op op = Op::load;
  unsigned width = 0;
  std::vector<std::uint64_t> addr;
  bool operator==(const InstructionBody&) const = default;
};

using InstructionMap = std::map<InstructionKey, InstructionBody>;

/// Collects BlockRecorder's instructions into a map.
class MapListener final : public InstructionListener {
 public:
  explicit MapListener(InstructionMap& map) : map_(map) {}
  void instruction(const InstructionInfo& info, const WarpRequest& request) override {
    InstructionKey key{info.block, info.phase, info.warp_index, info.site, info.k};
    InstructionBody body{request.op, request.width, {request.addr.begin(), request.addr.end()}};
    if (!map_.emplace(key, std::move(body)).second) throw std::logic_error("recorder emitted one key twice");
  }

 private:
  InstructionMap& map_;
};

/// Group a GPU capture into warp instructions: within (block, phase, warp),
/// the k-th access to site s by a lane (in that lane's own sequence order)
/// belongs to instruction (s, k). Throws if a lane's records are not a
/// gap-free sequence (lost records) or one instruction mixes widths/ops.
inline InstructionMap instructions_from_capture(std::vector<CaptureRecord> records, unsigned warp) {
  std::sort(records.begin(), records.end(), [](const CaptureRecord& a, const CaptureRecord& b) {
    return std::tie(a.block, a.phase, a.thread, a.seq) < std::tie(b.block, b.phase, b.thread, b.seq);
  });
  InstructionMap map;
  std::map<unsigned, std::uint64_t> occurrence;  // site -> count, for the current lane
  for (std::size_t i = 0; i < records.size(); ++i) {
    const CaptureRecord& r = records[i];
    const bool new_lane = i == 0 || r.block != records[i - 1].block || r.phase != records[i - 1].phase ||
                          r.thread != records[i - 1].thread;
    if (new_lane) occurrence.clear();
    const std::uint32_t expected_seq = new_lane ? 0 : records[i - 1].seq + 1;
    if (r.seq != expected_seq)
      throw std::runtime_error("capture: block " + std::to_string(r.block) + " thread " + std::to_string(r.thread) +
                               " phase " + std::to_string(r.phase) + " has a gap in its access sequence");
    const InstructionKey key{r.block, r.phase, r.thread / warp, r.site, occurrence[r.site]++};
    auto [it, fresh] = map.try_emplace(key);
    InstructionBody& body = it->second;
    const Op op = r.op ? Op::store : Op::load;
    if (fresh) {
      body.op = op;
      body.width = r.width;
      body.addr.assign(warp, kInactive);
    } else if (body.op != op || body.width != r.width) {
      throw std::runtime_error("capture: one instruction mixes widths or ops");
    }
    body.addr[r.thread % warp] = r.addr;
  }
  return map;
}

/// The CPU side: BlockRecorder over blocks 0..blocks-1 with the same factory.
template <AlgorithmFactory Factory>
InstructionMap record_on_cpu(const Factory& factory, unsigned blocks, unsigned threads, std::size_t shared,
                             unsigned warp = 32) {
  InstructionMap map;
  MapListener listener(map);
  BlockRecorder recorder(shared);
  for (unsigned b = 0; b < blocks; ++b) {
    recorder.clear();
    recorder.run(factory(b), threads, warp, listener, b);
  }
  return map;
}

/// Result of comparing two instruction maps.
struct TraceComparison {
  std::uint64_t gpu = 0, cpu = 0, equal = 0;
  std::string first_difference;  ///< empty when the maps are equal
  bool same() const { return first_difference.empty(); }
};

inline std::string describe(const InstructionKey& k) {
  return "block " + std::to_string(k.block) + " phase " + std::to_string(k.phase) + " warp " + std::to_string(k.warp) +
         " site " + std::to_string(k.site) + " occurrence " + std::to_string(k.k);
}

inline TraceComparison compare(const InstructionMap& gpu, const InstructionMap& cpu) {
  TraceComparison out;
  out.gpu = gpu.size();
  out.cpu = cpu.size();
  for (const auto& [key, body] : cpu) {
    auto it = gpu.find(key);
    if (it == gpu.end()) {
      if (out.first_difference.empty()) out.first_difference = "GPU lacks " + describe(key);
      continue;
    }
    if (it->second == body) {
      ++out.equal;
    } else if (out.first_difference.empty()) {
      std::string lanes;
      for (std::size_t l = 0; l < body.addr.size(); ++l)
        if (body.addr[l] != it->second.addr[l]) {
          lanes = "lane " + std::to_string(l) + ": cpu " + std::to_string(body.addr[l]) + " gpu " +
                  std::to_string(it->second.addr[l]);
          break;
        }
      out.first_difference = "differs at " + describe(key) + " (" + lanes + ")";
    }
  }
  if (out.first_difference.empty() && gpu.size() != cpu.size()) {
    for (const auto& [key, body] : gpu)
      if (!cpu.count(key)) {
        out.first_difference = "CPU lacks " + describe(key);
        break;
      }
  }
  return out;
}

}  // namespace bankcheck::kernels
