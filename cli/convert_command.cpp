// `bankcheck convert IN OUT [--format text|bin] [--address-bytes 8|4]`: copy
// a trace between the text and binary formats (docs/trace-format.md),
// streaming, losslessly. OUT appears whole or not at all; OUT == IN is refused.
#include <memory>
#include <stdexcept>
#include <string>

#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "sim/report/result_output.hpp"
#include "sim/trace/trace_file.hpp"

namespace bankcheck::cli {
namespace {

struct ConvertOptions {
  std::string in, out, format;
  unsigned address_bytes = 8;
};

void run_convert(const ConvertOptions& o) {
  if (o.address_bytes != 4 && o.address_bytes != 8)
    throw std::invalid_argument("--address-bytes: must be 4 or 8 (got " + std::to_string(o.address_bytes) + ")");
  TraceFormat format;
  if (!o.format.empty()) {
    format = parse_format_name(o.format);
  } else if (auto f = format_from_extension(o.out)) {
    format = *f;
  } else {
    throw std::invalid_argument("cannot tell the output format of '" + o.out +
                                "' (use a .trace/.txt or .bktrace/.bin name, or --format text|bin)");
  }
  report::refuse_overwriting_inputs(o.out, {o.in});
  auto source = open_trace(o.in);  // input format told by content
  auto sink = create_trace(o.out, format, o.address_bytes);
  copy_trace(*source, *sink);  // on an error the sink is dropped: no half-written OUT
}

}  // namespace

void add_convert_command(CLI::App& app) {
  auto opts = std::make_shared<ConvertOptions>();
  auto* cmd = app.add_subcommand("convert", "Convert a trace between text (.trace/.txt) and binary (.bktrace/.bin)");
  cmd->add_option("in", opts->in, "input trace (format told by content), or '-' for stdin")->required();
  cmd->add_option("out", opts->out, "output trace (written atomically; never the input), or '-' for stdout (then "
                                    "--format is needed)")
      ->required();
  cmd->add_option("--format,--to", opts->format, "output format: text or bin (default: from OUT's extension)");
  add_integer_option<unsigned>(*cmd, "--address-bytes", opts->address_bytes, 4, 8,
                               "bytes per address in a binary output: 8 (default) or 4 (half the size; addresses "
                               "< 2^32 - 1)");
  cmd->callback([opts] { run_convert(*opts); });
}

}  // namespace bankcheck::cli
