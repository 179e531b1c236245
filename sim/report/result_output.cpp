#include "sim/report/result_output.hpp"

#include <filesystem>
#include <iostream>
#include <stdexcept>

namespace bankcheck::report {

bool same_file(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty() || a == "-" || b == "-") return false;
  std::error_code ec;
  const bool same = std::filesystem::equivalent(a, b, ec);
  return !ec && same;
}

void refuse_overwriting_inputs(const std::string& output, const std::vector<std::string>& inputs) {
  for (const auto& in : inputs)
    if (same_file(output, in))
      throw std::invalid_argument("refusing to write '" + output + "': it is the input '" + in +
                                  "' (writing it would destroy what is being read; choose another output file)");
}

/// A stream buffer over an OutputFile (atomic for regular files).
class ResultOutput::FileBuffer final : public std::streambuf {
 public:
  explicit FileBuffer(std::string path) : file_(std::move(path)) { setp(buffer_, buffer_ + sizeof buffer_); }
  void commit() {
    drain();
    file_.close();
  }

 protected:
  int_type overflow(int_type c) override {
    drain();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override {
    drain();
    return 0;
  }

 private:
  void drain() {
    const std::ptrdiff_t n = pptr() - pbase();
    if (n > 0) file_.write(pbase(), static_cast<std::size_t>(n));
    setp(buffer_, buffer_ + sizeof buffer_);
  }
  OutputFile file_;
  char buffer_[1 << 16];
};

ResultOutput::ResultOutput(const std::string& path, const std::vector<std::string>& inputs)
    : name_(path.empty() || path == "-" ? "<stdout>" : path), stream_(&std::cout) {
  if (path.empty() || path == "-") return;
  refuse_overwriting_inputs(path, inputs);
  buffer_ = std::make_unique<FileBuffer>(path);
  owned_stream_ = std::make_unique<std::ostream>(buffer_.get());
  owned_stream_->exceptions(std::ios::badbit);  // a write error throws instead of being lost
  stream_ = owned_stream_.get();
}

ResultOutput::~ResultOutput() = default;

void ResultOutput::commit() {
  if (buffer_) {
    owned_stream_->flush();
    buffer_->commit();
    return;
  }
  std::cout.flush();
  if (!std::cout) throw std::runtime_error("cannot write the result to standard output");
}

}  // namespace bankcheck::report
