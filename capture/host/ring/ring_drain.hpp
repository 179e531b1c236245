#pragma once
// The host side of the capture ring (capture/host/ring/ring_layout.hpp): consume
// committed slots in ticket order and hand each to a callback, while the
// kernel runs and after it ends. Separate from the injection library so
// that the protocol is tested without a GPU, against a producer made of
// threads (tests/capture/host/ring/ring_drain_test.cpp).
#include <chrono>
#include <cstdint>
#include <functional>

#include "capture/host/ring/ring_layout.hpp"

namespace bankcheck::capture {

/// The ring as the host sees it. @pre capacity is a power of two >= 1;
/// slots holds capacity slots; control->consumed starts at 0.
struct RingView {
  CaptureSlot* slots = nullptr;
  std::uint64_t capacity = 0;
  RingControl* control = nullptr;
};

/// Whether n is a valid ring capacity (a power of two >= 1).
constexpr bool is_valid_ring_capacity(std::uint64_t n) { return n != 0 && (n & (n - 1)) == 0; }

using SlotHandler = std::function<void(const CaptureSlot&)>;

class RingDrain {
 public:
  /// @throws std::invalid_argument for a capacity that is not a power of two.
  explicit RingDrain(RingView ring);

  /// Consume every slot committed from `consumed()` on, in ticket order,
  /// calling `handle` for each and advancing the shared `consumed` word.
  /// Returns how many were consumed. Never waits.
  std::uint64_t drain_ready(const SlotHandler& handle);

  /// Drain until `total` slots are consumed; gives up when `patience`
  /// passes with no new slot. @return true when all `total` were consumed.
  bool drain_until(std::uint64_t total, std::chrono::milliseconds patience, const SlotHandler& handle);

  /// Slots consumed so far.
  std::uint64_t consumed() const;

  /// Tell waiting producers to give up (they count what they drop).
  void abort();

 private:
  RingView ring_;
};

}  // namespace bankcheck::capture
