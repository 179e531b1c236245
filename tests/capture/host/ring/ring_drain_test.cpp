// Tests of capture/host/ring/ring_drain.hpp against a simulated device: producer
// threads that follow the patches' protocol (capture/host/ring/ring_layout.hpp)
// on ordinary memory, including waiting on a full ring.
#include "capture/host/ring/ring_drain.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>
#include <vector>

using namespace bankcheck::capture;

namespace {

/// One simulated warp: reserve, wait while full, write, commit (as patches.cu does).
struct Producer {
  CaptureDescriptor& d;
  CaptureSlot* slots;
  RingControl& control;
  std::atomic<std::uint64_t>& reserved;
  std::atomic<std::uint64_t>& full_waits;

  void emit(std::uint32_t warp, std::uint32_t value) {
    const std::uint64_t t = reserved.fetch_add(1);
    bool waited = false;
    // Wait for room by sleeping, not spinning: on a loaded machine with fewer cores than threads, spinners
    // starve the one thread whose ticket the drain waits on (this test once ran for 10 minutes on 2 cores).
    while (t - std::atomic_ref<std::uint64_t>(control.consumed).load(std::memory_order_acquire) >= d.capacity) {
      waited = true;
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
    if (waited) ++full_waits;
    CaptureSlot& s = slots[t & (d.capacity - 1)];
    s.warp = warp;
    s.addr[0] = value;
    s.mask = 1;
    std::atomic_ref<std::uint64_t>(s.ticket).store(t + 1, std::memory_order_release);
  }
};

}  // namespace

TEST_CASE("ring: every record of several producers arrives once, through a ring far smaller than the stream") {
  constexpr std::uint64_t capacity = 8;
  constexpr unsigned producers = 4, per_producer = 5000;
  std::vector<CaptureSlot> slots(capacity);
  RingControl control{};
  CaptureDescriptor d{};
  d.capacity = capacity;
  std::atomic<std::uint64_t> reserved{0}, full_waits{0};
  std::atomic<unsigned> finished{0};
  RingDrain drain(RingView{slots.data(), capacity, &control});

  std::vector<std::thread> threads;
  for (unsigned p = 0; p < producers; ++p)
    threads.emplace_back([&, p] {
      Producer producer{d, slots.data(), control, reserved, full_waits};
      for (unsigned i = 0; i < per_producer; ++i) producer.emit(p, i);
      ++finished;
    });
  std::set<std::pair<std::uint32_t, std::uint32_t>> seen;
  std::uint64_t duplicates = 0;
  const SlotHandler handle = [&](const CaptureSlot& s) {
    if (!seen.emplace(s.warp, s.addr[0]).second) ++duplicates;
  };
  // Drain while the producers run (as the drain thread does during the kernel), until every producer has
  // written its last record: a producer that reserved its last ticket may still wait for room, so stopping once
  // every ticket is reserved would leave it waiting on a drain that no longer runs (a deadlock seen on 2 cores) ...
  while (finished.load() < producers)
    if (drain.drain_ready(handle) == 0) std::this_thread::yield();
  for (auto& t : threads) t.join();
  // ... then to the device's count (as at launch end).
  CHECK(drain.drain_until(reserved.load(), std::chrono::milliseconds(2000), handle));
  CHECK(duplicates == 0);
  CHECK(seen.size() == producers * per_producer);
  CHECK(drain.consumed() == reserved.load());
  CHECK(full_waits.load() > 0);  // the ring was full and producers waited instead of dropping
}

TEST_CASE("ring: a reserved slot that is never committed is reported, not waited on forever") {
  std::vector<CaptureSlot> slots(4);
  RingControl control{};
  RingDrain drain(RingView{slots.data(), 4, &control});
  std::atomic_ref<std::uint64_t>(slots[0].ticket).store(1);  // ticket 0 committed
  // ticket 1 reserved (the device counted 3) but never committed; ticket 2 committed.
  std::atomic_ref<std::uint64_t>(slots[2].ticket).store(3);
  std::uint64_t got = 0;
  CHECK_FALSE(drain.drain_until(3, std::chrono::milliseconds(50), [&](const CaptureSlot&) { ++got; }));
  CHECK(got == 1);  // in order: the slot after the gap is not taken out of turn
  CHECK(drain.consumed() == 1);
}

TEST_CASE("ring: the capacity must be a power of two") {
  std::vector<CaptureSlot> slots(6);
  RingControl control{};
  CHECK_THROWS_WITH_AS(RingDrain(RingView{slots.data(), 6, &control}), doctest::Contains("power of two"),
                       std::invalid_argument);
  RingDrain drain(RingView{slots.data(), 4, &control});
  drain.abort();
  CHECK(control.abort == 1);
}
