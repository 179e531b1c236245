// sim/algorithms/block_algorithm.hpp: the concept accepts both spellings of
// the phase and thread counts and rejects a type missing any part; the
// counts are read through block_phases() / block_threads().
#include "sim/algorithms/block_algorithm.hpp"

#include <doctest/doctest.h>

#include <cstddef>

using namespace bankcheck;

namespace {

struct Fixed {  // kPhases and a `threads` member
  static constexpr const char* kName = "fixed";
  static constexpr const char* kSiteNames[] = {"s"};
  static constexpr int kPhases = 3;
  unsigned threads = 48;
  std::size_t shared_bytes() const { return 4; }
  template <class Smem>
  void phase(int, int, Smem&) const {}
};

struct Computed {  // phases() and threads()
  static constexpr const char* kName = "computed";
  static constexpr const char* kSiteNames[] = {"s", "t"};
  int n = 5;
  int phases() const { return n + 1; }
  unsigned threads() const { return 2u * static_cast<unsigned>(n); }
  long shared_bytes() const { return 8; }
  template <class Smem>
  void phase(int, int, Smem&) const {}
};

struct NoSites {
  static constexpr const char* kName = "x";
  static constexpr int kPhases = 1;
  unsigned threads = 1;
  std::size_t shared_bytes() const { return 0; }
  template <class Smem>
  void phase(int, int, Smem&) const {}
};

struct NoShared {
  static constexpr const char* kName = "x";
  static constexpr const char* kSiteNames[] = {"s"};
  static constexpr int kPhases = 1;
  unsigned threads = 1;
  template <class Smem>
  void phase(int, int, Smem&) const {}
};

struct NoPhaseCount {
  static constexpr const char* kName = "x";
  static constexpr const char* kSiteNames[] = {"s"};
  unsigned threads = 1;
  std::size_t shared_bytes() const { return 0; }
  template <class Smem>
  void phase(int, int, Smem&) const {}
};

struct HostOnlyPhase {  // phase() takes the recording accessor only: not single-source
  static constexpr const char* kName = "x";
  static constexpr const char* kSiteNames[] = {"s"};
  static constexpr int kPhases = 1;
  unsigned threads = 1;
  std::size_t shared_bytes() const { return 0; }
  void phase(int, int, RecordingArray&) const {}
};

}  // namespace

static_assert(BlockAlgorithm<Fixed>);
static_assert(BlockAlgorithm<Computed>);
static_assert(!BlockAlgorithm<NoSites>);
static_assert(!BlockAlgorithm<NoShared>);
static_assert(!BlockAlgorithm<NoPhaseCount>);
static_assert(!BlockAlgorithm<HostOnlyPhase>);
static_assert(!BlockAlgorithm<int>);

TEST_CASE("block_phases and block_threads read either spelling") {
  CHECK(block_phases(Fixed{}) == 3);
  CHECK(block_threads(Fixed{}) == 48);
  Computed c;
  c.n = 7;
  CHECK(block_phases(c) == 8);
  CHECK(block_threads(c) == 14);
  CHECK(block_site_count<Computed>() == 2);
}
