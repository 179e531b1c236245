#include "sim/trace/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace bankcheck {

namespace {
std::runtime_error io_error(const std::string& what, const std::filesystem::path& path) {
  return std::runtime_error(what + " '" + path.string() + "': " + std::strerror(errno));
}
}  // namespace

AtomicFile::AtomicFile(std::filesystem::path target) : target_(std::move(target)) {
  const std::filesystem::path dir = target_.has_parent_path() ? target_.parent_path() : std::filesystem::path(".");
  std::string pattern = (dir / ("." + target_.filename().string() + ".tmp-XXXXXX")).string();
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  fd_ = ::mkstemp(buf.data());
  if (fd_ < 0) throw io_error("cannot create a temporary file for", target_);
  temp_ = buf.data();
  const mode_t mask = ::umask(0);  // mkstemp makes 0600; give the usual 0666 & ~umask
  ::umask(mask);
  ::fchmod(fd_, 0666 & ~mask);
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) {
    std::error_code ignored;
    std::filesystem::remove(temp_, ignored);
  }
}

void AtomicFile::write(std::span<const std::byte> bytes) {
  const std::byte* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::write(fd_, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw io_error("cannot write", temp_);
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  appended_ += bytes.size();
  if (appended_ - kicked_ >= kWritebackWindow) {
    // Hints only: a failure here shows up at commit()'s fsync.
    ::sync_file_range(fd_, static_cast<off_t>(kicked_), static_cast<off_t>(appended_ - kicked_),
                      SYNC_FILE_RANGE_WRITE);
    if (kicked_ >= kWritebackWindow)
      ::sync_file_range(fd_, static_cast<off_t>(kicked_ - kWritebackWindow), static_cast<off_t>(kWritebackWindow),
                        SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER);
    kicked_ = appended_;
  }
}

void AtomicFile::write(std::string_view text) { write(std::as_bytes(std::span<const char>(text.data(), text.size()))); }

void AtomicFile::write_at(std::uint64_t offset, std::span<const std::byte> bytes) {
  const std::byte* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::pwrite(fd_, p, left, static_cast<off_t>(offset));
    if (n < 0) {
      if (errno == EINTR) continue;
      throw io_error("cannot write", temp_);
    }
    p += n;
    offset += static_cast<std::uint64_t>(n);
    left -= static_cast<std::size_t>(n);
  }
}

void AtomicFile::commit() {
  if (committed_) return;
  if (::fsync(fd_) != 0) throw io_error("cannot flush", temp_);
  if (::close(fd_) != 0) {
    fd_ = -1;
    throw io_error("cannot close", temp_);
  }
  fd_ = -1;
  std::error_code ec;
  std::filesystem::rename(temp_, target_, ec);
  if (ec) throw std::runtime_error("cannot rename '" + temp_.string() + "' to '" + target_.string() + "': " + ec.message());
  committed_ = true;
}

}  // namespace bankcheck
