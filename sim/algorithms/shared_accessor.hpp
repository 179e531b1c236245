#pragma once
// Shared-memory accessors: the only way an algorithm header touches shared
// memory (docs/algorithms.md, "single-source accessor design").
//
//   smem.template load<T>(site, index)         T's sizeof is the access width
//   smem.template store<T>(site, index, value)  index counts elements of T
//   smem.at(byte_offset)                        the same accessor, base moved
//
// SharedArray (sim/algorithms/shared_array.hpp, C++17) is the device
// accessor: a plain pointer into __shared__ memory, so load/store compile to
// one LDS/STS. RecordingArray (host only) reads and writes the
// BlockRecorder's byte buffer with real values and logs (site, lane, byte
// address, width, op) for the recorder to turn into warp instructions.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/warp_request.hpp"
#include "model/hd.hpp"
#include "sim/algorithms/shared_array.hpp"

namespace bankcheck {

/// One logged lane access (host only) is an address and a tag: the site,
/// width and op packed in 32 bits, so that lanes running the same sites in
/// the same order have equal tag sequences (the recorder compares them with
/// memcmp).
struct AccessTag {
  static constexpr std::uint32_t make(unsigned site, unsigned width, Op op) {
    return static_cast<std::uint32_t>(site) | static_cast<std::uint32_t>(width) << 16 |
           static_cast<std::uint32_t>(op) << 24;
  }
  static constexpr unsigned site(std::uint32_t tag) { return tag & 0xffffu; }
  static constexpr unsigned width(std::uint32_t tag) { return (tag >> 16) & 0xffu; }
  static constexpr Op op(std::uint32_t tag) { return static_cast<Op>(tag >> 24); }
};

/// State the recorder shares with its accessors: the block's shared bytes
/// and the log of the warp now executing (its lanes one after another, as
/// two parallel arrays). The accessor appends through raw cursors (no vector
/// bookkeeping per access); they are pointers, not a count, so that the
/// stores into the log (integers) cannot alias them and the compiler keeps
/// them in registers across an inlined phase. grow() is the rare slow path.
struct RecordingState {
  std::vector<unsigned char> bytes;
  std::vector<std::uint64_t> addr_store;  ///< storage of the log's addresses
  std::vector<std::uint32_t> tag_store;   ///< storage of the log's tags (AccessTag)
  std::uint64_t* addrs = nullptr;         ///< addr_store.data()
  std::uint32_t* tags = nullptr;          ///< tag_store.data()
  std::uint64_t* addr_next = nullptr;     ///< next free address slot
  std::uint32_t* tag_next = nullptr;      ///< next free tag slot
  std::uint64_t* addr_end = nullptr;      ///< addrs + capacity
  unsigned lane_thread = 0;               ///< thread id now executing (for messages)
  unsigned site_count = 0;                ///< sites must be < site_count

  /// Entries logged since reset_log().
  std::size_t used() const { return static_cast<std::size_t>(addr_next - addrs); }
  void reset_log() {
    if (addr_store.empty()) resize(4096);
    addr_next = addrs;
    tag_next = tags;
  }
  /// Double the log's storage, keeping what is logged.
  void grow() { resize(2 * addr_store.size()); }
  void append(std::uint64_t addr, std::uint32_t tag) {
    if (addr_next == addr_end) [[unlikely]] grow();
    *addr_next++ = addr;
    *tag_next++ = tag;
  }

 private:
  void resize(std::size_t n) {
    const std::size_t kept = addrs ? used() : 0;
    addr_store.resize(n);
    tag_store.resize(n);
    addrs = addr_store.data();
    tags = tag_store.data();
    addr_next = addrs + kept;
    tag_next = tags + kept;
    addr_end = addrs + n;
  }
};

/// Host accessor: real values in the recorder's buffer, every access logged.
/// Out-of-range, misaligned or unknown-site accesses throw std::out_of_range
/// (the GPU would read garbage or fault; the CPU says where).
class RecordingArray {
 public:
  RecordingArray(RecordingState* state, std::uint64_t base) : state_(state), base_(base) {}
  RecordingArray at(std::size_t byte_offset) const { return RecordingArray(state_, base_ + byte_offset); }

  template <class T>
  T load(int site, std::size_t index) const {
    const std::uint64_t addr = check<T>(site, index);
    T value;
    std::memcpy(&value, state_->bytes.data() + addr, sizeof(T));
    state_->append(addr, AccessTag::make(static_cast<unsigned>(site), sizeof(T), Op::load));
    return value;
  }
  template <class T>
  void store(int site, std::size_t index, T value) const {
    const std::uint64_t addr = check<T>(site, index);
    std::memcpy(state_->bytes.data() + addr, &value, sizeof(T));
    state_->append(addr, AccessTag::make(static_cast<unsigned>(site), sizeof(T), Op::store));
  }

 private:
  template <class T>
  std::uint64_t check(int site, std::size_t index) const {
    static_assert(is_valid_width(sizeof(T)), "shared-memory element must be 1, 2, 4, 8 or 16 bytes");
    const std::uint64_t addr = base_ + static_cast<std::uint64_t>(index) * sizeof(T);
    if (addr + sizeof(T) > state_->bytes.size() || addr % sizeof(T) != 0 || site < 0 ||
        static_cast<unsigned>(site) >= state_->site_count)
      fail(site, addr, sizeof(T));
    return addr;
  }
  [[noreturn]] void fail(int site, std::uint64_t addr, std::size_t width) const {
    throw std::out_of_range("thread " + std::to_string(state_->lane_thread) + " site " + std::to_string(site) +
                            ": shared access of " + std::to_string(width) + " bytes at byte " +
                            std::to_string(addr) + " is out of the block's " +
                            std::to_string(state_->bytes.size()) + " bytes, misaligned, or of an unknown site");
  }

  RecordingState* state_;
  std::uint64_t base_;
};

}  // namespace bankcheck
