// kernels/capture_trace.cuh: the GPU capture's per-lane records, grouped into
// warp instructions, must equal BlockRecorder's instructions for the same run.
// Here the "capture" is made on the CPU by an accessor that writes exactly the
// records the device CaptureArray writes, in a shuffled order (the GPU's
// atomics give no order), so the grouping is checked without a GPU; the GPU
// half of the check is `kernel.<name> --mode check` (kernels/experiment.cuh).
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <random>

#include "kernels/capture_trace.cuh"
#include "sim/algorithms/pbs/pbs.hpp"
#include "sim/algorithms/transpose/transpose.hpp"

using namespace bankcheck;
using namespace bankcheck::kernels;

namespace {

// Host twin of kernels/block_kernel.cuh's CaptureArray (same fields, same order).
struct HostCapture {
  std::vector<unsigned char>* bytes;
  std::vector<CaptureRecord>* out;
  std::uint32_t* seq;
  std::uint32_t block, thread, offset = 0;
  std::uint16_t phase;
  HostCapture at(std::size_t off) const {
    HostCapture c = *this;
    c.offset += static_cast<std::uint32_t>(off);
    return c;
  }
  void log(int site, std::uint32_t addr, unsigned width, unsigned op) const {
    out->push_back({block, thread, (*seq)++, addr, static_cast<std::uint16_t>(site), phase,
                    static_cast<std::uint8_t>(width), static_cast<std::uint8_t>(op), 0});
  }
  template <class T>
  T load(int site, std::size_t index) const {
    const std::uint32_t addr = offset + static_cast<std::uint32_t>(index * sizeof(T));
    log(site, addr, sizeof(T), 0);
    T v;
    std::memcpy(&v, bytes->data() + addr, sizeof(T));
    return v;
  }
  template <class T>
  void store(int site, std::size_t index, T value) const {
    const std::uint32_t addr = offset + static_cast<std::uint32_t>(index * sizeof(T));
    log(site, addr, sizeof(T), 1);
    std::memcpy(bytes->data() + addr, &value, sizeof(T));
  }
};

// Run blocks like the capture kernel: every thread of a phase, then the next phase.
template <class Factory>
std::vector<CaptureRecord> host_capture(const Factory& factory, unsigned blocks, unsigned threads,
                                        std::size_t shared) {
  std::vector<CaptureRecord> records;
  for (unsigned b = 0; b < blocks; ++b) {
    std::vector<unsigned char> bytes(shared, 0);
    const auto algo = factory(b);
    const int phases = block_phases(algo);
    for (int p = 0; p < phases; ++p)
      for (unsigned t = 0; t < threads; ++t) {
        std::uint32_t seq = 0;
        HostCapture c{&bytes, &records, &seq, b, t, 0, static_cast<std::uint16_t>(p)};
        algo.phase(p, static_cast<int>(t), c);
      }
  }
  std::shuffle(records.begin(), records.end(), std::mt19937(12345));
  return records;
}

struct TransposeFactory {
  TransposeLayout layout;
  const int* in;
  int* out;
  Transpose<int> operator()(unsigned b) const {
    Transpose<int> t;
    t.tile = 32;
    t.layout = layout;
    t.in = in + b * 1024;
    t.out = out + b * 1024;
    return t;
  }
};

// 300 sites: lane t of a warp runs sites 299 - (t mod 3) then 2, storing its
// id at word t; every site id above 255 must survive the capture record.
struct ManySites {
  static constexpr const char* kName = "many";
  static constexpr auto kSiteNames = [] {
    std::array<const char*, 300> names{};
    names.fill("s");
    return names;
  }();
  static constexpr int kPhases = 1;
  unsigned threads = 64;
  std::size_t shared_bytes() const { return 4 * threads; }
  template <class Smem>
  void phase(int, int tid, Smem& smem) const {
    smem.template store<int>(299 - tid % 3, tid, tid);
    (void)smem.template load<int>(2, tid);
  }
};
struct ManySitesFactory {
  ManySites operator()(unsigned) const { return ManySites{}; }
};

template <PbsVariant V>
struct PbsFactory {
  const int* keys;
  const int* queries;
  long* answers;
  PbsSearch<int, V> operator()(unsigned b) const {
    PbsSearch<int, V> s;
    s.K = 1024;
    s.threads = 256;
    s.per_thread = 2;
    s.valid = 512;
    s.keys = keys;
    s.queries = queries + b * 512;
    s.answers = answers + b * 512;
    return s;
  }
};

}  // namespace

TEST_CASE("capture grouping equals BlockRecorder: transpose, every layout") {
  std::vector<int> in(2 * 1024), out(2 * 1024);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i * 7 + 3);
  for (auto layout : {TransposeLayout::plain, TransposeLayout::padded, TransposeLayout::swizzled}) {
    CAPTURE(static_cast<int>(layout));
    TransposeFactory f{layout, in.data(), out.data()};
    const std::size_t shared = f(0).shared_bytes();
    const InstructionMap cpu = record_on_cpu(f, 2, 1024, shared);
    const InstructionMap cap = instructions_from_capture(host_capture(f, 2, 1024, shared), 32);
    const TraceComparison cmp = compare(cap, cpu);
    CHECK_MESSAGE(cmp.same(), cmp.first_difference);
    // 2 blocks x 32 warps x (1 store + 1 load) instructions.
    CHECK(cpu.size() == 2u * 32u * 2u);
    CHECK(cmp.equal == cpu.size());
  }
}

