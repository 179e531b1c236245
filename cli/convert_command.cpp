// `bankcheck convert IN OUT [--to text|bin] [--address-bytes 8|4]`: copy a
// trace between the text and binary formats (docs/trace-format.md),
// streaming, losslessly.
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>

#include "cli/commands.hpp"
#include "sim/trace/trace_error.hpp"
#include "sim/trace/trace_file.hpp"

namespace bankcheck::cli {
namespace {

struct ConvertOptions {
  std::string in, out, to;
  unsigned address_bytes = 8;
};

void run_convert(const ConvertOptions& o) {
  TraceFormat format;
  if (!o.to.empty()) {
    format = parse_format_name(o.to);
  } else if (auto f = format_from_extension(o.out)) {
    format = *f;
  } else {
    throw std::invalid_argument("cannot tell the output format of '" + o.out +
                                "' (use a .trace/.txt or .bktrace/.bin name, or --to text|bin)");
  }
  auto source = open_trace(o.in);  // input format told by content
  auto sink = create_trace(o.out, format, o.address_bytes);
  try {
    copy_trace(*source, *sink);
  } catch (...) {
    sink.reset();
    if (o.out != "-") std::remove(o.out.c_str());  // leave no half-written trace behind
    throw;
  }
}

}  // namespace

void add_convert_command(CLI::App& app) {
  auto opts = std::make_shared<ConvertOptions>();
  auto* cmd = app.add_subcommand("convert", "Convert a trace between text (.trace/.txt) and binary (.bktrace/.bin)");
  cmd->add_option("in", opts->in, "Input trace (format told by content), or '-' for stdin")->required();
  cmd->add_option("out", opts->out, "Output trace, or '-' for stdout (then --to is needed)")->required();
  cmd->add_option("--to", opts->to, "Output format: text or bin (default: from OUT's extension)");
  cmd->add_option("--address-bytes", opts->address_bytes,
                  "Bytes per address in a binary output: 8 (default) or 4 (half the size; addresses < 2^32 - 1)")
      ->check(CLI::IsMember({4u, 8u}));
  cmd->callback([opts] {
    try {
      run_convert(*opts);
    } catch (const TraceError& e) {
      std::cerr << e.what() << "\n";
      exit_code() = kBadInput;
    }
  });
}

}  // namespace bankcheck::cli
