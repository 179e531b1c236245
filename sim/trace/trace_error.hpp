#pragma once
// TraceError: a malformed trace file. It names where the problem is so the
// CLI can print `FILE:LINE: message` (text traces) or
// `FILE: byte OFFSET (record N): message` (binary traces) and exit 2.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace bankcheck {

class TraceError : public std::runtime_error {
 public:
  /// Where in the file the problem is.
  enum class Unit : std::uint8_t {
    none,  ///< the file as a whole (cannot open, read error)
    line,  ///< text traces: 1-based line number
    byte,  ///< binary traces: byte offset of the offending record
  };

  /// A text-trace error at 1-based `line`.
  static TraceError at_line(std::string file, std::uint64_t line, std::string message) {
    return TraceError(std::move(file), Unit::line, line, 0, std::move(message));
  }
  /// Record number used for errors in a binary trace's header.
  static constexpr std::uint64_t kHeader = ~std::uint64_t{0};

  /// A binary-trace error in the record starting at byte `offset` (record number `record`, 0-based,
  /// or kHeader).
  static TraceError at_byte(std::string file, std::uint64_t offset, std::uint64_t record, std::string message) {
    return TraceError(std::move(file), Unit::byte, offset, record, std::move(message));
  }
  /// An error about the file as a whole.
  static TraceError in_file(std::string file, std::string message) {
    return TraceError(std::move(file), Unit::none, 0, 0, std::move(message));
  }

  const std::string& file() const { return file_; }
  Unit unit() const { return unit_; }
  /// Line number (Unit::line) or byte offset (Unit::byte); 0 for Unit::none.
  std::uint64_t position() const { return position_; }
  std::uint64_t line() const { return unit_ == Unit::line ? position_ : 0; }
  /// 0-based record index for binary traces.
  std::uint64_t record() const { return record_; }
  /// What is wrong, without the location.
  const std::string& message() const { return message_; }

 private:
  TraceError(std::string file, Unit unit, std::uint64_t position, std::uint64_t record, std::string message)
      : std::runtime_error(format(file, unit, position, record, message)),
        file_(std::move(file)),
        unit_(unit),
        position_(position),
        record_(record),
        message_(std::move(message)) {}

  static std::string format(const std::string& file, Unit unit, std::uint64_t position, std::uint64_t record,
                            const std::string& message) {
    switch (unit) {
      case Unit::line: return file + ":" + std::to_string(position) + ": " + message;
      case Unit::byte:
        return file + ": byte " + std::to_string(position) +
               (record == kHeader ? std::string(" (header)") : " (record " + std::to_string(record) + ")") + ": " +
               message;
      case Unit::none: break;
    }
    return file + ": " + message;
  }

  std::string file_;
  Unit unit_;
  std::uint64_t position_;
  std::uint64_t record_;
  std::string message_;
};

}  // namespace bankcheck
