#include "capture/host/ring/ring_drain.hpp"

#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>

namespace bankcheck::capture {

RingDrain::RingDrain(RingView ring) : ring_(ring) {
  if (!is_valid_ring_capacity(ring.capacity))
    throw std::invalid_argument("ring capacity must be a power of two >= 1 (got " + std::to_string(ring.capacity) + ")");
  if (ring.slots == nullptr || ring.control == nullptr) throw std::invalid_argument("ring without memory");
}

std::uint64_t RingDrain::consumed() const {
  return std::atomic_ref<std::uint64_t>(ring_.control->consumed).load(std::memory_order_acquire);
}

void RingDrain::abort() { std::atomic_ref<std::uint32_t>(ring_.control->abort).store(1, std::memory_order_release); }

std::uint64_t RingDrain::drain_ready(const SlotHandler& handle) {
  std::atomic_ref<std::uint64_t> consumed(ring_.control->consumed);
  std::uint64_t c = consumed.load(std::memory_order_relaxed);  // only this thread writes it
  std::uint64_t n = 0;
  for (;;) {
    CaptureSlot& slot = ring_.slots[c & (ring_.capacity - 1)];
    // The ticket is written last, after a system-scope fence on the device:
    // seeing c + 1 there means the slot's other fields are complete.
    if (std::atomic_ref<std::uint64_t>(slot.ticket).load(std::memory_order_acquire) != c + 1) break;
    handle(slot);
    ++c;
    ++n;
    consumed.store(c, std::memory_order_release);  // frees the slot for ticket c + capacity
  }
  return n;
}

bool RingDrain::drain_until(std::uint64_t total, std::chrono::milliseconds patience, const SlotHandler& handle) {
  using Clock = std::chrono::steady_clock;
  auto last_progress = Clock::now();
  while (consumed() < total) {
    if (drain_ready(handle) > 0) {
      last_progress = Clock::now();
      continue;
    }
    if (Clock::now() - last_progress > patience) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  return true;
}

}  // namespace bankcheck::capture
