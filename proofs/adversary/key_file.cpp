#include "proofs/adversary/key_file.hpp"

#include <bit>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <limits>
#include <stdexcept>

namespace bankcheck::proofs {

KeyFormat key_format(const std::string& format, const std::string& path) {
  if (format == "text") return KeyFormat::text;
  if (format == "bin") return KeyFormat::binary;
  if (!format.empty()) throw std::invalid_argument("--format must be text or bin (got '" + format + "')");
  return std::filesystem::path(path).extension() == ".bin" ? KeyFormat::binary : KeyFormat::text;
}

const char* key_format_name(KeyFormat format) { return format == KeyFormat::text ? "text" : "bin"; }

void check_key_fits(unsigned key_bytes, std::int64_t smallest, std::int64_t largest) {
  if (key_bytes == 4 && (smallest < std::numeric_limits<std::int32_t>::min() ||
                         largest > std::numeric_limits<std::int32_t>::max()))
    throw std::invalid_argument("keys " + std::to_string(smallest) + ".." + std::to_string(largest) +
                                " do not fit 4-byte keys; use key_bytes=8");
}

KeyFileWriter::KeyFileWriter(const std::string& path, KeyFormat format, unsigned key_bytes)
    : file_(path), format_(format), key_bytes_(key_bytes) {
  static_assert(std::endian::native == std::endian::little, "binary keys are written in host order");
  if (key_bytes != 4 && key_bytes != 8)
    throw std::invalid_argument("key_bytes must be 4 or 8 (got " + std::to_string(key_bytes) + ")");
}

template <class T>
void KeyFileWriter::append_any(std::span<const T> keys) {
  written_ += keys.size();
  if (format_ == KeyFormat::binary && sizeof(T) == key_bytes_) {  // already the file's bytes
    file_.write(std::as_bytes(keys));
    return;
  }
  buffer_.clear();
  if (format_ == KeyFormat::text) {
    char digits[24];
    for (const T k : keys) {
      const auto end = std::to_chars(digits, digits + sizeof digits, static_cast<std::int64_t>(k)).ptr;
      buffer_.append(digits, end);
      buffer_ += '\n';
    }
  } else {
    for (const T k : keys) {
      if (key_bytes_ == 4) {
        const auto v = static_cast<std::int32_t>(k);
        buffer_.append(reinterpret_cast<const char*>(&v), 4);
      } else {
        const auto v = static_cast<std::int64_t>(k);
        buffer_.append(reinterpret_cast<const char*>(&v), 8);
      }
    }
  }
  file_.write(std::string_view(buffer_));
}

void KeyFileWriter::append(std::span<const std::int64_t> keys) { append_any(keys); }
void KeyFileWriter::append(std::span<const std::int32_t> keys) { append_any(keys); }
void KeyFileWriter::commit() { file_.commit(); }

}  // namespace bankcheck::proofs
