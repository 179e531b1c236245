#pragma once
// Files written whole or not at all: bytes go to a temporary file next to the
// target (same directory, so the final rename stays on one file system),
// which is flushed and renamed over the target on commit(). A writer that is
// destroyed without commit() (an exception, a bad parameter) removes the
// temporary file and leaves any existing target untouched.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <span>
#include <string>

namespace bankcheck {

class AtomicFile {
 public:
  /// @throws std::runtime_error when the temporary file cannot be created (names the path).
  explicit AtomicFile(std::filesystem::path target);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  /// Appends bytes. @throws std::runtime_error on a write error (disk full...).
  /// Long appends are streamed: every kWritebackWindow bytes the kernel is
  /// told to start writing them back (sync_file_range), and the window
  /// before is waited for, so dirty pages stay bounded, the disk works while
  /// the caller produces the next bytes, and commit()'s fsync finds little left.
  void write(std::span<const std::byte> bytes);
  static constexpr std::uint64_t kWritebackWindow = std::uint64_t{64} << 20;
  void write(std::string_view text);
  /// Writes bytes at an absolute offset (for out-of-order tiles); the file grows as needed.
  void write_at(std::uint64_t offset, std::span<const std::byte> bytes);

  /// Flushes, syncs and renames the temporary file onto the target.
  void commit();

  const std::filesystem::path& target() const { return target_; }
  const std::filesystem::path& temporary() const { return temp_; }

 private:
  std::filesystem::path target_;
  std::filesystem::path temp_;
  int fd_ = -1;
  bool committed_ = false;
  std::uint64_t appended_ = 0;  ///< bytes appended by write()
  std::uint64_t kicked_ = 0;    ///< appended bytes whose writeback was started
};

}  // namespace bankcheck