TEST_CASE("capture grouping equals BlockRecorder: PBS variants (data-dependent, divergent loops)") {
  std::vector<int> keys(1024);
  for (int i = 0; i < 1024; ++i) keys[i] = 3 * i + 1;
  std::mt19937 rng(7);
  std::vector<int> queries(2 * 512);
  for (auto& q : queries) q = static_cast<int>(rng() % 3100);
  std::vector<long> answers(queries.size());
  auto check = [&](auto factory) {
    const std::size_t shared = static_cast<std::size_t>(factory(0).shared_bytes());
    const InstructionMap cpu = record_on_cpu(factory, 2, 256, shared);
    const InstructionMap cap = instructions_from_capture(host_capture(factory, 2, 256, shared), 32);
    const TraceComparison cmp = compare(cap, cpu);
    CHECK_MESSAGE(cmp.same(), cmp.first_difference);
    CHECK(cmp.equal == cpu.size());
    CHECK(cpu.size() > 0);
  };
  check(PbsFactory<PbsVariant::pbs>{keys.data(), queries.data(), answers.data()});
  check(PbsFactory<PbsVariant::cf>{keys.data(), queries.data(), answers.data()});
  check(PbsFactory<PbsVariant::cl>{keys.data(), queries.data(), answers.data()});
  check(PbsFactory<PbsVariant::cf_corrected>{keys.data(), queries.data(), answers.data()});
  check(PbsFactory<PbsVariant::cl_corrected>{keys.data(), queries.data(), answers.data()});
}

TEST_CASE("a lost record or a changed address is caught") {
  std::vector<int> in(1024), out(1024);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i);
  TransposeFactory f{TransposeLayout::plain, in.data(), out.data()};
  const InstructionMap cpu = record_on_cpu(f, 1, 1024, f(0).shared_bytes());
  std::vector<CaptureRecord> records = host_capture(f, 1, 1024, f(0).shared_bytes());
  SUBCASE("changed address") {
    records[17].addr += 4;
    CHECK_FALSE(compare(instructions_from_capture(records, 32), cpu).same());
  }
  SUBCASE("lost record in the middle of a lane's sequence") {
    // Thread 5's phase-0 and phase-1 records: drop its first phase-1 access... each phase has one
    // access per thread, so drop a whole access: the instruction then lacks lane 5.
    auto it = std::find_if(records.begin(), records.end(),
                           [](const CaptureRecord& r) { return r.thread == 5 && r.phase == 1; });
    REQUIRE(it != records.end());
    records.erase(it);
    CHECK_FALSE(compare(instructions_from_capture(records, 32), cpu).same());
  }
  SUBCASE("sequence gap throws") {
    for (auto& r : records)
      if (r.thread == 9 && r.phase == 0) r.seq = 1;  // its only access claims to be the second
    CHECK_THROWS_AS(instructions_from_capture(records, 32), std::runtime_error);
  }
}

TEST_CASE("site ids above 255 round-trip through the 16-bit CaptureRecord::site") {
  const ManySitesFactory f;
  const InstructionMap cpu = record_on_cpu(f, 1, 64, f(0).shared_bytes());
  const std::vector<CaptureRecord> records = host_capture(f, 1, 64, f(0).shared_bytes());
  std::vector<unsigned> sites;
  for (const CaptureRecord& r : records) sites.push_back(r.site);
  CHECK(std::count(sites.begin(), sites.end(), 299u) == 22);  // threads 0, 3, ..., 63
  CHECK(std::count(sites.begin(), sites.end(), 297u) == 21);
  const InstructionMap cap = instructions_from_capture(records, 32);
  const TraceComparison cmp = compare(cap, cpu);
  CHECK_MESSAGE(cmp.same(), cmp.first_difference);
  // Per warp: stores of sites 297, 298, 299 and the load of site 2: 4 instructions, 2 warps.
  CHECK(cpu.size() == 8);
  const InstructionKey k299{0, 0, 1, 299, 0};
  REQUIRE(cap.count(k299) == 1);
  CHECK(cap.at(k299).addr[0] == kInactive);  // lane 0 of warp 1 is thread 32 = 2 mod 3: site 297
  CHECK(cap.at(k299).addr[1] == 4 * 33);     // thread 33 = 0 mod 3 stores word 33
}

TEST_CASE("CaptureRecord layout: 24 bytes, the site in bytes 16-17") {
  CaptureRecord r{};
  r.site = 0x1234;
  unsigned char bytes[sizeof r];
  std::memcpy(bytes, &r, sizeof r);
  CHECK(sizeof r == 24);
  CHECK(static_cast<unsigned>(bytes[16] | bytes[17] << 8) == 0x1234u);  // little-endian host and device
}
