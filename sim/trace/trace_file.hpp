#pragma once
// Trace files on disk: opening a file or '-' (stdin/stdout) with large
// buffered reads and writes, telling the format (text or binary, see
// docs/trace-format.md), and handing back a streaming TraceSource or a
// TraceSink. Nothing here reads a file whole: memory stays constant
// whatever the trace length.
#include <cstddef>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "sim/trace/atomic_file.hpp"
#include "sim/trace/trace.hpp"

namespace bankcheck {

/// Warp size of a text trace without a `warp` line.
inline constexpr unsigned kDefaultTraceWarp = 32;
/// Largest warp size a trace may declare (keeps one record's memory bounded).
inline constexpr unsigned kMaxTraceWarp = 65536;

enum class TraceFormat : std::uint8_t { text, binary };

std::string_view format_name(TraceFormat format);  ///< "text" or "bin"

/// "text"/"txt"/"trace" -> text, "bin"/"binary"/"bktrace" -> binary.
/// @throws std::invalid_argument naming the allowed values.
TraceFormat parse_format_name(std::string_view name);

/// Format implied by a file name: .trace/.txt -> text, .bktrace/.bin -> binary; nullopt otherwise.
std::optional<TraceFormat> format_from_extension(std::string_view path);

/// A file opened for reading ('-' means stdin). Reads go straight to the
/// caller's buffer; peek() lets a caller look at the first bytes (to tell
/// the format) without losing them, also on a pipe.
class InputFile {
 public:
  /// @throws TraceError (Unit::none) when the file cannot be opened.
  explicit InputFile(std::string path);
  /// Read from an already open stream, named `name` in messages; the caller keeps ownership.
  InputFile(std::FILE* stream, std::string name) : name_(std::move(name)), file_(stream) {}
  InputFile(InputFile&& other) noexcept;
  InputFile& operator=(InputFile&&) = delete;
  InputFile(const InputFile&) = delete;
  ~InputFile();

  /// The name used in messages: the path, or "<stdin>" for '-'.
  const std::string& name() const { return name_; }

  /// Read up to n bytes; returns fewer only at end of file.
  /// @throws TraceError on a read error.
  std::size_t read(void* dst, std::size_t n);

  /// The first up-to-n bytes that read() will return next (n <= 16).
  std::string_view peek(std::size_t n);

  /// Make read() go on from byte `offset` of a regular file.
  /// @throws TraceError when the stream cannot seek (a pipe, a terminal).
  void seek(std::uint64_t offset);

  /// Where a regular file stands, for mapping it instead of reading it.
  struct Mappable {
    int descriptor = -1;
    std::uint64_t position = 0;  ///< byte offset that read() would return next
    std::uint64_t size = 0;      ///< the file's size now
  };
  /// Set for a regular file (also one redirected to stdin); unset for pipes,
  /// terminals and in-memory streams, which must be read.
  std::optional<Mappable> mappable() const;

 private:
  std::string name_;
  std::FILE* file_ = nullptr;
  bool owned_ = false;
  char pending_[16] = {};
  std::size_t pending_size_ = 0;
  std::size_t pending_pos_ = 0;
};

/// A read-only memory map of one window of a regular file: a large trace is
/// read through the page cache without copying it into a buffer, and
/// moving the window keeps the mapped (resident) part bounded.
/// Assumption: the file does not shrink while it is read (the pages past
/// its new end would fault); traces are written once, then read.
class FileWindow {
 public:
  FileWindow() = default;
  FileWindow(FileWindow&& other) noexcept;
  FileWindow& operator=(FileWindow&& other) noexcept;
  FileWindow(const FileWindow&) = delete;
  FileWindow& operator=(const FileWindow&) = delete;
  ~FileWindow();

  /// Unmap the previous window and map bytes [offset, offset + length)
  /// of `descriptor`; returns the byte at `offset`. @pre length > 0.
  /// @throws TraceError naming `file_name` when the system refuses.
  const unsigned char* map(int descriptor, std::uint64_t offset, std::size_t length, const std::string& file_name);

 private:
  void unmap();
  void* base_ = nullptr;
  std::size_t length_ = 0;
};

/// A file opened for writing ('-' means stdout), written in large blocks.
/// A regular file is written atomically (sim/trace/atomic_file.hpp): it
/// appears, whole, at close(); a writer destroyed before close() (an error
/// half-way) leaves no partial file and any older file of that name intact.
/// Special files (/dev/null, a pipe) are written directly.
class OutputFile {
 public:
  /// @throws std::invalid_argument when the file cannot be created (names it and why).
  explicit OutputFile(std::string path);
  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&&) = delete;
  OutputFile(const OutputFile&) = delete;
  ~OutputFile();  ///< without close(): discards a regular file's bytes; flushes stdout or a special file

  const std::string& name() const { return name_; }
  void write(const void* data, std::size_t n);
  /// Flush and close (stdout is flushed only); a regular file appears now.
  /// @throws std::runtime_error on a write error.
  void close();

 private:
  void flush_buffer();
  void put(const void* data, std::size_t n);
  std::string name_;
  std::unique_ptr<AtomicFile> atomic_;  ///< regular files
  std::FILE* file_ = nullptr;           ///< stdout and special files
  bool owned_ = false;
  bool open_ = true;
  std::string buffer_;
};

/// Open a trace for streaming; the format is told by its first bytes (the
/// binary magic, else text), so '-' works for both.
/// @throws TraceError when the file cannot be opened or its header is bad.
std::unique_ptr<TraceSource> open_trace(const std::string& path);
/// The same for an already opened input.
std::unique_ptr<TraceSource> open_trace(InputFile file);

/// Create a trace writer of the given format ('-' writes to stdout);
/// address_bytes (4 or 8) applies to the binary format.
/// @throws std::invalid_argument for address_bytes other than 4 or 8.
std::unique_ptr<TraceSink> create_trace(const std::string& path, TraceFormat format, unsigned address_bytes = 8);

/// Copy every record of `source` into `sink` (begin .. end), with its
/// locations, repeat counts and expected count. Returns the record count
/// (a repeated record once).
std::uint64_t copy_trace(TraceSource& source, TraceSink& sink);

}  // namespace bankcheck
