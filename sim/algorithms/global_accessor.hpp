#pragma once
// Global-memory accessors: how an algorithm header reads and
// writes an array in global memory, the counterpart of shared_accessor.hpp.
//
//   keys.load(site, index)         one element of T (sizeof(T) is the width)
//   keys.store(site, index, value)
//
// GlobalArray<T> is the device accessor: a plain pointer, so load/store
// compile to one LDG/STG. RecordingGlobal<T> (host only) reads and writes a
// host array with real values and logs each lane's access as a gld/gst of
// the address `base + index * sizeof(T)` into the BlockRecorder's log, so
// the recorder forms warp instructions of them as it does of shared ones
// (same site ids, same grouping). `base` is the array's device address, or
// any address with the same alignment: the sectors, lines and pages of a
// request depend on the address modulo 128 (docs/global-memory.md); cudaMalloc
// aligns to 256 bytes, so a 256-aligned base is what the GPU sees.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "model/hd.hpp"
#include "model/warp_request.hpp"
#include "sim/algorithms/shared_accessor.hpp"

namespace bankcheck {

/// Device accessor over a global array (also usable on host memory).
template <class T>
class GlobalArray {
 public:
  BANKCHECK_HD explicit GlobalArray(T* data = nullptr) : data_(data) {}
  BANKCHECK_HD T load(int /*site*/, std::size_t index) const { return data_[index]; }
  BANKCHECK_HD void store(int /*site*/, std::size_t index, T value) const { data_[index] = value; }

 private:
  T* data_;
};

/// Host accessor: real values in a host array of `size` elements, every
/// access logged as gld/gst at `base + index * sizeof(T)`. An index out of
/// range or an unknown site throws std::out_of_range (the GPU would read
/// garbage or fault; the CPU says where).
template <class T>
class RecordingGlobal {
 public:
  static_assert(is_valid_width(sizeof(T)), "a global element must be 1, 2, 4, 8 or 16 bytes");
  RecordingGlobal() = default;
  /// @pre base is a multiple of sizeof(T); state is the recorder's (BlockRecorder::global).
  RecordingGlobal(RecordingState* state, T* data, std::size_t size, std::uint64_t base)
      : state_(state), data_(data), size_(size), base_(base) {
    if (base % sizeof(T) != 0) throw std::invalid_argument("a global array's base must be aligned to its element");
  }

  T load(int site, std::size_t index) const {
    check(site, index, "load");
    state_->append(base_ + index * sizeof(T), AccessTag::make(static_cast<unsigned>(site), sizeof(T), Op::gld));
    return data_[index];
  }
  void store(int site, std::size_t index, T value) const {
    check(site, index, "store");
    state_->append(base_ + index * sizeof(T), AccessTag::make(static_cast<unsigned>(site), sizeof(T), Op::gst));
    data_[index] = value;
  }

 private:
  void check(int site, std::size_t index, const char* what) const {
    if (index < size_ && site >= 0 && static_cast<unsigned>(site) < state_->site_count) return;
    throw std::out_of_range("thread " + std::to_string(state_->lane_thread) + " site " + std::to_string(site) +
                            ": global " + what + " of element " + std::to_string(index) + " is out of the array's " +
                            std::to_string(size_) + " elements, or of an unknown site");
  }

  RecordingState* state_ = nullptr;
  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::uint64_t base_ = 0;
};

/// Where the recorder places the global arrays of a run unless told
/// otherwise: array i at kGlobalBase + i * kGlobalArrayStride (256-aligned, as
/// cudaMalloc's; far apart, so arrays never share a sector).
inline constexpr std::uint64_t kGlobalBase = std::uint64_t{1} << 40;
inline constexpr std::uint64_t kGlobalArrayStride = std::uint64_t{1} << 36;

}  // namespace bankcheck
