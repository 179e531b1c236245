#pragma once
// The files `bankcheck adversary` writes: keys (queries, merge lists, a
// permutation) as decimal text, one per line -- what `bankcheck run ALGO
// --input FILE` reads -- or as raw little-endian integers of 4 or 8 bytes for
// the GPU harness (--format bin or a .bin file name). Written atomically
// (sim/trace/atomic_file.hpp): a failure leaves no half-written file.
#include <cstdint>
#include <span>
#include <string>

#include "sim/trace/atomic_file.hpp"

namespace bankcheck::proofs {

enum class KeyFormat { text, binary };

/// `format` when given ("text" or "bin"), else by the extension of `path`
/// (.bin: binary), else text. @throws std::invalid_argument for another format.
KeyFormat key_format(const std::string& format, const std::string& path);

/// "text" or "bin".
const char* key_format_name(KeyFormat format);

/// @throws std::invalid_argument when keys in [smallest, largest] do not fit
/// `key_bytes` bytes (4 or 8), naming the way out (key_bytes=8).
void check_key_fits(unsigned key_bytes, std::int64_t smallest, std::int64_t largest);

class KeyFileWriter {
 public:
  /// @pre key_bytes is 4 or 8. @throws std::runtime_error when the file cannot be created.
  KeyFileWriter(const std::string& path, KeyFormat format, unsigned key_bytes);
  /// Appends keys (text: one per line; binary: little-endian, key_bytes each).
  void append(std::span<const std::int64_t> keys);
  void append(std::span<const std::int32_t> keys);
  /// Makes the file appear under its name.
  void commit();
  std::uint64_t keys_written() const { return written_; }

 private:
  template <class T>
  void append_any(std::span<const T> keys);
  AtomicFile file_;
  KeyFormat format_;
  unsigned key_bytes_;
  std::uint64_t written_ = 0;
  std::string buffer_;
};

}  // namespace bankcheck::proofs
