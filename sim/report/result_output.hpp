#pragma once
// Where a command's result goes: standard output, or `-o FILE` written
// atomically (the file appears whole at commit(), or not at all; an older
// file of that name survives a failure). Writing over one of the command's
// own inputs is refused before anything is read: `convert X X` must not
// destroy X.
#include <memory>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

#include "sim/trace/trace_file.hpp"

namespace bankcheck::report {

/// Whether paths `a` and `b` name the same existing file (also through links
/// or different spellings). "-" (a standard stream) is no file.
bool same_file(const std::string& a, const std::string& b);

/// @throws std::invalid_argument naming the file when `output` is one of `inputs`.
void refuse_overwriting_inputs(const std::string& output, const std::vector<std::string>& inputs);

class ResultOutput {
 public:
  /// @param path "" or "-" for standard output.
  /// @throws std::invalid_argument when path is one of `inputs` or cannot be created (names it and why).
  explicit ResultOutput(const std::string& path, const std::vector<std::string>& inputs = {});
  ~ResultOutput();
  ResultOutput(const ResultOutput&) = delete;
  ResultOutput& operator=(const ResultOutput&) = delete;

  std::ostream& stream() { return *stream_; }
  /// The file appears now (standard output is flushed).
  /// @throws std::runtime_error on a write error (a full disk, a closed standard output).
  void commit();
  /// "FILE" or "<stdout>".
  const std::string& name() const { return name_; }

 private:
  class FileBuffer;
  std::string name_;
  std::unique_ptr<FileBuffer> buffer_;
  std::unique_ptr<std::ostream> owned_stream_;
  std::ostream* stream_;
};

}  // namespace bankcheck::report
