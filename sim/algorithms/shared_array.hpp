#pragma once
// SharedArray, the device side of the shared-memory accessors
// (sim/algorithms/shared_accessor.hpp has the protocol and the host side,
// RecordingArray): a plain pointer into __shared__ memory, so load/store
// compile to one LDS/STS. Its own header, in C++17, because
// kernels/cf_merge_sort.cuh is a drop-in sort that C++17 projects include;
// the host side needs C++20 (model/warp_request.hpp's std::span).
#include <cstddef>

#include "model/hd.hpp"

namespace bankcheck {

/// Device accessor over __shared__ memory (also usable on host memory).
class SharedArray {
 public:
  BANKCHECK_HD explicit SharedArray(void* base) : base_(static_cast<unsigned char*>(base)) {}
  /// The accessor `byte_offset` bytes further on (a second array of the block).
  BANKCHECK_HD SharedArray at(std::size_t byte_offset) const { return SharedArray(base_ + byte_offset); }
  template <class T>
  BANKCHECK_HD T load(int /*site*/, std::size_t index) const {
    return reinterpret_cast<const T*>(base_)[index];
  }
  template <class T>
  BANKCHECK_HD void store(int /*site*/, std::size_t index, T value) const {
    reinterpret_cast<T*>(base_)[index] = value;
  }

 private:
  unsigned char* base_;
};

}  // namespace bankcheck
