#include "sim/trace/trace_file.hpp"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <limits>
#include <span>
#include <stdexcept>
#include <utility>

#include "sim/trace/trace_binary.hpp"
#include "sim/trace/trace_error.hpp"
#include "sim/trace/trace_text.hpp"

namespace bankcheck {
namespace {

constexpr std::size_t kWriteBlock = std::size_t{1} << 20;

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

std::string_view format_name(TraceFormat format) { return format == TraceFormat::text ? "text" : "bin"; }

TraceFormat parse_format_name(std::string_view name) {
  if (name == "text" || name == "txt" || name == "trace") return TraceFormat::text;
  if (name == "bin" || name == "binary" || name == "bktrace") return TraceFormat::binary;
  throw std::invalid_argument("unknown trace format '" + std::string(name) + "'; allowed: text, bin");
}

std::optional<TraceFormat> format_from_extension(std::string_view path) {
  if (ends_with(path, ".trace") || ends_with(path, ".txt")) return TraceFormat::text;
  if (ends_with(path, ".bktrace") || ends_with(path, ".bin")) return TraceFormat::binary;
  return std::nullopt;
}

// ---------------------------------------------------------------- InputFile

InputFile::InputFile(std::string path) : name_(path == "-" ? "<stdin>" : path) {
  if (path == "-") {
    file_ = stdin;
  } else {
    file_ = std::fopen(path.c_str(), "rb");
    if (file_ == nullptr) throw TraceError::in_file(name_, std::string("cannot open: ") + std::strerror(errno));
    owned_ = true;
  }
}

InputFile::InputFile(InputFile&& other) noexcept
    : name_(std::move(other.name_)),
      file_(other.file_),
      owned_(other.owned_),
      pending_size_(other.pending_size_),
      pending_pos_(other.pending_pos_) {
  std::memcpy(pending_, other.pending_, sizeof pending_);
  other.file_ = nullptr;
  other.owned_ = false;
}

InputFile::~InputFile() {
  if (owned_ && file_ != nullptr) std::fclose(file_);
}

std::size_t InputFile::read(void* dst, std::size_t n) {
  auto* out = static_cast<char*>(dst);
  std::size_t done = 0;
  if (pending_pos_ < pending_size_) {
    done = std::min(n, pending_size_ - pending_pos_);
    std::memcpy(out, pending_ + pending_pos_, done);
    pending_pos_ += done;
  }
  while (done < n) {
    const std::size_t got = std::fread(out + done, 1, n - done, file_);
    done += got;
    if (got == 0) {
      if (std::ferror(file_)) throw TraceError::in_file(name_, std::string("read error: ") + std::strerror(errno));
      break;
    }
  }
  return done;
}

std::string_view InputFile::peek(std::size_t n) {
  n = std::min(n, sizeof pending_);
  if (pending_pos_ > 0) {  // compact what is left
    std::memmove(pending_, pending_ + pending_pos_, pending_size_ - pending_pos_);
    pending_size_ -= pending_pos_;
    pending_pos_ = 0;
  }
  while (pending_size_ < n) {
    const std::size_t got = std::fread(pending_ + pending_size_, 1, n - pending_size_, file_);
    if (got == 0) {
      if (std::ferror(file_)) throw TraceError::in_file(name_, std::string("read error: ") + std::strerror(errno));
      break;
    }
    pending_size_ += got;
  }
  return {pending_, std::min(n, pending_size_)};
}

void InputFile::seek(std::uint64_t offset) {
  if (offset > static_cast<std::uint64_t>(std::numeric_limits<off_t>::max()) ||
      ::fseeko(file_, static_cast<off_t>(offset), SEEK_SET) != 0)
    throw TraceError::in_file(name_, "cannot seek to byte " + std::to_string(offset) + ": " + std::strerror(errno));
  pending_size_ = pending_pos_ = 0;
}

std::optional<InputFile::Mappable> InputFile::mappable() const {
  if (file_ == nullptr) return std::nullopt;
  const int fd = ::fileno(file_);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  const long at = std::ftell(file_);  // stdio's position, its own buffer accounted for
  if (at < 0) return std::nullopt;
  const auto unread = static_cast<std::uint64_t>(pending_size_ - pending_pos_);  // peeked, not yet read
  if (static_cast<std::uint64_t>(at) < unread) return std::nullopt;
  return Mappable{fd, static_cast<std::uint64_t>(at) - unread, static_cast<std::uint64_t>(st.st_size)};
}

// --------------------------------------------------------------- FileWindow

FileWindow::FileWindow(FileWindow&& other) noexcept : base_(other.base_), length_(other.length_) {
  other.base_ = nullptr;
  other.length_ = 0;
}

FileWindow& FileWindow::operator=(FileWindow&& other) noexcept {
  if (this != &other) {
    unmap();
    base_ = std::exchange(other.base_, nullptr);
    length_ = std::exchange(other.length_, 0);
  }
  return *this;
}

FileWindow::~FileWindow() { unmap(); }

void FileWindow::unmap() {
  if (base_ != nullptr) ::munmap(base_, length_);
  base_ = nullptr;
  length_ = 0;
}

const unsigned char* FileWindow::map(int descriptor, std::uint64_t offset, std::size_t length,
                                     const std::string& file_name) {
  unmap();
  static const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  const std::uint64_t start = offset - offset % page;  // mmap wants a page-aligned offset
  const std::size_t span = length + static_cast<std::size_t>(offset - start);
  void* base = ::mmap(nullptr, span, PROT_READ, MAP_PRIVATE, descriptor, static_cast<off_t>(start));
  if (base == MAP_FAILED) throw TraceError::in_file(file_name, std::string("cannot map: ") + std::strerror(errno));
  ::madvise(base, span, MADV_SEQUENTIAL);  // a hint only: read-ahead, and drop pages behind
  base_ = base;
  length_ = span;
  return static_cast<const unsigned char*>(base) + (offset - start);
}

// --------------------------------------------------------------- OutputFile

OutputFile::OutputFile(std::string path) : name_(path == "-" ? "<stdout>" : path) {
  if (path == "-") {
    file_ = stdout;
  } else {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
      if (std::filesystem::is_directory(status)) throw std::invalid_argument("cannot create '" + path + "': it is a directory");
      file_ = std::fopen(path.c_str(), "wb");  // a device or pipe: nothing to replace atomically
      if (file_ == nullptr) throw std::invalid_argument("cannot create '" + path + "': " + std::strerror(errno));
      owned_ = true;
    } else {
      try {
        atomic_ = std::make_unique<AtomicFile>(path);
      } catch (const std::runtime_error& e) {
        throw std::invalid_argument(e.what());  // names the file and the system's reason
      }
    }
  }
  buffer_.reserve(kWriteBlock);
}

OutputFile::OutputFile(OutputFile&& other) noexcept
    : name_(std::move(other.name_)),
      atomic_(std::move(other.atomic_)),
      file_(other.file_),
      owned_(other.owned_),
      open_(other.open_),
      buffer_(std::move(other.buffer_)) {
  other.file_ = nullptr;
  other.owned_ = false;
  other.open_ = false;
}

OutputFile::~OutputFile() {
  if (file_ == nullptr) return;  // a regular file not closed: AtomicFile discards it
  if (!buffer_.empty()) std::fwrite(buffer_.data(), 1, buffer_.size(), file_);
  if (owned_) std::fclose(file_);
  else std::fflush(file_);
}

void OutputFile::put(const void* data, std::size_t n) {
  if (atomic_) {
    atomic_->write(std::span<const std::byte>(static_cast<const std::byte*>(data), n));
    return;
  }
  if (std::fwrite(data, 1, n, file_) != n) throw std::runtime_error(name_ + ": write error: " + std::strerror(errno));
}

void OutputFile::flush_buffer() {
  if (buffer_.empty()) return;
  put(buffer_.data(), buffer_.size());
  buffer_.clear();
}

void OutputFile::write(const void* data, std::size_t n) {
  if (!open_) throw std::logic_error(name_ + ": write after close");
  if (buffer_.size() + n > kWriteBlock) flush_buffer();
  if (n >= kWriteBlock) {
    put(data, n);
    return;
  }
  buffer_.append(static_cast<const char*>(data), n);
}

void OutputFile::close() {
  if (!open_) return;
  flush_buffer();
  open_ = false;
  if (atomic_) {
    atomic_->commit();
    atomic_.reset();
    return;
  }
  std::FILE* f = file_;
  file_ = nullptr;
  const bool failed = owned_ ? std::fclose(f) != 0 : (std::fflush(f) != 0 || std::ferror(f));
  if (failed) throw std::runtime_error(name_ + ": write error: " + std::strerror(errno));
}

// -------------------------------------------------------------------- traces

std::unique_ptr<TraceSource> open_trace(const std::string& path) { return open_trace(InputFile(path)); }

std::unique_ptr<TraceSource> open_trace(InputFile file) {
  const std::string_view head = file.peek(sizeof kBinaryTraceMagic);
  if (head == std::string_view(kBinaryTraceMagic, sizeof kBinaryTraceMagic))
    return std::make_unique<BinaryTraceReader>(std::move(file));
  return std::make_unique<TextTraceReader>(std::move(file));
}

std::unique_ptr<TraceSink> create_trace(const std::string& path, TraceFormat format, unsigned address_bytes) {
  if (!is_valid_address_bytes(address_bytes))
    throw std::invalid_argument("--address-bytes must be 4 or 8 (got " + std::to_string(address_bytes) + ")");
  OutputFile file(path);
  if (format == TraceFormat::binary) return std::make_unique<BinaryTraceWriter>(std::move(file), address_bytes);
  return std::make_unique<TextTraceWriter>(std::move(file));
}

std::uint64_t copy_trace(TraceSource& source, TraceSink& sink) {
  sink.begin(source.warp());
  source.keep_repeats();  // a repeated record stays one (a sink that cannot say so writes it its times)
  TraceRecord record;
  std::uint64_t count = 0;
  while (source.next(record)) {
    if (record.location != nullptr) sink.location(*record.location);
    if (record.repeat == 1) sink.record(source.sites().name(record.site), record.request);
    else sink.record_repeated(source.sites().name(record.site), record.request, record.repeat);
    ++count;
  }
  if (const auto expected = source.expected()) sink.expect(*expected);
  sink.end();
  return count;
}

}  // namespace bankcheck
